//! A coding comment on the first two lines of a source or text file:
//! Python's [PEP 263](https://peps.python.org/pep-0263/) comment (`#
//! -*- coding: koi8-r -*-`, `# vim: set fileencoding=latin-1 :`), or
//! Emacs's [file variables](https://www.gnu.org/software/emacs/manual/html_node/emacs/Specifying-File-Variables.html)
//! line in any comment syntax (`;; -*- mode: lisp; coding: utf-8 -*-`,
//! `% -*- coding: latin-1 -*-`).
//!
//! As Python reads it: the second line counts only when the first is blank
//! or a comment (a `#!` line); a `#` comment holds the first `coding:` or
//! `coding=` it contains, an Emacs line the `coding:` variable between its
//! two `-*-`. Emacs's names (`utf-8-unix`, `iso-latin-1`,
//! `utf-8-with-signature`) mean the encoding without their line-end or
//! signature part.

use super::{Evidence, Source};

/// How far into the bytes the two lines may reach (Python reads whole
/// lines; a coding comment is short).
const WINDOW: usize = 1024;

/// The coding comment of `bytes` (the document after any byte order mark),
/// if its first two lines hold one.
pub fn sniff(bytes: &[u8]) -> Option<Evidence> {
    let bytes = &bytes[..bytes.len().min(WINDOW)];
    let mut start = 0;
    for number in 0..2 {
        let end = memchr::memchr(b'\n', &bytes[start..]).map_or(bytes.len(), |i| start + i);
        let line = &bytes[start..end];
        if let Some((at, label)) = python(line).or_else(|| emacs(line)) {
            return Some(evidence(label, start + at));
        }
        let trimmed = line.trim_ascii_start();
        let comment = trimmed.is_empty() || trimmed.starts_with(b"#");
        if number == 1 || !comment || end == bytes.len() {
            break;
        }
        start = end + 1;
    }
    None
}

/// The label of a PEP 263 comment (`^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)`)
/// and where it starts in `line`.
fn python(line: &[u8]) -> Option<(usize, &[u8])> {
    let indent = line.iter().take_while(|&&b| matches!(b, b' ' | b'\t' | b'\x0c')).count();
    if line.get(indent) != Some(&b'#') {
        return None;
    }
    let mut from = indent;
    while let Some(i) = memchr::memmem::find(&line[from..], b"coding") {
        let after = from + i + b"coding".len();
        if matches!(line.get(after), Some(b':' | b'=')) {
            return label_at(line, after + 1);
        }
        from = after;
    }
    None
}

/// The label of the `coding:` variable of an Emacs `-*- … -*-` line, and
/// where it starts in `line`.
fn emacs(line: &[u8]) -> Option<(usize, &[u8])> {
    let open = memchr::memmem::find(line, b"-*-")? + 3;
    let close = open + memchr::memmem::find(&line[open..], b"-*-")?;
    let vars = &line[..close];
    let mut from = open;
    while let Some(i) = memchr::memmem::find(&vars[from..], b"coding:") {
        let at = from + i;
        // A variable of its own, not the tail of another's name.
        if at == open || matches!(vars[at - 1], b' ' | b'\t' | b';') {
            return label_at(vars, at + b"coding:".len());
        }
        from = at + 1;
    }
    None
}

/// The label (`[-\w.]+`) after blanks at `at` in `line`, if there is one.
fn label_at(line: &[u8], at: usize) -> Option<(usize, &[u8])> {
    let start = at + line[at..].iter().take_while(|&&b| matches!(b, b' ' | b'\t')).count();
    let len = line[start..]
        .iter()
        .take_while(|&&b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
        .count();
    (len > 0).then(|| (start, &line[start..start + len]))
}

/// The evidence of `label` at `offset`, an Emacs name read as the
/// encoding it names.
fn evidence(label: &[u8], offset: usize) -> Evidence {
    let mut found = Evidence::from_label(Source::Coding, label, offset);
    if found.charset.is_none() {
        let name = String::from_utf8_lossy(label).to_ascii_lowercase();
        let lines = ["-unix", "-dos", "-mac"].iter().find_map(|end| name.strip_suffix(end));
        let name = lines.unwrap_or(&name);
        let name = name.strip_suffix("-with-signature").unwrap_or(name);
        let name = name.strip_prefix("iso-").filter(|n| n.starts_with("latin-")).unwrap_or(name);
        if let Ok(charset) = crate::label::resolve(name.as_bytes()) {
            found.charset = Some(charset);
            found.notes.clear();
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Charset;

    fn found(bytes: &[u8]) -> Option<(Option<Charset>, String, usize)> {
        sniff(bytes).map(|e| (e.charset, e.label, e.offset))
    }

    #[test]
    fn python_and_emacs_comments() {
        let koi8 = Some((Some(Charset::Koi8R), "koi8-r".to_owned(), 14));
        assert_eq!(found(b"# -*- coding: koi8-r -*-\n\nimport unittest\n"), koi8);
        let forms: [(&[u8], Charset); 4] = [
            (b"#!/usr/bin/python\n# coding=latin-1\n", Charset::Windows1252),
            (b"# vim: set fileencoding=iso-8859-15 :\n", Charset::Iso8859_15),
            (b"% -*- coding: iso-latin-1 -*-\n\\documentclass{article}", Charset::Windows1252),
            (b"/* -*- coding: utf-8-with-signature -*- */", Charset::Utf8),
        ];
        for (bytes, charset) in forms {
            let read = found(bytes).map(|f| f.0);
            assert_eq!(read, Some(Some(charset)), "{}", String::from_utf8_lossy(bytes));
        }
        assert_eq!(
            found(b";; -*- mode: lisp; coding: utf-8-unix -*-\n").map(|f| (f.0, f.1)),
            Some((Some(Charset::Utf8), "utf-8-unix".to_owned()))
        );
        // An unknown label is evidence that names nothing.
        let unknown = sniff(b"# coding: klingon\n").expect("a coding comment");
        assert_eq!((unknown.charset, unknown.label.as_str()), (None, "klingon"));
    }

    #[test]
    fn only_where_python_looks() {
        // The second line only after a blank or comment line.
        assert_eq!(found(b"import os\n# coding: latin-1\n"), None);
        assert!(found(b"\n# coding: latin-1\n").is_some());
        // Not the third line, not a line that is no comment.
        assert_eq!(found(b"#!/bin/sh\n#\n# coding: latin-1\n"), None);
        assert_eq!(found(b"x = 'coding: latin-1'\n"), None);
        // Emacs's variable, not a word ending in it, nor outside `-*-`.
        assert_eq!(found(b"// -*- transcoding: latin-1 -*-\n"), None);
        assert_eq!(found(b"// coding: latin-1\n"), None);
        assert_eq!(found(b"// -*- coding: latin-1\n"), None);
        // Nothing after the colon.
        assert_eq!(found(b"# coding:\n"), None);
        assert_eq!(found(b""), None);
    }

    proptest::proptest! {
        #[test]
        fn any_bytes(bytes: Vec<u8>) {
            if let Some(e) = sniff(&bytes) {
                let label = &bytes[e.offset..e.offset + e.len];
                proptest::prop_assert_eq!(String::from_utf8_lossy(label), e.label);
            }
        }
    }
}
