#!/usr/bin/env python3
"""Lists the GPU code images in the CUDA fatbins of a file (a model.so, an
object file or a .fatbin), one line per image: "elf sm_80" or "ptx sm_90".

CUDA 13's minimal toolkit here has no cuobjdump; this reads the fatbin
container that fatbinary writes: a 16-byte header (magic 0xBA55ED50,
version, header size, size of the entries), then entries each with a header
(kind: 1 PTX, 2 ELF; header size; payload size; the SM number at byte 28).
In an ELF file the fatbins are read from its .nv_fatbin section (where
mlc-compile puts them and cuobjdump looks); otherwise the file is scanned.
Exit status 1 when there is none.
"""
import struct
import sys

MAGIC = 0xBA55ED50
KINDS = {1: "ptx", 2: "elf"}


def nv_fatbin_section(data):
    """The .nv_fatbin section of a 64-bit little-endian ELF file, or None."""
    if data[:4] != b"\x7fELF" or data[4] != 2:
        return None
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    def section(i):
        name, _, _, _, off, size = struct.unpack_from("<IIQQQQ", data,
                                                      shoff + i * shentsize)
        return name, off, size
    _, stroff, _ = section(shstrndx)
    for i in range(shnum):
        name, off, size = section(i)
        end = data.index(b"\0", stroff + name)
        if data[stroff + name:end] == b".nv_fatbin":
            return data[off:off + size]
    return b""


def images(blob):
    pos = blob.find(struct.pack("<I", MAGIC))
    while pos >= 0:
        _, _, hsize, size = struct.unpack_from("<IHHQ", blob, pos)
        p, end = pos + hsize, pos + hsize + size
        while p < end:
            kind, _, ehsize, psize = struct.unpack_from("<HHIQ", blob, p)
            arch, = struct.unpack_from("<I", blob, p + 28)
            yield KINDS.get(kind, "kind%d" % kind), arch
            p += ehsize + psize
        pos = blob.find(struct.pack("<I", MAGIC), end)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: list-fatbin.py FILE")
    data = open(sys.argv[1], "rb").read()
    section = nv_fatbin_section(data)
    found = list(images(data if section is None else section))
    for kind, arch in found:
        print("%s sm_%d" % (kind, arch))
    if not found:
        print("no fatbin in %s" % sys.argv[1], file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
