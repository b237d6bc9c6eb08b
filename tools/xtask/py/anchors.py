"""The Python-side anchors of `xtask compare`: chardet and uchardet, in one process.

Usage: anchors.py LIST_FILE

LIST_FILE holds one path per line. Prints one JSON line per path, in order:
{"chardet": name or null, "chardet_confidence": float, "chardet_s": seconds,
 "uchardet": name ("" when it finds none), "uchardet_s": seconds}.
Times are measured around the detection call only (the file is read first).
chardet is the PyPI package pinned in requirements.txt, called as a user calls
it (`chardet.detect(bytes)`); uchardet is Debian's libuchardet through ctypes.
"""

import ctypes
import ctypes.util
import json
import sys
import time

import chardet


def load_uchardet():
    name = ctypes.util.find_library("uchardet") or "libuchardet.so.0"
    try:
        lib = ctypes.CDLL(name)
    except OSError:
        sys.exit("anchors.py: libuchardet not found; install it with `apt-get install libuchardet0` "
                 "(Debian package uchardet/libuchardet0), or run compare with --only-charsight")
    lib.uchardet_new.restype = ctypes.c_void_p
    lib.uchardet_delete.argtypes = [ctypes.c_void_p]
    lib.uchardet_handle_data.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t]
    lib.uchardet_data_end.argtypes = [ctypes.c_void_p]
    lib.uchardet_get_charset.argtypes = [ctypes.c_void_p]
    lib.uchardet_get_charset.restype = ctypes.c_char_p
    return lib


def main():
    lib = load_uchardet()
    with open(sys.argv[1], encoding="utf-8") as f:
        paths = [line.rstrip("\n") for line in f if line.strip()]
    for path in paths:
        with open(path, "rb") as f:
            data = f.read()
        start = time.perf_counter()
        result = chardet.detect(data)
        chardet_s = time.perf_counter() - start
        start = time.perf_counter()
        handle = lib.uchardet_new()
        lib.uchardet_handle_data(handle, data, len(data))
        lib.uchardet_data_end(handle)
        uchardet = lib.uchardet_get_charset(handle).decode("ascii", "replace")
        lib.uchardet_delete(handle)
        uchardet_s = time.perf_counter() - start
        print(json.dumps({
            "chardet": result["encoding"],
            "chardet_confidence": result["confidence"],
            "chardet_s": chardet_s,
            "uchardet": uchardet,
            "uchardet_s": uchardet_s,
        }))


if __name__ == "__main__":
    main()
