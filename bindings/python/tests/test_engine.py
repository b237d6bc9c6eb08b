"""The full engine: analyze, explain, decode, repair, fix_url; errors, threads, memory."""

import json
import os
import resource
import shutil
import subprocess
import threading
import tracemalloc

import pytest

import charsight

PAGE = b'<html><head><meta charset="shift_jis"></head>\x93\xfa\x96\x7b\x8c\xea</html>'
LYING = b"<meta charset=utf-8>Fran\xe7ois et Ren\xe9e, caf\xe9 cr\xe8me"


def test_analyze_fields_and_repr():
    found = charsight.analyze(PAGE)
    assert (found.charset, found.encoding, found.source) == ("Shift_JIS", "charsight-shift_jis", "meta")
    assert found.evidence[0]["offset"] == 27
    assert found.candidates[0]["encoding"] == "Shift_JIS"
    assert found.binary is False and found.ascii is False
    assert repr(found).startswith("Analysis(encoding='charsight-shift_jis', charset='Shift_JIS'")
    assert PAGE.decode(found.encoding).endswith("\u65e5\u672c\u8a9e</html>")


def test_analyze_reports_an_overridden_declaration():
    found = charsight.analyze(LYING)
    assert found.rule == {"rule": "overridden", "declared": "UTF-8", "reason": "malformed"}
    assert found.charset == "windows-1252"
    assert charsight.analyze(LYING, policy="whatwg").charset == "UTF-8"
    assert charsight.analyze(LYING, policy="detect").source == "detected"


def test_to_dict_is_the_clis_json():
    found = charsight.analyze(LYING, content_type="text/html; charset=utf-8")
    d = found.to_dict()
    assert d["encoding"] == "windows-1252" and d["declared"][0]["source"] == "http"
    cli = os.environ.get("CHARSIGHT_CLI") or shutil.which("charsight")
    if cli is None:
        pytest.skip("no charsight command: set CHARSIGHT_CLI or put it on PATH")
    out = subprocess.run([cli, "detect", "--format", "jsonl", "-"], input=LYING, capture_output=True,
                         check=True).stdout
    line = json.loads(out)
    del line["path"]
    assert line.pop("prefix") is None  # how the command read it: whole
    assert charsight.analyze(LYING).to_dict() == line


def test_explain_names_the_declaration_the_decision_and_the_problem():
    text = charsight.explain(LYING)
    assert text.startswith("49 bytes\n\nDeclared\n  meta \"utf-8\" at byte 14 \u2192 UTF-8\n")
    assert "\nDecision (verify policy): windows-1252, confidence" in text
    assert "declared UTF-8, actual windows-1252: malformed" in text
    assert "\n  whatwg  UTF-8          declared by meta\n" in text
    assert "\nProblems\n  line 1, bytes 14..19: declared UTF-8 (meta at byte 14), but the bytes are windows-1252" in text
    assert text.endswith("\n1 finding (declaration 1); 0 malformed sequences left as U+FFFD\n")
    assert "\x1b" not in text
    assert charsight.explain(bytearray(LYING)) == charsight.explain(memoryview(LYING)) == text


def test_explain_context_and_limit():
    whatwg = charsight.explain(LYING, policy="whatwg")
    assert "\nDecision (whatwg policy): UTF-8" in whatwg
    http = charsight.explain(LYING, content_type="text/html; charset=windows-1251")
    assert "\nDeclared\n  http \"windows-1251\" at byte 19 \u2192 windows-1251\n  meta" in http
    assert "Decision (verify policy): windows-1251, confidence 1.00 \u2014 forced" in charsight.explain(
        LYING, force="cp1251")
    mojibake = ("caf\u00c3\u00a9 " * 5 + "\n").encode("utf-8")
    text = charsight.explain(mojibake, limit=2)
    assert [line for line in text.splitlines() if line.startswith("  line ")] == [
        "  line 1, bytes 3..7: mojibake \u201c\u00c3\u00a9\u201d \u2192 \u201c\u00e9\u201d"
        " (UTF-8 read as windows-1252, confidence 1.00)",
        "  line 1, bytes 11..15: mojibake \u201c\u00c3\u00a9\u201d \u2192 \u201c\u00e9\u201d"
        " (UTF-8 read as windows-1252, confidence 1.00)",
    ]
    assert "  \u2026 and 3 more\n\n5 findings (mojibake 5)" in text
    assert charsight.explain(b"") == "empty (0 bytes), nothing to decide\n"
    with pytest.raises(TypeError):
        charsight.explain("text")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="policy"):
        charsight.explain(b"abc", policy="trust")
    with pytest.raises(LookupError, match="nonsense"):
        charsight.explain(b"abc", force="nonsense")


