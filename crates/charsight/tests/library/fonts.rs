//! The font pass end to end: scopes in HTML, tables, and clean text left
//! alone (`shared/text/my.txt`, every `shared/corpus` file).

use charsight::font::{self, Basis, Declared, FontTable, Markup, PassNote, Registry};
use charsight::Charset;
use testkit::shared_dir;

fn html(page: &str) -> font::FontPass {
    font::convert(page, Markup::Html, &Registry::builtin())
}

#[test]
fn font_face_scopes() {
    let pass =
        html("<p>a<font face=\"Symbol\">abg</font>a <FONT FACE='Wingdings, Arial'>J</FONT></p>");
    assert_eq!(
        pass.text,
        "<p>a<font face=\"Symbol\">αβγ</font>a <FONT FACE='Wingdings, Arial'>\u{263A}</FONT></p>"
    );
    assert_eq!(pass.scopes.len(), 2);
    assert_eq!(pass.scopes[0].declared, Declared::FontFace);
    assert_eq!(&*pass.scopes[1].font, "Wingdings");
    assert!(pass.conversions.iter().all(|c| c.basis == Basis::FontScope && c.confidence > 0.9));
}

#[test]
fn first_family_decides() {
    let pass =
        html("<font face=\"Arial, Symbol\">abg</font><font face=\" 'Symbol', Arial\">a</font>");
    assert_eq!(
        pass.text,
        "<font face=\"Arial, Symbol\">abg</font><font face=\" 'Symbol', Arial\">α</font>"
    );
}

#[test]
fn inline_style_scopes() {
    let pass = html(
        "<span style=\"color:red; font-family: 'Wingdings'\">J</span> J \
         <b style=\"font: 12pt/14pt Symbol, serif\">p</b>",
    );
    assert_eq!(
        pass.text,
        "<span style=\"color:red; font-family: 'Wingdings'\">\u{263A}</span> J \
         <b style=\"font: 12pt/14pt Symbol, serif\">π</b>"
    );
    assert_eq!(pass.scopes[0].declared, Declared::InlineStyle);
}

#[test]
fn style_element_rules() {
    let page = "<html><head><style>\n.greek { font-family: Symbol }\n#w { font-family: Wingdings }\n\
                p.x span { font-family: Symbol }\nem { font-family: Webdings }</style></head>\
                <body><p class=\"big greek\">abg</p><div id=w>J</div><p class=x><span>abg</span></p>\
                <em class=greek>a</em></body></html>";
    let pass = html(page);
    let afters: Vec<(&str, &str)> =
        pass.conversions.iter().map(|c| (&*c.font, c.after.as_str())).collect();
    // The descendant selector is not simple: that span stays; the class rule
    // beats the element rule on <em>.
    assert_eq!(afters, [("Symbol", "αβγ"), ("Wingdings", "\u{263A}"), ("Symbol", "α")]);
    assert_eq!(pass.scopes[0].declared, Declared::StyleRule(".greek".into()));
}

#[test]
fn nested_scopes() {
    let pass = html(
        "<font face=Symbol>a<font face=Arial>a<font face=Wingdings>J</font>a</font>a\
         <span style='font-family: inherit'>b</span></font>a",
    );
    assert_eq!(
        pass.text,
        "<font face=Symbol>α<font face=Arial>a<font face=Wingdings>\u{263A}</font>a</font>α\
         <span style='font-family: inherit'>β</span></font>a"
    );
}

#[test]
fn overlapping_scopes() {
    // </font> closes the <b> inside it: "c" is outside the Symbol scope.
    let pass = html("<font face=Symbol>a<b>b</font>c</b>d");
    assert_eq!(pass.text, "<font face=Symbol>α<b>β</font>c</b>d");
    // </b> closes a Symbol <font> inside it, which a browser reopens: "y" is still Symbol.
    let pass = html("<b><font face=Symbol>x</b>y</font>z");
    assert_eq!(pass.text, "<b><font face=Symbol>ξ</b>ψ</font>z");
    // A non-formatting element is not reopened.
    let pass = html("<font face=Symbol><span style='font-family:Arial'>a</font>a</span>a");
    assert_eq!(pass.text, "<font face=Symbol><span style='font-family:Arial'>a</font>a</span>a");
}

#[test]
fn same_letters_outside_scopes_untouched() {
    let page = "<p>abg J</p><font face=Symbol></font><p>abg J</p><!-- <font face=Symbol>a --><script>var s='<font face=Symbol>a'</script>";
    let pass = html(page);
    assert_eq!(pass.text, page);
    assert!(pass.conversions.is_empty());
}

#[test]
fn character_references_inside_scopes() {
    let page = "<font face=Symbol>&#97;&#x62; &amp; g&#xF067;</font>";
    let pass = html(page);
    assert_eq!(pass.text, "<font face=Symbol>αβ &amp; γγ</font>");
    let c = &pass.conversions[0];
    assert_eq!(c.before, "&#97;&#x62; &amp; g&#xF067;");
    assert_eq!(c.after, "αβ & γγ");
    assert_eq!(&page[c.range.clone()], c.before);
}

