"""Writes python-utf7.txt: how Python's utf-7 codec decodes and encodes, for
charsight's UTF-7 tests (crates/charsight/src/codec/utf7.rs reads it).

Run from this directory: python3 python-utf7.py > python-utf7.txt

Lines (after the header):
  D <input bytes, hex> <bytes.decode('utf-7', 'replace'), code points hex, comma-separated, or ->
  E <text, code points hex, comma-separated> <text.encode('utf-7'), hex, or ->
The inputs are fixed edge cases, then random ones from a fixed seed: byte
strings made of UTF-7's pieces, Python's encodings of random texts, and those
encodings cut short or with one byte changed.
"""

import random
import sys

BASE64 = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
EDGES = [
    b"", b"+", b"+-", b"++", b"+!", b"+\x80", b"-", b"a+", b"+A", b"+AA", b"+AAA",
    b"+AOk", b"+AOk-", b"+AOk.", b"+AOkA-", b"+AOl-", b"+AOl", b"+A.", b"+AOk-+-",
    b"+AOk+-", b"+2AA-", b"+2AA", b"+2AA\x80", b"+3AA-", b"+2ADcAA-", b"+2ADYAA-",
    b"+2D3eAA-", b"+2D3eAA", b"+2D3e", b"~\\\x00\x7f\t", b"\x80\xff", b"+AOk\x80",
    b"+AOkA6Q-", b"+AOkA6QDp-", b"+AOkA6QDp", b"a+-b+AGE-c", b"+ZeVnLIqe-",
    b"+AOk-a", b"+AOk-.", b"+AOk--", b"+AOk-+AOk-", b"+3ADcAA-", b"+2ADYANwA-",
]
PIECES = [b"+", b"-", b"+-", b".", b" ", b"\n", b"a", b"~", b"\x80", b"\xe9"]


def hexcp(text):
    return ",".join("%X" % ord(c) for c in text) or "-"


def random_text(rng):
    pools = [
        lambda: chr(rng.randrange(0x20, 0x7F)),
        lambda: rng.choice("+-~\\\t\n\x00"),
        lambda: chr(rng.randrange(0xA0, 0x800)),
        lambda: chr(rng.choice([rng.randrange(0x800, 0xD800), rng.randrange(0xE000, 0x10000)])),
        lambda: chr(rng.randrange(0x10000, 0x110000)),
    ]
    return "".join(rng.choice(pools)() for _ in range(rng.randrange(0, 12)))


def main():
    rng = random.Random(2152)
    inputs = list(EDGES)
    texts = []
    for _ in range(1500):
        n = rng.randrange(0, 10)
        inputs.append(b"".join(
            bytes([rng.choice(BASE64)]) if rng.random() < 0.6 else rng.choice(PIECES)
            for _ in range(n)))
    for _ in range(800):
        text = random_text(rng)
        texts.append(text)
        encoded = text.encode("utf-7")
        inputs.append(encoded)
        if encoded:
            cut = rng.randrange(len(encoded))
            inputs.append(encoded[:cut])
            changed = bytearray(encoded)
            changed[cut] = rng.choice(BASE64 + b"-.+\x80")
            inputs.append(bytes(changed))
    print("# How Python %s decodes (errors='replace') and encodes UTF-7, by"
          % sys.version.split()[0])
    print("# crates/charsight/tests/library/data/python-utf7.py. Read by charsight's tests.")
    for data in inputs:
        print("D", data.hex() or "-", hexcp(data.decode("utf-7", "replace")))
    for text in texts:
        print("E", hexcp(text), text.encode("utf-7").hex() or "-")


main()
