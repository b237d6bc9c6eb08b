#!/usr/bin/env bash
# Compares charsight's mojibake repair with Python's ftfy on the same cases:
# the mojibake damage sets of `cargo run -p xtask -- repair-eval` (held-out
# lines of ../shared/text, test half), and false changes on every line of
# ../shared/text. Installs ftfy from PyPI into a virtual environment under
# $TMPDIR (or /tmp); extra arguments go to repair-eval (e.g. --half tuning).
set -euo pipefail
cd "$(dirname "$0")/../.."

FTFY_VERSION=6.3.1
work="${TMPDIR:-/tmp}/charsight-ftfy-compare"
mkdir -p "$work"
if [ ! -x "$work/venv/bin/python" ]; then
    python3 -m venv "$work/venv"
fi
"$work/venv/bin/pip" install --quiet "ftfy==$FTFY_VERSION"

cargo run --quiet --release -p xtask -- repair-eval --no-clean --dump "$work/cases.jsonl" "$@" \
    > "$work/charsight.md"
shared="${CHARSIGHT_SHARED:-../shared}"
"$work/venv/bin/python" tools/ftfy-compare/compare.py "$work/cases.jsonl" "$shared/text"
