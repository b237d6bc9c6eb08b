"""charsight: the right text out of bytes whose character encoding is
unknown, missing or wrong.

A drop-in for chardet's API (``import charsight as chardet``): ``detect``,
``detect_all`` and ``UniversalDetector``. Beside it, the full engine:
``analyze``, ``explain``, ``decode``, ``repair`` and ``fix_url``.

Every encoding name charsight returns works with ``bytes.decode``: a
Python codec that decodes exactly as charsight does, or a codec of
charsight's own (``charsight-windows-1252``) registered on import.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Tuple, Union

from . import _charsight
from ._codecs import charset_of, python_codec

if TYPE_CHECKING:
    from ._charsight import _Context

__all__ = [
    "Analysis",
    "Decoded",
    "Repaired",
    "UniversalDetector",
    "__version__",
    "analyze",
    "decode",
    "detect",
    "detect_all",
    "explain",
    "fix_url",
    "python_codec",
    "repair",
]

__version__: str = _charsight.__version__

Buffer = Union[bytes, bytearray, memoryview]
ChardetResult = Dict[str, Any]


def _bytes(data: Buffer) -> bytes:
    if isinstance(data, bytes):
        return data
    if isinstance(data, (bytearray, memoryview)):
        return bytes(data)
    raise TypeError(
        f"Expected object of type bytes, bytearray or memoryview, got: {type(data)}"
        + (" (encode text to bytes first: charsight finds the encoding of bytes)"
           if isinstance(data, str) else "")
    )


def _result(summary: Tuple[str, float, Optional[str], bool, bool]) -> ChardetResult:
    charset, confidence, language, ascii, text = summary
    if not text:
        return {"encoding": None, "confidence": 0.0, "language": None}
    if ascii:
        return {"encoding": "ascii", "confidence": 1.0, "language": language}
    return {"encoding": python_codec(charset), "confidence": confidence, "language": language}


def detect(byte_str: Buffer) -> ChardetResult:
    """Detects the encoding of ``byte_str``, as ``chardet.detect`` does.

    Returns ``{"encoding", "confidence", "language"}``: ``encoding`` is a name
    ``bytes.decode`` takes (``"ascii"`` for pure ASCII, ``None`` for binary
    data), ``confidence`` the probability (0 to 1) that it decodes the right
    text, ``language`` a BCP 47 tag or ``None``.

    >>> detect("Fran\\u00e7ois et Ren\\u00e9e, caf\\u00e9 cr\\u00e8me".encode("utf-8"))["encoding"]
    'utf-8'
    """
    return _result(_charsight.detect(_bytes(byte_str)))


def detect_all(byte_str: Buffer, ignore_threshold: bool = False) -> List[ChardetResult]:
    """Every plausible encoding of ``byte_str``, best first, as
    ``chardet.detect_all`` returns them. The first is ``detect``'s answer;
    the others are the readings the detector did not rule out, by their
    own confidence. ``ignore_threshold`` is accepted for chardet's signature:
    charsight lists every reading not ruled out either way."""
    decision, others = _charsight.detect_all(_bytes(byte_str))
    first = _result(decision)
    if first["encoding"] in (None, "ascii"):
        return [first]
    rest: List[ChardetResult] = [
        {"encoding": python_codec(charset), "confidence": confidence, "language": language}
        for charset, confidence, language in others
    ]
    # By confidence, as chardet sorts; ties keep the detector's ranking.
    rest.sort(key=lambda result: -result["confidence"])
    return [first] + rest


class UniversalDetector:
    """Streaming detection, as chardet's ``UniversalDetector``: ``feed``
    chunks until ``done``, then ``close`` for the ``result``. The result is
    the one ``detect`` gives on the bytes fed."""

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        """Starts over for a new input."""
        self._stream = _charsight.Stream()
        self.done: bool = False
        self.result: ChardetResult = {"encoding": None, "confidence": 0.0, "language": None}

    def feed(self, byte_str: Buffer) -> None:
        """Feeds the next chunk; ignored once ``done``."""
        data = _bytes(byte_str)
        if self.done:
            return
        self._stream.feed(data)
        if not self._stream.wants_more():
            self.done = True

    def close(self) -> ChardetResult:
        """Ends the input and returns the ``result``."""
        summary = self._stream.finish()
        if summary is not None:
            self.result = _result(summary)
        self.done = True
        return self.result


@dataclass(frozen=True)
class Analysis:
    """The engine's decision on some bytes and why.

    ``encoding`` is the Python codec name (see ``python_codec``), ``charset``
    charsight's canonical name; ``evidence`` holds every declaration found
    (BOM, HTTP, ``<meta>``, XML) with where it was and whether it counted;
    ``candidates`` the ranked candidates with their verification; ``rule``
    why the decision was made. ``to_dict()`` is the JSON object of
    ``charsight detect --format jsonl`` (without ``path``).
    """

    encoding: str
    charset: str
    confidence: float
    source: str
    language: Optional[str]
    evidence: List[Dict[str, Any]] = field(repr=False)
    candidates: List[Dict[str, Any]] = field(repr=False)
    rule: Dict[str, Any]
    binary: bool
    ascii: bool
    _report: str = field(repr=False, compare=False)

    @classmethod
    def _from_json(cls, report: str) -> "Analysis":
        r = json.loads(report)
        return cls(
            encoding=python_codec(r["encoding"]),
            charset=r["encoding"],
            confidence=r["confidence"],
            source=r["source"],
            language=r["language"],
            evidence=r["declared"],
            candidates=r["candidates"],
            rule=r["rule"],
            binary=r["binary"],
            ascii=r["ascii"],
            _report=report,
        )

    def to_dict(self) -> Dict[str, Any]:
        """The decision as the CLI's JSON report shows it."""
        report: Dict[str, Any] = json.loads(self._report)
        return report


