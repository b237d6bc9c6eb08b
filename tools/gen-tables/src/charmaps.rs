//! Family `charmaps`: mapping tables of the encodings outside the Encoding
//! Standard, converted from glibc's charmaps.
//!
//! - `count charmaps <locales.deb>` checks the package against its pin in
//!   `inputs.toml`, extracts it with `dpkg-deb -x` into a temporary folder,
//!   reads `usr/share/i18n/charmaps/<NAME>.gz` and writes the intermediate
//!   data into `data/charmaps/`:
//!   - `<NAME>.txt` for each single-byte charmap: `byte code-point` lines
//!     (hex) for bytes 80-FF and for lower bytes that are not ASCII;
//!   - `EUC-TW.txt`: the CNS 11643 planes as `plane row` lines of 94 code
//!     points (hex, `-` for none);
//!   - `oracles.txt`: the size and FNV-1a hash of glibc's whole multi-byte
//!     mapping for JOHAB, EUC-KR and EUC-TW, which charsight's tests compare
//!     with what its decoders produce.
//! - `emit` turns that data into `generated/charmaps.rs`.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Read;
use std::path::Path;
use std::process::Command;

use anyhow::{bail, ensure, Context, Result};

use crate::emit::{self, Output};

/// Single-byte charmaps: glibc's name (and data file), the generated static.
const SINGLE_BYTE: &[(&str, &str)] = &[
    ("IBM437", "IBM437"),
    ("CP737", "IBM737"),
    ("CP775", "IBM775"),
    ("IBM850", "IBM850"),
    ("IBM852", "IBM852"),
    ("IBM855", "IBM855"),
    ("IBM857", "IBM857"),
    ("IBM858", "IBM858"),
    ("IBM860", "IBM860"),
    ("IBM861", "IBM861"),
    ("IBM862", "IBM862"),
    ("IBM863", "IBM863"),
    ("IBM864", "IBM864"),
    ("IBM865", "IBM865"),
    ("IBM869", "IBM869"),
    ("CP1125", "CP1125"),
    ("MAC-CENTRALEUROPE", "X_MAC_CE"),
    ("VISCII", "VISCII"),
    ("RK1048", "KZ_1048"),
    ("PT154", "PTCP154"),
    ("ARMSCII-8", "ARMSCII_8"),
    ("GEORGIAN-PS", "GEORGIAN_PS"),
    ("KOI8-T", "KOI8_T"),
];

/// Multi-byte charmaps whose whole mapping is summarised in `oracles.txt`.
const ORACLES: &[&str] = &["JOHAB", "EUC-KR", "EUC-TW"];

/// CNS 11643 planes of glibc's EUC-TW, in the order of the generated arrays.
const EUC_TW_PLANES: [u8; 8] = [1, 2, 3, 4, 5, 6, 7, 15];

/// Cells in a row (and rows in a plane) of a 94×94 set.
const CELLS: usize = 94;

/// One line of a charmap: a byte sequence and its code point.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Mapping {
    bytes: Vec<u8>,
    code_point: u32,
    /// glibc marks decode-only mappings `%IRREVERSIBLE%`.
    reversible: bool,
}

/// Reads glibc's charmap syntax: `<UXXXX> /xHH/xHH comment` lines between
/// the header and `END CHARMAP` (some files lack the `CHARMAP` line).
fn parse_charmap(name: &str, text: &str) -> Result<Vec<Mapping>> {
    let mut mappings = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let context = || format!("{name}:{}: {line}", number + 1);
        let line = line.trim();
        if line == "END CHARMAP" {
            break;
        }
        if line.starts_with("<escape_char>") {
            ensure!(line.ends_with('/'), "unexpected escape character: {}", context());
        }
        let (line, reversible) = match line.strip_prefix("%IRREVERSIBLE%") {
            Some(rest) => (rest, false),
            None => (line, true),
        };
        let Some(rest) = line.strip_prefix("<U") else { continue };
        let (hex, rest) = rest.split_once('>').with_context(context)?;
        let code_point = u32::from_str_radix(hex, 16).with_context(context)?;
        ensure!(!rest.starts_with('.') && !rest.starts_with('<'), "unsupported: {}", context());
        let field = rest.split_whitespace().next().with_context(context)?;
        let bytes = field
            .split("/x")
            .skip(1)
            .map(|b| u8::from_str_radix(b, 16))
            .collect::<Result<Vec<u8>, _>>()
            .with_context(context)?;
        ensure!(!bytes.is_empty() && field.starts_with("/x"), "no bytes: {}", context());
        mappings.push(Mapping { bytes, code_point, reversible });
    }
    ensure!(!mappings.is_empty(), "{name}: no mappings");
    Ok(mappings)
}