def test_explain_is_the_commands():
    cli = os.environ.get("CHARSIGHT_CLI") or shutil.which("charsight")
    if cli is None:
        pytest.skip("no charsight command: set CHARSIGHT_CLI or put it on PATH")
    # Under verify the declaration is overridden (exit 1); detect ignores it.
    cases = [([], {}, 1), (["--limit", "1", "--policy", "detect"], {"limit": 1, "policy": "detect"}, 0)]
    for args, kwargs, code in cases:
        run = subprocess.run([cli, "explain", *args, "-"], input=LYING, capture_output=True)
        assert run.returncode == code
        assert run.stdout.decode("utf-8") == "-: " + charsight.explain(LYING, **kwargs)


def test_context_arguments():
    data = b"\xc4\xe3\xba\xc3"  # two GBK characters, or anything else
    assert charsight.analyze(data, force="latin1").source == "forced"
    assert charsight.analyze(b"abc", default="cp1251").charset == "windows-1251"
    assert charsight.analyze(data, force="charsight-gbk").charset == "GBK"
    assert charsight.analyze(data, force="koi8-r").charset == "KOI8-R"
    assert charsight.analyze(data, tld="cn", lang="zh").charset in ("GBK", "gb18030")


@pytest.mark.parametrize("argument", ["force", "default"])
def test_unknown_label_is_a_lookup_error(argument):
    with pytest.raises(LookupError, match="nonsense"):
        charsight.analyze(b"abc", **{argument: "nonsense"})


def test_bad_arguments_are_value_errors():
    with pytest.raises(ValueError, match="policy"):
        charsight.analyze(b"abc", policy="trust")
    with pytest.raises(ValueError, match="errors"):
        charsight.decode(b"abc", errors="ignore")
    with pytest.raises(ValueError):
        charsight.repair(b"abc", kinds="everything")
    with pytest.raises(TypeError):
        charsight.analyze("text")


def test_decode_text_and_analysis():
    decoded = charsight.decode(b"\xef\xbb\xbfna\xc3\xafve")
    assert decoded.text == "na\u00efve"
    assert decoded.analysis.source == "bom"
    assert charsight.decode(LYING).text == "<meta charset=utf-8>Fran\u00e7ois et Ren\u00e9e, caf\u00e9 cr\u00e8me"


def test_decode_errors_modes():
    data = b"caf\xc3\xa9 \xff ok"
    assert charsight.decode(data, force="utf-8").text == "caf\u00e9 \ufffd ok"
    with pytest.raises(UnicodeDecodeError) as error:
        charsight.decode(data, force="utf-8", errors="strict")
    assert (error.value.start, error.value.end, error.value.object) == (6, 7, data)
    escaped = charsight.decode(data, force="utf-8", errors="escape").text
    assert escaped == "caf\u00e9 \U0010FEFF ok"


def test_repair_mojibake():
    repaired = charsight.repair("caf\u00c3\u00a9 cr\u00c3\u00a8me".encode("utf-8"))
    assert repaired.text == "caf\u00e9 cr\u00e8me"
    assert [f["kind"] for f in repaired.findings] == ["mojibake", "mojibake"]
    assert charsight.repair("caf\u00c3\u00a9".encode("utf-8"), kinds="none").text == "caf\u00c3\u00a9"


def test_fix_url():
    url = "http://example.jp/%93%fa%96%7b"
    assert charsight.fix_url(url) == "http://example.jp/%E6%97%A5%E6%9C%AC"
    assert charsight.fix_url(url.encode(), iri=True) == "http://example.jp/\u65e5\u672c"
    assert charsight.fix_url("/q?k=%C4%E3%BA%C3", iri=True, tld="cn") == "/q?k=\u4f60\u597d"


def test_empty_input():
    assert charsight.analyze(b"").ascii is True
    assert charsight.decode(b"", errors="strict").text == ""
    assert charsight.repair(b"").text == ""
    assert charsight.fix_url("") == ""


def test_large_input():
    data = ("\u041f\u0440\u0438\u0432\u0435\u0442, \u043c\u0438\u0440! " * 600_000).encode("cp1251")
    assert len(data) > 5_000_000
    assert charsight.detect(data)["encoding"] == "charsight-windows-1251"
    assert len(charsight.decode(data).text) == len(data)


def test_threads_agree_with_one_thread():
    samples = [os.urandom(64) for _ in range(50)] + [
        ("\u65e5\u672c\u8a9e\u306e\u6587\u7ae0 %d" % i).encode(enc)
        for i in range(50) for enc in ("shift_jis", "euc_jp", "utf-8")
    ]
    expected = [charsight.detect(s) for s in samples]
    results = {}

    def work(n):
        results[n] = [charsight.detect(s) for s in samples]

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(results[n] == expected for n in range(4))


def test_no_memory_growth():
    data = "Fran\u00e7ois et Ren\u00e9e, caf\u00e9".encode("cp1252")

    def calls(n):
        for i in range(n):
            charsight.detect(data)
            if i % 10 == 0:
                charsight.decode(data)
                charsight.analyze(data).to_dict()

    calls(5_000)
    # Python's allocations (tracemalloc) and the process's peak (the Rust side).
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    calls(30_000)
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    assert after - before < 100_000
    growth = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - peak
    assert growth < 20_000  # kilobytes on Linux
