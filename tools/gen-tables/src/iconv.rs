//! Family `iconv`: how glibc's `iconv` reads ISO-2022-CN and
//! ISO-2022-CN-EXT, which Python has no codec for, as oracles for
//! charsight's tests. Nothing is emitted from them.
//!
//! `count iconv` runs the machine's `iconv` (its version recorded) and
//! writes into `data/charmaps/`:
//!
//! - `iconv-iso-2022-cn.txt`: for each set of each charset (the final byte
//!   of its designation), how many of the 94×94 codes decode to a character
//!   and the FNV-1a 64 of those mappings (row and cell, code point), as in
//!   `oracles.txt`;
//! - `iconv-iso-2022-cn-streams.txt`: random byte streams made of the
//!   encodings' pieces (fixed seed), each with what `iconv` made of it: the
//!   text before the first error, and `ok`, `illegal@OFFSET` or
//!   `incomplete`.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Write as _;
use std::process::{Command, Stdio};

use anyhow::{ensure, Context, Result};

use crate::emit::{self, Output};

/// The charsets, and the final bytes of the designations each reads.
const CHARSETS: [(&str, &[u8]); 2] = [("ISO-2022-CN", b"AGH"), ("ISO-2022-CN-EXT", b"AGHIJKLM")];

/// Random streams per charset.
const STREAMS: usize = 400;

const ESC: u8 = 0x1B;
const SO: u8 = 0x0E;
const SI: u8 = 0x0F;

/// The `count` step.
pub fn count(out: &mut Output) -> Result<()> {
    let version = String::from_utf8(run(&["--version"], b"")?.stdout)?;
    let version = version.lines().next().unwrap_or_default().to_owned();
    let command = "`cargo run -p gen-tables -- count iconv`";
    let mut sets = format!(
        "# How {version} decodes each code 21-7E × 21-7E of each set: charset, the\n\
         # final byte of the set's designation, mappings, FNV-1a 64 of the mappings\n\
         # sorted by bytes (row, cell), each as (length byte, bytes, code point as u32\n\
         # LE), by {command}. Read by charsight's tests.\n"
    );
    let mut streams = format!(
        "# Random streams and how {version} decodes them: charset, the stream (hex),\n\
         # `ok`, `illegal@OFFSET` (of the first error) or `incomplete` (an unfinished\n\
         # sequence at the end), and `=` and the UTF-8 (hex) written before it stopped,\n\
         # by {command}. Read by charsight's tests.\n"
    );
    for (charset, finals) in CHARSETS {
        for &last in finals {
            let mappings = set_mappings(charset, last)?;
            let hash = testkit::mapping_fnv1a64(mappings.iter().map(|(b, &c)| (&b[..], c)));
            writeln!(sets, "{charset} {} {} {hash:016x}", char::from(last), mappings.len())?;
        }
        let mut random = Random(0x2022_1922 ^ finals.len() as u64);
        for _ in 0..STREAMS {
            let input = random_stream(&mut random, finals);
            let (status, text) = decode(charset, &input)?;
            writeln!(streams, "{charset} {} {status} ={}", to_hex(&input), to_hex(&text))?;
        }
    }
    let dir = emit::data_dir().join("charmaps");
    out.file(&dir.join("iconv-iso-2022-cn.txt"), sets.as_bytes())?;
    out.file(&dir.join("iconv-iso-2022-cn-streams.txt"), streams.as_bytes())
}

/// The escape sequence designating the set of final byte `last`, and the
/// bytes that invoke it for one character.
fn designation(last: u8) -> ([u8; 4], &'static [u8]) {
    match last {
        b'A' | b'G' => ([ESC, b'$', b')', last], &[SO]),
        b'H' => ([ESC, b'$', b'*', last], &[ESC, b'N']),
        _ => ([ESC, b'$', b'+', last], &[ESC, b'O']),
    }
}

