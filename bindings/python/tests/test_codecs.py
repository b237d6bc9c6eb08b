"""Every encoding name charsight returns works with bytes.decode and gives
the text charsight's own decoder gives."""

import codecs
import io
import random

import pytest

import charsight
from charsight import _charsight
from charsight._codecs import PYTHON_CODECS, python_codec

CHARSETS = _charsight.charsets()


def engine_text(charset, data):
    """charsight's decoding of `data` as `charset`, malformed bytes as U+FFFD."""
    return charsight.decode(data, force=charset, errors="replace").text


def decoder_text(charset, data, errors="replace"):
    """The same with charsight's decoder alone (no detection: faster)."""
    return _charsight.StreamDecoder(charset, errors).decode(data, True)


def has_bom(data):
    # charsight.decode drops a BOM it finds; bytes.decode of a named byte
    # order does not.
    return data[:2] in (b"\xff\xfe", b"\xfe\xff") or data[:3] == b"\xef\xbb\xbf"


def byte_sequences(seed):
    rnd = random.Random(seed)
    yield from (bytes([b]) for b in range(256))
    yield from (bytes([b]) + b"a" for b in range(256))
    yield from (bytes([lead, trail]) for lead in range(0x80, 0x100) for trail in range(0x30, 0x100, 3))
    yield from (bytes(rnd.randrange(256) for _ in range(rnd.randrange(1, 12))) for _ in range(2000))


def test_every_charset_is_covered():
    assert len(CHARSETS) > 60
    assert set(PYTHON_CODECS) <= set(CHARSETS)
    for charset in CHARSETS:
        codecs.lookup(python_codec(charset))


@pytest.mark.parametrize("charset", CHARSETS)
def test_name_decodes_as_the_engine(charset):
    name = python_codec(charset)
    for i, data in enumerate(byte_sequences(charset)):
        text = data.decode(name, "replace")
        assert text == decoder_text(charset, data), (charset, name, data)
        if i % 16 == 0 and not has_bom(data):
            assert text == engine_text(charset, data), (charset, name, data)


@pytest.mark.parametrize("charset", CHARSETS)
def test_strict_raises_where_the_engine_finds_malformed_bytes(charset):
    name = python_codec(charset)
    for data in byte_sequences(charset + "strict"):
        try:
            text = data.decode(name)
        except UnicodeDecodeError as error:
            with pytest.raises(UnicodeDecodeError) as ours:
                decoder_text(charset, data, "strict")
            assert ours.value.start == error.start, (charset, data)
        else:
            assert decoder_text(charset, data, "strict") == text


@pytest.mark.parametrize("charset", [c for c in CHARSETS if c not in PYTHON_CODECS])
def test_own_codecs_stream_and_encode(charset):
    name = python_codec(charset)
    assert codecs.lookup(name).name == name
    data = bytes(range(0x20, 0x7F)) + bytes(range(0x80, 0x100)) * 2
    text = data.decode(name, "replace")
    # Incremental decoding, byte by byte, gives the same text.
    decoder = codecs.getincrementaldecoder(name)("replace")
    assert "".join(decoder.decode(data[i:i + 1]) for i in range(len(data))) + decoder.decode(b"", True) == text
    # TextIOWrapper reads through the codec.
    assert io.TextIOWrapper(io.BytesIO(data), encoding=name, errors="replace", newline="").read() == text
    # ASCII round-trips; an unmappable character fails or becomes a reference.
    assert "plain text".encode(name) == engine_text("UTF-8", b"plain text").encode(name)
    if charset not in ("replacement", "gb18030", "UTF-7", "CESU-8"):  # they encode every character
        with pytest.raises(UnicodeEncodeError):
            "\U0001F600".encode(name)
        # (The reference is written in the encoding's own bytes: EBCDIC's are not ASCII.)
        assert "a\U0001F600".encode(name, "xmlcharrefreplace") == "a&#128512;".encode(name)


