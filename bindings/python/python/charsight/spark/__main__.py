"""``python -m charsight.spark WARC... --output DIR``: the records of web
archives analysed with Spark, written as Parquet."""

from __future__ import annotations

import argparse
import os
import sys
from typing import List, Optional

from charsight.spark import analyze_warcs


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m charsight.spark",
        description="Analyses every document in WARC files with Spark and writes one Parquet "
        "row per record (the fields of `charsight warc --format jsonl`).",
    )
    parser.add_argument("warcs", nargs="+", metavar="WARC",
                        help="WARC files or directories, as Spark sees them (local, hdfs://, "
                        "s3a://, globs)")
    parser.add_argument("--output", required=True, metavar="DIR",
                        help="the Parquet directory to write (must not exist)")
    parser.add_argument("--master", metavar="URL",
                        help="Spark master URL [default: spark-submit's, else local[*]]")
    parser.add_argument("--policy", default="verify", choices=["verify", "whatwg", "detect"],
                        help="how declarations are weighed [default: verify]")
    args = parser.parse_args(argv)

    from pyspark.sql import SparkSession

    builder = SparkSession.builder.appName("charsight-warc")
    # spark-submit starts the JVM and names the master itself.
    master = args.master
    if master is None and "PYSPARK_GATEWAY_PORT" not in os.environ:
        master = "local[*]"
    if master is not None:
        builder = builder.master(master)
    if master is not None and master.startswith("local"):
        # The workers run here: with this Python, which has charsight and pyarrow.
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    spark = builder.getOrCreate()
    try:
        # One WARC file per task (binaryFile would pack small files into
        # one); only while the files are read.
        spark.conf.set("spark.sql.files.maxPartitionBytes", "1")
        analyze_warcs(spark, args.warcs, args.policy).write.parquet(args.output)
        spark.conf.unset("spark.sql.files.maxPartitionBytes")
        written = spark.read.parquet(args.output).count()
        print(f"{written} records written to {args.output}")
    finally:
        spark.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
