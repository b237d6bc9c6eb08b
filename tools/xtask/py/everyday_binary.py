"""Binary files for `xtask everyday`: the right answer for each is "not text".

Usage: everyday_binary.py OUT_DIR SEED

Writes OUT_DIR/binary/<kind>-binary-NNN.<ext> and prints one relative path per
line. Files are made with the standard library (compressed streams, archives,
SQLite, .pyc, WAV, PDF, WASM, an OLE2 compound file, office zips) or copied
from files of their kind found under /usr on this machine (PNG, GIF, JPEG,
ELF, shared objects, Java .jar and .class, fonts, MP3, ...), then cut to a
size between 1 KB and 200 KB. Nothing is checked in. Deterministic for a seed
on a given machine (the copies depend on what /usr holds).
"""

import bz2
import gzip
import io
import lzma
import math
import os
import py_compile
import random
import sqlite3
import struct
import sys
import tarfile
import tempfile
import wave
import zipfile
import zlib

PER_KIND = 5


def machine_files():
    """Files under /usr by extension, plus ELF executables and objects."""
    by_ext = {}
    for root, dirs, files in os.walk("/usr"):
        dirs.sort()
        for name in sorted(files):
            path = os.path.join(root, name)
            if os.path.islink(path) or not os.path.isfile(path):
                continue
            try:
                size = os.path.getsize(path)
            except OSError:
                continue
            if size < 1024:
                continue
            ext = name.rsplit(".", 1)[-1].lower() if "." in name else ""
            if root.startswith("/usr/bin"):
                ext = "elf-exe"
            elif ".so" in name and root.startswith("/usr/lib/x86_64-linux-gnu"):
                ext = "elf-so"
            by_ext.setdefault(ext, []).append(path)
    return by_ext


def magic_ok(path, magic):
    with open(path, "rb") as f:
        return f.read(len(magic)) == magic


def payload(rng, sources, size):
    """Compressible input: concatenated Python sources and data from /usr."""
    out = bytearray()
    while len(out) < size:
        with open(rng.choice(sources), "rb") as f:
            out += f.read(size - len(out))
    return bytes(out)


