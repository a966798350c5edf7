"""huge-pages.test: the GLIBC_TUNABLES the linking C compiler saw.

Usage: check_tunables.py RECORDED BEFORE. BEFORE is what mlc-compile was
started with. With the kernel's transparent huge pages in "madvise" mode,
glibc.malloc.hugetlb=1 is appended to it unless it sets hugetlb already;
in any other mode it is passed on as it was.
"""
import sys

recorded = open(sys.argv[1]).read().strip()
before = sys.argv[2]
try:
    mode = open("/sys/kernel/mm/transparent_hugepage/enabled").read()
except OSError:
    mode = ""
expected = before
if "[madvise]" in mode and "glibc.malloc.hugetlb" not in before:
    expected = (before + ":" if before else "") + "glibc.malloc.hugetlb=1"
if recorded != expected:
    sys.exit("GLIBC_TUNABLES: expected %r, the C compiler saw %r"
             % (expected, recorded))