/// The `count` step: the `locales` package to the intermediate data.
pub fn count(deb: &Path, out: &mut Output) -> Result<()> {
    let pin = Pin::read()?;
    emit::read_pinned(deb, &format!("{} {}", pin.file, pin.version), &pin.sha256)?;
    let dir = tempfile::tempdir()?;
    let status = Command::new("dpkg-deb")
        .arg("-x")
        .arg(deb)
        .arg(dir.path())
        .status()
        .context("running dpkg-deb (Debian's dpkg package)")?;
    ensure!(status.success(), "dpkg-deb -x {} failed", deb.display());
    let charmaps = dir.path().join("usr/share/i18n/charmaps");
    let read = |name: &str| -> Result<Vec<Mapping>> {
        let path = charmaps.join(format!("{name}.gz"));
        let file = std::fs::File::open(&path).with_context(|| format!("{}", path.display()))?;
        let mut text = Vec::new();
        flate2::read::GzDecoder::new(file).read_to_end(&mut text)?;
        parse_charmap(name, &String::from_utf8_lossy(&text))
    };
    let source = format!(
        "glibc charmap {{}}, Debian locales {}, by `cargo run -p gen-tables -- count charmaps {}`",
        pin.version, pin.file
    );

    for &(name, _) in SINGLE_BYTE {
        let text = single_byte_data(&source.replace("{}", name), &read(name)?)?;
        out.file(&data_path(name), text.as_bytes())?;
    }
    let euc_tw = read("EUC-TW")?;
    let text = euc_tw_data(&source.replace("{}", "EUC-TW"), &euc_tw)?;
    out.file(&data_path("EUC-TW"), text.as_bytes())?;

    let mut oracles = format!(
        "# From {}.\n# Checksums of glibc's multi-byte mappings: charmap, mappings, FNV-1a 64 of\n\
         # the mappings sorted by bytes, each as (length byte, bytes, code point as u32 LE).\n",
        source.replace("charmap {}", "charmaps")
    );
    for &name in ORACLES {
        let mappings = if name == "EUC-TW" { euc_tw.clone() } else { read(name)? };
        let sorted: BTreeMap<Vec<u8>, u32> = mappings
            .into_iter()
            .filter(|m| m.bytes.len() > 1)
            .map(|m| (m.bytes, m.code_point))
            .collect();
        writeln!(oracles, "{name} {} {:016x}", sorted.len(), fnv1a64(&sorted))?;
    }
    out.file(&data_path("oracles"), oracles.as_bytes())
}

/// The `charmaps` pin of `inputs.toml`.
struct Pin {
    file: String,
    version: String,
    sha256: String,
}

impl Pin {
    fn read() -> Result<Pin> {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("inputs.toml");
        let inputs: toml::Table = std::fs::read_to_string(&path)?.parse()?;
        let table = inputs.get("charmaps").and_then(|t| t.as_table());
        let field = |key: &str| -> Result<String> {
            let value = table.and_then(|t| t.get(key)).and_then(|v| v.as_str());
            Ok(value.with_context(|| format!("inputs.toml: [charmaps] {key}"))?.to_owned())
        };
        Ok(Pin { file: field("file")?, version: field("version")?, sha256: field("sha256")? })
    }
}

fn data_path(name: &str) -> std::path::PathBuf {
    emit::data_dir().join("charmaps").join(format!("{name}.txt"))
}

/// FNV-1a, 64 bits, over each mapping as (length byte, bytes, code point LE).
fn fnv1a64(mappings: &BTreeMap<Vec<u8>, u32>) -> u64 {
    testkit::mapping_fnv1a64(mappings.iter().map(|(bytes, &code_point)| (&bytes[..], code_point)))
}

