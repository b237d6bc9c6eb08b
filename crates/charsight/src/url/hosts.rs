//! Site hints: the encoding a host's forms are known to submit in.
//!
//! Input: lines of `host<TAB>encoding` (the built-in table `hosts.tsv`, or
//! a user's file). Output: [`HostHints`], which gives the hinted encoding of
//! a host or of any of its subdomains.

use std::fmt;

use crate::{label, Charset};

/// The built-in table: large search engines and portals (see the file's
/// comments for what is in it and why).
const BUILT_IN: &str = include_str!("hosts.tsv");

/// Hosts and the encoding each is hinted to submit in.
///
/// # Example
/// ```
/// use charsight::{url::HostHints, Charset};
/// let hints = HostHints::built_in();
/// assert_eq!(hints.get(b"www.baidu.com"), Some(Charset::Gbk));
/// assert_eq!(hints.get(b"example.com"), None);
/// let mine = HostHints::parse("shop.example\twindows-1251\n").unwrap();
/// assert_eq!(mine.get(b"SHOP.example"), Some(Charset::Windows1251));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HostHints {
    /// Lower-case host names, sorted, and their encodings.
    hosts: Vec<(String, Charset)>,
}

/// A line of a host-hints table that is not `host<TAB>encoding`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostHintsError {
    line: usize,
    message: String,
}

impl HostHintsError {
    /// The line, counted from 1.
    pub fn line(&self) -> usize {
        self.line
    }
}

impl fmt::Display for HostHintsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for HostHintsError {}

impl HostHints {
    /// The built-in table of large sites.
    pub fn built_in() -> HostHints {
        HostHints::parse(BUILT_IN).expect("the built-in table parses")
    }

    /// Parses lines of `host<TAB>encoding`; empty lines and lines starting
    /// with `#` are skipped. A host matches itself and its subdomains; the
    /// encoding is any label charsight knows (`GBK`, `sjis`, `cp1251`).
    ///
    /// # Errors
    /// [`HostHintsError`] with the line number when a line has no tab, an
    /// empty or non-ASCII host, or an unknown encoding label.
    pub fn parse(text: &str) -> Result<HostHints, HostHintsError> {
        let mut hosts = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let error = |message: String| HostHintsError { line: i + 1, message };
            let line = line.trim_end_matches('\r');
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let Some((host, label)) = line.split_once('\t') else {
                return Err(error(format!("expected host<TAB>encoding, found {line:?}")));
            };
            let host = host.trim().trim_end_matches('.').to_ascii_lowercase();
            if host.is_empty() || !host.is_ascii() || host.contains(char::is_whitespace) {
                return Err(error(format!("{host:?} is not a host name (use the xn-- form)")));
            }
            let charset = label::resolve(label.as_bytes()).map_err(|e| error(e.to_string()))?;
            hosts.push((host, charset));
        }
        // For a host listed twice the last line wins.
        hosts.reverse();
        hosts.sort_by(|a, b| a.0.cmp(&b.0));
        hosts.dedup_by(|a, b| a.0 == b.0);
        Ok(HostHints { hosts })
    }

    /// Adds the hints of `other`; for a host in both, `other`'s wins.
    pub fn extend(&mut self, other: HostHints) {
        let mut hosts = other.hosts;
        hosts.append(&mut self.hosts);
        hosts.sort_by(|a, b| a.0.cmp(&b.0));
        hosts.dedup_by(|a, b| a.0 == b.0);
        self.hosts = hosts;
    }

    /// The encoding hinted for `host` (compared case-insensitively, a
    /// trailing dot and a port ignored), from the longest entry that is the
    /// host or one of its parent domains.
    pub fn get(&self, host: &[u8]) -> Option<Charset> {
        if self.hosts.is_empty() {
            return None;
        }
        let host = host.split(|&b| b == b':').next().unwrap_or(host);
        let host = host.strip_suffix(b".").unwrap_or(host).to_ascii_lowercase();
        let mut rest = &host[..];
        loop {
            let name = std::str::from_utf8(rest).ok()?;
            if let Ok(i) = self.hosts.binary_search_by(|(h, _)| h.as_str().cmp(name)) {
                return Some(self.hosts[i].1);
            }
            let dot = rest.iter().position(|&b| b == b'.')?;
            rest = &rest[dot + 1..];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_table_parses_and_matches_subdomains() {
        let hints = HostHints::built_in();
        assert_eq!(hints.get(b"baidu.com"), Some(Charset::Gbk));
        assert_eq!(hints.get(b"zhidao.BAIDU.com."), Some(Charset::Gbk));
        assert_eq!(hints.get(b"search.naver.com:8080"), Some(Charset::EucKr));
        assert_eq!(hints.get(b"yandex.ru"), Some(Charset::Windows1251));
        assert_eq!(hints.get(b"notbaidu.com"), None);
        assert_eq!(hints.get(b"com"), None);
    }

    #[test]
    fn bad_lines_are_reported_with_their_number() {
        let error = HostHints::parse("# hints\na.example\tGBK\nb.example GBK\n").unwrap_err();
        assert_eq!(error.line(), 3);
        assert!(error.to_string().starts_with("line 3: expected host<TAB>encoding"), "{error}");
        let error = HostHints::parse("a.example\tklingon\n").unwrap_err();
        assert_eq!(error.to_string(), "line 1: unknown encoding label 'klingon'");
        assert_eq!(HostHints::parse("\tGBK").unwrap_err().line(), 1);
        let twice = HostHints::parse("a.example\tGBK\na.example\tBig5\n").unwrap();
        assert_eq!(twice.get(b"a.example"), Some(Charset::Big5));
    }

    #[test]
    fn later_hints_win() {
        let mut hints = HostHints::built_in();
        hints.extend(HostHints::parse("baidu.com\tUTF-8\r\n").unwrap());
        assert_eq!(hints.get(b"www.baidu.com"), Some(Charset::Utf8));
        assert_eq!(hints.get(b"sogou.com"), Some(Charset::Gbk));
    }
}