def test_windows_1252_example():
    # Python's cp1252 fails on 0x81; the engine (as browsers) reads U+0081.
    assert python_codec("windows-1252") == "charsight-windows-1252"
    assert b"\x80\x81".decode("charsight-windows-1252") == "\u20ac\x81"
    with pytest.raises(UnicodeDecodeError) as error:
        b"ok\x81".decode("cp1252")
    assert error.value.start == 2


def test_iso_2022_cn_codecs():
    # Python has none; charsight's read as glibc's iconv does and write a
    # designation on each line.
    assert python_codec("ISO-2022-CN") == "charsight-iso-2022-cn"
    assert python_codec("ISO-2022-CN-EXT") == "charsight-iso-2022-cn-ext"
    data = b"\x1b$)A\x0eVP\x0f\n\x1b$+K\x1bO!%"
    assert data.decode("charsight-iso-2022-cn-ext") == "\u4e2d\n\U00020000"
    assert data.decode("charsight-iso-2022-cn", "replace") == "\u4e2d\n\ufffd+K\ufffdO!%"
    assert "\u4e2d\n\u4e2d".encode("charsight-iso-2022-cn") == b"\x1b$)A\x0eVP\x0f\n\x1b$)A\x0eVP\x0f"


def test_iso_2022_jp_2_3_2004_codecs():
    # charsight's read as Python's iso2022_jp_2, _3 and _2004 do where
    # those read the bytes, and beyond (JIS X 0208's NEC row 13).
    assert python_codec("ISO-2022-JP-2") == "charsight-iso-2022-jp-2"
    data = b"a\x1b$BCf\x1b$(C0!\x1b.A\x1bNi\x1b(B"
    assert data.decode("charsight-iso-2022-jp-2") == data.decode("iso2022_jp_2") == "a\u4e2d\uac00\xe9"
    assert b"\x1b$B-!\x1b(B".decode("charsight-iso-2022-jp-2") == "\u2460"
    jis_x0213 = b"\x1b$(Q.!$w\x1b$(P!!\x1b(B"
    text = jis_x0213.decode("charsight-iso-2022-jp-2004")
    assert text == jis_x0213.decode("iso2022_jp_2004") == "\u4ff1\u304b\u309a\U00020089"
    assert text.encode("charsight-iso-2022-jp-2004") == jis_x0213
    assert "\u304b\u309a".encode(python_codec("ISO-2022-JP-3")) == b"\x1b$(O$w\x1b(B"


def test_mac_hebrew_and_geostd8_codecs():
    # Python has neither; Apple's right-to-left copy of "!" reads as "!".
    assert b"\xe0\xfa\xa6\xa1".decode("charsight-x-mac-hebrew") == "\u05d0\u05ea\u20aa!"
    assert "\u05d0!".encode(python_codec("x-mac-hebrew")) == b"\xe0!"
    assert b"\xc0\xe5\xfd".decode(python_codec("GEOSTD8")) == "\u10d0\u10f5\u2116"
    with pytest.raises(UnicodeDecodeError):
        b"\x81".decode("charsight-geostd8")


def test_codec_errors_it_does_not_support():
    with pytest.raises(ValueError, match="errors='strict' or 'replace'"):
        b"abc".decode("charsight-windows-1252", "ignore")
    with pytest.raises(ValueError, match="'strict' or 'xmlcharrefreplace'"):
        "abc".encode("charsight-windows-1252", "ignore")


def test_strict_decode_error_has_the_offset():
    with pytest.raises(UnicodeDecodeError) as error:
        b"ab\xa0cd".decode("charsight-shift_jis")
    assert error.value.start == 2
    decoder = codecs.getincrementaldecoder("charsight-shift_jis")()
    decoder.decode(b"abc")
    with pytest.raises(UnicodeDecodeError) as error:
        decoder.decode(b"d\xff", final=True)
    assert error.value.start == 1


def _lone_surrogates_replaced(text):
    return "".join("\ufffd" if 0xD800 <= ord(c) <= 0xDFFF else c for c in text)