/// A single-byte charmap as intermediate text; checks that it is one.
fn single_byte_data(source: &str, mappings: &[Mapping]) -> Result<String> {
    let mut by_byte = BTreeMap::new();
    for m in mappings {
        ensure!(m.bytes.len() == 1 && m.reversible, "{source}: not single-byte: {m:?}");
        ensure!(by_byte.insert(m.bytes[0], m.code_point).is_none(), "{source}: twice: {m:?}");
        ensure!(is_bmp_char(m.code_point) && m.code_point != 0 || m.bytes[0] == 0, "{m:?}");
    }
    // The data cannot say "no character" below 80: every such byte must map.
    ensure!((0..0x80).all(|b| by_byte.contains_key(&b)), "{source}: a byte below 80 is unmapped");
    let mut text = format!(
        "# From {source}.\n# `byte code-point` (hex) for bytes 80-FF and for bytes below 80 whose\n\
         # character is not the ASCII one; a byte above 7F not listed has no character.\n"
    );
    for (byte, code_point) in by_byte {
        if byte >= 0x80 || u32::from(byte) != code_point {
            writeln!(text, "{byte:02X} {code_point:04X}")?;
        }
    }
    Ok(text)
}

fn is_bmp_char(code_point: u32) -> bool {
    code_point <= 0xFFFF && char::from_u32(code_point).is_some()
}

/// EUC-TW as intermediate text: one line per non-empty CNS 11643 row.
fn euc_tw_data(source: &str, mappings: &[Mapping]) -> Result<String> {
    let mut grid: BTreeMap<(u8, u8), [u32; CELLS]> = BTreeMap::new();
    let mut plane1 = BTreeMap::new();
    let mut aliases = Vec::new();
    for m in mappings {
        let (plane, row, cell) = match m.bytes[..] {
            [b] => {
                ensure!(u32::from(b) == m.code_point && b < 0x80, "{source}: {m:?}");
                continue;
            }
            [row, cell] => (1, row, cell),
            [0x8E, plane @ 0xA1..=0xB0, row, cell] => (plane - 0xA0, row, cell),
            _ => bail!("{source}: unexpected bytes {m:?}"),
        };
        ensure!((0xA1..=0xFE).contains(&row) && (0xA1..=0xFE).contains(&cell), "{source}: {m:?}");
        ensure!(
            is_bmp_char(m.code_point) || (0x2_0000..=0x2_FFFF).contains(&m.code_point),
            "{source}: code point outside the BMP and plane 2: {m:?}"
        );
        if m.bytes.len() == 4 && plane == 1 {
            // The four-byte form of plane 1 decodes like the two-byte form.
            ensure!(!m.reversible, "{source}: reversible four-byte plane 1: {m:?}");
            aliases.push(((row, cell), m.code_point));
            continue;
        }
        ensure!(m.reversible, "{source}: irreversible outside plane 1: {m:?}");
        ensure!(EUC_TW_PLANES.contains(&plane), "{source}: unexpected plane {m:?}");
        plane1.extend((plane == 1).then_some(((row, cell), m.code_point)));
        let cells = grid.entry((plane, row - 0x80)).or_insert([0; CELLS]);
        let cell = &mut cells[usize::from(cell - 0xA1)];
        ensure!(*cell == 0, "{source}: twice: {m:?}");
        *cell = m.code_point;
    }
    ensure!(
        aliases.len() == plane1.len() && aliases.iter().all(|(k, v)| plane1.get(k) == Some(v)),
        "{source}: the four-byte plane 1 differs from the two-byte one"
    );
    let mut text = format!(
        "# From {source}.\n# CNS 11643 rows as `plane row` (row 21-7E, hex) and 94 code points for\n\
         # cells 21-7E (hex, `-` for none). Plane 1 is two bytes (row|80, cell|80);\n\
         # plane P is 8E, A0+P, row|80, cell|80; glibc also decodes 8E A1 as plane 1.\n"
    );
    for ((plane, row), cells) in grid {
        write!(text, "{plane} {row:02X}")?;
        for cell in cells {
            match cell {
                0 => text.push_str(" -"),
                c => write!(text, " {c:04X}")?,
            }
        }
        text.push('\n');
    }
    Ok(text)
}

/// Reads an intermediate data file, without its `#` comments.
fn read_data(name: &str) -> Result<(String, Vec<u8>)> {
    let path = data_path(name);
    let raw = std::fs::read(&path).with_context(|| {
        format!("{}: run `cargo run -p gen-tables -- count charmaps`", path.display())
    })?;
    let text = String::from_utf8(raw.clone())?;
    let body = text.lines().filter(|l| !l.starts_with('#')).collect::<Vec<_>>().join("\n");
    Ok((body, raw))
}