#[test]
fn windows_1252_bytes_of_a_symbol_font() {
    // Wingdings 0x80-0x89 are circled digits; a windows-1252 page decodes 0x80 as '€'.
    let (decoded, _) = Charset::Windows1252.decode(b"<font face=Wingdings>\x80\x81</font>");
    let pass = html(&decoded);
    assert_eq!(pass.conversions[0].after, "\u{24EA}\u{2460}");
}

#[test]
fn kruti_dev_page() {
    let page = "<p style=\"font-family:'Kruti Dev 010'\">Hkkjr ,d fo'kky ns'k gSA</p>";
    let pass = html(page);
    assert_eq!(pass.conversions[0].after, "भारत एक विशाल देश है।");
    assert_eq!(&*pass.conversions[0].font, "Kruti Dev 010");
}

#[test]
fn bamini_page() {
    let pass = html("<font face=\"Bamini\">jkpo; nkhopnra;jpfs;</font>");
    // "Tamil", "language news", typed for Bamini: pre-base vowel signs come first.
    assert_eq!(pass.conversions[0].after, "தமிழ் மொழிசெய்திகள்");
}

#[test]
fn user_table_with_alias() {
    let mut registry = Registry::builtin();
    registry.add(FontTable::from_bytes("Arrows", [(b'a', "←"), (b'b', "→")]), &["Arrows Std"]);
    let pass = font::convert("<font face='Arrows Std'>ab</font>", Markup::Html, &registry);
    assert_eq!(pass.text, "<font face='Arrows Std'>←→</font>");
}

#[test]
fn external_css_is_reported_when_text_looks_encoded() {
    let page = "<link rel=stylesheet href=/site.css><p class=sym>\u{F061}\u{F062}</p>";
    let pass = html(page);
    assert_eq!(pass.notes, [PassNote::ExternalCss { href: "/site.css".into(), suspicious: 2 }]);
    let quiet = html("<link rel=stylesheet href=/site.css><p>plain</p>");
    assert!(quiet.notes.is_empty());
}

#[test]
fn zawgyi_lines_convert_and_unicode_lines_stay() {
    let text = "မြန်မာနိုင်ငံ\nျမန္မာႏိုင္ငံ ေျပာပါတယ္\nEnglish";
    let pass = font::convert(text, Markup::Text, &Registry::builtin());
    assert_eq!(pass.text, "မြန်မာနိုင်ငံ\nမြန်မာနိုင်ငံ ပြောပါတယ်\nEnglish");
    assert_eq!(pass.conversions.len(), 1);
    assert_eq!(pass.conversions[0].basis, Basis::Zawgyi);
}

/// Whether text breaks Unicode Burmese storage order, as Zawgyi does: the
/// vowel sign E (U+1031) not after a consonant, medial, or another sign, or
/// a code point that only Zawgyi uses (U+1060-U+1097).
fn invalid_as_unicode_burmese(text: &str) -> bool {
    let mut prev: Option<char> = None;
    for c in text.chars() {
        if ('\u{1060}'..='\u{1097}').contains(&c) {
            return true;
        }
        if c == '\u{1031}' && !prev.is_some_and(|p| ('\u{1000}'..='\u{103F}').contains(&p)) {
            return true;
        }
        prev = Some(c);
    }
    false
}

#[test]
fn clean_burmese_is_never_changed() {
    let text = std::fs::read_to_string(shared_dir().join("text/my.txt")).unwrap();
    for markup in [Markup::Text, Markup::Html] {
        let pass = font::convert(&text, markup, &Registry::builtin());
        // my.txt has a few lines typed in Zawgyi (E vowel first, U+1039 as
        // asat): those may change, and only those.
        for c in &pass.conversions {
            assert!(invalid_as_unicode_burmese(&c.before), "valid Unicode changed: {:?}", c.before);
            assert!(!invalid_as_unicode_burmese(&c.after), "still invalid: {:?}", c.after);
        }
        assert_eq!(pass.text.lines().count(), text.lines().count());
        for (before, after) in text.lines().zip(pass.text.lines()) {
            if !invalid_as_unicode_burmese(before) {
                assert_eq!(before, after);
            }
        }
        assert!(pass.conversions.len() <= 3, "{} conversions", pass.conversions.len());
    }
}

#[test]
fn corpus_pages_are_never_changed() {
    let registry = Registry::builtin();
    let mut checked = 0;
    for file in testkit::corpus() {
        let Ok(charset) = charsight::label::resolve(file.encoding.as_bytes()) else { continue };
        let bytes = std::fs::read(&file.path).unwrap();
        let (text, _) = charset.decode(&bytes);
        for markup in [Markup::Html, Markup::Text] {
            let pass = font::convert(&text, markup, &registry);
            assert!(pass.conversions.is_empty(), "{}: {:?}", file.name, &pass.conversions[..1]);
            assert_eq!(pass.text, text, "{}", file.name);
        }
        assert_eq!(font::detect_layer(&text, &registry), None, "{}", file.name);
        checked += 1;
    }
    assert!(checked >= 190, "only {checked} corpus files decoded");
}
