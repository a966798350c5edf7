#!/usr/bin/python3
"""Helpers for weights-in-file.test (the weights in a section of model.so).

  weights_in_file.py section MODEL.so
      prints the .mlc_weights section's offset, size and payload bytes, read
      from the ELF section headers here (independently of mlc).
  weights_in_file.py corrupt MODEL.so OUT.so magic|fingerprint
      writes a copy with one byte of the section's header changed.
  weights_in_file.py raw-run MODEL.so INPUT.npy EXPECTED.npy
      loads the model with ctypes and calls mlc_model_entry directly, as a
      program using only the model ABI would (no mlc_model_open): the
      outputs must match the expected ones.
  weights_in_file.py weights-error MODEL.so
      prints what the model's mlc_abi_weights_error() returns.
"""

import ctypes
import struct
import sys

import numpy as np


def sections(data):
    """{name: (type, flags, offset, size, align)} from the section headers."""
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    headers = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize)
               for i in range(shnum)]
    names_at, names_size = headers[shstrndx][4], headers[shstrndx][5]
    names = data[names_at:names_at + names_size]
    out = {}
    for name, kind, flags, _, offset, size, _, _, align, _ in headers:
        end = names.index(b"\0", name)
        out[names[name:end].decode()] = (kind, flags, offset, size, align)
    return out


def weights_section(data):
    kind, flags, offset, size, align = sections(data)[".mlc_weights"]
    return offset, size, align, flags


def main():
    command, path = sys.argv[1], sys.argv[2]
    if command == "section":
        data = open(path, "rb").read()
        offset, size, align, flags = weights_section(data)
        magic = data[offset:offset + 8]
        payload, = struct.unpack_from("<Q", data, offset + 8)
        print("offset %% 65536 = %d, align %d, flags %d, magic %s, size = "
              "65536 + payload: %s" % (offset % 65536, align, flags,
                                       magic.decode(),
                                       size == 65536 + payload))
    elif command == "corrupt":
        data = bytearray(open(path, "rb").read())
        offset = weights_section(data)[0]
        data[offset + {"magic": 0, "fingerprint": 16}[sys.argv[4]]] ^= 1
        open(sys.argv[3], "wb").write(data)
    elif command == "raw-run":
        lib = ctypes.CDLL(path)
        lib.mlc_model_workspace_bytes.restype = ctypes.c_uint64
        x = np.load(sys.argv[3]).astype(np.float32)
        expected = np.load(sys.argv[4])
        y = np.zeros(expected.shape, np.float32)
        workspace = np.zeros(lib.mlc_model_workspace_bytes() + 64, np.uint8)
        aligned = workspace.ctypes.data + (-workspace.ctypes.data) % 64
        buffers = (ctypes.c_void_p * 2)(x.ctypes.data, y.ctypes.data)
        lib.mlc_model_entry(buffers, ctypes.c_void_p(aligned))
        err = float(np.max(np.abs(y - expected)))
        print("raw entry: max abs err %.2g" % err)
        sys.exit(0 if err < 1e-5 else 1)
    elif command == "weights-error":
        lib = ctypes.CDLL(path)
        lib.mlc_abi_weights_error.restype = ctypes.c_char_p
        message = lib.mlc_abi_weights_error()
        print("weights error:", message.decode() if message else None)


if __name__ == "__main__":
    main()
