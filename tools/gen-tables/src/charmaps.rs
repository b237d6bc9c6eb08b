//! Family `charmaps`: mapping tables of the encodings outside the Encoding
//! Standard, converted from glibc's charmaps and CPython's codecs (and, for
//! the few neither has, from MariaDB's charset files: `count mariadb`).
//!
//! - `count charmaps <locales.deb> <libpython3.11-minimal.deb>` checks the
//!   packages against their pins in `inputs.toml`, extracts them with
//!   `dpkg-deb -x` into temporary folders, reads glibc's
//!   `usr/share/i18n/charmaps/<NAME>.gz` and CPython's
//!   `usr/lib/python3.11/encodings/<name>.py` (see [`Source`]) and writes
//!   the intermediate data into `data/charmaps/`:
//!   - `<NAME>.txt` for each single-byte table: `byte code-point` lines
//!     (hex) for bytes 80-FF and for lower bytes that are not ASCII;
//!   - `EUC-TW.txt`: the CNS 11643 planes as `plane row` lines of 94 code
//!     points (hex, `-` for none);
//!   - `GB2312.txt`: GB 2312's rows (glibc's `GB2312`, which is EUC-CN) as
//!     `row` lines of 94 code points, for HZ-GB-2312;
//!   - `JISX0213.txt`: JIS X 0213:2004's two planes (glibc's
//!     `EUC-JISX0213`) as `plane row` lines of 94 code points, a cell of a
//!     letter and a combining mark as `A+B`, for EUC-JIS-2004 and
//!     Shift_JIS-2004;
//!   - `oracles.txt`: the size and FNV-1a hash of glibc's whole multi-byte
//!     mapping for JOHAB, EUC-KR, EUC-TW, GB2312, EUC-JISX0213 and
//!     SHIFT_JISX0213 (their mappings to one code point), which charsight's
//!     tests compare with what its decoders produce;
//!   - `python.txt`: how `python3` (its version recorded) decodes every
//!     byte in each of [`PYTHON_CODECS`], which charsight's tests compare
//!     with its tables. It is the one output that depends on the machine's
//!     Python rather than on a pinned input;
//!   - `python-hz.txt`: how `python3` decodes each pair of bytes 21-7E in
//!     GB mode (`~{` … `~}`) of its `hz` codec, in `GB2312.txt`'s layout;
//!   - `python-shift_jis_2004.txt`, `python-euc_jis_2004.txt`: how
//!     `python3` decodes every sequence of up to two bytes (EUC: three after
//!     8F) in those codecs ([`PYTHON_JIS`]), and `python-jis-random.txt`:
//!     random byte strings in both, decoded with `errors='replace'`.
//! - `emit` turns that data (all but the Python files) into
//!   `generated/charmaps.rs`.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Read;
use std::ops::RangeInclusive;
use std::path::Path;
use std::process::Command;

use anyhow::{bail, ensure, Context, Result};

use crate::emit::{self, Output};

