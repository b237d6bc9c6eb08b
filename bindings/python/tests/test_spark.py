"""charsight.spark: ``python -m charsight.spark`` in local mode writes the
Parquet rows ``charsight warc`` writes as JSON, for a WARC made here from
``../shared/corpus`` files with HTTP headers (true, absent and wrong
charsets, gzip and chunked bodies, a non-text record, request and warcinfo
records, a truncated record). One Spark run serves every check."""

import gzip
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from charsight import spark

ROOT = Path(__file__).resolve().parents[3]
# `xtask python-test` sets CHARSIGHT_SHARED as the Rust tests find the data.
SHARED = Path(os.environ.get("CHARSIGHT_SHARED") or ROOT.parent / "shared")

# (corpus file, its encoding, Content-Type sent, gzip, chunked)
DOCS = [
    ("KOI8-R/aug32.hole.ru.xml", "KOI8-R", "text/xml; charset=koi8-r", False, False),
    ("EUC-KR/_ude_euc1.txt", "EUC-KR", "text/plain", False, True),
    ("SHIFT_JIS/_ude_4.txt", "Shift_JIS", "text/plain; charset=iso-8859-1", True, False),
    ("windows-1251-russian/_chromium_windows-1251_with_no_encoding_specified.html",
     "windows-1251", None, True, True),
]


def record(warc_type, n, uri, content_type, block):
    head = (f"WARC/1.1\r\nWARC-Type: {warc_type}\r\n"
            f"WARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-{n:012}>\r\n"
            f"WARC-Date: 2026-01-01T00:00:00Z\r\nWARC-Target-URI: {uri}\r\n"
            f"Content-Type: {content_type}\r\nContent-Length: {len(block)}\r\n\r\n")
    return head.encode() + block + b"\r\n\r\n"


def response(n, name, content_type, gzipped, chunked):
    body = (SHARED / "corpus" / name).read_bytes()
    head = "HTTP/1.1 200 OK\r\n"
    if content_type:
        head += f"Content-Type: {content_type}\r\n"
    if gzipped:
        body = gzip.compress(body)
        head += "Content-Encoding: gzip\r\n"
    if chunked:
        chunks = [body[i:i + 1000] for i in range(0, len(body), 1000)]
        body = b"".join(b"%x\r\n%s\r\n" % (len(c), c) for c in chunks) + b"0\r\n\r\n"
        head += "Transfer-Encoding: chunked\r\n"
    return record("response", n, f"http://example.com/{n}", "application/http; msgtype=response",
                  (head + "\r\n").encode() + body)


def make_warc(path):
    members = [gzip.compress(record("warcinfo", 0, "", "application/warc-fields",
                                    b"software: test\r\n"))]
    for i, (name, _, content_type, gzipped, chunked) in enumerate(DOCS, 1):
        request = f"GET /{i} HTTP/1.1\r\nHost: example.com\r\n\r\n".encode()
        members.append(gzip.compress(record("request", 100 + i, f"http://example.com/{i}",
                                            "application/http; msgtype=request", request)))
        members.append(gzip.compress(response(i, name, content_type, gzipped, chunked)))
    png = b"HTTP/1.1 200 OK\r\nContent-Type: image/png\r\n\r\n\x89PNG\r\n\x1a\n"
    members.append(gzip.compress(record("response", 9, "http://example.com/logo.png",
                                        "application/http", png)))
    cut = gzip.compress(response(10, *DOCS[0][:1], *DOCS[0][2:]))
    members.append(cut[:len(cut) // 2])
    path.write_bytes(b"".join(members))


@pytest.fixture(scope="module")
def warc(tmp_path_factory):
    path = tmp_path_factory.mktemp("warc") / "test.warc.gz"
    make_warc(path)
    return path


@pytest.fixture(scope="module")
def parquet_rows(warc, tmp_path_factory):
    if shutil.which("java") is None:
        pytest.skip("no java: Spark needs a Java runtime (17 or later)")
    out = tmp_path_factory.mktemp("spark") / "rows"
    run = subprocess.run([sys.executable, "-m", "charsight.spark", str(warc), "--output", str(out),
                          "--master", "local[2]"], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr[-4000:]
    assert f"{len(DOCS) + 1} records written" in run.stdout
    table = pq.read_table(out)
    assert table.schema.names == [f.split(" ")[0] for f in _top_level_fields()]
    return sorted(table.to_pylist(), key=lambda r: r["offset"])


def _top_level_fields():
    # The DDL's top-level fields: split on commas outside <...>.
    fields, depth, current = [], 0, ""
    for ch in spark.SCHEMA:
        depth += (ch == "<") - (ch == ">")
        if ch == "," and depth == 0:
            fields.append(current.strip())
            current = ""
        else:
            current += ch
    return fields + [current.strip()]


def without_nulls(value):
    """The value with null object members dropped: JSON leaves out what
    Parquet holds as null."""
    if isinstance(value, dict):
        return {k: without_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [without_nulls(v) for v in value]
    return value


def test_rows_follow_the_records(parquet_rows):
    assert [r["uri"] for r in parquet_rows] == [f"http://example.com/{i}" for i in
                                                 range(1, len(DOCS) + 1)] + [
        "http://example.com/logo.png"]
    for row, (_, encoding, content_type, _, _) in zip(parquet_rows, DOCS):
        assert (row["encoding"], row["content_type"]) == (encoding, content_type)
        assert row["path"].endswith("test.warc.gz")
    assert parquet_rows[0]["declared"][0]["source"] == "http"
    assert parquet_rows[2]["rule"]["rule"] == "overridden"
    assert parquet_rows[-1]["binary"] is True and parquet_rows[-1]["encoding"] is None


def test_parquet_rows_equal_the_commands_json(parquet_rows, warc):
    cli = os.environ.get("CHARSIGHT_CLI") or shutil.which("charsight")
    if cli is None:
        pytest.skip("no charsight command: set CHARSIGHT_CLI or put it on PATH")
    run = subprocess.run([cli, "warc", str(warc)], capture_output=True, text=True)
    assert run.returncode == 1, "the truncated record is reported: " + run.stderr
    assert "corrupt record at offset" in run.stderr
    lines = [json.loads(line) for line in run.stdout.splitlines()]
    assert len(lines) == len(parquet_rows)
    for row, line in zip(parquet_rows, lines):
        row, line = without_nulls(row), without_nulls(line)
        row.pop("path"), line.pop("path")
        assert row == line


def test_rows_without_spark(warc):
    found = spark.rows(warc.read_bytes(), "test.warc.gz")
    assert [r["encoding"] for r in found[:len(DOCS)]] == [d[1] for d in DOCS]
    assert spark.rows(b"not a warc", "x") == []
    with pytest.raises(ValueError):
        spark.analyze_warcs(None, [], policy="nonsense")  # type: ignore[arg-type]
