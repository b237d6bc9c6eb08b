//! Family `python-iso2022`: how Python's `iso2022_jp_2` codec reads
//! ISO-2022-JP-2, as oracles for charsight's tests. Nothing is emitted from
//! them.
//!
//! `count python-iso2022` runs the machine's `python3` (its version
//! recorded) and writes into `data/charmaps/`:
//!
//! - `python-iso2022_jp_2.txt`: for each set (its designation), how many of
//!   its codes decode to a character and the FNV-1a 64 of those mappings
//!   (code bytes, code point), as in `oracles.txt`: the 94×94 codes of the
//!   double-byte sets, bytes 20-7F after SS2 for the G2 sets;
//! - `python-iso2022_jp_2-streams.txt`: random byte streams made of the
//!   encoding's pieces (fixed seed), each with what Python made of it: the
//!   text before the first error, and `ok`, `illegal@OFFSET` or
//!   `incomplete`.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Write as _;
use std::process::{Command, Stdio};

use anyhow::{ensure, Context, Result};

use crate::emit::{self, Output};
use crate::iconv::{to_hex, Random};

const ESC: u8 = 0x1B;

/// The designations of the double-byte sets, and of the G2 sets.
const DOUBLE: [&[u8]; 8] = [b"$@", b"$B", b"$A", b"$(@", b"$(A", b"$(B", b"$(C", b"$(D"];
const G2: [&[u8]; 2] = [b".A", b".F"];

/// Random streams.
const STREAMS: usize = 600;

/// The `count` step.
pub fn count(out: &mut Output) -> Result<()> {
    let command = "`cargo run -p gen-tables -- count python-iso2022`";
    // Every code of every set, then the streams: one input per line.
    let mut inputs: Vec<Vec<u8>> = Vec::new();
    let mut codes: Vec<(&[u8], Vec<u8>)> = Vec::new();
    for designation in DOUBLE {
        for row in 0x21..=0x7E {
            for cell in 0x21..=0x7E {
                inputs.push([&[ESC], designation, &[row, cell], b"\x1B(B"].concat());
                codes.push((designation, vec![row, cell]));
            }
        }
    }
    for designation in G2 {
        for byte in 0x20..=0x7F {
            inputs.push([&[ESC], designation, &[ESC, b'N', byte]].concat());
            codes.push((designation, vec![byte]));
        }
    }
    let mut random = Random(0x1554_2022);
    let streams: Vec<Vec<u8>> = (0..STREAMS).map(|_| random_stream(&mut random)).collect();
    inputs.extend(streams.iter().cloned());
    let (version, results) = run_python(&inputs)?;
    ensure!(results.len() == inputs.len(), "python3 gave {} lines", results.len());
    let mut sets: BTreeMap<&[u8], BTreeMap<Vec<u8>, u32>> = BTreeMap::new();
    for ((designation, code), (status, text)) in codes.iter().zip(&results) {
        let set = sets.entry(designation).or_default();
        let mut chars = text.chars();
        if let ("ok", Some(c), None) = (status.as_str(), chars.next(), chars.next()) {
            set.insert(code.clone(), u32::from(c));
        }
    }
    let mut oracles = format!(
        "# How Python {version} decodes each code of each set of ISO-2022-JP-2 (its\n\
         # `iso2022_jp_2` codec): the designation (after ESC), mappings, FNV-1a 64 of\n\
         # the mappings sorted by bytes (the row and cell, or the byte after SS2),\n\
         # each as (length byte, bytes, code point as u32 LE), by {command}. Read by\n\
         # charsight's tests.\n"
    );
    for designation in DOUBLE.iter().chain(&G2) {
        let mappings = &sets[designation];
        let hash = testkit::mapping_fnv1a64(mappings.iter().map(|(b, &c)| (&b[..], c)));
        let name = String::from_utf8(designation.to_vec())?;
        writeln!(oracles, "{name} {} {hash:016x}", mappings.len())?;
    }
    let mut lines = format!(
        "# Random streams and how Python {version} decodes them with `iso2022_jp_2`:\n\
         # the stream (hex, `.` for none), `ok`, `illegal@OFFSET` (of the first error) or\n\
         # `incomplete` (an unfinished sequence at the end), and `=` and the UTF-8\n\
         # (hex) of the text before it, by {command}. Read by charsight's tests.\n"
    );
    for (stream, (status, text)) in streams.iter().zip(&results[codes.len()..]) {
        let hex = if stream.is_empty() { ".".to_owned() } else { to_hex(stream) };
        writeln!(lines, "{hex} {status} ={}", to_hex(text.as_bytes()))?;
    }
    let dir = emit::data_dir().join("charmaps");
    out.file(&dir.join("python-iso2022_jp_2.txt"), oracles.as_bytes())?;
    out.file(&dir.join("python-iso2022_jp_2-streams.txt"), lines.as_bytes())
}

/// Python's reading of each input (hex, one per line): the status and the
/// text before the first error.
const SCRIPT: &str = "import sys\n\
print(sys.version.split()[0])\n\
for line in sys.stdin:\n\
\x20   data = bytes.fromhex(line.strip())\n\
\x20   try:\n\
\x20       print('ok', data.decode('iso2022_jp_2').encode('utf-8').hex())\n\
\x20   except UnicodeDecodeError as e:\n\
\x20       status = 'incomplete' if 'incomplete' in e.reason else 'illegal@%d' % e.start\n\
\x20       print(status, data[:e.start].decode('iso2022_jp_2').encode('utf-8').hex())\n";

fn run_python(inputs: &[Vec<u8>]) -> Result<(String, Vec<(String, String)>)> {
    let mut child = Command::new("python3")
        .args(["-c", SCRIPT])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .context("running python3")?;
    let mut stdin = child.stdin.take().context("python3's stdin")?;
    let input: String = inputs.iter().map(|i| to_hex(i) + "\n").collect();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output()?;
    writer.join().map_err(|_| anyhow::anyhow!("writing to python3"))??;
    ensure!(output.status.success(), "python3: {}", String::from_utf8_lossy(&output.stderr));
    let stdout = String::from_utf8(output.stdout)?;
    let mut lines = stdout.lines();
    let version = lines.next().context("no output from python3")?.to_owned();
    let mut results = Vec::new();
    for line in lines {
        let (status, hex) = line.split_once(' ').context("a line without a status")?;
        results.push((status.to_owned(), String::from_utf8(from_hex(hex)?)?));
    }
    Ok((version, results))
}

/// A stream of the pieces the decoder reacts to: designations, SS2, pairs
/// of 7-bit bytes, newlines, and any bytes.
fn random_stream(random: &mut Random) -> Vec<u8> {
    let mut stream = Vec::new();
    for _ in 0..random.below(12) {
        match random.below(10) {
            0 | 1 => {
                let g0: [&[u8]; 2] = [b"(B", b"(J"];
                let designations: Vec<&[u8]> =
                    DOUBLE.iter().chain(&G2).chain(&g0).copied().collect();
                stream.push(ESC);
                stream.extend_from_slice(designations[random.below(designations.len())]);
            }
            2 => stream.extend_from_slice(&[ESC, b'N']),
            3 => stream.push(b'\n'),
            4..=7 => {
                for _ in 0..=random.below(6) {
                    stream.push(0x21 + random.below(94) as u8);
                }
            }
            _ => stream.push(random.below(256) as u8),
        }
    }
    stream
}

fn from_hex(hex: &str) -> Result<Vec<u8>> {
    (0..hex.len())
        .step_by(2)
        .map(|i| Ok(u8::from_str_radix(hex.get(i..i + 2).context("odd hex")?, 16)?))
        .collect()
}
