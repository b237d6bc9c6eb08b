//! `xtask everyday --out DIR [--seed N]`: an everyday battery, kept out of
//! training: web pages (declared and undeclared), plain text, DOS screens and
//! binary files, with `DIR/labels.tsv` (`path encoding language kind
//! declared`).
//!
//! The text is not `../shared/text` (the models' training text): it comes
//! from the pinned PyPI package Faker (MIT; see `tools/xtask/EVERYDAY.md`)
//! through `py/everyday_text.py`, which prints pools of sentences, names,
//! addresses, companies, job titles, phone numbers, e-mail addresses and URLs
//! per language, and Python's own single-byte code page tables. This module
//! builds the pages around them, with one to three of the symbols everyday
//! text carries (`©`, `€`, `°`, `½`, `“…”`, NBSP…) placed where real text
//! places them, and encodes them with Python's tables (not charsight's).
//! `py/everyday_binary.py` writes the binary files. The same seed gives the
//! same files (the binary copies depend on what `/usr` holds).

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use serde_json::Value;

use crate::venv;

#[derive(clap::Args)]
pub struct Args {
    /// The folder to write (made if missing).
    #[arg(long)]
    out: PathBuf,
    /// The seed of every random choice.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Web pages per kind (declared, undeclared, plain) in the western languages.
    #[arg(long, default_value_t = 240)]
    western: usize,
    /// Pages per kind and encoding in Polish, Czech and Russian.
    #[arg(long, default_value_t = 15)]
    cross_check: usize,
    /// DOS screens per code page.
    #[arg(long, default_value_t = 25)]
    dos: usize,
    /// Short strings (20 to 100 bytes) in the western languages; a quarter
    /// as many in each DOS code page.
    #[arg(long, default_value_t = 360)]
    short: usize,
    /// Web pages in the western languages quoting names and places of other
    /// countries.
    #[arg(long, default_value_t = 240)]
    names: usize,
}

/// SplitMix64: small, and the same on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi - lo + 1)
    }

    fn chance(&mut self, p: f64) -> bool {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64 <= p
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// An encoding of the battery: its label, and the Python codec whose table
/// encodes it (`None`: UTF-8).
#[derive(Clone, Copy)]
struct Encoding {
    label: &'static str,
    codec: Option<&'static str>,
    /// The labels a page may declare it with.
    declare: &'static [&'static str],
}

const UTF_8: Encoding = Encoding { label: "UTF-8", codec: None, declare: &["utf-8", "UTF-8"] };
const WINDOWS_1252: Encoding =
    Encoding { label: "windows-1252", codec: Some("cp1252"), declare: &["windows-1252"] };
const ISO_8859_1: Encoding = Encoding {
    label: "ISO-8859-1",
    codec: Some("latin_1"),
    declare: &["iso-8859-1", "ISO-8859-1", "latin1"],
};
const ISO_8859_15: Encoding = Encoding {
    label: "ISO-8859-15",
    codec: Some("iso8859_15"),
    declare: &["iso-8859-15", "ISO-8859-15"],
};
const WINDOWS_1250: Encoding =
    Encoding { label: "windows-1250", codec: Some("cp1250"), declare: &["windows-1250"] };
const ISO_8859_2: Encoding =
    Encoding { label: "ISO-8859-2", codec: Some("iso8859_2"), declare: &["iso-8859-2"] };
const WINDOWS_1251: Encoding =
    Encoding { label: "windows-1251", codec: Some("cp1251"), declare: &["windows-1251"] };
const KOI8_R: Encoding = Encoding { label: "KOI8-R", codec: Some("koi8_r"), declare: &["koi8-r"] };

/// The western languages, with their navigation words (home, products,
/// about us, contact, news) and how their text writes a price.
const WESTERN: [(&str, [&str; 5]); 11] = [
    ("en", ["Home", "Products", "About us", "Contact", "News"]),
    ("fr", ["Accueil", "Produits", "Qui sommes-nous", "Contact", "Actualités"]),
    ("de", ["Startseite", "Produkte", "Über uns", "Kontakt", "Aktuelles"]),
    ("es", ["Inicio", "Productos", "Quiénes somos", "Contacto", "Noticias"]),
    ("it", ["Home", "Prodotti", "Chi siamo", "Contatti", "Notizie"]),
    ("nl", ["Home", "Producten", "Over ons", "Contact", "Nieuws"]),
    ("da", ["Forside", "Produkter", "Om os", "Kontakt", "Nyheder"]),
    ("pt", ["Início", "Produtos", "Sobre nós", "Contacto", "Notícias"]),
    ("sv", ["Startsida", "Produkter", "Om oss", "Kontakt", "Nyheter"]),
    ("no", ["Hjem", "Produkter", "Om oss", "Kontakt", "Nyheter"]),
    ("fi", ["Etusivu", "Tuotteet", "Meistä", "Yhteystiedot", "Uutiset"]),
];

