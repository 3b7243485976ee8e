#!/usr/bin/python3
"""report.py --bound BIN --trace-sh SCRIPT --out DIR RESULTS: the lab report.

RESULTS holds one JSON record per measured cell (scripts/bench.sh):
  {"workload", "params": {...}, "arm", "kernel", "rep", "run_id",
   "metrics": {NAME: number}, optional "trace", ...}; other keys are kept
out of the way.  A cell is a workload with its params.  Writes DIR/report.md
and DIR/plots/*.svg.  Per cell and arm: median (min-max) of every metric
over the repetitions; ratios between arms paired by (run_id, rep); for zipf
and uniform, the offline bounds of the cell's trace at each arm's measured
cache size, and for uniform the check against 1 - C/N; for hotstream, the
hot set's hit ratio of the online policies and of MIN on the page accesses
of lab/hotstream.c (hotstream_trace()) at each arm's cache size.  On top, a
one-screen summary: per cell its headline metric (HEADLINE), series/stock
and series/classic, the best online policy and MIN at the series' cache
size, and a verdict against stock (see verdict()).

"trace" is a path relative to the directory of RESULTS ($BUILD/bench): a
fio iolog, or the fio job file itself, which SCRIPT (lab/host/trace.sh)
turns into DIR/traces/NAME.iolog.  The last job of the iolog is the
measured phase, the jobs before it are the warm-up.
The environment variable RUN_ID, if set, keeps only that run's records.

Malformed input (not JSON, a missing key, no record, a missing trace):
a message on stderr, exit status 2, nothing written.
"""
import argparse
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

ARMS = ["classic", "mglru", "series", "fg-off", "pud-off"]
WORKLOADS = ["sqlite", "zipf", "uniform", "hotstream", "hotmmap", "mmapstream", "idle", "hotmove",
             "probe",
             "global", "anon", "kbuild", "aging", "fgcost", "fgswitch", "jumps"]
# The summary's metrics of each workload, with the better direction; a cell
# shows those it has (global: hit_ratio for its stream shape, swapins for
# anon).  fgswitch has one arm: its metric is already FG on / FG off.
HEADLINE = {"zipf": [("miss_ratio", "lower")], "uniform": [("miss_ratio", "lower")],
            "hotstream": [("hit_ratio", "higher")], "hotmmap": [("hit_ratio", "higher")],
            "mmapstream": [("hit_ratio", "higher")], "idle": [("residency_mean", "higher")],
            "hotmove": [("moved_hit_ratio", "higher")],
            "sqlite": [("misses_per_lookup", "lower"), ("p99_us", "lower")],
            "probe": [("miss_ratio", "lower"), ("p99_us", "lower")],
            "global": [("hit_ratio", "higher"), ("swapins_per_op", "lower")],
            "anon": [("swapins_per_op", "lower")],
            "kbuild": [("refaults_file", "lower"), ("swap_read_pages", "lower"),
                       ("pgmajfault", "lower")],
            "aging": [("aging_us_median", "lower")], "fgcost": [("ops_per_s", "higher")],
            "fgswitch": [("readers1_on_off_ratio", "higher")],
            "jumps": [("active_file_max_jump", "lower")]}
TIE_BAND = 0.02                 # |ratio - 1| within this: a tie
TIE_BAND_US = 0.10              # the same for latencies (*_us), noisy under TCG
MIN_PAIRS = 3                   # fewer repetition pairs: no verdict
PAIRS = [("mglru", "classic"), ("series", "classic"), ("series", "mglru"),
         ("fg-off", "series"), ("pud-off", "series")]
REQUIRED = {"workload": str, "params": dict, "arm": str, "kernel": str,
            "rep": int, "run_id": str, "metrics": dict}
BOUNDED = ("zipf", "uniform")   # need miss_ratio and cache_pages
# lab/host/bound's online policies: its JSON key prefix and their names
ONLINE = [("clock", "CLOCK"), ("sieve", "SIEVE"), ("2q", "2Q"), ("arc", "ARC"),
          ("s3fifo", "S3-FIFO")]
