"""charsight over web archives with Apache Spark.

``analyze_warcs(spark, paths)`` reads WARC files (plain or gzip-compressed,
paths as Spark sees them: local, ``hdfs://``, ``s3a://``) inside the
executors, and analyses every record as ``charsight warc`` does, with the
same reader and the same analysis (the native module's ``analyze_warc``):
one row per analysed record, its columns the fields of ``charsight warc
--format jsonl`` (``declared`` and ``candidates`` arrays of structs,
``rule`` a struct). ``python -m charsight.spark WARC... --output DIR``
writes them as Parquet.

pyspark and pyarrow are an optional extra: ``pip install charsight[spark]``.
"""

from __future__ import annotations

import importlib
import json
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterator, List

from .. import _charsight

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession

    from .._charsight import _Context

__all__ = ["SCHEMA", "analyze_warcs", "rows"]

#: The rows' schema (Spark DDL): the JSON fields of ``charsight warc``.
SCHEMA = ", ".join([
    "version INT",
    "path STRING",
    "offset BIGINT",
    "record_id STRING",
    "uri STRING",
    "date STRING",
    "content_type STRING",
    "http_charset STRING",
    "truncated BOOLEAN",
    "error STRING",
    "binary BOOLEAN",
    "encoding STRING",
    "confidence DOUBLE",
    "source STRING",
    "declared ARRAY<STRUCT<source: STRING, label: STRING, encoding: STRING, offset: BIGINT,"
    " len: BIGINT, notes: ARRAY<STRING>>>",
    "language STRING",
    "ascii BOOLEAN",
    "ebcdic STRING",
    "bom_len BIGINT",
    "document STRING",
    "empty BOOLEAN",
    "policy STRING",
    "rule STRUCT<rule: STRING, declared: STRING, reason: STRING>",
    "candidates ARRAY<STRUCT<encoding: STRING, sources: ARRAY<STRING>, detector: DOUBLE,"
    " verification: STRUCT<chars: BIGINT, non_ascii: BIGINT, malformed: BIGINT,"
    " malformed_bytes: BIGINT, first_malformed: BIGINT, c1_controls: BIGINT,"
    " private_use: BIGINT, unassigned: BIGINT, round_trip: BOOLEAN>,"
    " doubt: STRING, behind: DOUBLE>>",
    "font_encoding STRING",
    "font_confidence DOUBLE",
])

#: Rows per Arrow batch handed back to Spark.
BATCH_ROWS = 1024


def rows(data: bytes, path: str, policy: str = "verify") -> List[Dict[str, Any]]:
    """The rows of one WARC file's bytes: ``charsight warc``'s JSON objects,
    parsed. Corrupt records are skipped (as the command skips them)."""
    context: _Context = {"content_type": None, "default": None, "force": None,
                         "policy": policy, "tld": None, "lang": None}
    lines, _corrupt = _charsight.analyze_warc(data, path, context)
    return [json.loads(line) for line in lines]


def _analyze_batches(policy: str, arrow_schema: Any) -> Callable[[Iterator[Any]], Iterator[Any]]:
    """The function ``mapInArrow`` runs in the executors: files in, rows out."""
    def analyze(batches: Iterator[Any]) -> Iterator[Any]:
        pa = importlib.import_module("pyarrow")
        for batch in batches:
            paths = batch.column("path").to_pylist()
            contents = batch.column("content")
            for i, path in enumerate(paths):
                found = rows(contents[i].as_py(), path, policy)
                for start in range(0, len(found), BATCH_ROWS):
                    yield pa.RecordBatch.from_pylist(found[start:start + BATCH_ROWS],
                                                     schema=arrow_schema)
    return analyze


def analyze_warcs(spark: "SparkSession", paths: List[str], policy: str = "verify") -> "DataFrame":
    """A DataFrame of the analysed records of the WARC files ``paths``, one
    row per record (columns: :data:`SCHEMA`). Nothing is read until an
    action runs; each file is read and analysed in an executor.

    Spark's ``binaryFile`` source packs files smaller than
    ``spark.sql.files.maxPartitionBytes`` into one task; set it to ``1`` on
    the session (as ``python -m charsight.spark`` does) for one task per
    file."""
    if policy not in ("verify", "whatwg", "detect"):
        raise ValueError(f"policy must be 'verify', 'whatwg' or 'detect', not {policy!r}")
    types = importlib.import_module("pyspark.sql.types")
    arrow_types = importlib.import_module("pyspark.sql.pandas.types")
    schema = types._parse_datatype_string(SCHEMA)
    arrow_schema = arrow_types.to_arrow_schema(schema)
    files = spark.read.format("binaryFile").load(paths).select("path", "content")
    result: DataFrame = files.mapInArrow(_analyze_batches(policy, arrow_schema), schema)
    return result
