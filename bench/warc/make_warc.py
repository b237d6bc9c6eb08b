#!/usr/bin/env python3
"""Writes a crawl-like WARC for measuring `charsight warc` and the Spark job
(docs/scale.md): for each page a `request`, a `response` and a `metadata`
record, each its own gzip member, as Common Crawl writes them. Pages are
HTML made of lines of ../shared/text in 12 languages, in the encodings
pages in those languages come in (UTF-8 for half of them), with a
Content-Type charset that is right, absent or wrong, some gzip-encoded
and chunked. Deterministic: the same arguments give the same file.

    python3 bench/warc/make_warc.py --pages 20000 target/bench.warc.gz
"""

import argparse
import gzip
import random
from pathlib import Path

SHARED = Path(__file__).resolve().parents[3] / "shared"
LANGS = {
    "en": "windows-1252", "de": "windows-1252", "fr": "windows-1252", "ru": "windows-1251",
    "uk": "koi8-u", "pl": "iso-8859-2", "cs": "windows-1250", "el": "iso-8859-7",
    "ja": "shift_jis", "zh-Hans": "gbk", "ko": "euc-kr", "tr": "windows-1254",
}


def record(warc_type, n, uri, content_type, block):
    head = (f"WARC/1.1\r\nWARC-Type: {warc_type}\r\n"
            f"WARC-Record-ID: <urn:uuid:{n:08x}-0000-4000-8000-{n:012x}>\r\n"
            f"WARC-Date: 2026-11-01T00:00:00Z\r\nWARC-Target-URI: {uri}\r\n"
            f"Content-Type: {content_type}\r\nContent-Length: {len(block)}\r\n\r\n")
    return gzip.compress(head.encode() + block + b"\r\n\r\n", compresslevel=6)


def page(rng, lines, lang, encoding):
    utf8 = rng.random() < 0.5
    charset = "utf-8" if utf8 else encoding
    paragraphs = []
    size = int(rng.lognormvariate(10.3, 0.8))  # median about 30 KB, as crawled HTML
    total = 0
    while total < size:
        line = rng.choice(lines)
        paragraphs.append(f"<p>{line}</p>\n")
        total += len(line.encode())
    meta = f'<meta charset="{charset}">' if rng.random() < 0.7 else ""
    html = (f"<!DOCTYPE html>\n<html lang=\"{lang}\"><head>{meta}<title>{lines[0][:40]}</title>"
            f"</head>\n<body>\n{''.join(paragraphs)}</body></html>\n")
    body = html.encode(charset, errors="xmlcharrefreplace")
    declared = rng.random()
    if declared < 0.6:
        content_type = f"text/html; charset={charset}"
    elif declared < 0.9:
        content_type = "text/html"
    else:
        content_type = "text/html; charset=iso-8859-1"
    return content_type, body


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output")
    parser.add_argument("--pages", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=24)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    texts = {}
    for lang in LANGS:
        lines = (SHARED / "text" / f"{lang}.txt").read_text(encoding="utf-8").splitlines()
        texts[lang] = [line for line in lines if 40 <= len(line) <= 400][:4000]
    with open(args.output, "wb") as out:
        out.write(record("warcinfo", 0, "", "application/warc-fields", b"software: make_warc.py\r\n"))
        for n in range(1, args.pages + 1):
            lang = rng.choice(sorted(LANGS))
            uri = f"http://example.{lang.lower()}/{n}"
            content_type, body = page(rng, texts[lang], lang, LANGS[lang])
            head = f"HTTP/1.1 200 OK\r\nContent-Type: {content_type}\r\nServer: test\r\n"
            if rng.random() < 0.2:
                body = gzip.compress(body, compresslevel=6)
                head += "Content-Encoding: gzip\r\n"
            if rng.random() < 0.2:
                chunks = [body[i:i + 8192] for i in range(0, len(body), 8192)]
                body = b"".join(b"%x\r\n%s\r\n" % (len(c), c) for c in chunks) + b"0\r\n\r\n"
                head += "Transfer-Encoding: chunked\r\n"
            else:
                head += f"Content-Length: {len(body)}\r\n"
            request = f"GET /{n} HTTP/1.1\r\nHost: example.{lang.lower()}\r\n\r\n".encode()
            out.write(record("request", 3 * n, uri, "application/http; msgtype=request", request))
            out.write(record("response", 3 * n + 1, uri, "application/http; msgtype=response",
                             (head + "\r\n").encode() + body))
            out.write(record("metadata", 3 * n + 2, uri, "application/warc-fields",
                             b"fetchTimeMs: 120\r\n"))


if __name__ == "__main__":
    main()