TOLERANCE = 0.03                # uniform: |miss ratio - (1 - C/N)|
PAGES_PER_MIB = 256
# lab/hotstream.c mix: its random generator, and the stream's pages per read()
HOTSTREAM_SEED = 0x9E3779B97F4A7C15
HOTSTREAM_CHUNK_PAGES = 16
MASK64 = (1 << 64) - 1


class Bad(Exception):
    """Malformed input: reported, exit 2."""


def rank(name, known):
    return (known.index(name) if name in known else len(known), name)


def order(names, known):
    return sorted(names, key=lambda n: rank(n, known))


def is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def load(path, run_id):
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.readlines()
    except OSError as e:
        raise Bad(f"{path}: {e.strerror}")
    records, seen = [], set()
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        where = f"{path}:{n}"
        try:
            r = json.loads(line, parse_constant=lambda c: float("nan"))
        except ValueError as e:
            raise Bad(f"{where}: not JSON: {e}")
        if not isinstance(r, dict):
            raise Bad(f"{where}: not a JSON object")
        for k, t in REQUIRED.items():
            if k not in r:
                raise Bad(f"{where}: missing key '{k}'")
            if not isinstance(r[k], t) or isinstance(r[k], bool):
                raise Bad(f"{where}: '{k}' must be a JSON {t.__name__}")
        for m, v in r["metrics"].items():
            if not is_number(v):
                raise Bad(f"{where}: metric '{m}' is not a finite number")
        if r["workload"] in BOUNDED:
            for m in ("miss_ratio", "cache_pages"):
                if m not in r["metrics"]:
                    raise Bad(f"{where}: {r['workload']} record without metric '{m}'")
        if "trace" in r and not isinstance(r["trace"], str):
            raise Bad(f"{where}: 'trace' must be a path")
        r["cell"] = (r["workload"], json.dumps(r["params"], sort_keys=True))
        key = (r["cell"], r["arm"], r["run_id"], r["rep"])
        if key in seen:
            raise Bad(f"{where}: a second record of arm {r['arm']}, run {r['run_id']}, rep {r['rep']}")
        seen.add(key)
        if run_id is None or r["run_id"] == run_id:
            records.append(r)
    if not records:
        raise Bad(f"{path}: no records" + (f" of run {run_id}" if run_id else ""))
    return records


def stats(values):
    return statistics.median(values), min(values), max(values)


def fmt(x):
    return f"{x:.4g}" if abs(x) < 1e4 else f"{x:.0f}"


def fmt_range(values):
    med, lo, hi = stats(values)
    return f"{fmt(med)} ({fmt(lo)}–{fmt(hi)})"


def params_text(params):
    return ", ".join(f"{k}={params[k]}" for k in sorted(params)) or "no parameters"


def slug(workload, params):
    s = "-".join(f"{k}{params[k]}" for k in sorted(params))
    return re.sub(r"[^A-Za-z0-9.]+", "_", f"{workload}-{s}" if s else workload)


