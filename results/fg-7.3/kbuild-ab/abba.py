#!/usr/bin/python3
"""Per-boot ratios of the in-boot kbuild A/B runs of oneboot.sh.

Usage: abba.py A_CAPS LOG...

Each LOG is the guest output of one boot: '=== build N caps C
zram_read_pages R' lines, each followed by memory.stat lines of that build.
For every boot, the counters of the builds with caps A_CAPS are summed and
divided by those of the other builds; the medians and ranges over the boots
follow.
"""
import re
import statistics
import sys

HEADER = re.compile(r"^=== build \d+ caps (\S+) zram_read_pages (\d+)")
STAT = re.compile(r"^(\w+) (\d+)$")
KEYS = ("zram_read_pages", "pgmajfault", "workingset_refault_file",
        "workingset_refault_anon", "pgactivate", "pgscan", "pgsteal")

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


def ratios(builds: Builds, a_caps: str) -> dict[str, float]:
    out: dict[str, float] = {}
    for key in KEYS:
        a = sum(s[key] for c, s in builds if c == a_caps and key in s)
        b = sum(s[key] for c, s in builds if c != a_caps and key in s)
        if a and b:
            out[key] = a / b
    return out


def main() -> int:
    if len(sys.argv) < 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    a_caps = sys.argv[1]
    per_boot = []
    for path in sys.argv[2:]:
        builds = parse(path)
        caps = {c for c, _ in builds}
        if a_caps not in caps or len(caps) < 2:
            print(f"{path}: no A/B pair of builds with {a_caps}", file=sys.stderr)
            return 1
        per_boot.append(ratios(builds, a_caps))
    print(f"{a_caps} over the other caps, per boot; median (min-max) of {len(per_boot)} boots")
    for key in KEYS:
        vals = [r[key] for r in per_boot if key in r]
        if len(vals) == len(per_boot):
            print(f"  {key:26} {statistics.median(vals):.3f} "
                  f"({min(vals):.3f}-{max(vals):.3f})  "
                  + " ".join(f"{v:.3f}" for v in vals))
    return 0


if __name__ == "__main__":
    sys.exit(main())
