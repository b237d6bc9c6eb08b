//! Family `python-iso2022`: how Python's `iso2022_jp_2`, `iso2022_jp_3` and
//! `iso2022_jp_2004` codecs read their encodings, as oracles for
//! charsight's tests. Nothing is emitted from them.
//!
//! `count python-iso2022` runs the machine's `python3` (its version
//! recorded) and writes into `data/charmaps/`:
//!
//! - `python-iso2022.txt`: for each codec and each of its sets (the
//!   designation), how many of the set's codes decode to one character and
//!   the FNV-1a 64 of those mappings (code bytes, code point), as in
//!   `oracles.txt`: the 94×94 codes of the double-byte sets, bytes 20-7F
//!   after SS2 for the G2 sets of ISO-2022-JP-2;
//! - `python-iso2022-streams.txt`: random byte streams made of each
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

/// A codec with the designations (after ESC) of its double-byte sets, and
/// of its G2 sets.
struct Codec {
    name: &'static str,
    double: &'static [&'static [u8]],
    g2: &'static [&'static [u8]],
}

const CODECS: [Codec; 3] = [
    Codec {
        name: "iso2022_jp_2",
        double: &[b"$@", b"$B", b"$A", b"$(@", b"$(A", b"$(B", b"$(C", b"$(D"],
        g2: &[b".A", b".F"],
    },
    Codec { name: "iso2022_jp_3", double: &[b"$B", b"$(B", b"$(O", b"$(P"], g2: &[] },
    Codec { name: "iso2022_jp_2004", double: &[b"$B", b"$(B", b"$(Q", b"$(P"], g2: &[] },
];

/// The mappings of one set: code bytes to code point.
type Mappings = BTreeMap<Vec<u8>, u32>;

/// Random streams per codec.
const STREAMS: usize = 600;

/// One input for Python, and what it stands for.
struct Input {
    codec: &'static str,
    bytes: Vec<u8>,
    /// The set's designation and the code, for a code of a set.
    code: Option<(&'static [u8], Vec<u8>)>,
}

/// The `count` step.
pub fn count(out: &mut Output) -> Result<()> {
    let command = "`cargo run -p gen-tables -- count python-iso2022`";
    let mut inputs = Vec::new();
    for Codec { name: codec, double, g2 } in CODECS {
        for &designation in double {
            for row in 0x21..=0x7E {
                for cell in 0x21..=0x7E {
                    let bytes = [&[ESC], designation, &[row, cell], b"\x1B(B"].concat();
                    inputs.push(Input { codec, bytes, code: Some((designation, vec![row, cell])) });
                }
            }
        }
        for &designation in g2 {
            for byte in 0x20..=0x7F {
                let bytes = [&[ESC], designation, &[ESC, b'N', byte]].concat();
                inputs.push(Input { codec, bytes, code: Some((designation, vec![byte])) });
            }
        }
        let mut random = Random(0x1554_2022 ^ codec.len() as u64);
        let pieces: Vec<&[u8]> =
            double.iter().chain(g2).copied().chain([&b"(B"[..], b"(J"]).collect();
        for _ in 0..STREAMS {
            inputs.push(Input { codec, bytes: random_stream(&mut random, &pieces), code: None });
        }
    }
    let (version, results) = run_python(&inputs)?;
    ensure!(results.len() == inputs.len(), "python3 gave {} lines", results.len());
    let mut sets: BTreeMap<(&str, &[u8]), Mappings> = BTreeMap::new();
    let mut streams = String::new();
    for (input, (status, text)) in inputs.iter().zip(&results) {
        match &input.code {
            Some((designation, code)) => {
                let set = sets.entry((input.codec, designation)).or_default();
                let mut chars = text.chars();
                if let ("ok", Some(c), None) = (status.as_str(), chars.next(), chars.next()) {
                    set.insert(code.clone(), u32::from(c));
                }
            }
            None => {
                let hex =
                    if input.bytes.is_empty() { ".".to_owned() } else { to_hex(&input.bytes) };
                writeln!(streams, "{} {hex} {status} ={}", input.codec, to_hex(text.as_bytes()))?;
            }
        }
    }
    let mut oracles = format!(
        "# How Python {version} decodes each code of each set of its ISO-2022-JP codecs:\n\
         # codec, the designation (after ESC), mappings (to one character), FNV-1a 64 of\n\
         # the mappings sorted by bytes (the row and cell, or the byte after SS2),\n\
         # each as (length byte, bytes, code point as u32 LE), by {command}.\n\
         # Read by charsight's tests.\n"
    );
    for Codec { name: codec, double, g2 } in CODECS {
        for &designation in double.iter().chain(g2) {
            let mappings = &sets[&(codec, designation)];
            let hash = testkit::mapping_fnv1a64(mappings.iter().map(|(b, &c)| (&b[..], c)));
            let name = String::from_utf8(designation.to_vec())?;
            writeln!(oracles, "{codec} {name} {} {hash:016x}", mappings.len())?;
        }
    }
    let streams = format!(
        "# Random streams and how Python {version} decodes them: codec, the stream\n\
         # (hex, `.` for none), `ok`, `illegal@OFFSET` (of the first error) or\n\
         # `incomplete` (an unfinished sequence at the end), and `=` and the UTF-8\n\
         # (hex) of the text before it, by {command}. Read by charsight's tests.\n{streams}"
    );
    let dir = emit::data_dir().join("charmaps");
    out.file(&dir.join("python-iso2022.txt"), oracles.as_bytes())?;
    out.file(&dir.join("python-iso2022-streams.txt"), streams.as_bytes())
}

/// Python's reading of each input (`codec hex`, one per line): the status
/// and the text before the first error.
const SCRIPT: &str = "import sys\n\
print(sys.version.split()[0])\n\
for line in sys.stdin:\n\
\x20   codec, _, data = line.strip().partition(' ')\n\
\x20   data = bytes.fromhex(data)\n\
\x20   try:\n\
\x20       print('ok', data.decode(codec).encode('utf-8').hex())\n\
\x20   except UnicodeDecodeError as e:\n\
\x20       status = 'incomplete' if 'incomplete' in e.reason else 'illegal@%d' % e.start\n\
\x20       print(status, data[:e.start].decode(codec).encode('utf-8').hex())\n";

fn run_python(inputs: &[Input]) -> Result<(String, Vec<(String, String)>)> {
    let mut child = Command::new("python3")
        .args(["-c", SCRIPT])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .context("running python3")?;
    let mut stdin = child.stdin.take().context("python3's stdin")?;
    let input: String =
        inputs.iter().map(|i| format!("{} {}\n", i.codec, to_hex(&i.bytes))).collect();
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

/// A stream of the pieces the decoder reacts to: designations (after ESC),
/// SS2, 7-bit bytes, newlines, and any bytes.
fn random_stream(random: &mut Random, designations: &[&[u8]]) -> Vec<u8> {
    let mut stream = Vec::new();
    for _ in 0..random.below(12) {
        match random.below(10) {
            0 | 1 => {
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