def hotstream_trace(path: str, hot_pages: int, stream_pages: int, k: int) -> int:
    """Write the page accesses of lab/hotstream.c mix (one warm-up pass over
    the hot file, then K random hot reads after each 64 KiB of a stream
    never read again), one page per line; return the warm-up requests."""
    state = HOTSTREAM_SEED
    lines = [str(p) for p in range(hot_pages)]
    for chunk in range(stream_pages // HOTSTREAM_CHUNK_PAGES):
        base = hot_pages + chunk * HOTSTREAM_CHUNK_PAGES
        lines += [str(base + i) for i in range(HOTSTREAM_CHUNK_PAGES)]
        for _ in range(k):
            state ^= state >> 12
            state ^= (state << 25) & MASK64
            state ^= state >> 27
            lines.append(str((state * 0x2545F4914F6CDD1D & MASK64) % hot_pages))
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    return hot_pages


class Traces:
    """Iolog traces, their warm-up, and the bounds at each capacity."""

    def __init__(self, base, out, bound, trace_sh):
        self.base, self.out, self.bound, self.trace_sh = base, out, bound, trace_sh
        self.iologs, self.results = {}, {}

    def iolog(self, name):
        """(iolog path, warm-up requests) for a record's 'trace'."""
        if name in self.iologs:
            return self.iologs[name]
        path = os.path.join(self.base, name)
        if not os.path.isfile(path):
            raise Bad(f"trace '{name}' not found in {self.base}")
        if path.endswith(".fio"):
            job = path
            path = os.path.join(self.out, "traces",
                                os.path.basename(job)[:-len(".fio")] + ".iolog")
            if not os.path.isfile(path) or os.path.getmtime(path) < os.path.getmtime(job):
                os.makedirs(os.path.dirname(path), exist_ok=True)
                p = subprocess.run([self.trace_sh, job, path], capture_output=True, text=True)
                if p.returncode:
                    raise Bad(f"trace of {name}: {p.stderr.strip()}")
        # The measured phase is the last job: count the requests before it.
        jobs = []
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.startswith("fio version"):
                    jobs.append(0)
                elif jobs and re.search(r" (read|write) ", line):
                    jobs[-1] += 1
        if not jobs:
            raise Bad(f"trace '{name}': not a fio iolog")
        self.iologs[name] = (path, sum(jobs[:-1]))
        return self.iologs[name]

    def hot_bounds(self, params: dict, capacity: int) -> dict:
        """hotstream: each policy's hit ratio of the hot reads at capacity
        (the stream's pages, read once, miss under every policy)."""
        try:
            hot, stream, k = (int(params[n] * PAGES_PER_MIB) if n != "k" else int(params[n])
                              for n in ("hot_mib", "stream_mib", "k"))
        except (KeyError, TypeError, ValueError):
            raise Bad(f"hotstream {params_text(params)}: needs hot_mib, stream_mib and k")
        path = os.path.join(self.out, "traces", f"hotstream-h{hot}-s{stream}-k{k}.trace")
        if not os.path.isfile(path):
            os.makedirs(os.path.dirname(path), exist_ok=True)
            hotstream_trace(path + ".tmp", hot, stream, k)
            os.replace(path + ".tmp", path)
        self.iologs[path] = (path, hot)
        b = self.bounds(path, capacity)
        reads = b["accesses"] - stream
        return {key: 1 - (b[f"{key}_misses"] - stream) / reads
                for key in ["min", "lru"] + [o for o, _ in ONLINE]}

    def bounds(self, name, capacity):
        path, warm = self.iolog(name)
        key = (path, capacity)
        if key not in self.results:
            p = subprocess.run([self.bound, "-w", str(warm), path, str(capacity)],
                               capture_output=True, text=True)
            if p.returncode:
                raise Bad(f"bound on trace '{name}': {p.stderr.strip()}")
            self.results[key] = json.loads(p.stdout)
        return self.results[key]


def analyse(records, traces):
    """Everything the report shows, computed before anything is written."""
    cells = {}
    for r in records:
        cells.setdefault(r["cell"], {}).setdefault(r["arm"], []).append(r)
    out = []
    for cell in sorted(cells, key=lambda c: (rank(c[0], WORKLOADS), c[1])):
        workload, params = cell[0], json.loads(cell[1])
        arms = {a: cells[cell][a] for a in order(cells[cell], ARMS)}
        metrics = order({m for rs in arms.values() for r in rs for m in r["metrics"]},
                        ["miss_ratio", "refaults_per_read", "iops", "cache_pages"])
        c = {"workload": workload, "params": params, "arms": arms, "metrics": metrics,
             "ratios": ratios(arms, metrics), "bounds": {}, "trace": None}
        names = {r.get("trace") for rs in arms.values() for r in rs}
        if workload in BOUNDED and names != {None}:
            if len(names) != 1:
                raise Bad(f"{workload} {params_text(params)}: records name different "
                          f"traces or none: {sorted(map(str, names))}")
            c["trace"] = names.pop()
            c["warmup"] = traces.iolog(c["trace"])[1]
            for a, rs in arms.items():
                cap = round(statistics.median(r["metrics"]["cache_pages"] for r in rs))
                c["bounds"][a] = traces.bounds(c["trace"], max(cap, 1))
        if workload == "hotstream":
            c["hot_bounds"] = {a: traces.hot_bounds(params, max(1, round(statistics.median(
                values(rs, "cache_pages")) or 1))) for a, rs in arms.items()
                if values(rs, "cache_pages")}
        if workload == "uniform":
            if not is_number(params.get("file_mib")):
                raise Bad(f"uniform {params_text(params)}: no params.file_mib (N)")
            c["pages"] = params["file_mib"] * PAGES_PER_MIB
        out.append(c)
    return out


def ratios(arms, metrics):
    """{(a, b): {metric: [a/b per (run_id, rep) pair]}} for the arms present."""
    res = {}
    for a, b in PAIRS:
        if a not in arms or b not in arms:
            continue
        by_rep = {(r["run_id"], r["rep"]): r["metrics"] for r in arms[b]}
        res[(a, b)] = {}
        for m in metrics:
            v = []
            for r in arms[a]:
                other = by_rep.get((r["run_id"], r["rep"]), {})
                if m in r["metrics"] and m in other:
                    v.append(ratio(r["metrics"][m], other[m]))
            if v:
                res[(a, b)][m] = v
    return res


def ratio(x, y):
    """x / y, with 0 / 0 = 1 (e.g. no miss on either arm) and x / 0 = inf."""
    if y:
        return x / y
    return 1.0 if x == y else math.copysign(math.inf, x)


def values(rs, m):
    return [r["metrics"][m] for r in rs if m in r["metrics"]]


def uniform_check(c, a):
    """(1 - C/N, median miss ratio - (1 - C/N)) of arm a."""
    cap = statistics.median(values(c["arms"][a], "cache_pages"))
    expect = 1 - cap / c["pages"]
    return expect, statistics.median(values(c["arms"][a], "miss_ratio")) - expect


def verdict(ratios, direction, band=TIE_BAND):
    """win / tie / loss of series against stock from per-pair ratios: a win
    (loss) needs at least MIN_PAIRS pairs, the median better (worse) by more
    than band, and every pair on that side of 1; anything else is a tie."""
    if len(ratios) < MIN_PAIRS:
        return "—"
    med = statistics.median(ratios)
    better = [r < 1 if direction == "lower" else r > 1 for r in ratios]
    worse = [r > 1 if direction == "lower" else r < 1 for r in ratios]
    if abs(med - 1) > band and all(better):
        return "win"
    if abs(med - 1) > band and all(worse):
        return "loss"
    return "tie"


def summary_lines(cells):
    lines = ["## Summary", "",
             "Per cell, the headline metric: series/stock and series/classic per repetition "
             "pair, median (min–max); for zipf and uniform, the best online policy and MIN "
             f"at the series' cache size. Verdict against stock: a win or loss needs "
             f"{MIN_PAIRS} pairs or more, the median ratio beyond ±{TIE_BAND:.0%} (latencies "
             f"±{TIE_BAND_US:.0%}) and every pair on that side, else tie; no verdict with "
             "fewer pairs. 0/0 counts as 1. fgswitch compares FG on with FG off inside one "
             "boot; uniform is the negative control.", "",
             "| cell | metric | series | series/stock | series/classic | best online | MIN | "
             "pairs | verdict |", "|---" * 9 + "|"]
    for c in cells:
        for m, direction in HEADLINE.get(c["workload"], []):
            if m not in c["metrics"] or "series" not in c["arms"]:
                continue
            ser = values(c["arms"]["series"], m)
            if not ser:
                continue
            if c["workload"] == "fgswitch":
                vs_stock, vs_classic = ser, None
            else:
                vs_stock = c["ratios"].get(("series", "mglru"), {}).get(m)
                vs_classic = c["ratios"].get(("series", "classic"), {}).get(m)
            best = mn = "—"
            b = c["bounds"].get("series")
            if b:
                k, name = min(ONLINE, key=lambda o: b[f"{o[0]}_miss_ratio"])
                best, mn = f"{name} {b[f'{k}_miss_ratio']:.4f}", f"{b['min_miss_ratio']:.4f}"
            hb = c.get("hot_bounds", {}).get("series")
            if hb and m == "hit_ratio":
                k, name = max(ONLINE, key=lambda o: hb[o[0]])
                best, mn = f"{name} {hb[k]:.4f}", f"{hb['min']:.4f}"
            word = verdict(vs_stock or [], direction,
                           TIE_BAND_US if m.endswith("_us") else TIE_BAND)
            if c["workload"] == "uniform":
                word = "control"
            ratio = [f"{stats(v)[0]:.3f} ({stats(v)[1]:.3f}–{stats(v)[2]:.3f})" if v else "—"
                     for v in (vs_stock, vs_classic)]
            lines.append(f"| {c['workload']}: {params_text(c['params'])} | {m} "
                         f"({direction} is better) | {fmt_range(ser)} | {ratio[0]} | {ratio[1]} | "
                         f"{best} | {mn} | {len(vs_stock or [])} | {word} |")
    return lines + [""]


def markdown(path, records, cells, run_id):
    runs = sorted({r["run_id"] for r in records})
    lines = ["# MGLRU lab report", "",
             f"Source: `{os.path.basename(path)}`, {len(records)} records, run"
             f"{'s' if len(runs) > 1 else ''} {', '.join(runs)}"
             f"{' (RUN_ID)' if run_id else ''}.", "",
             "Every value is the median (min–max) over repetitions, n = repetitions. "
             "Ratios pair the repetitions of two arms of the same run (same run_id and rep). "
             "Absolute times only describe this machine: compare arms by their ratios.", ""]
    flags = []
    for c in cells:
        for a, rs in c["arms"].items():
            if len(rs) < 3:
                flags.append(f"{c['workload']} ({params_text(c['params'])}), arm {a}: "
                             f"only {len(rs)} repetition{'s' if len(rs) > 1 else ''}, not a result")
        if c["workload"] == "uniform":
            for a in c["arms"]:
                expect, dev = uniform_check(c, a)
                if abs(dev) > TOLERANCE:
                    flags.append(f"uniform ({params_text(c['params'])}), arm {a}: miss ratio "
                                 f"deviates from 1 − C/N = {expect:.4f} by {dev:+.4f} "
                                 f"(tolerance {TOLERANCE}): harness or cache-size problem")
    lines += summary_lines(cells)
    lines += ["## Flags", ""] + ([f"- {f}" for f in flags] or ["- none"]) + [""]

    workload = None
    for c in cells:
        if c["workload"] != workload:
            workload = c["workload"]
            lines += [f"## {workload}", "", f"![{workload}](plots/{workload}.svg)", ""]
        arms = c["arms"]
        lines += [f"### {workload}: {params_text(c['params'])}", ""]
        lines += ["arms: " + "; ".join(
            f"{a} = {'/'.join(sorted({r['kernel'] for r in rs}))} kernel, enabled "
            f"{'/'.join(sorted({str(r.get('enabled', '?')) for r in rs}))}"
            for a, rs in arms.items()), ""]
        lines += ["| metric | " + " | ".join(f"{a} (n={len(rs)})" for a, rs in arms.items()) + " |",
                  "|---" * (len(arms) + 1) + "|"]
        for m in c["metrics"]:
            lines.append(f"| {m} | " + " | ".join(
                fmt_range(values(rs, m)) if values(rs, m) else "—" for rs in arms.values()) + " |")
        lines.append("")
        pairs = [p for p in c["ratios"] if c["ratios"][p]]
        if pairs:
            lines += ["Ratios per repetition pair, median (min–max):", "",
                      "| metric | " + " | ".join(f"{a}/{b}" for a, b in pairs) + " |",
                      "|---" * (len(pairs) + 1) + "|"]
            for m in c["metrics"]:
                cols = [c["ratios"][p].get(m) for p in pairs]
                if any(cols):
                    lines.append(f"| {m} | " + " | ".join(
                        f"{stats(v)[0]:.3f} ({stats(v)[1]:.3f}–{stats(v)[2]:.3f})" if v else "—"
                        for v in cols) + " |")
            lines.append("")
        if workload in BOUNDED:
            lines += bounds_lines(c)
        if c.get("hot_bounds"):
            lines += hot_bounds_lines(c)
        if workload == "hotmove":
            name = f"{slug(workload, c['params'])}-over-time.svg"
            lines += [f"The moved hot set's hit ratio per eighth of the second half"
                      f"{' and the first hot set still cached at its end' if windows(c, 'old_w') else ''}: "
                      f"![over time](plots/{name})", ""]
    return "\n".join(lines)


def hot_bounds_lines(c):
    """hotstream: the hot set's hit ratio of each arm against the policies."""
    lines = ["Online policies and MIN on the page accesses of `lab/hotstream.c` "
             "(`lab/host/bound`, one warm-up pass over the hot file), at each arm's median "
             "cache_pages C: the hit ratio of the hot reads.", "",
             "| arm | C (pages) | hit ratio | LRU | " + " | ".join(n for _, n in ONLINE) +
             " | best online | MIN |", "|---" * (len(ONLINE) + 6) + "|"]
    for a, hb in c["hot_bounds"].items():
        rs = c["arms"][a]
        k, name = max(ONLINE, key=lambda o: hb[o[0]])
        cap = round(statistics.median(values(rs, "cache_pages")))
        lines.append(f"| {a} | {cap} | {fmt_range(values(rs, 'hit_ratio'))} | {hb['lru']:.4f} | " +
                     " | ".join(f"{hb[o]:.4f}" for o, _ in ONLINE) +
                     f" | {name} {hb[k]:.4f} | {hb['min']:.4f} |")
    return lines + [""]


def bounds_lines(c):
    lines = []
    if c["bounds"]:
        b0 = next(iter(c["bounds"].values()))
        lines += [f"Bounds: `lab/host/bound` on trace `{c['trace']}` ({c['warmup']} warm-up "
                  f"requests, {b0['requests']} measured, {b0['pages']} pages), at each arm's "
                  "median cache_pages C. Gap = arm's median miss ratio − bound (relative).", "",
                  "| arm | C (pages) | miss ratio | MIN | static opt. | LRU | gap to static | "
                  "gap to MIN | refaults / miss |", "|---" * 9 + "|"]
        for a, rs in c["arms"].items():
            b, mr = c["bounds"][a], statistics.median(values(rs, "miss_ratio"))
            gaps = [f"{mr - b[k]:+.4f} ({(mr - b[k]) / b[k] * 100:+.1f} %)" if b[k] else
                    f"{mr - b[k]:+.4f}" for k in ("static_miss_ratio", "min_miss_ratio")]
            rpr = values(rs, "refaults_per_read")
            cal = f"{statistics.median(rpr) / mr:.3f}" if rpr and mr else "—"
            lines.append(f"| {a} | {b['capacity']} | {fmt_range(values(rs, 'miss_ratio'))} | "
                         f"{b['min_miss_ratio']:.4f} | {b['static_miss_ratio']:.4f} | "
                         f"{b['lru_miss_ratio']:.4f} | {gaps[0]} | {gaps[1]} | {cal} |")
        lines.append("")
        lines += ["Online policies on the same trace at the same C (`lab/host/bound`), and the "
                  "arm's gap to the best of them:", "",
                  "| arm | C (pages) | miss ratio | " + " | ".join(n for _, n in ONLINE) +
                  " | best online | gap to best |", "|---" * (len(ONLINE) + 5) + "|"]
        for a, rs in c["arms"].items():
            b, mr = c["bounds"][a], statistics.median(values(rs, "miss_ratio"))
            best_key, best_name = min(ONLINE, key=lambda k: b[f"{k[0]}_miss_ratio"])
            best = b[f"{best_key}_miss_ratio"]
            gap = (f"{mr - best:+.4f} ({(mr - best) / best * 100:+.1f} %)" if best
                   else f"{mr - best:+.4f}")
            lines.append(f"| {a} | {b['capacity']} | {fmt_range(values(rs, 'miss_ratio'))} | " +
                         " | ".join(f"{b[f'{k}_miss_ratio']:.4f}" for k, _ in ONLINE) +
                         f" | {best_name} {best:.4f} | {gap} |")
        lines.append("")
    else:
        lines += ["Bounds: no trace recorded for this cell.", ""]
    if c["workload"] == "uniform":
        lines += [f"Negative control: every policy should miss 1 − C/N of the reads "
                  f"(N = {c['pages']} pages, tolerance {TOLERANCE}).", "",
                  "| arm | C (pages) | 1 − C/N | miss ratio | deviation | |", "|---" * 6 + "|"]
        for a, rs in c["arms"].items():
            expect, dev = uniform_check(c, a)
            lines.append(f"| {a} | {fmt(statistics.median(values(rs, 'cache_pages')))} | "
                         f"{expect:.4f} | {fmt_range(values(rs, 'miss_ratio'))} | {dev:+.4f} | "
                         f"{'**FLAG**' if abs(dev) > TOLERANCE else 'ok'} |")
        lines.append("")
    return lines


def plots(cells, outdir):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    matplotlib.rcParams["svg.hashsalt"] = "mglru-lab"   # stable SVG ids
    colors = dict(zip(ARMS, ["#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#9c755f",
                                 "#e15759", "#76b7b2"]))

    def bars(ax, x, width, rs_by_arm, m, legend):
        for i, (a, rs) in enumerate(rs_by_arm.items()):
            v = values(rs, m)
            if not v:
                continue
            med, lo, hi = stats(v)
            ax.bar(x + (i - (len(rs_by_arm) - 1) / 2) * width, med, width,
                   yerr=[[med - lo], [hi - med]], capsize=2,
                   color=colors.get(a, "#bab0ac"), label=a if a not in legend else None)
            legend.add(a)

    def save(fig, name):
        fig.tight_layout()
        fig.savefig(os.path.join(outdir, name), format="svg", metadata={"Date": None})
        plt.close(fig)

    for workload in order({c["workload"] for c in cells}, WORKLOADS):
        wc = [c for c in cells if c["workload"] == workload]
        metrics = order({m for c in wc for m in c["metrics"]}, wc[0]["metrics"])
        arms = order({a for c in wc for a in c["arms"]}, ARMS)
        cols = min(3, len(metrics))
        rows = -(-len(metrics) // cols)
        fig, axes = plt.subplots(rows, cols, figsize=(4.5 * cols, 3.2 * rows), squeeze=False)
        legend = set()
        for ax, m in zip(axes.flat, metrics):
            for x, c in enumerate(wc):
                bars(ax, x, 0.8 / len(arms), {a: c["arms"].get(a, []) for a in arms}, m, legend)
            ax.set_title(m, fontsize=9)
            ax.set_xticks(range(len(wc)), [params_text(c["params"]).replace(", ", "\n")
                                           for c in wc], fontsize=6)
        for ax in list(axes.flat)[len(metrics):]:
            ax.axis("off")
        handles = [h for ax in axes.flat for h in ax.get_legend_handles_labels()[0]]
        fig.legend(handles=handles, loc="upper right", fontsize=7)
        fig.suptitle(f"{workload}: median, min–max over repetitions", fontsize=10)
        save(fig, f"{workload}.svg")

    # hotmove, per arm over the second half: the moved hot set's hit ratio and,
    # if recorded, how much of the first hot set is still cached
    for c in cells:
        if c["workload"] != "hotmove":
            continue
        panels = [(prefix, label, windows(c, prefix)) for prefix, label in
                  (("moved_w", "hit ratio of the moved hot set"),
                   ("old_w", "first hot set still cached"))]
        panels = [p for p in panels if p[2]]
        if not panels:
            continue
        fig, axes = plt.subplots(1, len(panels), figsize=(6 * len(panels), 3.5), squeeze=False)
        for ax, (_, label, ws) in zip(axes.flat, panels):
            for a, rs in c["arms"].items():
                meds = [statistics.median(values(rs, m)) if values(rs, m) else math.nan
                        for m in ws]
                ax.plot(range(1, len(ws) + 1), meds, marker="o", color=colors.get(a, "#bab0ac"),
                        label=a)
            ax.set_xlabel("eighth of the second half of the stream")
            ax.set_ylabel(f"{label} (median)", fontsize=8)
            ax.legend(fontsize=7)
        fig.suptitle(f"hotmove: {params_text(c['params'])}", fontsize=8)
        save(fig, f"{slug(c['workload'], c['params'])}-over-time.svg")

    for c in cells:
        if c["workload"] not in BOUNDED:
            continue
        fig, ax = plt.subplots(figsize=(1.2 * len(c["arms"]) + 3.5, 3.5))
        lines = {"MIN": ("min_miss_ratio", "k", ":"), "static optimum": ("static_miss_ratio", "k", "--"),
                 "LRU": ("lru_miss_ratio", "#e15759", "-"),
                 "ARC": ("arc_miss_ratio", "#ff9da7", "-."),
                 "S3-FIFO": ("s3fifo_miss_ratio", "#edc948", "-.")}
        for x, (a, rs) in enumerate(c["arms"].items()):
            bars(ax, x, 0.6, {a: rs}, "miss_ratio", {a})      # no legend entry
            b = c["bounds"].get(a)
            for label, (k, color, style) in lines.items():
                if b:
                    ax.hlines(b[k], x - 0.4, x + 0.4, colors=color, linestyles=style,
                              label=label if x == 0 else None)
            if c["workload"] == "uniform":
                ax.hlines(uniform_check(c, a)[0], x - 0.4, x + 0.4, colors="#76b7b2",
                          label="1 − C/N" if x == 0 else None)
        ax.set_xticks(range(len(c["arms"])), list(c["arms"]))
        ax.set_ylabel("miss ratio (device reads / read)")
        ax.set_title(f"{c['workload']}: {params_text(c['params'])}", fontsize=8)
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1, 1))
        save(fig, f"{slug(c['workload'], c['params'])}-miss_ratio.svg")