const CROSS_CHECK: [(&str, [&str; 5], [Encoding; 2]); 3] = [
    (
        "pl",
        ["Strona główna", "Produkty", "O nas", "Kontakt", "Aktualności"],
        [WINDOWS_1250, ISO_8859_2],
    ),
    ("cs", ["Úvod", "Produkty", "O nás", "Kontakt", "Novinky"], [WINDOWS_1250, ISO_8859_2]),
    ("ru", ["Главная", "Продукция", "О компании", "Контакты", "Новости"], [WINDOWS_1251, KOI8_R]),
];

/// A DOS screen: code page, language, title, menu entries, the key line.
type DosScreen = (&'static str, &'static str, &'static str, [&'static str; 6], &'static str);

const DOS: [DosScreen; 9] = [
    (
        "IBM437",
        "en",
        "MAIN MENU",
        ["Customers", "Invoices", "Stock list", "Print reports", "Settings", "Exit to DOS"],
        "F1=Help  F10=Quit  Esc=Back",
    ),
    (
        "IBM437",
        "de",
        "HAUPTMENÜ",
        [
            "Kunden bearbeiten",
            "Rechnungen",
            "Lagerbestand",
            "Berichte drucken",
            "Einstellungen",
            "Zurück zu DOS",
        ],
        "F1=Hilfe  F10=Ende  Esc=Zurück",
    ),
    (
        "IBM850",
        "fr",
        "MENU PRINCIPAL",
        ["Fichier clients", "Factures", "État du stock", "Impression", "Paramètres", "Quitter"],
        "F1=Aide  F10=Fin  Échap=Retour",
    ),
    (
        "IBM850",
        "es",
        "MENÚ PRINCIPAL",
        ["Clientes", "Facturación", "Almacén", "Imprimir informes", "Configuración", "Salir"],
        "F1=Ayuda  F10=Salir  Esc=Atrás",
    ),
    (
        "IBM850",
        "de",
        "HAUPTMENÜ",
        ["Adressen", "Aufträge", "Bestellungen prüfen", "Drucken", "Größe ändern", "Beenden"],
        "F1=Hilfe  F10=Ende",
    ),
    (
        "IBM852",
        "cs",
        "HLAVNÍ NABÍDKA",
        ["Zákazníci", "Faktury", "Sklad zboží", "Tisk přehledů", "Nastavení", "Konec práce"],
        "F1=Nápověda  F10=Konec",
    ),
    (
        "IBM852",
        "pl",
        "MENU GŁÓWNE",
        ["Klienci", "Faktury", "Stan magazynu", "Drukowanie zestawień", "Ustawienia", "Wyjście"],
        "F1=Pomoc  F10=Koniec",
    ),
    (
        "IBM866",
        "ru",
        "ГЛАВНОЕ МЕНЮ",
        ["Клиенты", "Счета", "Склад", "Печать отчётов", "Настройки", "Выход в DOS"],
        "F1=Помощь  F10=Выход",
    ),
    (
        "IBM866",
        "ru",
        "ПРОГРАММА УЧЁТА",
        [
            "Ввод документов",
            "Журнал операций",
            "Справочники",
            "Сервис",
            "Архив",
            "Завершение работы",
        ],
        "F1=Помощь  Esc=Отмена",
    ),
];

/// The symbols of everyday text, one to three on each page.
const SYMBOLS: [&str; 39] = [
    "©", "®", "™", "£", "€", "¥", "¢", "§", "¶", "°", "µ", "±", "×", "÷", "½", "¼", "¾", "¹", "²",
    "³", "º", "ª", "«»", "¿", "¡", "–", "—", "…", "•", "†", "‡", "‰", "“”", "‘’", "·", "\u{a0}",
    "°C", "№", "„“",
];

/// A language's pools of Faker text.
#[derive(Default)]
struct Pools {
    fields: BTreeMap<String, Vec<String>>,
}