@dataclass(frozen=True)
class Decoded:
    """The text of some bytes (without a byte order mark) and the analysis."""

    text: str
    analysis: Analysis


@dataclass(frozen=True)
class Repaired:
    """The repaired text, the analysis, and every change made as a finding
    (``kind``, input byte ``range``, ``before``, ``after``, ``confidence``,
    ``rule``, ``applied``); a finding with ``applied`` false was reported,
    not made (a private-use character, a contradicted declaration, a
    possible mojibake repair short of its margin)."""

    text: str
    analysis: Analysis
    findings: List[Dict[str, Any]]


def _context(
    content_type: Optional[str],
    default: Optional[str],
    force: Optional[str],
    policy: str,
    tld: Optional[str],
    lang: Optional[str],
) -> _Context:
    return {
        "content_type": content_type,
        "default": None if default is None else charset_of(default),
        "force": None if force is None else charset_of(force),
        "policy": policy,
        "tld": tld,
        "lang": lang,
    }


def analyze(
    data: Buffer,
    *,
    content_type: Optional[str] = None,
    default: Optional[str] = None,
    force: Optional[str] = None,
    policy: str = "verify",
    tld: Optional[str] = None,
    lang: Optional[str] = None,
) -> Analysis:
    """Decides the encoding of ``data`` with its context.

    ``content_type`` is an HTTP Content-Type (its ``charset`` is evidence),
    ``default`` the encoding when nothing else decides, ``force`` the
    encoding to use whatever the bytes say; ``policy`` is ``"verify"``
    (declarations trusted unless the bytes contradict them), ``"whatwg"``
    (as browsers) or ``"detect"`` (declarations ignored); ``tld`` and
    ``lang`` are hints (``"jp"``, ``"ru"``). Labels may be any name charsight
    or this package returns; an unknown one raises ``LookupError``, an
    unknown policy ``ValueError``.
    """
    context = _context(content_type, default, force, policy, tld, lang)
    report = _charsight.analyze(_bytes(data), context)
    return Analysis._from_json(report)


def explain(
    data: Buffer,
    *,
    content_type: Optional[str] = None,
    default: Optional[str] = None,
    force: Optional[str] = None,
    policy: str = "verify",
    tld: Optional[str] = None,
    lang: Optional[str] = None,
    limit: int = 20,
) -> str:
    """Explains ``data`` in words, as ``charsight explain`` does: what was
    declared where, what the bytes are, the decision and what each policy
    would decide, each problem with its place, the font scopes, and the
    repairs ``repair`` would make, in plain text.

    The context is ``analyze``'s; ``limit`` is how many problems, font
    scopes and repairs are listed at most each (all are counted).
    """
    context = _context(content_type, default, force, policy, tld, lang)
    return _charsight.explain(_bytes(data), limit, context)


def decode(
    data: Buffer,
    *,
    errors: str = "replace",
    content_type: Optional[str] = None,
    default: Optional[str] = None,
    force: Optional[str] = None,
    policy: str = "verify",
    tld: Optional[str] = None,
    lang: Optional[str] = None,
) -> Decoded:
    """Decides the encoding of ``data`` (as ``analyze``) and decodes it.

    ``errors``: ``"replace"`` writes U+FFFD for each malformed sequence,
    ``"strict"`` raises ``UnicodeDecodeError`` at the first (its ``start`` is
    the byte offset), ``"escape"`` writes each undecodable byte as a code
    point of the range U+10FE00–U+10FEFF, so that the bytes can be restored.
    """
    context = _context(content_type, default, force, policy, tld, lang)
    text, report = _charsight.decode(_bytes(data), errors, context)
    return Decoded(text, Analysis._from_json(report))


def repair(
    data: Buffer,
    *,
    kinds: str = "all",
    errors: str = "replace",
    content_type: Optional[str] = None,
    default: Optional[str] = None,
    force: Optional[str] = None,
    policy: str = "verify",
    tld: Optional[str] = None,
    lang: Optional[str] = None,
) -> Repaired:
    """Decodes ``data`` (as ``decode``) and repairs what went wrong before:
    mojibake, stray bytes, character references, legacy and symbol fonts,
    private use. ``kinds`` is ``"all"``, ``"none"`` or kind names separated
    by commas, as the CLI's ``--repair``."""
    context = _context(content_type, default, force, policy, tld, lang)
    text, report, findings = _charsight.repair(_bytes(data), kinds, errors, context)
    return Repaired(text, Analysis._from_json(report), json.loads(findings))


def fix_url(url: Union[str, Buffer], iri: bool = False, tld: Optional[str] = None) -> str:
    """Decodes the percent-escapes and raw bytes of one URL component by
    component (each in the encoding its bytes read best in) and returns it
    with every non-ASCII character as UTF-8 percent-encoding, or with
    ``iri`` in readable form. ``tld`` (``"jp"``) replaces the host's
    top-level domain as the hint."""
    raw = url.encode("utf-8") if isinstance(url, str) else _bytes(url)
    return _charsight.fix_url(raw, iri, tld)