/// Where a single-byte table comes from.
#[derive(Clone, Copy)]
enum Source {
    /// glibc's charmap of this name.
    Glibc(&'static str),
    /// glibc's charmap of this name, its one-byte mappings only: glibc's
    /// TCVN5712-1 also lists letters that its converter composes from a
    /// base letter and a combining mark (`/x43/xb3` for Ć), which charsight
    /// decodes byte by byte (C, U+0301: the same text, decomposed).
    GlibcBytes(&'static str),
    /// CPython's `Lib/encodings/<name>.py` (its `decoding_table`), for the
    /// new tables of every code page Python has. Python's tables are
    /// generated from Unicode's vendor mappings (VENDORS/MICSFT, APPLE,
    /// MISC), which glibc lacks for some (cp720, most Mac OS pages) and
    /// maps differently for others (glibc's MAC-IS is Apple's pre-euro
    /// table; IBM424, IBM875, IBM1026, IBM856 and IBM273 differ in 1 to 9
    /// bytes).
    Python(&'static str),
    /// MariaDB's `usr/share/mysql/charsets/<name>.xml` (its `<unicode>`
    /// map; 0000 for none), for a charset that only MySQL and MariaDB define
    /// (GEOSTD8, the Georgian standard 8-bit set, which glibc's and GNU
    /// libiconv's GEORGIAN-ACADEMY and GEORGIAN-PS are not). Written by
    /// `count mariadb`, not `count charmaps`.
    MariaDb(&'static str),
    /// A table of Unicode's `MAPPINGS/VENDORS/APPLE` as Perl's Unicode::Map
    /// (Debian `libunicode-map-perl`) ships it compiled, by its name there,
    /// for a Mac OS code page that neither glibc nor Python has (MacHebrew;
    /// Unicode::Map's REGISTRY says it is the older HEBREW.TXT). Apple maps
    /// some bytes to a sequence: a character between a direction override
    /// (U+202D, U+202E) and U+202C, for the right-to-left copies of ASCII
    /// punctuation. Their single-code-point reading is the character alone
    /// (as CPython's mac_arabic reads ARABIC.TXT); a byte whose character is
    /// in Apple's corporate use area (U+F850-F8FF, deprecated by Apple) has
    /// none. The C0 controls and DEL, which the old table leaves out, are
    /// themselves (as in Apple's later tables). Written by `count
    /// unicode-map`, not `count charmaps`.
    UnicodeMap(&'static str),
    /// IBM's euro update of an EBCDIC code page (CCSIDs 1140-1149): the
    /// table of the base (a name in [`SINGLE_BYTE`]) with its currency sign
    /// U+00A4 replaced by the euro sign U+20AC, byte for byte.
    Euro(&'static str),
}

/// Single-byte tables: the data file's name, where it comes from, and the
/// generated static.
const SINGLE_BYTE: &[(&str, Source, &str)] = &[
    ("IBM437", Source::Glibc("IBM437"), "IBM437"),
    ("CP737", Source::Glibc("CP737"), "IBM737"),
    ("CP775", Source::Glibc("CP775"), "IBM775"),
    ("IBM850", Source::Glibc("IBM850"), "IBM850"),
    ("IBM852", Source::Glibc("IBM852"), "IBM852"),
    ("IBM855", Source::Glibc("IBM855"), "IBM855"),
    ("IBM857", Source::Glibc("IBM857"), "IBM857"),
    ("IBM858", Source::Glibc("IBM858"), "IBM858"),
    ("IBM860", Source::Glibc("IBM860"), "IBM860"),
    ("IBM861", Source::Glibc("IBM861"), "IBM861"),
    ("IBM862", Source::Glibc("IBM862"), "IBM862"),
    ("IBM863", Source::Glibc("IBM863"), "IBM863"),
    ("IBM864", Source::Glibc("IBM864"), "IBM864"),
    ("IBM865", Source::Glibc("IBM865"), "IBM865"),
    ("IBM869", Source::Glibc("IBM869"), "IBM869"),
    ("CP1125", Source::Glibc("CP1125"), "CP1125"),
    ("cp720", Source::Python("cp720"), "DOS_720"),
    ("cp856", Source::Python("cp856"), "IBM856"),
    ("MAC-CENTRALEUROPE", Source::Glibc("MAC-CENTRALEUROPE"), "X_MAC_CE"),
    ("mac_arabic", Source::Python("mac_arabic"), "X_MAC_ARABIC"),
    ("mac_croatian", Source::Python("mac_croatian"), "X_MAC_CROATIAN"),
    ("mac_greek", Source::Python("mac_greek"), "X_MAC_GREEK"),
    ("mac_iceland", Source::Python("mac_iceland"), "X_MAC_ICELANDIC"),
    ("mac_romanian", Source::Python("mac_romanian"), "X_MAC_ROMANIAN"),
    ("mac_turkish", Source::Python("mac_turkish"), "X_MAC_TURKISH"),
    ("APPLE-HEBREW", Source::UnicodeMap("APPLE-HEBREW"), "X_MAC_HEBREW"),
    ("VISCII", Source::Glibc("VISCII"), "VISCII"),
    ("RK1048", Source::Glibc("RK1048"), "KZ_1048"),
    ("PT154", Source::Glibc("PT154"), "PTCP154"),
    ("ARMSCII-8", Source::Glibc("ARMSCII-8"), "ARMSCII_8"),
    ("GEORGIAN-PS", Source::Glibc("GEORGIAN-PS"), "GEORGIAN_PS"),
    ("KOI8-T", Source::Glibc("KOI8-T"), "KOI8_T"),
    ("GEOSTD8", Source::MariaDb("geostd8"), "GEOSTD8"),
    ("TCVN5712-1", Source::GlibcBytes("TCVN5712-1"), "TCVN5712_1"),
    // EBCDIC.
    ("cp037", Source::Python("cp037"), "IBM037"),
    ("cp273", Source::Python("cp273"), "IBM273"),
    ("IBM277", Source::Glibc("IBM277"), "IBM277"),
    ("IBM278", Source::Glibc("IBM278"), "IBM278"),
    ("IBM280", Source::Glibc("IBM280"), "IBM280"),
    ("IBM284", Source::Glibc("IBM284"), "IBM284"),
    ("IBM285", Source::Glibc("IBM285"), "IBM285"),
    ("IBM297", Source::Glibc("IBM297"), "IBM297"),
    ("cp424", Source::Python("cp424"), "IBM424"),
    ("cp500", Source::Python("cp500"), "IBM500"),
    ("IBM871", Source::Glibc("IBM871"), "IBM871"),
    ("cp875", Source::Python("cp875"), "IBM875"),
    ("cp1026", Source::Python("cp1026"), "IBM1026"),
    ("IBM1140", Source::Euro("cp037"), "IBM01140"),
    ("IBM1141", Source::Euro("cp273"), "IBM01141"),
    ("IBM1142", Source::Euro("IBM277"), "IBM01142"),
    ("IBM1143", Source::Euro("IBM278"), "IBM01143"),
    ("IBM1144", Source::Euro("IBM280"), "IBM01144"),
    ("IBM1145", Source::Euro("IBM284"), "IBM01145"),
    ("IBM1146", Source::Euro("IBM285"), "IBM01146"),
    ("IBM1147", Source::Euro("IBM297"), "IBM01147"),
    ("IBM1148", Source::Euro("cp500"), "IBM01148"),
    ("IBM1149", Source::Euro("IBM871"), "IBM01149"),
];

/// Python's single-byte codecs that charsight has outside the Encoding
/// Standard, each a label of its charset: `count charmaps` records how
/// Python decodes every byte in them (`python.txt`), for charsight's tests.
const PYTHON_CODECS: &[&str] = &[
    "cp037",
    "cp273",
    "cp424",
    "cp437",
    "cp500",
    "cp720",
    "cp737",
    "cp775",
    "cp850",
    "cp852",
    "cp855",
    "cp856",
    "cp857",
    "cp858",
    "cp860",
    "cp861",
    "cp862",
    "cp863",
    "cp864",
    "cp865",
    "cp869",
    "cp875",
    "cp1026",
    "cp1125",
    "cp1140",
    "koi8_t",
    "kz1048",
    "mac_arabic",
    "mac_croatian",
    "mac_greek",
    "mac_iceland",
    "mac_latin2",
    "mac_romanian",
    "mac_turkish",
    "ptcp154",
];

/// Multi-byte charmaps whose whole mapping is summarised in `oracles.txt`
/// (for JIS X 0213, the mappings to one code point).
const ORACLES: &[&str] = &["JOHAB", "EUC-KR", "EUC-TW", "GB2312", "EUC-JISX0213", "SHIFT_JISX0213"];

/// Python's codecs of JIS X 0213 whose every short sequence `count
/// charmaps` decodes (`python-<codec>.txt`): the codec and the prefixes
/// that each byte 00-FF is appended to, besides none (a value above 0xFF
/// is two bytes).
const PYTHON_JIS: &[(&str, &[RangeInclusive<u16>])] = &[
    ("shift_jis_2004", &[0x81..=0x9F, 0xE0..=0xFC]),
    ("euc_jis_2004", &[0x8E..=0x8E, 0xA1..=0xFE, 0x8FA1..=0x8FFE]),
];

/// How many random byte strings of each of [`PYTHON_JIS`] `count charmaps`
/// has Python decode with `errors='replace'` (`python-jis-random.txt`).
const PYTHON_RANDOM_STRINGS: usize = 300;

/// CNS 11643 planes of glibc's EUC-TW, in the order of the generated arrays.
const EUC_TW_PLANES: [u8; 8] = [1, 2, 3, 4, 5, 6, 7, 15];

/// The bytes whose ASCII character an ASCII-compatible table keeps: what
/// HTML and XML markup (`<meta charset="x">`, `&#8364;`) is made of.
const MARKUP: &str =
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 !\"#&'-./:;<=>?_";

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

/// The `count` step: the pinned `locales` and `libpython3.11-minimal`
/// packages to the intermediate data; runs `python3` for `python.txt`.
pub fn count(locales: &Path, python: &Path, out: &mut Output) -> Result<()> {
    let glibc_pin = Pin::read(&["charmaps"])?;
    let python_pin = Pin::read(&["charmaps", "python"])?;
    let glibc_dir = unpack(locales, &glibc_pin)?;
    let python_dir = unpack(python, &python_pin)?;
    let read_text = |name: &str| -> Result<String> {
        let path = glibc_dir.path().join(format!("usr/share/i18n/charmaps/{name}.gz"));
        let file = std::fs::File::open(&path).with_context(|| format!("{}", path.display()))?;
        let mut text = Vec::new();
        flate2::read::GzDecoder::new(file).read_to_end(&mut text)?;
        Ok(String::from_utf8_lossy(&text).into_owned())
    };
    let read = |name: &str| parse_charmap(name, &read_text(name)?);
    let command = format!(
        "`cargo run -p gen-tables -- count charmaps {} {}`",
        glibc_pin.file, python_pin.file
    );
    let glibc = |what: &str| format!("glibc {what}, Debian locales {}", glibc_pin.version);

    let mut tables: BTreeMap<&str, Vec<Mapping>> = BTreeMap::new();
    for &(name, source, _) in SINGLE_BYTE {
        let (mappings, origin) = match source {
            Source::Glibc(charmap) => (read(charmap)?, glibc(&format!("charmap {charmap}"))),
            Source::GlibcBytes(charmap) => {
                let mut mappings = read(charmap)?;
                mappings.retain(|m| m.bytes.len() == 1);
                (mappings, glibc(&format!("charmap {charmap}, its one-byte mappings")))
            }
            Source::Python(module) => {
                let path =
                    python_dir.path().join(format!("usr/lib/python3.11/encodings/{module}.py"));
                let text = std::fs::read_to_string(&path)
                    .with_context(|| format!("{}", path.display()))?;
                let summary = text.lines().next().unwrap_or_default().trim_matches(['"', ' ']);
                let origin = format!(
                    "CPython's Lib/encodings/{module}.py, Debian libpython3.11-minimal {} (\"{summary}\")",
                    python_pin.version
                );
                (parse_python_table(module, &text)?, origin)
            }
            Source::Euro(base) => {
                let base_table = tables.get(base).with_context(|| format!("{name}: no {base}"))?;
                let origin = format!(
                    "{base} (see {base}.txt) with U+00A4 CURRENCY SIGN replaced by U+20AC \
                     EURO SIGN, as IBM's euro update CCSID {} defines it",
                    &name[3..]
                );
                (euro_variant(base_table).with_context(|| name.to_owned())?, origin)
            }
            Source::MariaDb(_) | Source::UnicodeMap(_) => continue,
        };
        let text = single_byte_data(&format!("{origin}, by {command}"), &mappings)?;
        out.file(&data_path(name), text.as_bytes())?;
        tables.insert(name, mappings);
    }
    let euc_tw = read("EUC-TW")?;
    let text = euc_tw_data(&format!("{}, by {command}", glibc("charmap EUC-TW")), &euc_tw)?;
    out.file(&data_path("EUC-TW"), text.as_bytes())?;

    let gb2312 = read("GB2312")?;
    let text = gb2312_data(&format!("{}, by {command}", glibc("charmap GB2312")), &gb2312)?;
    out.file(&data_path("GB2312"), text.as_bytes())?;

    let text = jisx0213_data(
        &format!("{}, by {command}", glibc("charmap EUC-JISX0213")),
        &read_text("EUC-JISX0213")?,
    )?;
    out.file(&data_path("JISX0213"), text.as_bytes())?;

    let mut oracles = format!(
        "# From {}, by {command}.\n# Checksums of glibc's multi-byte mappings: charmap, mappings, FNV-1a 64 of\n\
         # the mappings sorted by bytes, each as (length byte, bytes, code point as u32 LE).\n",
        glibc("charmaps")
    );
    for &name in ORACLES {
        let mappings = match name {
            "EUC-TW" => euc_tw.clone(),
            "GB2312" => gb2312.clone(),
            _ => read(name)?,
        };
        let sorted: BTreeMap<Vec<u8>, u32> = mappings
            .into_iter()
            .filter(|m| m.bytes.len() > 1)
            .map(|m| (m.bytes, m.code_point))
            .collect();
        writeln!(oracles, "{name} {} {:016x}", sorted.len(), fnv1a64(&sorted))?;
    }
    out.file(&data_path("oracles"), oracles.as_bytes())?;
    out.file(&data_path("python"), python_decodings(&command)?.as_bytes())?;
    out.file(&data_path("python-hz"), python_hz(&command)?.as_bytes())?;
    for &(codec, prefixes) in PYTHON_JIS {
        let text = python_sequences(&command, codec, prefixes)?;
        out.file(&data_path(&format!("python-{codec}")), text.as_bytes())?;
    }
    let codecs: Vec<&str> = PYTHON_JIS.iter().map(|&(codec, _)| codec).collect();
    out.file(&data_path("python-jis-random"), python_random(&command, &codecs)?.as_bytes())
}

/// The `count mariadb` step: the pinned `mariadb-server-core` package to the
/// data of the tables it is the [`Source::MariaDb`] of.
pub fn count_mariadb(deb: &Path, out: &mut Output) -> Result<()> {
    let pin = Pin::read(&["charmaps", "mariadb"])?;
    let dir = unpack(deb, &pin)?;
    for &(name, source, _) in SINGLE_BYTE {
        let Source::MariaDb(charset) = source else { continue };
        let path = dir.path().join(format!("usr/share/mysql/charsets/{charset}.xml"));
        let text = std::fs::read_to_string(&path).with_context(|| format!("{}", path.display()))?;
        let origin = format!(
            "MariaDB's share/mysql/charsets/{charset}.xml (its <unicode> map), Debian \
             mariadb-server-core {}, by `cargo run -p gen-tables -- count mariadb {}`",
            pin.version, pin.file
        );
        let text = single_byte_data(&origin, &parse_mariadb_table(charset, &text)?)?;
        out.file(&data_path(name), text.as_bytes())?;
    }
    Ok(())
}

/// The `count unicode-map` step: the pinned `libunicode-map-perl` package
/// to the data of the tables it is the [`Source::UnicodeMap`] of, read by
/// running `perl` over it.
pub fn count_unicode_map(deb: &Path, out: &mut Output) -> Result<()> {
    const SCRIPT: &str = "use Unicode::Map;\n\
        my $map = Unicode::Map->new($ARGV[0]) or die \"no map $ARGV[0]\";\n\
        for my $byte (0..255) {\n\
        \x20   my @units = unpack('n*', $map->to_unicode(chr($byte)));\n\
        \x20   print join(' ', map { sprintf('%04X', $_) } @units), \"\\n\";\n\
        }\n";
    let pin = Pin::read(&["charmaps", "unicode-map"])?;
    let dir = unpack(deb, &pin)?;
    let lib = dir.path().join("usr/lib/x86_64-linux-gnu/perl5/5.36");
    for &(name, source, _) in SINGLE_BYTE {
        let Source::UnicodeMap(map) = source else { continue };
        let output = Command::new("perl")
            .arg("-I")
            .arg(&lib)
            .args(["-e", SCRIPT, map])
            .output()
            .context("running perl")?;
        ensure!(output.status.success(), "perl: {}", String::from_utf8_lossy(&output.stderr));
        let origin = format!(
            "Unicode's VENDORS/APPLE table {map} as Perl's Unicode::Map ships it (its \
             REGISTRY: HEBREW.OLD.TXT, the older HEBREW.TXT), Debian libunicode-map-perl {}, \
             each byte's character with the direction controls of Apple's sequences dropped, \
             by `cargo run -p gen-tables -- count unicode-map {}`",
            pin.version, pin.file
        );
        let mappings = single_code_points(map, &String::from_utf8(output.stdout)?)?;
        out.file(&data_path(name), single_byte_data(&origin, &mappings)?.as_bytes())?;
    }
    Ok(())
}

/// The single-code-point reading of 256 lines of UTF-16 code units (hex),
/// one per byte (see [`Source::UnicodeMap`]).
fn single_code_points(name: &str, text: &str) -> Result<Vec<Mapping>> {
    let lines: Vec<&str> = text.lines().collect();
    ensure!(lines.len() == 256, "{name}: {} lines", lines.len());
    let mut mappings = Vec::new();
    for (byte, line) in (0..=u8::MAX).zip(lines) {
        let units = line.split_whitespace().map(hex).collect::<Result<Vec<u32>>>()?;
        let direction = |&u: &u32| matches!(u, 0x202C..=0x202E);
        let (controls, chars): (Vec<u32>, Vec<u32>) = units.into_iter().partition(direction);
        ensure!(controls.len() != 1 && chars.len() <= 1, "{name}: byte {byte:02X}: {line}");
        let code_point = match chars[..] {
            [code_point] if !(0xF850..=0xF8FF).contains(&code_point) => code_point,
            // The old table leaves out the C0 controls and DEL, which
            // Apple's later tables map to themselves.
            [] if byte < 0x20 || byte == 0x7F => u32::from(byte),
            _ => continue,
        };
        mappings.push(Mapping { bytes: vec![byte], code_point, reversible: true });
    }
    Ok(mappings)
}

/// Reads the `<unicode><map>` of a MariaDB charset file: 256 hex code
/// points, 0000 for a byte with no character (but byte 00).
fn parse_mariadb_table(name: &str, text: &str) -> Result<Vec<Mapping>> {
    let unicode =
        text.split("<unicode>").nth(1).with_context(|| format!("{name}: no <unicode>"))?;
    let map = unicode.split("<map>").nth(1).and_then(|m| m.split("</map>").next());
    let fields: Vec<&str> =
        map.with_context(|| format!("{name}: no <map>"))?.split_whitespace().collect();
    ensure!(fields.len() == 256, "{name}: {} code points in <map>", fields.len());
    let mut mappings = Vec::new();
    for (byte, field) in (0..=u8::MAX).zip(fields) {
        let code_point = hex(field)?;
        if code_point != 0 || byte == 0 {
            mappings.push(Mapping { bytes: vec![byte], code_point, reversible: true });
        }
    }
    Ok(mappings)
}

/// Checks a package against its pin and unpacks it with `dpkg-deb -x`.
pub(crate) fn unpack(deb: &Path, pin: &Pin) -> Result<tempfile::TempDir> {
    emit::read_pinned(deb, &format!("{} {}", pin.file, pin.version), &pin.sha256)?;
    let dir = tempfile::tempdir()?;
    let status = Command::new("dpkg-deb")
        .arg("-x")
        .arg(deb)
        .arg(dir.path())
        .status()
        .context("running dpkg-deb (Debian's dpkg package)")?;
    ensure!(status.success(), "dpkg-deb -x {} failed", deb.display());
    Ok(dir)
}

/// Reads the `decoding_table` of a CPython charmap codec module: 256 lines,
/// one string literal of one character each; U+FFFE marks an unmapped byte.
fn parse_python_table(name: &str, text: &str) -> Result<Vec<Mapping>> {
    let start = text.find("\ndecoding_table = (\n").with_context(|| format!("{name}: no table"))?;
    let mut mappings = Vec::new();
    let mut byte = 0usize;
    for line in text[start..].lines().skip(2) {
        let line = line.trim();
        if line == ")" {
            break;
        }
        let c = python_literal(line).with_context(|| format!("{name}: {line}"))?;
        let byte_value = u8::try_from(byte).with_context(|| format!("{name}: over 256 lines"))?;
        if c != '\u{FFFE}' {
            mappings.push(Mapping {
                bytes: vec![byte_value],
                code_point: u32::from(c),
                reversible: true,
            });
        }
        byte += 1;
    }
    ensure!(byte == 256, "{name}: {byte} lines in decoding_table");
    Ok(mappings)
}

/// The character of a one-character Python string literal at the start of
/// `line` (`'\x1b'`, `'\u0391'`, `'\t'`, `"'"`, `'a'`).
fn python_literal(line: &str) -> Option<char> {
    let quote = line.chars().next().filter(|q| matches!(q, '\'' | '"'))?;
    let body = &line[1..];
    let (c, len) = match body.strip_prefix('\\') {
        Some(escape) => {
            let hex = |digits: usize| {
                let hex = escape.get(1..=digits)?;
                u32::from_str_radix(hex, 16).ok().and_then(char::from_u32)
            };
            match escape.chars().next()? {
                'x' => (hex(2)?, 4),
                'u' => (hex(4)?, 6),
                't' => ('\t', 2),
                'n' => ('\n', 2),
                'r' => ('\r', 2),
                c @ ('\\' | '\'' | '"') => (c, 2),
                _ => return None,
            }
        }
        None => {
            let c = body.chars().next()?;
            (c, c.len_utf8())
        }
    };
    body.get(len..)?.starts_with(quote).then_some(c)
}

/// An EBCDIC table's euro update: its one U+00A4 becomes U+20AC.
fn euro_variant(base: &[Mapping]) -> Result<Vec<Mapping>> {
    let signs = base.iter().filter(|m| m.code_point == 0xA4).count();
    ensure!(signs == 1, "{signs} currency signs in the base table");
    ensure!(base.iter().all(|m| m.code_point != 0x20AC), "the base has the euro sign");
    let euro = |m: &Mapping| Mapping {
        code_point: if m.code_point == 0xA4 { 0x20AC } else { m.code_point },
        ..m.clone()
    };
    Ok(base.iter().map(euro).collect())
}

/// How Python decodes each byte in each of [`PYTHON_CODECS`]: one line per
/// codec, its name and 256 code points (hex, `-` for an error).
fn python_decodings(command: &str) -> Result<String> {
    const SCRIPT: &str = "import sys\n\
        print(sys.version.split()[0])\n\
        for name in sys.argv[1:]:\n\
        \x20   cells = []\n\
        \x20   for b in range(256):\n\
        \x20       try:\n\
        \x20           cells.append('%04X' % ord(bytes([b]).decode(name)))\n\
        \x20       except UnicodeDecodeError:\n\
        \x20           cells.append('-')\n\
        \x20   print(name, ' '.join(cells))\n";
    let codecs: Vec<String> = PYTHON_CODECS.iter().map(|c| c.to_string()).collect();
    let (version, lines) = run_python(SCRIPT, &codecs)?;
    Ok(format!(
        "# How Python {version} decodes each byte 00-FF (hex code points, `-` for an\n\
         # error) in its codecs of the charsets charsight has outside the Encoding\n\
         # Standard, by {command}. Read by charsight's tests.\n{lines}"
    ))
}

/// How Python decodes each pair of bytes 21-7E between `~{` and `~}` with
/// its `hz` codec: one line per row with a character, the row and 94 code
/// points (hex, `-` for an error), as in `GB2312.txt`.
fn python_hz(command: &str) -> Result<String> {
    const SCRIPT: &str = "import sys\n\
        print(sys.version.split()[0])\n\
        for row in range(0x21, 0x7F):\n\
        \x20   cells = []\n\
        \x20   for cell in range(0x21, 0x7F):\n\
        \x20       try:\n\
        \x20           text = bytes([0x7E, 0x7B, row, cell, 0x7E, 0x7D]).decode('hz')\n\
        \x20           cells.append('%04X' % ord(text) if len(text) == 1 else '?')\n\
        \x20       except UnicodeDecodeError:\n\
        \x20           cells.append('-')\n\
        \x20   if set(cells) != {'-'}:\n\
        \x20       print('%02X' % row, ' '.join(cells))\n";
    let (version, lines) = run_python(SCRIPT, &[])?;
    ensure!(!lines.contains('?'), "python3: a pair decodes to more than one character");
    Ok(format!(
        "# How Python {version} decodes each pair of bytes 21-7E in GB mode of its `hz`\n\
         # codec (HZ-GB-2312): `row` (hex) and 94 code points for cells 21-7E (hex,\n\
         # `-` for an error), by {command}. Read by charsight's tests.\n{lines}"
    ))
}

/// Runs a Python script with `args`: its output after the first line, and
/// that line (Python's version).
fn run_python(script: &str, args: &[String]) -> Result<(String, String)> {
    let output = Command::new("python3")
        .arg("-c")
        .arg(script)
        .args(args)
        .output()
        .context("running python3")?;
    ensure!(output.status.success(), "python3: {}", String::from_utf8_lossy(&output.stderr));
    let stdout = String::from_utf8(output.stdout)?;
    let (version, lines) = stdout.split_once('\n').context("no output from python3")?;
    Ok((version.to_owned(), lines.to_owned()))
}

/// The text of a decoding as a cell of Python's oracles: code points (hex)
/// joined by `+`, `.` for none.
const PYTHON_CELL: &str = "def cell(text):\n\
    \x20   return '+'.join('%04X' % ord(c) for c in text) or '.'\n";

/// How Python's `codec` decodes each byte 00-FF alone and after each of
/// `prefixes`: one line per prefix (hex, `.` for none) whose bytes decode
/// to anything, and 256 cells (see [`PYTHON_CELL`]; `-` for an error).
fn python_sequences(
    command: &str,
    codec: &str,
    prefixes: &[RangeInclusive<u16>],
) -> Result<String> {
    let script = format!(
        "import sys\n{PYTHON_CELL}\
        print(sys.version.split()[0])\n\
        for prefix in sys.argv[1:]:\n\
        \x20   cells = []\n\
        \x20   for b in range(256):\n\
        \x20       try:\n\
        \x20           cells.append(cell((bytes.fromhex(prefix) + bytes([b])).decode('{codec}')))\n\
        \x20       except UnicodeDecodeError:\n\
        \x20           cells.append('-')\n\
        \x20   if set(cells) != {{'-'}}:\n\
        \x20       print(prefix or '.', ' '.join(cells))\n"
    );
    let mut args = vec![String::new()];
    for range in prefixes {
        args.extend(range.clone().map(|p| {
            if p > 0xFF {
                format!("{p:04X}")
            } else {
                format!("{p:02X}")
            }
        }));
    }
    let (version, lines) = run_python(&script, &args)?;
    Ok(format!(
        "# How Python {version} decodes each byte 00-FF (columns) alone and after each\n\
         # prefix (the first field, hex; `.` for none) with its `{codec}` codec: the\n\
         # code points (hex) joined by `+`, `-` for an error. Lines of errors only are\n\
         # left out. By {command}. Read by charsight's tests.\n{lines}"
    ))
}

/// How Python decodes [`PYTHON_RANDOM_STRINGS`] random byte strings (fixed
/// seed; bytes that begin and continue sequences are likelier) with each of
/// `codecs` and `errors='replace'`: one line per string, the codec, the bytes
/// (hex, `.` for none) and the text (see [`PYTHON_CELL`]).
fn python_random(command: &str, codecs: &[&str]) -> Result<String> {
    let script = format!(
        "import random, sys\n{PYTHON_CELL}\
        print(sys.version.split()[0])\n\
        pools = [range(256), range(0xA1, 0xFF), range(0x81, 0xA0), range(0xE0, 0xFD),\n\
        \x20        range(0x40, 0x7F), [0x8E, 0x8F, 0x0A, 0x1B, 0x5C, 0x7E]]\n\
        rng = random.Random(22)\n\
        for codec in sys.argv[2:]:\n\
        \x20   for _ in range(int(sys.argv[1])):\n\
        \x20       data = bytes(rng.choice(rng.choice(pools)) for _ in range(rng.randrange(24)))\n\
        \x20       print(codec, data.hex() or '.', cell(data.decode(codec, 'replace')))\n"
    );
    let mut args = vec![PYTHON_RANDOM_STRINGS.to_string()];
    args.extend(codecs.iter().map(|c| c.to_string()));
    let (version, lines) = run_python(&script, &args)?;
    Ok(format!(
        "# How Python {version} decodes random byte strings with errors='replace':\n\
         # `codec bytes text`, the bytes in hex (`.` for none), the text as code points\n\
         # (hex) joined by `+` (`.` for none). By {command}. Read by charsight's tests.\n{lines}"
    ))
}

/// A pin of `inputs.toml`: the table at `path` (`["charmaps", "python"]`).
pub(crate) struct Pin {
    pub(crate) file: String,
    pub(crate) version: String,
    sha256: String,
}

impl Pin {
    pub(crate) fn read(path: &[&str]) -> Result<Pin> {
        let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("inputs.toml");
        let inputs: toml::Table = std::fs::read_to_string(&file)?.parse()?;
        let mut table = Some(&inputs);
        for key in path {
            table = table.and_then(|t| t.get(*key)).and_then(|t| t.as_table());
        }
        let field = |key: &str| -> Result<String> {
            let value = table.and_then(|t| t.get(key)).and_then(|v| v.as_str());
            let name = path.join(".");
            Ok(value.with_context(|| format!("inputs.toml: [{name}] {key}"))?.to_owned())
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
    ensure!(by_byte.get(&0) == Some(&0), "{source}: byte 00 is not U+0000");
    let mut text = format!(
        "# From {source}.\n# `byte code-point` (hex) for bytes 80-FF and for bytes below 80 whose\n\
         # character is not the ASCII one (`-` for none); a byte above 7F not listed\n\
         # has no character.\n"
    );
    for byte in 0..=u8::MAX {
        match by_byte.get(&byte) {
            Some(&code_point) if byte >= 0x80 || u32::from(byte) != code_point => {
                writeln!(text, "{byte:02X} {code_point:04X}")?
            }
            None if byte < 0x80 => writeln!(text, "{byte:02X} -")?,
            _ => {}
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
        push_cells(&mut text, &cells)?;
    }
    Ok(text)
}

/// GB 2312 (glibc's `GB2312`, EUC-CN: row|80, cell|80) as intermediate
/// text: one line per non-empty row.
fn gb2312_data(source: &str, mappings: &[Mapping]) -> Result<String> {
    let mut grid: BTreeMap<u8, [u32; CELLS]> = BTreeMap::new();
    for m in mappings {
        ensure!(m.reversible, "{source}: irreversible: {m:?}");
        let (row, cell) = match m.bytes[..] {
            [b] => {
                ensure!(u32::from(b) == m.code_point && b < 0x80, "{source}: {m:?}");
                continue;
            }
            [row @ 0xA1..=0xFE, cell @ 0xA1..=0xFE] => (row, cell),
            _ => bail!("{source}: unexpected bytes {m:?}"),
        };
        ensure!(is_bmp_char(m.code_point) && m.code_point > 0x7F, "{source}: {m:?}");
        let cell = &mut grid.entry(row - 0x80).or_insert([0; CELLS])[usize::from(cell - 0xA1)];
        ensure!(*cell == 0, "{source}: twice: {m:?}");
        *cell = m.code_point;
    }
    let mut text = format!(
        "# From {source}.\n# GB 2312 rows as `row` (21-7E, hex) and 94 code points for cells 21-7E\n\
         # (hex, `-` for none). EUC-CN is row|80, cell|80; HZ-GB-2312 is row, cell.\n"
    );
    for (row, cells) in grid {
        write!(text, "{row:02X}")?;
        push_cells(&mut text, &cells)?;
    }
    Ok(text)
}

/// JIS X 0213 (glibc's `EUC-JISX0213`: plane 1 is row|80, cell|80, plane
/// 2 is 8F, row|80, cell|80) as intermediate text: one line per non-empty
/// row of each plane. The 25 cells that stand for a base letter and a
/// combining mark are in the charmap as comments
/// (`%<U304B><U309A> /xa4/xf7`, localedef reads one code point per line):
/// they are read from there, and written `304B+309A`.
fn jisx0213_data(source: &str, text: &str) -> Result<String> {
    let mut sequences: Vec<(Vec<u8>, Vec<u32>)> = parse_charmap("EUC-JISX0213", text)?
        .into_iter()
        .map(|m| {
            ensure!(m.reversible, "{source}: irreversible: {m:?}");
            Ok((m.bytes, vec![m.code_point]))
        })
        .collect::<Result<_>>()?;
    let pairs = parse_charmap_pairs(text)?;
    ensure!(pairs.len() == 25, "{source}: {} pairs, not 25", pairs.len());
    sequences.extend(pairs);
    let mut grid: BTreeMap<(u8, u8), [Vec<u32>; CELLS]> = BTreeMap::new();
    for (bytes, code_points) in sequences {
        let (plane, row, cell) = match bytes[..] {
            [b] => {
                ensure!(code_points == [u32::from(b)] && b < 0x80, "{source}: {bytes:x?}");
                continue;
            }
            [0x8E, b @ 0xA1..=0xDF] => {
                ensure!(code_points == [0xFEC0 + u32::from(b)], "{source}: {bytes:x?}");
                continue;
            }
            [row, cell] => (1, row, cell),
            [0x8F, row, cell] => (2, row, cell),
            _ => bail!("{source}: unexpected bytes {bytes:x?}"),
        };
        ensure!((0xA1..=0xFE).contains(&row) && (0xA1..=0xFE).contains(&cell), "{bytes:x?}");
        ensure!(
            code_points.iter().all(|&c| c > 0x7F && char::from_u32(c).is_some()),
            "{source}: {bytes:x?} {code_points:x?}"
        );
        let cells =
            grid.entry((plane, row - 0x80)).or_insert_with(|| std::array::from_fn(|_| Vec::new()));
        let cell = &mut cells[usize::from(cell - 0xA1)];
        ensure!(cell.is_empty(), "{source}: twice: {bytes:x?}");
        *cell = code_points;
    }
    let mut text = format!(
        "# From {source}.\n# JIS X 0213 rows as `plane row` (row 21-7E, hex) and 94 code points for\n\
         # cells 21-7E (hex, `-` for none; `A+B` for a letter and a combining mark).\n\
         # EUC-JIS-2004 is row|80, cell|80 in plane 1 and 8F, row|80, cell|80 in plane 2.\n"
    );
    for ((plane, row), cells) in grid {
        write!(text, "{plane} {row:02X}")?;
        for cell in cells {
            match &cell[..] {
                [] => text.push_str(" -"),
                [c] => write!(text, " {c:04X}")?,
                [a, b] => write!(text, " {a:04X}+{b:04X}")?,
                _ => bail!("{source}: {cell:x?}"),
            }
        }
        text.push('\n');
    }
    Ok(text)
}

/// The mappings to two code points that a charmap lists as comments:
/// `%<U304B><U309A> /xa4/xf7` lines.
fn parse_charmap_pairs(text: &str) -> Result<Vec<(Vec<u8>, Vec<u32>)>> {
    let mut pairs = Vec::new();
    for line in text.lines() {
        let Some(rest) = line.strip_prefix("%<U") else { continue };
        let (first, rest) = rest.split_once("><U").with_context(|| line.to_owned())?;
        let (second, rest) = rest.split_once('>').with_context(|| line.to_owned())?;
        let code_points = vec![hex(first)?, hex(second)?];
        let field = rest.split_whitespace().next().with_context(|| line.to_owned())?;
        let bytes = field
            .split("/x")
            .skip(1)
            .map(|b| u8::from_str_radix(b, 16))
            .collect::<Result<Vec<u8>, _>>()
            .with_context(|| line.to_owned())?;
        ensure!(bytes.len() == 2 && field.starts_with("/x"), "no bytes: {line}");
        pairs.push((bytes, code_points));
    }
    Ok(pairs)
}

/// Appends a row's code points (hex, `-` for none) and ends its line.
fn push_cells(text: &mut String, cells: &[u32; CELLS]) -> std::fmt::Result {
    for &cell in cells {
        match cell {
            0 => text.push_str(" -"),
            c => write!(text, " {c:04X}")?,
        }
    }
    text.push('\n');
    Ok(())
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
    for &(name, _, rust_name) in SINGLE_BYTE {
        let (text, raw) = read_data(name)?;
        inputs.extend(raw);
        let mut chars: [u32; 256] = std::array::from_fn(|b| if b < 0x80 { b as u32 } else { 0 });
        for line in text.lines() {
            let (byte, code_point) = line.split_once(' ').context("bad line")?;
            let code_point = if code_point == "-" { 0 } else { hex(code_point)? };
            chars[usize::from(u8::try_from(hex(byte)?)?)] = code_point;
        }
        let ascii_compatible = MARKUP.bytes().all(|b| chars[usize::from(b)] == u32::from(b));
        let is_ebcdic = [(0x40, ' '), (0x81, 'a'), (0xC1, 'A'), (0xF0, '0'), (0x4C, '<')]
            .iter()
            .all(|&(byte, c)| chars[byte] == u32::from(c));
        ensure!(ascii_compatible || is_ebcdic, "{name}: neither ASCII-compatible nor EBCDIC");
        // What `&#8364;` is written with (charsight's `Codec::push_reference`).
        ensure!(
            "&#0123456789;".chars().all(|c| chars.contains(&u32::from(c))),
            "{name}: a numeric character reference cannot be written"
        );
        writeln!(body, "\n/// From `{name}.txt`.")?;
        writeln!(body, "pub static {rust_name}: SingleByte = SingleByte {{ chars: [")?;
        for code_point in chars {
            write!(body, "{code_point:#06X},")?;
        }
        writeln!(body, "], ascii_compatible: {ascii_compatible} }};")?;
    }
    emit_euc_tw(&mut body, &mut inputs)?;
    emit_gb2312(&mut body, &mut inputs)?;
    emit_jisx0213(&mut body, &mut inputs)?;
    emit_oracles(&mut body, &mut inputs)?;
    out.rust("charmaps", "emit (data: count charmaps <locales.deb>)", &inputs, &body)
}

const PREAMBLE: &str = "//! Mapping tables of encodings outside the Encoding Standard, from glibc's
//! charmaps (Debian package `locales`) and CPython's codecs (Debian package
//! `libpython3.11-minimal`); see `tools/gen-tables/inputs.toml`.

/// A single-byte encoding's table.
pub struct SingleByte {
    /// The code point of each byte; 0 where a byte has no character (byte
    /// 0x00 is U+0000 in every table).
    pub chars: [u16; 256],
    /// Whether ASCII letters, digits, space and the markup characters
    /// `!\"#&'-./:;<=>?_` are their ASCII bytes. Every table is either
    /// that or EBCDIC (space 0x40, `a` 0x81, `A` 0xC1, `0` 0xF0).
    pub ascii_compatible: bool,
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

/// GB 2312's cells, row by row (see `GB2312.txt`).
fn emit_gb2312(body: &mut String, inputs: &mut Vec<u8>) -> Result<()> {
    let (text, raw) = read_data("GB2312")?;
    inputs.extend(raw);
    let mut cells = vec![0u32; CELLS * CELLS];
    for line in text.lines() {
        let fields: Vec<&str> = line.split(' ').collect();
        ensure!(fields.len() == 1 + CELLS, "bad GB2312 line {line}");
        let row = hex(fields[0])? as usize;
        ensure!((0x21..=0x7E).contains(&row), "bad row {row}");
        for (i, field) in fields[1..].iter().enumerate() {
            cells[(row - 0x21) * CELLS + i] = if *field == "-" { 0 } else { hex(field)? };
        }
    }
    writeln!(
        body,
        "\n/// GB 2312: the code point of row `r` and cell `c` (each 0x21 to 0x7E)\n\
         /// at `(r - 0x21) * 94 + (c - 0x21)`, 0 for none.\n\
         pub static GB2312_CELLS: [u16; {}] = [",
        cells.len()
    )?;
    for cell in &cells {
        write!(body, "{cell:#06X},")?;
    }
    writeln!(body, "];")?;
    Ok(())
}

/// JIS X 0213's cells, plane by plane and row by row, and its pairs (see
/// `JISX0213.txt`).
fn emit_jisx0213(body: &mut String, inputs: &mut Vec<u8>) -> Result<()> {
    let (text, raw) = read_data("JISX0213")?;
    inputs.extend(raw);
    let mut cells = vec![0u32; 2 * CELLS * CELLS];
    let mut pairs = Vec::new();
    for line in text.lines() {
        let fields: Vec<&str> = line.split(' ').collect();
        ensure!(fields.len() == 2 + CELLS, "bad JISX0213 line {line}");
        let plane = fields[0].parse::<usize>()?;
        let row = hex(fields[1])? as usize;
        ensure!((1..=2).contains(&plane) && (0x21..=0x7E).contains(&row), "bad row {line}");
        for (i, field) in fields[2..].iter().enumerate() {
            let index = ((plane - 1) * CELLS + row - 0x21) * CELLS + i;
            match field.split_once('+') {
                Some((base, mark)) => pairs.push((index, hex(base)?, hex(mark)?)),
                None if *field == "-" => {}
                None => cells[index] = hex(field)?,
            }
        }
    }
    writeln!(
        body,
        "\n/// JIS X 0213:2004: the code point of plane `p` (1 or 2), row `r` and cell\n\
         /// `c` (each 0x21 to 0x7E) at `((p - 1) * 94 + r - 0x21) * 94 + c - 0x21`, 0\n\
         /// for none and for the cells of [`JISX0213_PAIRS`].\n\
         pub static JISX0213_CELLS: [u32; {}] = [",
        cells.len()
    )?;
    for cell in &cells {
        write!(body, "{cell:#06X},")?;
    }
    writeln!(body, "];")?;
    writeln!(
        body,
        "\n/// The cells of JIS X 0213 that stand for two code points, a letter and a\n\
         /// combining mark: the index (as in [`JISX0213_CELLS`]), the letter, the\n\
         /// mark; by index.\n\
         pub static JISX0213_PAIRS: [(u16, u32, u32); {}] = [",
        pairs.len()
    )?;
    for (index, base, mark) in pairs {
        write!(body, "({index}, {base:#06X}, {mark:#06X}),")?;
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
    fn reads_python_tables() {
        for (line, c) in [
            ("'\\x00'     #  0x00 -> NULL", '\0'),
            ("'\\u0391'   #  0xA1", 'Α'),
            ("'\\t'", '\t'),
            ("'\\\\'", '\\'),
            ("\"'\"       #  0x27", '\''),
            ("'a'", 'a'),
        ] {
            assert_eq!(python_literal(line), Some(c), "{line}");
        }
        for bad in ["'ab'", "'\\q'", "\"a'", "x", "'\\x4'"] {
            assert_eq!(python_literal(bad), None, "{bad}");
        }
        let mut text = String::from("x = 1\ndecoding_table = (\n");
        for b in 0..256 {
            let c = if b == 0x80 { 0xFFFE } else { b };
            writeln!(text, "    '\\u{c:04x}'   #  0x{b:02X}").unwrap();
        }
        text.push_str(")\n");
        let table = parse_python_table("t", &text).unwrap();
        assert_eq!(table.len(), 255);
        assert_eq!(table[0x80].bytes, [0x81]);
        assert!(parse_python_table("t", &text.replace("'\\u0041'   #  0x41\n", "")).is_err());
    }

    #[test]
    fn reads_sequences_as_single_code_points() {
        let mut lines: Vec<String> = (0..256).map(|b| format!("{b:04X}")).collect();
        lines[0x20] = "202D 0020 202C".into();
        lines[0xA1] = "202E 0021 202C".into();
        lines[0xC0] = "F89A".into();
        lines[0xFF] = String::new();
        lines[0x01] = String::new();
        // As perl prints them: a newline after each.
        let text = |lines: &[String]| lines.iter().map(|l| format!("{l}\n")).collect::<String>();
        let table = single_code_points("t", &text(&lines)).unwrap();
        let code_point = |byte: u8| table.iter().find(|m| m.bytes == [byte]).map(|m| m.code_point);
        assert_eq!(table.len(), 254);
        assert_eq!(code_point(0x01), Some(0x01));
        assert_eq!(
            (code_point(0x20), code_point(0xA1), code_point(0xC0)),
            (Some(0x20), Some(0x21), None)
        );
        lines[0xA2] = "202E 0021 0022 202C".into();
        assert!(single_code_points("t", &text(&lines)).is_err());
    }

    #[test]
    fn reads_mariadb_tables() {
        let map: Vec<String> = (0..256)
            .map(|b| {
                format!(
                    "{:04X}",
                    if b == 0x80 {
                        0x20AC
                    } else if b == 0x81 {
                        0
                    } else {
                        b
                    }
                )
            })
            .collect();
        let text = format!(
            "<charset><ctype><map>00</map></ctype><unicode>\n<map>\n{}\n</map>\n</unicode>",
            map.join(" ")
        );
        let table = parse_mariadb_table("t", &text).unwrap();
        assert_eq!(table.len(), 255);
        assert_eq!((table[0x80].bytes[0], table[0x80].code_point), (0x80, 0x20AC));
        assert_eq!(table[0x81].bytes, [0x82]);
        assert!(parse_mariadb_table("t", &text.replace("0041 ", "")).is_err());
    }

    #[test]
    fn euro_variant_replaces_the_currency_sign() {
        let base: Vec<Mapping> = [(0x5A, 0xA4), (0x5B, 0xC5)]
            .map(|(b, c)| Mapping { bytes: vec![b], code_point: c, reversible: true })
            .into();
        let euro = euro_variant(&base).unwrap();
        assert_eq!(euro.iter().map(|m| m.code_point).collect::<Vec<_>>(), [0x20AC, 0xC5]);
        assert!(euro_variant(&euro).is_err());
    }

    #[test]
    fn fnv1a64_of_nothing_is_the_offset_basis() {
        assert_eq!(fnv1a64(&BTreeMap::new()), 0xcbf2_9ce4_8422_2325);
        let one = BTreeMap::from([(vec![0xA1, 0xA1], 0x3000)]);
        assert_ne!(fnv1a64(&one), fnv1a64(&BTreeMap::from([(vec![0xA1, 0xA2], 0x3000)])));
    }
}
