"""Speed of charsight's Python API beside chardet 7.7, charset_normalizer and
faust-cchardet, in one process: microseconds per call on short strings
(20-100 bytes), MB/s on files of 64 KiB-2 MiB, and two threads against one.

    python bench.py [CORPUS [PAGES]]

CORPUS (../shared/corpus, files in folders) gives the short strings, cut from
its files, and the "mixed" inputs: its files concatenated, every encoding one
after another, cut to 64 KiB, 256 KiB, 1 MiB and 2 MiB (text no real file
holds: each detector meets its worst case, bytes that no encoding reads well).
PAGES (target/bench/large, written by `cargo run --release -p xtask -- bench`)
gives the "pages": HTML pages of 64 KiB-2 MiB, each in one encoding, 40
encodings, from held-out text.

Detectors that are not installed are left out.
"""

import importlib
import os
import random
import sys
import threading
import time


def detectors():
    found = {}
    for name, module, call in [
        ("charsight", "charsight", lambda m: m.detect),
        ("cchardet (faust-cchardet)", "cchardet", lambda m: m.detect),
        ("charset_normalizer", "charset_normalizer", lambda m: m.detect),
        ("chardet", "chardet", lambda m: m.detect),
    ]:
        try:
            m = importlib.import_module(module)
        except ImportError:
            continue
        found[f"{name} {getattr(m, '__version__', '')}".strip()] = call(m)
    return found


def files(corpus):
    paths = []
    for folder, _, names in os.walk(corpus):
        paths += [os.path.join(folder, n) for n in names]
    return sorted(paths)


def short_strings(paths, n=2000):
    rnd = random.Random(0)
    out = []
    datas = [open(p, "rb").read() for p in paths]
    datas = [d for d in datas if len(d) > 200]
    while len(out) < n:
        d = rnd.choice(datas)
        size = rnd.randrange(20, 101)
        start = rnd.randrange(0, len(d) - size)
        out.append(d[start:start + size])
    return out


def big_inputs(paths):
    datas = [open(p, "rb").read() for p in paths]
    big = b"".join(datas)
    return [big[i:i + size] for i, size in enumerate([64 << 10, 256 << 10, 1 << 20, 2 << 20])]


def pages(folder):
    paths = [p for p in files(folder) if not p.endswith(".tsv")] if os.path.isdir(folder) else []
    return [open(p, "rb").read() for p in paths]


def per_call(detect, samples):
    start = time.perf_counter()
    for s in samples:
        detect(s)
    return (time.perf_counter() - start) / len(samples) * 1e6


def throughput(detect, inputs, seconds=2.0):
    return threaded(detect, inputs, 1, seconds)


def threaded(detect, inputs, threads, seconds=2.0):
    counts = [0] * threads
    start = time.perf_counter()
    stop = start + seconds

    def work(k):
        while time.perf_counter() < stop:
            for data in inputs:
                detect(data)
                counts[k] += len(data)
                if time.perf_counter() >= stop:
                    break

    ts = [threading.Thread(target=work, args=(k,)) for k in range(threads)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    return sum(counts) / (time.perf_counter() - start) / 1e6


def main():
    corpus = sys.argv[1] if len(sys.argv) > 1 else "../shared/corpus"
    folder = sys.argv[2] if len(sys.argv) > 2 else "target/bench/large"
    paths = files(corpus)
    shorts = short_strings(paths)
    bigs = big_inputs(paths)
    html = pages(folder)
    print(f"{len(shorts)} short strings (20-100 bytes) and mixed inputs of 64 KiB-2 MiB from "
          f"{corpus}; {len(html)} pages of 64 KiB-2 MiB from {folder}")
    print("| detector | µs per short string | MB/s, pages | MB/s, mixed | 2 threads / 1 (pages) |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name, detect in detectors().items():
        per_call(detect, shorts[:100])
        us = per_call(detect, shorts)
        on_pages = throughput(detect, html) if html else float("nan")
        mixed = throughput(detect, bigs)
        two = threaded(detect, html or bigs, 2) / (on_pages if html else mixed)
        print(f"| {name} | {us:.1f} | {on_pages:.1f} | {mixed:.1f} | {two:.2f}× |")


if __name__ == "__main__":
    main()
