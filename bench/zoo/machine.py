"""The machine a bench ran on, as its tables state it.

The CPU comes from /proc/cpuinfo with its family, model and stepping: the
model name alone reads "AMD EPYC" on Zen 3, 4 and 5 alike. The memory probe
measures what dominates a large model's compile on some virtual machines:
writing memory the process touches for the first time (page faults included)
and writing it into a new file (fresh page cache). On the 2-vCPU VMs of
2026-11-28 both ran at 0.3-0.7 GB/s, ten times slower than into recycled
pages (docs/compiler.md, "Compile time and memory").
"""

import mmap
import os
import time

ISA_FLAGS = ("sse4_2", "avx", "avx2", "fma", "avx512f", "avx512bw",
             "avx512vl", "avx512_vnni", "avx512_bf16", "amx_tile")


def cpu_info():
    """The first CPU's model name, 'family F model M stepping S', MHz and
    the vector ISA flags (ISA_FLAGS order), plus all its flags as a set."""
    fields = {}
    with open("/proc/cpuinfo") as f:
        for line in f:
            if not line.strip():
                break
            key, _, value = line.partition(":")
            fields.setdefault(key.strip(), value.strip())
    flags = set(fields.get("flags", "").split())
    return {
        "cpu": fields.get("model name", "unknown"),
        "family_model": "family %s model %s stepping %s" % (
            fields.get("cpu family", "?"), fields.get("model", "?"),
            fields.get("stepping", "?")),
        "mhz": fields.get("cpu MHz"),
        "isa": [f for f in ISA_FLAGS if f in flags],
        "flags": flags,
    }


def describe_cpu(info, cpus):
    """One line: 'AMD EPYC (family 26 model 2 stepping 1), avx2 ... , 2 CPUs'."""
    return "%s (%s), %s, %d CPUs" % (info["cpu"], info["family_model"],
                                     " ".join(info["isa"]) or "no SIMD flags",
                                     cpus)


def memory_probe(directory, mib=256):
    """GB/s of touching `mib` MiB of freshly mapped memory once per page, and
    of writing those bytes into a new file in `directory` (removed)."""
    size = mib << 20
    page = mmap.PAGESIZE
    buf = mmap.mmap(-1, size)
    start = time.perf_counter()
    for offset in range(0, size, page):
        buf[offset] = 1
    touch = time.perf_counter() - start
    path = os.path.join(directory, "memory-probe.bin")
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        view = memoryview(buf)
        chunk = 16 << 20
        start = time.perf_counter()
        for offset in range(0, size, chunk):
            os.write(fd, view[offset:offset + chunk])
        write = time.perf_counter() - start
        view.release()
    finally:
        os.close(fd)
        os.remove(path)
        buf.close()
    return {"first_touch_gb_s": size / touch / 1e9,
            "new_file_gb_s": size / write / 1e9, "mib": mib}
