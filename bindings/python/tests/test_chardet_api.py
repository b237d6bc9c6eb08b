"""chardet's documented API, run against charsight (import charsight as chardet)."""

import os

import pytest

import charsight as chardet

FRENCH = "Fran\u00e7ois et Ren\u00e9e prennent un caf\u00e9 cr\u00e8me \u00e0 la gare."
RUSSIAN = "\u041f\u0440\u0438\u0432\u0435\u0442, \u043c\u0438\u0440! \u041a\u0430\u043a \u0434\u0435\u043b\u0430? \u042d\u0442\u043e \u043f\u0440\u043e\u0432\u0435\u0440\u043a\u0430 \u0442\u0435\u043a\u0441\u0442\u0430."
JAPANESE = "\u65e5\u672c\u8a9e\u306e\u6587\u7ae0\u3067\u3059\u3002\u3053\u308c\u306f\u6587\u5b57\u30b3\u30fc\u30c9\u306e\u30c6\u30b9\u30c8\u3067\u3059\u3002"


def test_detect_returns_chardets_keys():
    result = chardet.detect(FRENCH.encode("utf-8"))
    assert set(result) == {"encoding", "confidence", "language"}
    assert result["encoding"] == "utf-8"
    assert 0.0 <= result["confidence"] <= 1.0
    assert result["language"] == "fr"


@pytest.mark.parametrize(
    "text, python_codec",
    [(FRENCH, "cp1252"), (RUSSIAN, "koi8-r"), (RUSSIAN, "cp1251"), (JAPANESE, "shift_jis"),
     (JAPANESE, "euc_jp"), (FRENCH, "utf-16")],
)
def test_detected_encoding_decodes_the_text(text, python_codec):
    data = text.encode(python_codec)
    encoding = chardet.detect(data)["encoding"]
    assert data.decode(encoding).lstrip("\ufeff") == text


def test_chardet_readme_example():
    # chardet's README: detect on a page's bytes (here, one in EUC-JP).
    rawdata = ("<html><body>" + JAPANESE * 5 + "</body></html>").encode("euc-jp")
    result = chardet.detect(rawdata)
    assert result["encoding"] == "charsight-euc-jp"
    assert result["confidence"] > 0.9
    assert rawdata.decode(result["encoding"]).count(JAPANESE) == 5


def test_pure_ascii_is_ascii():
    # chardet: pure ASCII is "ascii" with confidence 1.
    result = chardet.detect(b"Hello, world! Plain ASCII text.")
    assert (result["encoding"], result["confidence"]) == ("ascii", 1.0)


def test_binary_is_none():
    # chardet: no encoding for binary data. (chardet 7 gives the confidence
    # that it is binary; charsight 0, the probability of decoding right text.)
    data = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8
    assert chardet.detect(data) == {"encoding": None, "confidence": 0.0, "language": None}


def test_empty_input_is_ascii():
    # Empty bytes decode alike in every encoding: ascii, confidence 1
    # (chardet 7.7 says utf-8 with confidence 0.1; chardet 5, None).
    assert chardet.detect(b"") == {"encoding": "ascii", "confidence": 1.0, "language": None}


@pytest.mark.parametrize("kind", [bytes, bytearray, memoryview])
def test_accepts_bytes_like(kind):
    data = RUSSIAN.encode("cp1251")
    assert chardet.detect(kind(data)) == chardet.detect(data)
    assert chardet.detect_all(kind(data)) == chardet.detect_all(data)


@pytest.mark.parametrize("function", [chardet.detect, chardet.detect_all, chardet.UniversalDetector().feed])
def test_str_is_a_type_error(function):
    with pytest.raises(TypeError, match="Expected object of type bytes.*str"):
        function("text, not bytes")


@pytest.mark.parametrize("value", [None, 42, 3.5, ["a"], object()])
def test_other_types_are_type_errors(value):
    with pytest.raises(TypeError):
        chardet.detect(value)


def test_detect_all_is_ranked_and_starts_with_detect():
    data = RUSSIAN.encode("cp1251")
    results = chardet.detect_all(data)
    assert results[0] == chardet.detect(data)
    assert len(results) > 1
    for result in results:
        assert set(result) == {"encoding", "confidence", "language"}
        data.decode(result["encoding"])
    confidences = [r["confidence"] for r in results[1:]]
    assert confidences == sorted(confidences, reverse=True)
    assert chardet.detect_all(data, ignore_threshold=True) == results


def test_universal_detector_documented_loop():
    # chardet's docs: feed lines until done, close, read result.
    data = (RUSSIAN + "\n") * 200
    detector = chardet.UniversalDetector()
    assert detector.done is False
    assert detector.result == {"encoding": None, "confidence": 0.0, "language": None}
    for line in data.encode("koi8-r").splitlines(keepends=True):
        detector.feed(line)
        if detector.done:
            break
    detector.close()
    assert detector.done is True
    assert detector.result["encoding"] == "koi8-r"


def test_universal_detector_reset_starts_over():
    detector = chardet.UniversalDetector()
    detector.feed(FRENCH.encode("cp1252"))
    first = detector.close()
    detector.reset()
    assert detector.done is False
    detector.feed(JAPANESE.encode("shift_jis"))
    second = detector.close()
    assert first["encoding"] == "charsight-windows-1252"
    assert second["encoding"] == "charsight-shift_jis"
    # Feeding after close changes nothing until reset.
    detector.feed(FRENCH.encode("utf-8"))
    assert detector.close() == second


@pytest.mark.parametrize("chunk", [1, 7, 100, 4096])
def test_streaming_equals_one_shot(chunk):
    samples = [
        (JAPANESE * 50).encode("euc-jp"),
        (RUSSIAN * 50).encode("cp1251"),
        os.urandom(5000),
        b"<meta charset=iso-8859-2>" + FRENCH.encode("cp1252") * 3,
        b"",
        (FRENCH * 3000).encode("utf-8"),
    ]
    for data in samples:
        detector = chardet.UniversalDetector()
        for start in range(0, len(data), chunk):
            detector.feed(data[start:start + chunk])
        assert detector.close() == chardet.detect(data)


def test_chardetect_lines(tmp_path, capsys):
    from charsight.__main__ import main

    path = tmp_path / "ru.txt"
    path.write_bytes(RUSSIAN.encode("koi8-r"))
    binary = tmp_path / "blob.bin"
    binary.write_bytes(bytes(range(256)) * 4)
    assert main([str(path), str(binary)]) == 0
    lines = capsys.readouterr().out.splitlines()
    confidence = chardet.detect(path.read_bytes())["confidence"]
    assert lines == [f"{path}: koi8-r with confidence {confidence}", f"{binary}: no result"]
    assert main([str(tmp_path / "missing")]) == 1


def test_python_dash_m(tmp_path):
    import subprocess
    import sys

    path = tmp_path / "ja.txt"
    path.write_bytes(JAPANESE.encode("shift_jis"))
    out = subprocess.run([sys.executable, "-m", "charsight", str(path)], capture_output=True,
                         text=True, check=True).stdout
    assert out.startswith(f"{path}: charsight-shift_jis with confidence ")
