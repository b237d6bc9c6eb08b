"""Text for `xtask everyday`: pools of everyday strings per language, from Faker.

Usage: everyday_text.py SEED > pools.json

Prints one JSON object: {"faker": version, "languages": {lang: {field: [str]}},
"foreign": {locale: [str]}, "codecs": {python_codec: [256 entries, str or null]}}. The codec tables are
Python's own single-byte mappings, so that the Rust side encodes with a table
that is not charsight's. Deterministic for a seed and a Faker version.
"""

import json
import sys

import faker
from faker import Faker

# Language -> Faker locale. `prose`: the locale has its own lorem word list;
# elsewhere Faker's lorem is Latin, and the pages use names, addresses,
# companies and job titles instead of sentences.
LOCALES = {
    "en": ("en_US", True),
    "fr": ("fr_FR", True),
    "de": ("de_DE", True),
    "es": ("es_ES", False),
    "it": ("it_IT", True),
    "nl": ("nl_NL", True),
    "da": ("da_DK", True),
    "pt": ("pt_PT", False),
    "sv": ("sv_SE", False),
    "no": ("no_NO", False),
    "fi": ("fi_FI", False),
    "pl": ("pl_PL", True),
    "cs": ("cs_CZ", True),
    "ru": ("ru_RU", True),
}

# Locales whose names and places western pages quote: the `foreign` pools,
# names and cities as written at home (`Ødegaard`, `Põltsamaa`, `Győr`).
FOREIGN = ["da_DK", "no_NO", "sv_SE", "fi_FI", "et_EE", "de_DE", "fr_FR",
           "es_ES", "pt_BR", "pt_PT", "it_IT", "cs_CZ", "sk_SK", "pl_PL", "hu_HU",
           "hr_HR", "sl_SI", "ro_RO", "tr_TR", "lv_LV", "lt_LT"]

CODECS = ["latin_1", "cp1252", "iso8859_15", "cp1250", "iso8859_2", "cp1251",
          "koi8_r", "cp437", "cp850", "cp852", "cp866"]


def pools(locale, prose, seed):
    fake = Faker(locale)
    fake.seed_instance(seed)
    out = {
        "names": [fake.name() for _ in range(80)],
        "addresses": [fake.address() for _ in range(60)],
        "companies": [fake.company() for _ in range(60)],
        "jobs": [fake.job() for _ in range(60)],
        "phones": [fake.phone_number() for _ in range(40)],
        "emails": [fake.email() for _ in range(40)],
        "urls": [fake.url() for _ in range(30)],
        "cities": [fake.city() for _ in range(40)],
    }
    if prose:
        out["sentences"] = [fake.sentence(nb_words=12) for _ in range(300)]
        out["words"] = fake.words(nb=200)
    else:
        out["sentences"] = []
        out["words"] = []
    return out


def foreign(seed):
    out = {}
    for locale in FOREIGN:
        fake = Faker(locale)
        fake.seed_instance(seed)
        items = [fake.name() for _ in range(30)] + [fake.city() for _ in range(30)]
        # Only what has a letter beyond ASCII: the rest says nothing here.
        out[locale] = [s for s in items if not s.isascii()]
    return out


def codec_table(name):
    table = []
    for b in range(256):
        try:
            table.append(bytes([b]).decode(name))
        except UnicodeDecodeError:
            table.append(None)
    return table


def main():
    seed = int(sys.argv[1])
    result = {
        "faker": faker.VERSION,
        "languages": {lang: pools(loc, prose, seed) for lang, (loc, prose) in LOCALES.items()},
        "foreign": foreign(seed),
        "codecs": {name: codec_table(name) for name in CODECS},
    }
    json.dump(result, sys.stdout, ensure_ascii=False, sort_keys=True)


if __name__ == "__main__":
    main()