fn hex(field: &str) -> Result<u32> {
    u32::from_str_radix(field, 16).with_context(|| format!("bad hex {field:?}"))
}

/// The `emit` step: intermediate data to `generated/charmaps.rs`.
pub fn emit(out: &mut Output) -> Result<()> {
    let mut inputs = Vec::new();
    let mut body = String::from(PREAMBLE);
    for &(name, rust_name) in SINGLE_BYTE {
        let (text, raw) = read_data(name)?;
        inputs.extend(raw);
        let mut high = [0u32; 128];
        let mut low = Vec::new();
        for line in text.lines() {
            let (byte, code_point) = line.split_once(' ').context("bad line")?;
            let (byte, code_point) = (hex(byte)?, hex(code_point)?);
            match byte {
                0..=0x7F => low.push(format!("({byte:#04X}, {code_point:#06X})")),
                _ => high[byte as usize - 0x80] = code_point,
            }
        }
        writeln!(body, "\n/// glibc's `{name}`.")?;
        writeln!(body, "pub static {rust_name}: SingleByte = SingleByte {{ high: [")?;
        for code_point in high {
            write!(body, "{code_point:#06X},")?;
        }
        writeln!(body, "], low: &[{}] }};", low.join(", "))?;
    }
    emit_euc_tw(&mut body, &mut inputs)?;
    emit_oracles(&mut body, &mut inputs)?;
    out.rust("charmaps", "emit (data: count charmaps <locales.deb>)", &inputs, &body)
}

const PREAMBLE: &str = "//! Mapping tables of encodings outside the Encoding Standard, from glibc's
//! charmaps (Debian package `locales`; see `tools/gen-tables/inputs.toml`).

/// A single-byte charmap.
pub struct SingleByte {
    /// The code points of bytes 0x80 to 0xFF; 0 where a byte has no character.
    pub high: [u16; 128],
    /// The bytes below 0x80 whose character is not the ASCII one.
    pub low: &'static [(u8, u16)],
}

/// Marks a row of [`EUC_TW_ROWS`] without characters.
pub const EUC_TW_NO_ROW: u16 = u16::MAX;

/// A checksum of one of glibc's multi-byte mappings, for tests: how many
/// mappings of two bytes or more, and the FNV-1a 64 hash of them sorted by
/// bytes, each hashed as (length byte, bytes, code point as u32 LE).
pub struct Oracle {
    /// Number of mappings.
    pub mappings: usize,
    /// The hash.
    pub fnv1a64: u64,
}
";

/// EUC-TW's rows, cells and plane-2 flags (see the preamble's docs).
fn emit_euc_tw(body: &mut String, inputs: &mut Vec<u8>) -> Result<()> {
    let (text, raw) = read_data("EUC-TW")?;
    inputs.extend(raw);
    let mut rows = [[u16::MAX; CELLS]; EUC_TW_PLANES.len()];
    let mut cells = Vec::new();
    for line in text.lines() {
        let fields: Vec<&str> = line.split(' ').collect();
        ensure!(fields.len() == 2 + CELLS, "bad EUC-TW line {line}");
        let plane = fields[0].parse::<u8>()?;
        let plane = EUC_TW_PLANES.iter().position(|&p| p == plane).context("unknown plane")?;
        let row = hex(fields[1])? as usize;
        ensure!((0x21..=0x7E).contains(&row), "bad row {row}");
        rows[plane][row - 0x21] = u16::try_from(cells.len() / CELLS)?;
        for field in &fields[2..] {
            cells.push(if *field == "-" { 0 } else { hex(field)? });
        }
    }
    let planes = EUC_TW_PLANES.map(|p| p.to_string()).join(", ");
    writeln!(
        body,
        "\n/// The CNS 11643 planes of EUC-TW, in the order of [`EUC_TW_ROWS`].\n\
         pub static EUC_TW_PLANES: [u8; {}] = [{planes}];",
        EUC_TW_PLANES.len()
    )?;
    writeln!(
        body,
        "\n/// For each plane and row (0x21 to 0x7E), the row's index in\n\
         /// [`EUC_TW_CELLS`] (in units of 94 cells), or [`EUC_TW_NO_ROW`].\n\
         pub static EUC_TW_ROWS: [[u16; 94]; {}] = [",
        EUC_TW_PLANES.len()
    )?;
    for plane in rows {
        body.push('[');
        for row in plane {
            write!(body, "{row},")?;
        }
        body.push_str("],");
    }
    writeln!(body, "];")?;
    writeln!(
        body,
        "\n/// The low 16 bits of each cell's code point, 0 for none (cells 0x21 to\n\
         /// 0x7E of each row in [`EUC_TW_ROWS`]).\n\
         pub static EUC_TW_CELLS: [u16; {}] = [",
        cells.len()
    )?;
    for cell in &cells {
        write!(body, "{:#06X},", cell & 0xFFFF)?;
    }
    writeln!(body, "];")?;
    let mut plane2 = vec![0u8; cells.len().div_ceil(8)];
    for (i, cell) in cells.iter().enumerate() {
        if *cell > 0xFFFF {
            plane2[i / 8] |= 1 << (i % 8);
        }
    }
    writeln!(
        body,
        "\n/// One bit per cell of [`EUC_TW_CELLS`] (bit `i % 8` of byte `i / 8`):\n\
         /// set when the code point is U+2xxxx rather than U+xxxx.\n\
         pub static EUC_TW_PLANE2: [u8; {}] = [",
        plane2.len()
    )?;
    for byte in plane2 {
        write!(body, "{byte:#04X},")?;
    }
    writeln!(body, "];")?;
    Ok(())
}