def office_zip(kind, rng, text):
    """A DOCX or XLSX-shaped zip (fixed dates, so the bytes are stable)."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in office_parts(kind, text, rng):
            z.writestr(zipfile.ZipInfo(name, (2024, 1, 1, 0, 0, 0)), data)
    return buf.getvalue()


def office_parts(kind, text, rng):
    yield "[Content_Types].xml", '<?xml version="1.0" encoding="UTF-8"?><Types/>'
    if kind == "docx":
        body = "".join(f"<w:p><w:r><w:t>{t}</w:t></w:r></w:p>" for t in text)
        yield "word/document.xml", f"<w:document><w:body>{body}</w:body></w:document>"
    else:
        rows = "".join(f'<row r="{i}"><c t="s"><v>{i}</v></c></row>' for i in range(len(text)))
        yield "xl/worksheets/sheet1.xml", f"<worksheet><sheetData>{rows}</sheetData></worksheet>"
        yield "xl/sharedStrings.xml", "<sst>" + "".join(f"<si><t>{t}</t></si>" for t in text) + "</sst>"
    yield "docProps/thumbnail.bin", bytes(rng.getrandbits(8) for _ in range(4096))


def ole2(rng, data):
    """A minimal OLE2 compound file with one stream (512-byte sectors)."""
    sectors = [data[i:i + 512].ljust(512, b"\0") for i in range(0, len(data), 512)]
    n = len(sectors)
    fat_sectors = math.ceil((n + 2 + 1) / 128)
    dir_sector = n
    first_fat = n + 1
    fat = list(range(1, n)) + [0xFFFFFFFE]          # the stream's chain
    fat += [0xFFFFFFFE]                              # the directory
    fat += [0xFFFFFFFD] * fat_sectors                # the FAT itself
    fat += [0xFFFFFFFF] * (fat_sectors * 128 - len(fat))
    header = bytearray(512)
    header[0:8] = bytes.fromhex("d0cf11e0a1b11ae1")
    struct.pack_into("<HHHHH", header, 24, 0x3E, 3, 0xFFFE, 9, 6)
    struct.pack_into("<IIIIIIIII", header, 40, 0, fat_sectors, dir_sector, 0, 4096,
                     0xFFFFFFFE, 0, 0xFFFFFFFE, 0)
    difat = [first_fat + i for i in range(fat_sectors)] + [0xFFFFFFFF] * (109 - fat_sectors)
    struct.pack_into("<109I", header, 76, *difat)

    def entry(name, kind, child, start, size):
        e = bytearray(128)
        raw = name.encode("utf-16-le") + b"\0\0"
        e[0:len(raw)] = raw
        struct.pack_into("<HBB", e, 64, len(raw), kind, 1)
        struct.pack_into("<III", e, 68, 0xFFFFFFFF, 0xFFFFFFFF, child)
        struct.pack_into("<II", e, 116, start, size)
        return bytes(e)

    directory = entry("Root Entry", 5, 1, 0xFFFFFFFE, 0) + entry("Contents", 2, 0xFFFFFFFF, 0, len(data))
    directory = directory.ljust(512, b"\0")
    fat_bytes = struct.pack(f"<{len(fat)}I", *fat)
    return bytes(header) + b"".join(sectors) + directory + fat_bytes


def wasm(rng, size):
    def leb(n):
        out = bytearray()
        while True:
            b = n & 0x7F
            n >>= 7
            out.append(b | (0x80 if n else 0))
            if not n:
                return bytes(out)

    def section(sid, body):
        return bytes([sid]) + leb(len(body)) + body

    types = section(1, b"\x01\x60\x02\x7f\x7f\x01\x7f")
    funcs = section(3, b"\x01\x00")
    memory = section(5, b"\x01\x00\x01")
    export = section(7, b"\x01\x03add\x00\x00")
    code = section(10, b"\x01\x07\x00\x20\x00\x20\x01\x6a\x0b")
    blob = bytes(rng.getrandbits(8) for _ in range(size))
    data = section(11, b"\x01\x00\x41\x00\x0b" + leb(len(blob)) + blob)
    return b"\0asm\x01\0\0\0" + types + funcs + memory + export + code + data


def pdf(rng, texts):
    objects = []
    for t in texts:
        stream = zlib.compress(("BT /F1 12 Tf 72 712 Td (" + t + ") Tj ET\n").encode("latin-1", "replace") * 20)
        objects.append(b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream) + stream + b"\nendstream")
    image = zlib.compress(bytes(rng.getrandbits(8) for _ in range(20000)))
    objects.append(b"<< /Type /XObject /Subtype /Image /Width 100 /Height 200 /BitsPerComponent 8 "
                   b"/ColorSpace /DeviceGray /Length %d /Filter /FlateDecode >>\nstream\n" % len(image)
                   + image + b"\nendstream")
    out = bytearray(b"%PDF-1.5\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for i, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % i + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for off in offsets:
        out += b"%010d 00000 n \n" % off
    out += b"trailer\n<< /Size %d >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def main():
    out_dir, seed = sys.argv[1], int(sys.argv[2])
    rng = random.Random(seed)
    files = machine_files()
    sources = sorted(p for p in files.get("py", []) if "/usr/lib/python3" in p)[:2000] or files["txt"]
    words = [os.path.basename(p) for p in sources[:500]]
    os.makedirs(os.path.join(out_dir, "binary"), exist_ok=True)
    counter = {}

    def size():
        return int(math.exp(rng.uniform(math.log(1024), math.log(200 * 1024))))

    def emit(kind, ext, data, cut=True):
        n = counter.get(kind, 0) + 1
        counter[kind] = n
        if cut:
            data = data[:max(1024, size())] if len(data) > 1024 else data
        rel = f"binary/{kind}-binary-{n:03}.{ext}"
        with open(os.path.join(out_dir, rel), "wb") as f:
            f.write(data)
        print(rel)

    def copies(kind, ext, keys, magic=None):
        pool = sorted(p for k in keys for p in files.get(k, []) if magic is None or magic_ok(p, magic))
        for path in rng.sample(pool, min(PER_KIND, len(pool))):
            with open(path, "rb") as f:
                emit(kind, ext, f.read(210 * 1024))

    for _ in range(PER_KIND):
        emit("random", "bin", rng.randbytes(size()), cut=False)
        emit("bytes256", "bin", bytes(range(256)) * 20 + rng.randbytes(size()), cut=False)
        text = payload(rng, sources, 2 * size())
        emit("gzip", "gz", gzip.compress(text, mtime=0))
        emit("bzip2", "bz2", bz2.compress(text))
        emit("xz", "xz", lzma.compress(text))
        emit("zlib", "zz", zlib.compress(text))
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
            for i in range(5):
                z.writestr(zipfile.ZipInfo(f"file{i}.txt", (2024, 1, 1, 0, 0, 0)), payload(rng, sources, size()))
        emit("zip", "zip", buf.getvalue())
        buf = io.BytesIO()
        with tarfile.open(fileobj=buf, mode="w", format=tarfile.USTAR_FORMAT) as t:
            for i in range(3):
                data = payload(rng, sources, size()) if i else rng.randbytes(size())
                info = tarfile.TarInfo(f"data/part{i}.dat")
                info.size, info.mtime = len(data), 0
                t.addfile(info, io.BytesIO(data))
        emit("tar", "tar", buf.getvalue())
        with tempfile.TemporaryDirectory() as tmp:
            db = os.path.join(tmp, "t.sqlite")
            con = sqlite3.connect(db)
            con.execute("create table t (id integer primary key, name text, blob blob, x real)")
            con.executemany("insert into t values (?, ?, ?, ?)",
                            [(i, rng.choice(words), rng.randbytes(rng.randrange(200)), rng.random())
                             for i in range(rng.randrange(50, 2000))])
            con.commit()
            con.close()
            with open(db, "rb") as f:
                emit("sqlite", "sqlite", f.read())
            src = os.path.join(tmp, "m.py")
            with open(rng.choice(sources), "rb") as f, open(src, "wb") as g:
                g.write(f.read())
            try:
                pyc = py_compile.compile(src, cfile=os.path.join(tmp, "m.pyc"), dfile="m.py", doraise=True,
                                         invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
                with open(pyc, "rb") as f:
                    emit("pyc", "pyc", f.read())
            except py_compile.PyCompileError:
                pass
        buf = io.BytesIO()
        with wave.open(buf, "wb") as w:
            w.setnchannels(2)
            w.setsampwidth(2)
            w.setframerate(44100)
            w.writeframes(b"".join(struct.pack("<hh", int(8000 * math.sin(i / 9.0)), rng.randrange(-3000, 3000))
                                   for i in range(size() // 4)))
        emit("wav", "wav", buf.getvalue())
        emit("pdf", "pdf", pdf(rng, rng.sample(words, 6)))
        emit("wasm", "wasm", wasm(rng, size()))
        emit("ole2", "doc", ole2(rng, payload(rng, sources, size()) + rng.randbytes(4096)), cut=False)
        emit("docx", "docx", office_zip("docx", rng, rng.sample(words, 40)))
        emit("xlsx", "xlsx", office_zip("xlsx", rng, rng.sample(words, 40)))

    copies("png", "png", ["png"], b"\x89PNG")
    copies("gif", "gif", ["gif"], b"GIF8")
    copies("jpeg", "jpg", ["jpg", "jpeg"], b"\xff\xd8\xff")
    copies("elf", "elf", ["elf-exe"], b"\x7fELF")
    copies("so", "so", ["elf-so"], b"\x7fELF")
    copies("jar", "jar", ["jar"], b"PK")
    copies("font", "ttf", ["ttf", "otf"])
    copies("woff2", "woff2", ["woff2"], b"wOF2")
    copies("mp3", "mp3", ["mp3"])
    copies("ico", "ico", ["ico"])
    copies("bmp", "bmp", ["bmp"], b"BM")
    copies("tiff", "tiff", ["tiff", "tif"])
    copies("odt", "odt", ["odt", "ods", "odp"], b"PK")
    copies("pdf-copy", "pdf", ["pdf"], b"%PDF")
    # Java classes, taken out of the jars on this machine.
    jars = sorted(p for p in files.get("jar", []) if magic_ok(p, b"PK"))
    for path in rng.sample(jars, min(len(jars), 30)):
        if counter.get("class", 0) >= PER_KIND:
            break
        try:
            with zipfile.ZipFile(path) as z:
                names = sorted(n for n in z.namelist() if n.endswith(".class"))
                if names:
                    data = z.read(max(names, key=lambda n: z.getinfo(n).file_size))
                    if len(data) >= 1024:
                        emit("class", "class", data)
        except (zipfile.BadZipFile, OSError):
            continue


if __name__ == "__main__":
    main()
