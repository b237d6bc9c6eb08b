"""Encoding names that work with ``bytes.decode``.

Each charset charsight can return is given the name of the Python codec
that decodes every byte sequence exactly as charsight does (the same text,
the same U+FFFD for malformed bytes), where Python has one. The others are
codecs of charsight's own, ``charsight-<charset>`` (``charsight-windows-1252``,
``charsight-shift_jis``), registered when ``charsight`` is imported: they
decode with the engine's decoders. ``tests/test_codecs.py`` checks the
table against the engine on every byte and on sampled sequences.
"""

from __future__ import annotations

import codecs
from typing import TYPE_CHECKING, Optional, Tuple

from . import _charsight

if TYPE_CHECKING:
    from _typeshed import ReadableBuffer

#: charsight's charset name -> the Python codec that decodes identically.
#: Charsets missing here decode with a registered ``charsight-`` codec.
PYTHON_CODECS = {
    "UTF-8": "utf-8",
    "UTF-16LE": "utf-16-le",
    "UTF-16BE": "utf-16-be",
    "UTF-32LE": "utf-32-le",
    "UTF-32BE": "utf-32-be",
    "IBM866": "cp866",
    "ISO-8859-2": "iso8859-2",
    "ISO-8859-3": "iso8859-3",
    "ISO-8859-4": "iso8859-4",
    "ISO-8859-5": "iso8859-5",
    "ISO-8859-6": "iso8859-6",
    "ISO-8859-7": "iso8859-7",
    "ISO-8859-8": "iso8859-8",
    "ISO-8859-8-I": "iso8859-8",
    "ISO-8859-10": "iso8859-10",
    "ISO-8859-13": "iso8859-13",
    "ISO-8859-14": "iso8859-14",
    "ISO-8859-15": "iso8859-15",
    "ISO-8859-16": "iso8859-16",
    "KOI8-R": "koi8-r",
    "macintosh": "mac-roman",
    "windows-1256": "cp1256",
    "x-mac-cyrillic": "mac-cyrillic",
    "IBM437": "cp437",
    "IBM737": "cp737",
    "IBM775": "cp775",
    "IBM850": "cp850",
    "IBM852": "cp852",
    "IBM855": "cp855",
    "IBM857": "cp857",
    "IBM858": "cp858",
    "IBM860": "cp860",
    "IBM861": "cp861",
    "IBM862": "cp862",
    "IBM863": "cp863",
    "IBM864": "cp864",
    "IBM865": "cp865",
    "IBM869": "cp869",
    "CP1125": "cp1125",
    "DOS-720": "cp720",
    "IBM856": "cp856",
    "IBM037": "cp037",
    "IBM273": "cp273",
    "IBM424": "cp424",
    "IBM500": "cp500",
    "IBM875": "cp875",
    "IBM1026": "cp1026",
    "IBM01140": "cp1140",
    "x-mac-greek": "mac-greek",
    "x-mac-turkish": "mac-turkish",
    "x-mac-icelandic": "mac-iceland",
    "x-mac-croatian": "mac-croatian",
    "x-mac-romanian": "mac-romanian",
    "x-mac-arabic": "mac-arabic",
    "x-mac-ce": "mac-latin2",
    "KZ-1048": "kz1048",
    "PTCP154": "ptcp154",
    "KOI8-T": "koi8-t",
    "EUC-JIS-2004": "euc_jis_2004",
    "Shift_JIS-2004": "shift_jis_2004",
}

PREFIX = "charsight-"


def python_codec(charset: str) -> str:
    """The codec name for charsight's ``charset`` that ``bytes.decode`` takes."""
    return PYTHON_CODECS.get(charset) or PREFIX + charset.lower()


def charset_of(label: str) -> str:
    """The charset a label names: a ``charsight-`` codec name, a Python codec
    name of the table, or any label charsight knows. ``LookupError`` if none."""
    key = _key(label)
    if key in _OWN:
        return _OWN[key]
    if key in _BY_PYTHON_NAME:
        return _BY_PYTHON_NAME[key]
    return _charsight.resolve(label)


def _key(name: str) -> str:
    return "".join(ch for ch in name.lower() if ch.isalnum())


_OWN = {_key(PREFIX + c): c for c in _charsight.charsets() if c not in PYTHON_CODECS}
# The first charset of a Python codec wins (ISO-8859-8 before ISO-8859-8-I).
_BY_PYTHON_NAME = {_key(codec): c for c, codec in reversed(list(PYTHON_CODECS.items()))}


def _decode_errors(errors: str) -> str:
    if errors in ("strict", "replace"):
        return errors
    raise ValueError(f"charsight codecs decode with errors='strict' or 'replace', not {errors!r}")


def _references(errors: str) -> bool:
    if errors in ("strict", "xmlcharrefreplace"):
        return errors == "xmlcharrefreplace"
    raise ValueError(
        f"charsight codecs encode with errors='strict' or 'xmlcharrefreplace', not {errors!r}"
    )


def _codec_info(charset: str) -> codecs.CodecInfo:
    def decode(input: ReadableBuffer, errors: str = "strict") -> Tuple[str, int]:
        data = bytes(input)
        text = _charsight.StreamDecoder(charset, _decode_errors(errors)).decode(data, True)
        return text, len(data)

    def encode(text: str, errors: str = "strict") -> Tuple[bytes, int]:
        return _charsight.encode(text, charset, _references(errors)), len(text)

    class IncrementalDecoder(codecs.IncrementalDecoder):
        def __init__(self, errors: str = "strict") -> None:
            super().__init__(errors)
            self._decoder = _charsight.StreamDecoder(charset, _decode_errors(errors))

        def decode(self, input: ReadableBuffer, final: bool = False) -> str:
            return self._decoder.decode(bytes(input), final)

        def reset(self) -> None:
            self._decoder.reset()

    class IncrementalEncoder(codecs.IncrementalEncoder):
        def encode(self, input: str, final: bool = False) -> bytes:
            return _charsight.encode(input, charset, _references(self.errors))

    return codecs.CodecInfo(
        encode,
        decode,
        incrementalencoder=IncrementalEncoder,
        incrementaldecoder=IncrementalDecoder,
        name=PREFIX + charset.lower(),
    )


def _search(name: str) -> Optional[codecs.CodecInfo]:
    charset = _OWN.get(_key(name))
    return _codec_info(charset) if charset is not None else None


codecs.register(_search)
