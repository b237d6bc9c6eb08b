"""``python -m charsight FILE...``: chardet's ``chardetect`` lines."""

from __future__ import annotations

import argparse
import sys
from typing import BinaryIO, List, Optional

from . import UniversalDetector, __version__


def _line(stream: BinaryIO, name: str) -> str:
    detector = UniversalDetector()
    for chunk in iter(lambda: stream.read(65536), b""):
        detector.feed(chunk)
        if detector.done:
            break
    result = detector.close()
    if result["encoding"] is None:
        return f"{name}: no result"
    return f"{name}: {result['encoding']} with confidence {result['confidence']}"


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m charsight",
        description="Takes one or more file paths and reports their detected encodings.",
    )
    parser.add_argument("input", nargs="*", help="File whose encoding we would like to determine. "
                        "(default: stdin)")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    args = parser.parse_args(argv)
    if not args.input:
        print(_line(sys.stdin.buffer, "stdin"))
        return 0
    status = 0
    for path in args.input:
        try:
            with open(path, "rb") as f:
                print(_line(f, path))
        except OSError as e:
            print(f"{path}: {e.strerror}", file=sys.stderr)
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