def test_utf_7_reads_as_pythons_codec_but_for_lone_surrogates_and_a_final_plus():
    rnd = random.Random(2152)
    for _ in range(2000):
        text = "".join(rnd.choice("aZ9é日😀+-~./ \n") for _ in range(rnd.randrange(12)))
        data = text.encode("utf-7")
        assert data.decode(python_codec("UTF-7")) == text == data.decode("utf-7")
        cut = data[: rnd.randrange(len(data) + 1)]
        expected = _lone_surrogates_replaced(cut.decode("utf-7", "replace"))
        if cut.endswith(b"+"):
            # A final `+` outside a run is nothing to Python, malformed to
            # charsight (a `+` in a run both read alike).
            assert cut.decode(python_codec("UTF-7"), "replace") in (expected, expected + "\ufffd")
        else:
            assert cut.decode(python_codec("UTF-7"), "replace") == expected, cut
    assert b"+2AA-".decode(python_codec("UTF-7"), "replace") == "\ufffd"
    assert "日本語 a+b".encode(python_codec("UTF-7")) == "日本語 a+b".encode("utf-7")


# Where charsight's Big5 (the Encoding Standard's, which is Big5-HKSCS) and
# Python's `big5hkscs` (HKSCS-2004) read a pair differently, on purpose: the
# Encoding Standard's index maps these to other characters than Python's.
BIG5_MAPPINGS = {
    b"\xa1\x45": ("\u2027", "\u2022"),
    b"\xa1\x4e": ("\ufe51", "\uff64"),
    b"\xa1\xc2": ("\xaf", "\u203e"),
    b"\xa1\xe3": ("\uff5e", "\u223c"),
    b"\xa1\xf2": ("\u2295", "\u2641"),
    b"\xa1\xf3": ("\u2299", "\u2609"),
    b"\xa2\x41": ("\u2215", "\uff0f"),
    b"\xa2\x42": ("\ufe68", "\uff3c"),
    b"\xa2\x44": ("\uffe5", "\xa5"),
    b"\xa2\x46": ("\uffe0", "\xa2"),
    b"\xa2\x47": ("\uffe1", "\xa3"),
}


def test_big5_reads_as_pythons_big5hkscs_but_for_documented_differences():
    # Every pair a lead byte starts: the same text, or one of three
    # deliberate differences (docs/python.md): an undecodable pair is one
    # U+FFFD (the Encoding Standard's error), not one per byte; the
    # characters HKSCS-2008 added, which Python's table lacks; and the
    # eleven mappings above.
    counts = {"same": 0, "error": 0, "hkscs-2008": 0}
    for lead in range(0x81, 0xFF):
        for trail in [*range(0x40, 0x7F), *range(0xA1, 0xFF)]:
            data = bytes([lead, trail])
            ours = data.decode(python_codec("Big5"), "replace")
            theirs = data.decode("big5hkscs", "replace")
            if ours == theirs:
                counts["same"] += 1
            elif "\ufffd" in ours:
                assert ours == "\ufffd" and theirs == "\ufffd\ufffd", data
                counts["error"] += 1
            elif "\ufffd" in theirs:
                counts["hkscs-2008"] += 1
            else:
                assert BIG5_MAPPINGS[data] == (ours, theirs), data
    assert counts == {"same": 18787, "error": 792, "hkscs-2008": 192}
    # HKSCS's pairs of code points read alike.
    assert b"\x88\x62\x88\x64".decode(python_codec("Big5")) == b"\x88\x62\x88\x64".decode("big5hkscs")


def test_cesu_8_is_utf_8_of_utf_16_code_units():
    assert python_codec("CESU-8") == "charsight-cesu-8"
    for text in ["café", "😀", "a\U0010FFFFz"]:
        units = text.encode("utf-16-be")
        cesu = "".join(
            chr(int.from_bytes(units[i : i + 2], "big")) for i in range(0, len(units), 2)
        ).encode("utf-8", "surrogatepass")
        assert cesu.decode("charsight-cesu-8") == text
        assert text.encode("charsight-cesu-8") == cesu
    # Four-byte UTF-8 is not CESU-8.
    assert "😀".encode("utf-8").decode("charsight-cesu-8", "replace") == "\ufffd" * 4
