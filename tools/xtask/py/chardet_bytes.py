"""The chardet baseline of `xtask url-eval`: chardet on short byte strings.

Reads one hex-encoded byte string a line on standard input; prints, a line
each, the encoding `chardet.detect(bytes)` names ("" when it names none).
chardet is the PyPI package pinned in requirements.txt.
"""

import sys

import chardet


def main():
    for line in sys.stdin:
        result = chardet.detect(bytes.fromhex(line.strip()))
        print(result["encoding"] or "")


if __name__ == "__main__":
    main()
