#!/usr/bin/python3
"""ghost_model.py TRACE WARMUP CAPACITY [SHARE]: the refault-distance model of the lab.

A cache of CAPACITY pages in two parts: pages accessed once wait in a FIFO
(probation), a second access while resident moves a page to an LRU
(protected), and the FIFO is evicted first.  An evicted page leaves a ghost
with the eviction count; a miss on a page whose ghost is at most DISTANCE
evictions old goes straight to the protected LRU.  With no ghost, this is
how frequency-guided promotion treats pages read once (a page needs its
second access before the oldest generation is evicted); with ghosts, how
bit 0x0040 (refault distances) does.

TRACE is one page number per line (lab/host/bound's format, e.g. the
hotstream traces report.py writes to $BUILD/bench/traces/); the first
WARMUP requests are not counted.  Prints one JSON line: the misses of the
measured requests for DISTANCE = none, CAPACITY / 2, CAPACITY, 2 x
CAPACITY and unbounded.

With SHARE (0 < SHARE <= 1, default 1), the protected LRU holds at most
SHARE x CAPACITY pages: when it outgrows that, its least recently used page
goes back to the FIFO: a crude model of the MGLRU aging, which starts once
the youngest generation holds half the lruvec (SHARE 0.5); the kernel did
not follow it at 0.75 (results/6.12/refault-distance/alternatives/README.md).
"""
import json
import sys
from collections import OrderedDict


def misses(trace: list[int], warmup: int, capacity: int, distance: float,
           share: float = 1.0) -> int:
    prob: OrderedDict[int, None] = OrderedDict()
    prot: OrderedDict[int, None] = OrderedDict()
    ghost: dict[int, int] = {}
    evictions = missed = 0
    for i, page in enumerate(trace):
        if page in prot:
            prot.move_to_end(page)
            continue
        if page in prob:
            del prob[page]
            prot[page] = None
        else:
            missed += i >= warmup
            evicted = ghost.pop(page, None)
            if evicted is not None and evictions - evicted <= distance:
                prot[page] = None
            else:
                prob[page] = None
        while len(prot) > share * capacity:
            prob[prot.popitem(last=False)[0]] = None
        while len(prob) + len(prot) > capacity:
            victim, _ = (prob if prob else prot).popitem(last=False)
            ghost[victim] = evictions
            evictions += 1
    return missed


def main() -> None:
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__.split("\n")[0])
    try:
        with open(sys.argv[1], encoding="utf-8") as f:
            trace = [int(line) for line in f if line.strip() and not line.startswith("#")]
        warmup, capacity = int(sys.argv[2]), int(sys.argv[3])
        share = float(sys.argv[4]) if len(sys.argv) == 5 else 1.0
    except (OSError, ValueError) as e:
        print(f"ghost_model.py: {e}", file=sys.stderr)
        sys.exit(2)
    if warmup < 0 or capacity < 1 or warmup >= len(trace) or not 0 < share <= 1:
        print("ghost_model.py: WARMUP must be below the trace's length, CAPACITY at least 1, "
              "SHARE in (0, 1]", file=sys.stderr)
        sys.exit(2)
    out = {"capacity": capacity, "warmup": warmup, "requests": len(trace) - warmup,
           "share": share}
    for name, d in (("none", -1), ("half", capacity / 2), ("capacity", capacity),
                    ("twice", 2 * capacity), ("unbounded", float("inf"))):
        out[f"misses_{name}"] = misses(trace, warmup, capacity, d, share)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