def windows(cell: dict, prefix: str) -> list[str]:
    """The metrics PREFIX1, PREFIX2, ... of a cell, in order."""
    ms = [m for m in cell["metrics"] if re.fullmatch(re.escape(prefix) + r"\d+", m)]
    return sorted(ms, key=lambda m: int(m[len(prefix):]))


def main():
    ap = argparse.ArgumentParser(description="the lab report (see the module docstring)")
    ap.add_argument("--bound", required=True, help="the lab/host/bound binary")
    ap.add_argument("--trace-sh", required=True, help="lab/host/trace.sh")
    ap.add_argument("--out", required=True, help="output directory")
    ap.add_argument("results", help="results.jsonl")
    args = ap.parse_args()
    run_id = os.environ.get("RUN_ID") or None
    try:
        records = load(args.results, run_id)
        traces = Traces(os.path.dirname(os.path.abspath(args.results)), args.out,
                        args.bound, args.trace_sh)
        cells = analyse(records, traces)
    except Bad as e:
        print(f"report.py: error: {e}", file=sys.stderr)
        sys.exit(2)
    text = markdown(args.results, records, cells, run_id)
    os.makedirs(args.out, exist_ok=True)
    tmp = tempfile.mkdtemp(dir=args.out, prefix=".plots.")
    os.chmod(tmp, 0o755)
    plots(cells, tmp)
    shutil.rmtree(os.path.join(args.out, "plots"), ignore_errors=True)
    os.rename(tmp, os.path.join(args.out, "plots"))
    with open(os.path.join(args.out, "report.md.tmp"), "w", encoding="utf-8") as f:
        f.write(text + "\n")
    os.replace(os.path.join(args.out, "report.md.tmp"), os.path.join(args.out, "report.md"))
    print(f"{os.path.join(args.out, 'report.md')}: {len(cells)} cells, plots in "
          f"{os.path.join(args.out, 'plots')}")


if __name__ == "__main__":
    main()