/// Every code of one set, decoded by `iconv -c`: one line per code, the
/// designation, the invocation, the code (and SI), so that a code with no
/// character leaves an empty line (or, after SS2, its two bytes as ASCII).
fn set_mappings(charset: &str, last: u8) -> Result<BTreeMap<Vec<u8>, u32>> {
    let (designation, invoke) = designation(last);
    let mut input = Vec::new();
    let mut codes = Vec::new();
    for row in 0x21..=0x7E {
        for cell in 0x21..=0x7E {
            input.extend_from_slice(&designation);
            input.extend_from_slice(invoke);
            input.extend_from_slice(&[row, cell, SI, b'\n']);
            codes.push([row, cell]);
        }
    }
    let output = run(&["-c", "-f", charset, "-t", "UTF-8"], &input)?;
    let text = String::from_utf8(output.stdout)?;
    let lines: Vec<&str> = text.split('\n').collect();
    ensure!(lines.len() == codes.len() + 1, "{charset} {}: {} lines", last, lines.len());
    let mut mappings = BTreeMap::new();
    for (code, line) in codes.iter().zip(lines) {
        let mut chars = line.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) if !c.is_ascii() => {
                mappings.insert(code.to_vec(), u32::from(c));
            }
            _ => ensure!(
                line.is_empty() || line.as_bytes() == code,
                "{charset} {code:02x?}: iconv wrote {line:?}"
            ),
        }
    }
    Ok(mappings)
}

/// A stream of the pieces the decoders react to. A G1 designation is always
/// followed by SO: glibc, unlike charsight, applies it only at the next SO.
/// No ESC other than the pieces' (glibc passes an unknown escape through).
fn random_stream(random: &mut Random, finals: &[u8]) -> Vec<u8> {
    let mut stream = Vec::new();
    for _ in 0..random.below(12) {
        match random.below(9) {
            0 => {
                let last = finals[random.below(finals.len())];
                let (designation, _) = designation(last);
                stream.extend_from_slice(&designation);
                if matches!(last, b'A' | b'G') {
                    stream.push(SO);
                }
            }
            1 => stream.push(SO),
            2 => stream.push(SI),
            3 => stream.extend_from_slice(designation(finals[random.below(finals.len())]).1),
            4 => stream.push(b'\n'),
            5 | 6 => {
                for _ in 0..=random.below(6) {
                    stream.push(0x21 + random.below(94) as u8);
                }
            }
            _ => {
                for _ in 0..=random.below(2) {
                    match random.below(256) as u8 {
                        ESC => stream.push(b' '),
                        byte => stream.push(byte),
                    }
                }
            }
        }
    }
    stream
}

/// What `iconv` makes of `input`: the status and the text before it stopped.
fn decode(charset: &str, input: &[u8]) -> Result<(String, Vec<u8>)> {
    let output = run(&["-f", charset, "-t", "UTF-8"], input)?;
    let stderr = String::from_utf8_lossy(&output.stderr);
    let status = if output.status.success() {
        "ok".to_owned()
    } else if let Some(at) = stderr.split("illegal input sequence at position ").nth(1) {
        format!("illegal@{}", at.trim())
    } else {
        ensure!(stderr.contains("incomplete character or shift sequence"), "iconv: {stderr}");
        "incomplete".to_owned()
    };
    Ok((status, output.stdout))
}

/// Runs `iconv` with `args` on `input`.
fn run(args: &[&str], input: &[u8]) -> Result<std::process::Output> {
    let mut child = Command::new("iconv")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .context("running iconv (glibc's, Debian's libc-bin)")?;
    let mut stdin = child.stdin.take().context("iconv's stdin")?;
    let input = input.to_vec();
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let output = child.wait_with_output()?;
    writer.join().map_err(|_| anyhow::anyhow!("writing to iconv"))??;
    Ok(output)
}

pub(crate) fn to_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// xorshift64*: the streams' fixed sequence (also `python_iso2022`'s).
pub(crate) struct Random(pub(crate) u64);

impl Random {
    /// A number below `n` (n > 0).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    }
}
