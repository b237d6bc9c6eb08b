"""Everyday one-liners written by hand, for `xtask compare`.

Usage: one_liners.py OUT_DIR

Writes 60 short strings (12 to 46 bytes) of the kind a new user tries first,
in the legacy encoding their language is most often written in: greetings,
questions and exclamations with their own punctuation (`¡ ¿ « » „ “`), prices,
measures, names of places. None is taken from ../shared/text or from another
detector's test data. Also OUT_DIR/labels.tsv (path, encoding, language, kind).

Then: cargo run --release -p xtask -- compare OUT_DIR
"""

import os
import sys

# (language, Python codec, text)
LINES = [
    ("de", "cp1252", "„Guten Morgen!“, sagte er."),
    ("de", "cp1252", "Öffnungszeiten: Mo–Fr 9–18 Uhr"),
    ("de", "cp1252", "Größe: 42 – Preis: 19,99 €"),
    ("de", "iso8859_15", "Straße gesperrt, Umleitung über Köln"),
    ("fr", "cp1252", "« Bonjour ! » dit-elle."),
    ("fr", "cp1252", "Où est la gare ? C'est à côté."),
    ("fr", "cp1252", "Prix : 12,50 € TTC – livraison offerte"),
    ("fr", "cp1252", "L’été dernier, nous sommes allés à Noël."),
    ("it", "cp1252", "Perché no? È già tardi."),
    ("it", "cp1252", "Città: Forlì – Perù – Caffè"),
    ("pt", "cp1252", "Não sei… você já comeu?"),
    ("pt", "cp1252", "Ação: promoção de verão!"),
    ("es", "cp1252", "El niño comió una piña."),
    ("es", "cp1252", "Año nuevo, ¡vida nueva!"),
    ("es", "cp1252", "¿Por qué? Porque sí."),
    ("nl", "cp1252", "Één café, twee ijsjes."),
    ("sv", "cp1252", "Hej! Hur mår du? Bra, tack."),
    ("da", "cp1252", "Søndag: æblekage og rødgrød"),
    ("no", "cp1252", "Blåbær og fløte på søndag"),
    ("fi", "cp1252", "Hyvää päivää! Kiitos paljon."),
    ("is", "cp1252", "Þetta er góður dagur."),
    ("pl", "cp1250", "Zażółć gęślą jaźń"),
    ("pl", "cp1250", "„Dzień dobry” – powiedział."),
    ("pl", "iso8859_2", "Wrocław, ulica Świętego Mikołaja"),
    ("cs", "cp1250", "Příliš žluťoučký kůň"),
    ("cs", "cp1250", "„Dobrý den,“ řekl."),
    ("sk", "cp1250", "Ďakujem, dobrú noc!"),
    ("hu", "cp1250", "Árvíztűrő tükörfúrógép"),
    ("hu", "iso8859_2", "Köszönöm szépen, jó éjszakát!"),
    ("ro", "cp1250", "Bună ziua, ce mai faceţi?"),
    ("hr", "cp1250", "Hvala lijepa, doviđenja!"),
    ("sl", "cp1250", "Dober dan, kako si? Čudovito."),
    ("tr", "cp1254", "Günaydın! Nasılsın?"),
    ("tr", "cp1254", "İstanbul’da şiddetli yağış"),
    ("ru", "cp1251", "«Привет!» — сказал он."),
    ("ru", "cp1251", "Здравствуйте"),
    ("ru", "koi8_r", "Как дела?"),
    ("uk", "cp1251", "Дякую, добре!"),
    ("bg", "cp1251", "Добър ден!"),
    ("el", "cp1253", "Καλημέρα! Τι κάνεις;"),
    ("el", "iso8859_7", "Ευχαριστώ πολύ"),
    ("he", "cp1255", "שלום, מה שלומך?"),
    ("ar", "cp1256", "مرحبا، كيف حالك؟"),
    ("lt", "cp1257", "Ačiū, labai gerai!"),
    ("lv", "cp1257", "Labdien! Kā jums klājas?"),
    ("et", "cp1257", "Tere hommikust! Kuidas läheb?"),
    ("en", "cp1252", "Café au lait – €3.50"),
    ("en", "cp1252", "He said “yes” — and left…"),
    ("en", "cp1252", "© 2024 Acme Inc. All rights reserved."),
    ("en", "cp1252", "Temperature: 21°C"),
    ("en", "cp1252", "Don’t worry, it’s fine."),
    ("ja", "shift_jis", "こんにちは"),
    ("ja", "shift_jis", "ありがとうございます！"),
    ("ja", "euc_jp", "東京都渋谷区"),
    ("zh-Hans", "gbk", "你好，世界！"),
    ("zh-Hans", "gbk", "欢迎光临"),
    ("zh-Hant", "big5", "歡迎光臨"),
    ("ko", "euc_kr", "안녕하세요!"),
    ("ko", "euc_kr", "감사합니다"),
    ("th", "cp874", "สวัสดีครับ"),
]

# Python codec -> the label `compare` expects.
LABELS = {
    "cp1250": "windows-1250", "cp1251": "windows-1251", "cp1252": "windows-1252",
    "cp1253": "windows-1253", "cp1254": "windows-1254", "cp1255": "windows-1255",
    "cp1256": "windows-1256", "cp1257": "windows-1257", "cp874": "windows-874",
    "iso8859_2": "ISO-8859-2", "iso8859_7": "ISO-8859-7", "iso8859_15": "ISO-8859-15",
    "koi8_r": "KOI8-R", "shift_jis": "Shift_JIS", "euc_jp": "EUC-JP", "gbk": "GBK",
    "big5": "Big5", "euc_kr": "EUC-KR",
}


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "labels.tsv"), "w", encoding="utf-8") as labels:
        labels.write("path\tencoding\tlanguage\tkind\n")
        for i, (language, codec, text) in enumerate(LINES):
            name = f"{i:02d}.{language}.{codec}.txt"
            with open(os.path.join(out, name), "wb") as f:
                f.write(text.encode(codec))
            labels.write(f"{name}\t{LABELS[codec]}\t{language}\tshort\n")


if __name__ == "__main__":
    main()