fn emit_oracles(body: &mut String, inputs: &mut Vec<u8>) -> Result<()> {
    let (text, raw) = read_data("oracles")?;
    inputs.extend(raw);
    for line in text.lines() {
        let [name, mappings, hash] = line.split(' ').collect::<Vec<_>>()[..] else {
            bail!("bad oracle line {line}");
        };
        let rust_name = name.replace('-', "_");
        writeln!(
            body,
            "\n/// The checksum of glibc's `{name}`.\n\
             pub const {rust_name}_ORACLE: Oracle = Oracle {{ mappings: {mappings}, fnv1a64: 0x{hash} }};"
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_glibc_syntax() {
        let text = "<code_set_name> X\n<escape_char> /\n% alias Y\nCHARMAP\n\
                    <U0000>     /x00         NULL\n<U0492>\t    /x81   GHE\n\
                    %IRREVERSIBLE%<U3000>     /x8e/xa1/xa1/xa1 IDEOGRAPHIC SPACE\n\
                    END CHARMAP\nWIDTH\n<U3000>...<U7C72>\t2\n";
        let parsed = parse_charmap("X", text).unwrap();
        assert_eq!(
            parsed,
            [
                Mapping { bytes: vec![0], code_point: 0, reversible: true },
                Mapping { bytes: vec![0x81], code_point: 0x492, reversible: true },
                Mapping {
                    bytes: vec![0x8E, 0xA1, 0xA1, 0xA1],
                    code_point: 0x3000,
                    reversible: false
                },
            ]
        );
        assert!(parse_charmap("X", "<U0041>..<U0042> /x41\n").is_err());
        assert!(parse_charmap("X", "<U0041>\n").is_err());
    }

    #[test]
    fn single_byte_data_lists_only_non_ascii() {
        let mappings: Vec<Mapping> = (0..=0x81u8)
            .map(|b| Mapping {
                bytes: vec![b],
                code_point: match b {
                    0x02 => 0x1EB2,
                    0x80 => 0xC7,
                    b => u32::from(b),
                },
                reversible: true,
            })
            .collect();
        let text = single_byte_data("test", &mappings).unwrap();
        let lines: Vec<_> = text.lines().filter(|l| !l.starts_with('#')).collect();
        assert_eq!(lines, ["02 1EB2", "80 00C7", "81 0081"]);
        let twice = [mappings[1].clone(), mappings[1].clone()];
        assert!(single_byte_data("test", &twice).is_err());
    }

    #[test]
    fn fnv1a64_of_nothing_is_the_offset_basis() {
        assert_eq!(fnv1a64(&BTreeMap::new()), 0xcbf2_9ce4_8422_2325);
        let one = BTreeMap::from([(vec![0xA1, 0xA1], 0x3000)]);
        assert_ne!(fnv1a64(&one), fnv1a64(&BTreeMap::from([(vec![0xA1, 0xA2], 0x3000)])));
    }
}