impl Pools {
    fn get(&self, field: &str) -> &[String] {
        self.fields.get(field).map_or(&[], Vec::as_slice)
    }
}

/// Python's code page tables, inverted.
struct Tables(HashMap<&'static str, HashMap<char, u8>>);

impl Tables {
    fn encode(&self, encoding: &Encoding, text: &str) -> Option<Vec<u8>> {
        let Some(codec) = encoding.codec else { return Some(text.as_bytes().to_vec()) };
        let table = &self.0[codec];
        text.chars().map(|c| table.get(&c).copied()).collect()
    }

    fn fits(&self, encoding: &Encoding, text: &str) -> bool {
        match encoding.codec {
            None => true,
            Some(codec) => text.chars().all(|c| self.0[codec].contains_key(&c)),
        }
    }
}

/// What the generator draws from.
struct Source {
    languages: BTreeMap<String, Pools>,
    /// Names and places of other countries, each with a letter beyond ASCII.
    foreign: Vec<String>,
    tables: Tables,
}

impl Source {
    /// A random item of `field` in `lang` that `encoding` can encode.
    fn pick(&self, rng: &mut Rng, lang: &str, field: &str, encoding: &Encoding) -> String {
        let pool = self.languages.get(lang).map_or(&[][..], |p| p.get(field));
        for _ in 0..50 {
            if pool.is_empty() {
                break;
            }
            let item = rng.pick(pool);
            if self.tables.fits(encoding, item) {
                return item.clone();
            }
        }
        // The English pools are ASCII but for a few names.
        let english = self.languages["en"].get(field);
        english.iter().find(|s| s.is_ascii()).cloned().unwrap_or_default()
    }

    /// A name or place of another country that `encoding` can encode.
    fn foreign(&self, rng: &mut Rng, encoding: &Encoding) -> Option<String> {
        (0..50).map(|_| rng.pick(&self.foreign)).find(|s| self.tables.fits(encoding, s)).cloned()
    }

    /// A paragraph: sentences where the language has Faker prose, else a
    /// sentence built of names, companies, jobs and cities.
    fn paragraph(&self, rng: &mut Rng, lang: &str, encoding: &Encoding) -> String {
        let has_prose = !self.languages[lang].get("sentences").is_empty();
        let n = rng.range(2, 6);
        let mut out = Vec::new();
        for _ in 0..n {
            if has_prose {
                out.push(self.pick(rng, lang, "sentences", encoding));
            } else {
                let name = self.pick(rng, lang, "names", encoding);
                let job = self.pick(rng, lang, "jobs", encoding);
                let company = self.pick(rng, lang, "companies", encoding);
                let city = self.pick(rng, lang, "cities", encoding);
                out.push(format!("{name}, {job} ({company}, {city})."));
            }
        }
        out.join(" ")
    }
}

fn load(seed: u64) -> Result<Source> {
    let python = venv::python()?;
    let output = venv::command(&python, "everyday_text.py")
        .arg(seed.to_string())
        .output()
        .context("running everyday_text.py")?;
    if !output.status.success() {
        bail!("everyday_text.py failed: {}", String::from_utf8_lossy(&output.stderr));
    }
    let json: Value = serde_json::from_slice(&output.stdout).context("everyday_text.py output")?;
    let mut languages = BTreeMap::new();
    for (lang, fields) in json["languages"].as_object().context("no languages")? {
        let mut pools = Pools::default();
        for (field, items) in fields.as_object().context("bad pools")? {
            let items = items.as_array().context("bad pool")?;
            let items = items.iter().filter_map(Value::as_str).map(|s| s.replace('\n', ", "));
            pools.fields.insert(field.clone(), items.collect());
        }
        languages.insert(lang.clone(), pools);
    }
    let foreign = json["foreign"].as_object().context("no foreign names")?.values();
    let foreign = foreign.filter_map(Value::as_array).flatten().filter_map(Value::as_str);
    let foreign = foreign.map(str::to_owned).collect();
    let codecs = ["latin_1", "cp1252", "iso8859_15", "cp1250", "iso8859_2", "cp1251", "koi8_r"];
    let codecs = codecs.into_iter().chain(["cp437", "cp850", "cp852", "cp866"]);
    let mut tables = HashMap::new();
    for codec in codecs {
        let entries = json["codecs"][codec].as_array().context("no codec table")?;
        let mut table = HashMap::new();
        for (byte, entry) in entries.iter().enumerate() {
            if let Some(c) = entry.as_str().and_then(|s| s.chars().next()) {
                table.entry(c).or_insert(byte as u8);
            }
        }
        tables.insert(codec, table);
    }
    Ok(Source { languages, foreign, tables: Tables(tables) })
}

/// A phrase carrying `symbol` as real text carries it.
fn symbol_phrase(rng: &mut Rng, symbol: &str, lang: &str, company: &str, word: &str) -> String {
    let n = rng.range(2, 99);
    let year = rng.range(1998, 2025);
    let comma = !matches!(lang, "en");
    match symbol {
        "©" => format!("Copyright © {year} {company}"),
        "®" => format!("{company}®"),
        "™" => format!("{}™", capitalise(word)),
        "£" => format!("£{n}.{:02}", rng.below(100)),
        "€" if comma => format!("{}: {n},{:02} €", price(lang), rng.below(100)),
        "€" => format!("€{n}.{:02}", rng.below(100)),
        "¥" => format!("¥{}", n * 100),
        "¢" => format!("{n}¢"),
        "§" => format!("§ {n}"),
        "¶" => format!("¶ {n}"),
        "°" => format!("{n}°"),
        "°C" => format!("{n} °C"),
        "µ" => format!("{n} µm"),
        "±" => format!("± {} %", n % 10),
        "×" => format!("{} × {}", n % 9 + 1, n % 7 + 2),
        "÷" => format!("{n} ÷ {}", n % 5 + 2),
        "½" => format!("½ {}", if lang == "en" { "cup" } else { "kg" }),
        "¼" => "¼ h".to_owned(),
        "¾" => "¾ l".to_owned(),
        "¹" => format!("{word}¹"),
        "²" => format!("{n} m²"),
        "³" => format!("{n} m³"),
        "º" => format!("Nº {n}"),
        "ª" => format!("{}ª", n % 9 + 1),
        "«»" => format!("« {word} »"),
        "„“" => format!("„{word}“"),
        "¿" => format!("¿{}?", capitalise(word)),
        "¡" => format!("¡{}!", capitalise(word)),
        "–" => format!("{year}–{}", year + 1),
        "—" => format!("{company} — {word}"),
        "…" => format!("{}…", capitalise(word)),
        "•" => format!("• {word}"),
        "†" => format!("† {year}"),
        "‡" => format!("{word}‡"),
        "‰" => format!("{n} ‰"),
        "“”" => format!("“{word}”"),
        "‘’" => format!("‘{word}’"),
        "·" => format!("{company} · {word}"),
        "\u{a0}" => format!("{n}\u{a0}%"),
        "№" => format!("№ {n}"),
        _ => symbol.to_owned(),
    }
}

/// A phrase with a no-break space where real text puts one: before French
/// `! ? : ;` and inside `« »`, between the digits of a number, between a
/// number and its unit, or between two words (text from a word processor).
fn no_break_phrase(rng: &mut Rng, lang: &str, word: &str, other: &str) -> String {
    let n = rng.range(2, 99);
    match rng.below(5) {
        0 if lang == "fr" => {
            format!("{}\u{a0}{}", capitalise(word), rng.pick(&["!", "?", ":", ";"]))
        }
        0 => format!("«\u{a0}{word}\u{a0}»"),
        1 => format!("{n}\u{a0}{:03}", rng.below(1000)),
        2 => format!("{n}\u{a0}{}", rng.pick(&["%", "km", "kg", "€", "EUR", "m²", "°C"])),
        _ => format!("{}\u{a0}{other}", capitalise(word)),
    }
}

/// A short string as a database field or a form holds one (20 to 100
/// bytes): a name, a company, a city, an address, a job or the start of a
/// sentence, with a symbol (half the time) or a no-break space (a third of
/// the time) beside it; `None` when it comes out pure ASCII or too long.
fn short_string(rng: &mut Rng, source: &Source, lang: &str, enc: &Encoding) -> Option<String> {
    let field = rng.pick(&["names", "companies", "cities", "addresses", "jobs", "sentences"]);
    let mut text = source.pick(rng, lang, field, enc);
    let word = source.pick(rng, lang, "words", enc);
    let other = source.pick(rng, lang, "words", enc);
    if rng.chance(0.5) {
        let company = source.pick(rng, lang, "companies", enc);
        let symbol = *rng.pick(&SYMBOLS);
        let phrase = symbol_phrase(rng, symbol, lang, &company, &word);
        text = format!("{text} {phrase}");
    }
    if rng.chance(1.0 / 3.0) {
        text = format!("{text} {}", no_break_phrase(rng, lang, &word, &other));
    }
    // Cut at a space to at most 100 bytes, as a field or a snippet is.
    while text.len() > 100 {
        let cut = text.trim_end().rfind(' ')?;
        text.truncate(cut);
    }
    let fits = text.len() >= 20 && !text.is_ascii() && source.tables.fits(enc, &text);
    fits.then_some(text)
}

/// Writes `count` short strings ([`short_string`]), each in the language
/// and encoding `draw` gives for its try (counted from 1), with twenty tries
/// a string at most.
fn write_short(
    rng: &mut Rng,
    source: &Source,
    writer: &mut Writer,
    count: usize,
    mut draw: impl FnMut(&mut Rng, usize) -> (&'static str, Encoding),
) -> Result<()> {
    let (mut made, mut tries) = (0, 0);
    while made < count && tries < 20 * count {
        tries += 1;
        let (lang, enc) = draw(rng, tries);
        if let Some(text) = short_string(rng, source, lang, &enc) {
            let bytes = source.tables.encode(&enc, &text).context("a short string")?;
            writer.write("short", lang, enc.label, "txt", "", &bytes)?;
            made += 1;
        }
    }
    Ok(())
}

fn price(lang: &str) -> &'static str {
    match lang {
        "de" => "Preis",
        "fr" => "Prix",
        "es" => "Precio",
        "it" => "Prezzo",
        "nl" => "Prijs",
        "da" | "no" => "Pris",
        "sv" => "Pris",
        "pt" => "Preço",
        "fi" => "Hinta",
        _ => "Price",
    }
}

fn capitalise(word: &str) -> String {
    let mut chars = word.chars();
    chars.next().map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}

/// One text file of the battery, before encoding.
#[derive(Clone, Copy)]
struct Page {
    kind: &'static str,
    lang: &'static str,
    encoding: Encoding,
    /// The label the page declares, for kind `declared`.
    declared: Option<&'static str>,
    nav: [&'static str; 5],
}

/// The page's text (HTML for `declared` and `undeclared`, else plain text).
fn compose(rng: &mut Rng, source: &Source, page: &Page) -> String {
    let (lang, enc) = (page.lang, &page.encoding);
    let company = source.pick(rng, lang, "companies", enc);
    let city = source.pick(rng, lang, "cities", enc);
    let phone = source.pick(rng, lang, "phones", enc);
    let email = source.pick(rng, lang, "emails", enc);
    let url = source.pick(rng, lang, "urls", enc);
    let address = source.pick(rng, lang, "addresses", enc);
    let word_of = |rng: &mut Rng| {
        let word = source.pick(rng, lang, "words", enc);
        if word.is_empty() {
            source.pick(rng, lang, "jobs", enc)
        } else {
            word
        }
    };
    // One to three symbols the encoding has.
    let mut phrases = Vec::new();
    let mut copyright = false;
    for _ in 0..rng.range(1, 3) {
        let symbol = rng.pick(&SYMBOLS);
        let word = word_of(rng);
        let phrase = symbol_phrase(rng, symbol, lang, &company, &word);
        if source.tables.fits(enc, &phrase) {
            copyright |= *symbol == "©";
            phrases.push(phrase);
        }
    }
    let mut paragraphs: Vec<String> = (0..rng.range(1, 5))
        .map(|_| {
            let mut p = source.paragraph(rng, lang, enc);
            // Symbols sit inside the text, not in a list of their own.
            if !phrases.is_empty() && rng.chance(0.6) {
                let phrase = phrases.remove(0);
                p = format!("{p} {phrase}.");
            }
            p
        })
        .collect();
    // A page of kind `names` quotes people and places of other countries:
    // after some of its sentences, and in its list of people.
    let names = page.kind == "names";
    if names {
        for p in &mut paragraphs {
            for _ in 0..rng.range(0, 2) {
                if let Some(name) = source.foreign(rng, enc) {
                    let word = word_of(rng);
                    *p = format!("{p} {name}: {word}.");
                }
            }
        }
    }
    let people: Vec<String> = (0..rng.range(usize::from(names) * 2, 4))
        .map(|_| {
            let own = source.pick(rng, lang, "names", enc);
            let name = if names { source.foreign(rng, enc).unwrap_or(own) } else { own };
            let job = source.pick(rng, lang, "jobs", enc);
            let line = format!("{name} – {job}");
            if source.tables.fits(enc, &line) {
                line
            } else {
                format!("{name} - {job}")
            }
        })
        .collect();
    let year = rng.range(2005, 2025);
    let tel = if rng.chance(0.5) { "Tel.:" } else { "Tel" };
    if page.kind == "plain" {
        let mut text = String::new();
        let _ = writeln!(text, "{company}\n{}\n", "=".repeat(company.chars().count().min(60)));
        for p in &paragraphs {
            let _ = writeln!(text, "{p}\n");
        }
        for line in &people {
            let _ = writeln!(text, "  - {line}");
        }
        for phrase in &phrases {
            let _ = writeln!(text, "{phrase}");
        }
        let _ = writeln!(text, "\n{address}\n{tel} {phone}\nE-mail: {email}\n{url}");
        if rng.chance(0.3) {
            text = text.replace('\n', "\r\n");
        }
        return text;
    }
    let mut html = String::from("<!DOCTYPE html>\n");
    let _ = writeln!(html, "<html lang=\"{lang}\">\n<head>");
    if let Some(label) = page.declared {
        if rng.chance(0.6) {
            let _ = writeln!(html, "<meta charset=\"{label}\">");
        } else {
            let _ = writeln!(
                html,
                "<meta http-equiv=\"Content-Type\" content=\"text/html; charset={label}\">"
            );
        }
    }
    let _ =
        writeln!(html, "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">");
    let _ = writeln!(html, "<title>{company} &#8211; {city}</title>");
    let _ =
        writeln!(html, "<link rel=\"stylesheet\" href=\"/css/style.css?v={}\">", rng.range(1, 40));
    let _ = writeln!(
        html,
        "<script>\n  window.dataLayer = window.dataLayer || [];\n  function gtag(){{dataLayer.push(arguments);}}\n  \
         var config = {{ lang: \"{lang}\", page: {}, debug: false }};\n  \
         document.addEventListener(\"DOMContentLoaded\", function () {{\n    \
         var menu = document.querySelector(\"nav ul\");\n    \
         if (menu && window.innerWidth < 640) {{ menu.classList.add(\"compact\"); }}\n  }});\n</script>",
        rng.range(1, 999)
    );
    let _ = writeln!(html, "</head>\n<body>\n<nav><ul>");
    for (i, item) in page.nav.iter().enumerate() {
        let _ =
            writeln!(html, "  <li><a href=\"/{}\">{item}</a></li>", ["", "p", "a", "c", "n"][i]);
    }
    let _ = writeln!(html, "</ul></nav>\n<main>\n<h1>{company}</h1>");
    for p in &paragraphs {
        let _ = writeln!(html, "<p>{}</p>", p.replace('&', "&amp;"));
    }
    if !people.is_empty() {
        let _ = writeln!(html, "<ul>");
        for line in &people {
            let _ = writeln!(html, "  <li>{}</li>", line.replace('&', "&amp;"));
        }
        let _ = writeln!(html, "</ul>");
    }
    for phrase in &phrases {
        let _ = writeln!(html, "<p class=\"note\">{}</p>", phrase.replace('&', "&amp;"));
    }
    let _ = writeln!(
        html,
        "<address>{}<br>\n{tel}&nbsp;{phone} &middot; <a href=\"mailto:{email}\">{email}</a></address>\n</main>",
        address.replace('&', "&amp;")
    );
    let mark = if copyright { "©" } else { "&copy;" };
    let _ = writeln!(
        html,
        "<footer><p>{mark} {year} {} &amp; partners | <a href=\"{url}\">{url}</a></p></footer>\n</body>\n</html>",
        company.replace('&', "&amp;")
    );
    html
}

/// A DOS screen, 80 columns, CRLF.
fn dos_screen(rng: &mut Rng, source: &Source, screen: &DosScreen) -> String {
    let (code_page, lang, title, entries, keys) = *screen;
    let enc = Encoding { label: code_page, codec: Some(dos_codec(code_page)), declare: &[] };
    let width = 78;
    let pad = |s: &str, w: usize| format!("{s}{}", " ".repeat(w.saturating_sub(s.chars().count())));
    let centre = |s: &str, w: usize| {
        let left = w.saturating_sub(s.chars().count()) / 2;
        pad(&format!("{}{s}", " ".repeat(left)), w)
    };
    let mut lines = Vec::new();
    let company = source.pick(rng, lang, "companies", &enc);
    lines.push(format!("╔{}╗", "═".repeat(width)));
    lines.push(format!("║{}║", centre(&company.to_uppercase(), width)));
    lines.push(format!("║{}║", centre(title, width)));
    lines.push(format!("╠{}╣", "═".repeat(width)));
    for (i, entry) in entries.iter().enumerate() {
        let marker = if i == rng.below(6) { "█" } else { " " };
        lines.push(format!("║{}║", pad(&format!(" {marker} {}  {entry}", i + 1), width)));
    }
    lines.push(format!("╠{}╣", "═".repeat(width)));
    let (inner, records) = (width - 4, rng.range(1, 4));
    lines.push(format!("║ ┌{}┐ ║", "─".repeat(inner)));
    for i in 0..records {
        if i > 0 {
            lines.push(format!("║ ├{}┤ ║", "─".repeat(inner)));
        }
        let name = source.pick(rng, lang, "names", &enc);
        let address = source.pick(rng, lang, "addresses", &enc);
        let phone = source.pick(rng, lang, "phones", &enc);
        for field in [name, address, phone] {
            let field: String = field.chars().take(inner - 2).collect();
            lines.push(format!("║ │ {}│ ║", pad(&field, inner - 1)));
        }
    }
    lines.push(format!("║ └{}┘ ║", "─".repeat(inner)));
    let bar = rng.range(5, 40);
    let progress = format!("{}{}{}", "█".repeat(bar), "▓▒".repeat(2), "░".repeat(40 - bar));
    lines.push(format!("║{}║", pad(&format!(" {progress} {}%", bar * 100 / 40), width)));
    lines.push(format!("╚{}╝", "═".repeat(width)));
    lines.push(format!(" {}", pad(keys, width)));
    lines.push(format!(" {}", "▀".repeat(20) + &"▄".repeat(20)));
    let mut text = lines.join("\r\n");
    text.push_str("\r\n");
    text
}

fn dos_codec(code_page: &str) -> &'static str {
    match code_page {
        "IBM437" => "cp437",
        "IBM850" => "cp850",
        "IBM852" => "cp852",
        _ => "cp866",
    }
}

/// Writes the files and returns the labels.tsv lines.
struct Writer {
    out: PathBuf,
    lines: Vec<String>,
    counts: BTreeMap<&'static str, usize>,
}

impl Writer {
    fn write(
        &mut self,
        kind: &'static str,
        lang: &str,
        label: &str,
        ext: &str,
        declared: &str,
        bytes: &[u8],
    ) -> Result<()> {
        let n = self.counts.entry(kind).or_default();
        *n += 1;
        let name = format!("{kind}/{lang}-{label}-{n:03}.{ext}");
        std::fs::create_dir_all(self.out.join(kind))?;
        std::fs::write(self.out.join(&name), bytes).with_context(|| format!("writing {name}"))?;
        self.lines.push(format!("{name}\t{label}\t{lang}\t{kind}\t{declared}"));
        Ok(())
    }
}

pub fn run(args: &Args) -> Result<()> {
    let source = load(args.seed)?;
    let mut rng = Rng(args.seed);
    let mut writer = Writer { out: args.out.clone(), lines: Vec::new(), counts: BTreeMap::new() };
    if args.out.join("labels.tsv").exists() {
        for kind in ["declared", "undeclared", "plain", "dos", "binary", "short", "names"] {
            let _ = std::fs::remove_dir_all(args.out.join(kind));
        }
    }
    std::fs::create_dir_all(&args.out)?;

    let western = [
        WINDOWS_1252,
        WINDOWS_1252,
        WINDOWS_1252,
        WINDOWS_1252,
        UTF_8,
        UTF_8,
        UTF_8,
        ISO_8859_1,
        ISO_8859_1,
        ISO_8859_15,
    ];
    let mut pages = Vec::new();
    for kind in ["declared", "undeclared", "plain"] {
        for i in 0..args.western {
            // English on a third of the pages: text with no accented letter.
            let (lang, nav) = if i % 3 == 0 { WESTERN[0] } else { *rng.pick(&WESTERN[1..]) };
            pages.push(Page { kind, lang, encoding: *rng.pick(&western), declared: None, nav });
        }
        for (lang, nav, encodings) in CROSS_CHECK {
            for encoding in encodings.into_iter().chain([UTF_8]) {
                let count =
                    if encoding.codec.is_none() { args.cross_check / 3 } else { args.cross_check };
                for _ in 0..count {
                    pages.push(Page { kind, lang, encoding, declared: None, nav });
                }
            }
        }
    }
    for mut page in pages {
        // A true declaration: a label of the encoding that made the page.
        if page.kind == "declared" {
            page.declared = Some(*rng.pick(page.encoding.declare));
        }
        let text = compose(&mut rng, &source, &page);
        let Some(bytes) = source.tables.encode(&page.encoding, &text) else {
            bail!("{} page does not fit {}", page.lang, page.encoding.label);
        };
        let ext = if page.kind == "plain" { "txt" } else { "html" };
        writer.write(
            page.kind,
            page.lang,
            page.encoding.label,
            ext,
            page.declared.unwrap_or(""),
            &bytes,
        )?;
    }

    for screen in &DOS {
        let per_screen = if DOS.iter().filter(|s| s.0 == screen.0).count() == 1 {
            args.dos
        } else {
            args.dos / 2 + 1
        };
        for _ in 0..per_screen {
            let text = dos_screen(&mut rng, &source, screen);
            let enc = Encoding { label: screen.0, codec: Some(dos_codec(screen.0)), declare: &[] };
            let bytes = source
                .tables
                .encode(&enc, &text)
                .with_context(|| format!("a {} screen does not fit", screen.0))?;
            writer.write("dos", screen.1, screen.0, "txt", "", &bytes)?;
        }
    }

    // Short strings last, so that the files before them stay as they were:
    // in the western languages and encodings of the pages (English a third
    // of the time), then in the DOS code pages of western and central
    // European text.
    write_short(&mut rng, &source, &mut writer, args.short, |rng, tries| {
        let lang = if tries % 3 == 0 { WESTERN[0].0 } else { rng.pick(&WESTERN[1..]).0 };
        (lang, *rng.pick(&western))
    })?;
    let dos_short: [(&str, &[&'static str]); 3] = [
        ("IBM437", &["en", "fr", "de", "es"]),
        ("IBM850", &["fr", "de", "es", "pt"]),
        ("IBM852", &["pl", "cs"]),
    ];
    for (code_page, langs) in dos_short {
        let enc = Encoding { label: code_page, codec: Some(dos_codec(code_page)), declare: &[] };
        write_short(&mut rng, &source, &mut writer, args.short / 4, |rng, _| {
            (*rng.pick(langs), enc)
        })?;
    }

    // Pages quoting names and places of other countries, last so that the
    // files before them stay as they were: in the languages Faker writes
    // prose in, half of them declared.
    let has_prose = |w: &&(&str, [&str; 5])| !source.languages[w.0].get("sentences").is_empty();
    let prose: Vec<_> = WESTERN.iter().filter(has_prose).collect();
    for _ in 0..args.names {
        let (lang, nav) = **rng.pick(&prose);
        let encoding = *rng.pick(&western);
        let declared = rng.chance(0.5).then(|| *rng.pick(encoding.declare));
        let page = Page { kind: "names", lang, encoding, declared, nav };
        let text = compose(&mut rng, &source, &page);
        let bytes = source.tables.encode(&encoding, &text).context("a names page")?;
        writer.write("names", lang, encoding.label, "html", declared.unwrap_or(""), &bytes)?;
    }

    let python = venv::python()?;
    let output = venv::command(&python, "everyday_binary.py")
        .arg(&args.out)
        .arg(args.seed.to_string())
        .output()
        .context("running everyday_binary.py")?;
    if !output.status.success() {
        bail!("everyday_binary.py failed: {}", String::from_utf8_lossy(&output.stderr));
    }
    for name in String::from_utf8_lossy(&output.stdout).lines() {
        writer.lines.push(format!("{name}\tbinary\t\tbinary\t"));
    }

    let mut tsv = String::from("path\tencoding\tlanguage\tkind\tdeclared\n");
    for line in &writer.lines {
        tsv.push_str(line);
        tsv.push('\n');
    }
    std::fs::write(args.out.join("labels.tsv"), tsv)?;
    let mut by_kind: BTreeMap<&str, usize> = BTreeMap::new();
    for line in &writer.lines {
        *by_kind.entry(line.split('\t').nth(3).unwrap_or("")).or_default() += 1;
    }
    println!("{} files in {}: {by_kind:?}", writer.lines.len(), args.out.display());
    Ok(())
}
