"""The native module (Rust). Use the ``charsight`` package's API instead."""

from typing import List, Optional, Tuple, TypedDict, final

__all__ = [
    "Stream",
    "StreamDecoder",
    "__version__",
    "analyze",
    "analyze_warc",
    "charsets",
    "decode",
    "detect",
    "detect_all",
    "encode",
    "explain",
    "fix_url",
    "repair",
    "resolve",
]

__version__: str

# (charset, confidence, language, ascii, text)
_Summary = Tuple[str, float, Optional[str], bool, bool]

class _Context(TypedDict):
    content_type: Optional[str]
    default: Optional[str]
    force: Optional[str]
    policy: str
    tld: Optional[str]
    lang: Optional[str]

def detect(data: bytes) -> _Summary: ...
def detect_all(data: bytes) -> Tuple[_Summary, List[Tuple[str, float, Optional[str]]]]: ...
def analyze(
    data: bytes,
    context: _Context,
) -> str: ...
def analyze_warc(
    data: bytes,
    path: str,
    context: _Context,
) -> Tuple[List[str], List[Tuple[int, str]]]: ...
def explain(
    data: bytes,
    limit: int,
    context: _Context,
) -> str: ...
def decode(
    data: bytes,
    errors: str,
    context: _Context,
) -> Tuple[str, str]: ...
def repair(
    data: bytes,
    kinds: str,
    errors: str,
    context: _Context,
) -> Tuple[str, str, str]: ...
def fix_url(url: bytes, iri: bool = False, tld: Optional[str] = None) -> str: ...
def charsets() -> List[str]: ...
def resolve(label: str) -> str: ...
def encode(text: str, label: str, references: bool) -> bytes: ...

@final
class StreamDecoder:
    def __new__(cls, label: str, errors: str) -> "StreamDecoder": ...
    def decode(self, data: bytes, last: bool) -> str: ...
    def reset(self) -> None: ...

@final
class Stream:
    def __new__(cls) -> "Stream": ...
    def feed(self, data: bytes) -> None: ...
    def wants_more(self) -> bool: ...
    def finish(self) -> Optional[_Summary]: ...
