#!/usr/bin/python3
"""Per-boot ratios of the in-boot kbuild A/B runs of oneboot.sh.

Usage: abba.py A_CAPS [--vs=B_CAPS] LOG...

Each LOG is the guest output of one boot: '=== build N caps C
zram_read_pages R' lines, each followed by memory.stat lines of that build.
For every boot, the counters of the builds with caps A_CAPS are summed and
divided by those of the builds with caps B_CAPS (by default, of all the
other builds); the medians and ranges over the boots follow.
"""
import re
import statistics
import sys

HEADER = re.compile(r"^=== build \d+ caps (\S+) zram_read_pages (\d+)")
STAT = re.compile(r"^(\w+) (\d+)$")
KEYS = ("zram_read_pages", "pgmajfault", "workingset_refault_file",
        "workingset_refault_anon", "pgactivate", "pgscan", "pgsteal",
        "vm_pgscan_anon", "vm_pgscan_file", "vm_pgsteal_anon",
        "vm_pgsteal_file", "vm_pswpout")

Builds = list[tuple[str, dict[str, int]]]


def parse(path: str) -> Builds:
    builds: Builds = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = HEADER.match(line)
            if m:
                builds.append((m[1], {"zram_read_pages": int(m[2])}))
                continue
            m = STAT.match(line.strip())
            if m and builds:
                builds[-1][1][m[1]] = int(m[2])
    return builds


def ratios(builds: Builds, a_caps: str, b_caps: str | None) -> dict[str, float]:
    out: dict[str, float] = {}
    for key in KEYS:
        a = sum(s[key] for c, s in builds if c == a_caps and key in s)
        b = sum(s[key] for c, s in builds
                if c != a_caps and b_caps in (None, c) and key in s)
        if a and b:
            out[key] = a / b
    return out


def main() -> int:
    if len(sys.argv) < 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    a_caps = sys.argv[1]
    logs = sys.argv[2:]
    b_caps = None
    if logs[0].startswith("--vs="):
        b_caps = logs.pop(0)[len("--vs="):]
    if not logs:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    per_boot = []
    for path in logs:
        builds = parse(path)
        caps = {c for c, _ in builds}
        if a_caps not in caps or len(caps) < 2 or (b_caps and b_caps not in caps):
            print(f"{path}: no builds with {a_caps} and {b_caps or 'other caps'}", file=sys.stderr)
            return 1
        per_boot.append(ratios(builds, a_caps, b_caps))
    print(f"{a_caps} over {b_caps or 'the other caps'}, per boot; "
          f"median (min-max) of {len(per_boot)} boots")
    for key in KEYS:
        vals = [r[key] for r in per_boot if key in r]
        if len(vals) == len(per_boot):
            print(f"  {key:26} {statistics.median(vals):.3f} "
                  f"({min(vals):.3f}-{max(vals):.3f})  "
                  + " ".join(f"{v:.3f}" for v in vals))
    return 0


if __name__ == "__main__":
    sys.exit(main())
