"""Helpers of compile-cache.test.

usage: cache_tool.py check REPORT.json NAME=VALUE...
         the report's cache counters: VALUE is a number, 'parts' (the
         report's codegen_parts) or '+' (at least one)
       cache_tool.py damage CACHE_DIR
         damages the first three entries (sorted by name): flips a byte of
         the first's object, truncates the second, puts a copy of the
         first's original in the third's place (a misplaced entry)
       cache_tool.py block CACHE_DIR
         puts a file where each of the 256 entry directories would go
"""
import glob
import json
import os
import sys


def check(report, specs):
    r = json.load(open(report))
    cache = r["cache"]
    for spec in specs:
        name, value = spec.split("=")
        got = cache[name]
        ok = got >= 1 if value == "+" else got == (
            r["codegen_parts"] if value == "parts" else int(value))
        assert ok, f"{report}: cache {name} = {got}, expected {value}: {r}"


def damage(cache_dir):
    entries = sorted(glob.glob(os.path.join(cache_dir, "*", "*.mlcobj")))
    assert len(entries) >= 3, entries
    first = open(entries[0], "rb").read()
    data = bytearray(first)
    data[len(data) // 2] ^= 0xFF
    open(entries[0], "wb").write(data)
    second = open(entries[1], "rb").read()
    open(entries[1], "wb").write(second[: len(second) // 2])
    open(entries[2], "wb").write(first)


def block(cache_dir):
    os.makedirs(cache_dir, exist_ok=True)
    for i in range(256):
        open(os.path.join(cache_dir, f"{i:02x}"), "w").close()


def main():
    command, path = sys.argv[1], sys.argv[2]
    if command == "check":
        check(path, sys.argv[3:])
    elif command == "damage":
        damage(path)
    elif command == "block":
        block(path)
    else:
        sys.exit("unknown command " + command)


if __name__ == "__main__":
    main()
