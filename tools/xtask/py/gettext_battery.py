"""A held-out battery from the machine's gettext catalogs, for `xtask compare`.

Usage: gettext_battery.py OUT_DIR

Reads the translated strings (`msgstr`) of every catalog under
/usr/share/locale/<lang>/LC_MESSAGES/*.mo (with `msgunfmt`, from GNU gettext),
drops every string that occurs anywhere in ../shared/text/<lang>.txt (whose
tier-2 lines are UI strings of the same kind: only strings the models never saw
are kept), and writes, for each legacy encoding and a language it is used for,
12 short strings (one message), 6 paragraphs (eight messages on one line) and 4
pages (forty messages in a plain HTML skeleton with no declaration), each
encoded with Python's codec, and OUT_DIR/labels.tsv (path, encoding, language,
kind). Only strings with a character beyond ASCII that the codec can write are
used. Deterministic for a machine's set of catalogs (the strings are sorted,
then shuffled with a fixed seed); another machine's packages give another
battery.

Then: cargo run --release -p xtask -- compare OUT_DIR
"""

import glob
import os
import random
import re
import subprocess
import sys

# Label -> (Python codec, gettext languages it is written in).
ENCODINGS = {
    "windows-1252": ("cp1252", "de fr es it pt nl sv da nb fi is ca"),
    "iso-8859-1": ("latin-1", "de fr es it pt nl sv da nb fi is ca"),
    "iso-8859-15": ("iso8859_15", "fr fi et"),
    "windows-1250": ("cp1250", "pl cs sk hu sl hr ro"),
    "iso-8859-2": ("iso8859_2", "pl cs sk hu sl hr ro"),
    "windows-1251": ("cp1251", "ru uk be bg sr mk"),
    "koi8-r": ("koi8_r", "ru"),
    "koi8-u": ("koi8_u", "uk"),
    "ibm866": ("cp866", "ru be"),
    "iso-8859-5": ("iso8859_5", "ru bg"),
    "windows-1253": ("cp1253", "el"),
    "iso-8859-7": ("iso8859_7", "el"),
    "windows-1254": ("cp1254", "tr"),
    "iso-8859-9": ("iso8859_9", "tr"),
    "windows-1255": ("cp1255", "he"),
    "iso-8859-8": ("iso8859_8", "he"),
    "windows-1256": ("cp1256", "ar"),
    "windows-1257": ("cp1257", "lt lv et"),
    "iso-8859-13": ("iso8859_13", "lt lv"),
    "windows-874": ("cp874", "th"),
    "windows-1258": ("cp1258", "vi"),
    "shift_jis": ("shift_jis", "ja"),
    "euc-jp": ("euc_jp", "ja"),
    "iso-2022-jp": ("iso2022_jp", "ja"),
    "gbk": ("gbk", "zh_CN"),
    "big5": ("big5", "zh_TW"),
    "euc-kr": ("euc_kr", "ko"),
    "utf-8": ("utf-8", "de fr pl ru el ja zh_CN ko ar he th"),
}

# gettext's language directories -> ../shared/text's file names.
TEXT_NAMES = {"zh_CN": "zh-Hans", "zh_TW": "zh-Hant", "nb": "no"}

# Kind, messages per file, files per encoding and language.
KINDS = [("short", 1, 12), ("para", 8, 6), ("page", 40, 4)]

PAGE = """<!DOCTYPE html>
<html>
<head>
<title>{title}</title>
<link rel="stylesheet" href="/static/site.css">
</head>
<body>
<div class="nav"><a href="/">Home</a> | <a href="/about">About</a></div>
<h1>{title}</h1>
{body}
<p class="footer">&copy; 2024 Example Ltd. All rights reserved.</p>
</body>
</html>
"""

MSGSTR = re.compile(r'msgstr(?:\[\d+\])? "(.*)"$')
# printf and format placeholders, and accelerator marks.
PLACEHOLDER = re.compile(r"%[sdu]|%\d?\$?[sd]|\{[^}]*\}|_")


def unescape(s):
    """A PO string's C escapes, its UTF-8 kept."""
    if "\\" not in s:
        return s
    raw = s.encode("utf-8").decode("unicode_escape", errors="ignore")
    try:
        return raw.encode("latin-1").decode("utf-8")
    except (UnicodeEncodeError, UnicodeDecodeError):
        return ""


def messages(lang):
    found = set()
    for path in sorted(glob.glob(f"/usr/share/locale/{lang}/LC_MESSAGES/*.mo")):
        po = subprocess.run(["msgunfmt", "--no-wrap", path], capture_output=True,
                            text=True, errors="replace").stdout
        for line in po.splitlines():
            m = MSGSTR.match(line)
            if m:
                s = PLACEHOLDER.sub("", unescape(m.group(1))).strip()
                if len(s) >= 8 and "\n" not in s:
                    found.add(s)
    return sorted(found)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    text_dir = os.path.join(os.path.dirname(__file__), "../../../../shared/text")
    os.makedirs(os.path.join(out, "files"), exist_ok=True)
    random.seed(45)
    cache = {}
    rows = []
    for label, (codec, langs) in ENCODINGS.items():
        for lang in langs.split():
            if lang not in cache:
                name = TEXT_NAMES.get(lang, lang)
                with open(os.path.join(text_dir, f"{name}.txt"), encoding="utf-8") as f:
                    seen = f.read()
                cache[lang] = [s for s in messages(lang) if not s.isascii() and s not in seen]
            pool = []
            for s in cache[lang]:
                try:
                    s.encode(codec)
                    pool.append(s)
                except UnicodeEncodeError:
                    pass
            random.shuffle(pool)
            need = sum(n * count for _, n, count in KINDS)
            if len(pool) < need:
                sys.exit(f"{label} {lang}: {len(pool)} strings, {need} needed")
            k = 0
            for kind, n, count in KINDS:
                for j in range(count):
                    parts = pool[k:k + n]
                    k += n
                    if kind == "short":
                        text = parts[0]
                    elif kind == "para":
                        text = " ".join(parts)
                    else:
                        body = "\n".join(f"<p>{p}</p>" for p in parts[1:])
                        text = PAGE.format(title=parts[0], body=body)
                    path = f"files/{label}.{lang}.{kind}{j}.txt"
                    with open(os.path.join(out, path), "wb") as f:
                        f.write(text.encode(codec))
                    rows.append((path, label, lang, kind))
    with open(os.path.join(out, "labels.tsv"), "w", encoding="utf-8") as f:
        f.write("path\tencoding\tlanguage\tkind\n")
        for row in rows:
            f.write("\t".join(row) + "\n")
    print(f"{len(rows)} files in {out}")


if __name__ == "__main__":
    main()
