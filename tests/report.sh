#!/bin/bash
# Host test of scripts/report.sh (scripts/report.py): the fixture
# tests/data/results.jsonl (made-up numbers, run_id "fixture") gives the
# expected medians, ranges, ratios, bounds and flags, and the plots;
# malformed input fails with exit status 2 and writes nothing.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=../scripts/lib.sh
. "$top/scripts/lib.sh"
# shellcheck source=/dev/null # from the kernel tree
. "$TREE/tools/testing/selftests/kselftest/ktap_helpers.sh"
ktap_print_header
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The fixture, with the job file's data path pointing into $tmp (the trace
# must come without I/O: $tmp/absent must not appear).
data=$tmp/data
mkdir "$data"
cp "$top/tests/data/results.jsonl" "$top/tests/data/textbook.iolog" "$data/"
sed "s|/nonexistent/mglru-lab-fixture|$tmp/absent|" "$top/tests/data/uniform.fio" > "$data/uniform.fio"
export BUILD=$tmp/build
unset RUN_ID
report=$BUILD/bench/report.md

fails=0
# KTAP results, one line each: details of a failure go into diagnostics.
# ktap_helpers.sh echoes unquoted, hence set -f around it.
ok() {
	set -f
	ktap_test_pass "$(echo "$*" | head -1)"
	set +f
}
notok() {
	while IFS= read -r line; do echo "# $line"; done <<< "$*"
	set -f
	ktap_test_fail "$(echo "$*" | head -1 | cut -c1-120)"
	set +f
	fails=$((fails + 1))
}
has() { # has NAME LINE: report.md has this exact line
	if grep -qxF -- "$2" "$report"; then ok "$1"; else notok "$1: no line '$2'"; fi
}

if out=$("$top/scripts/report.sh" "$data/results.jsonl" 2>&1); then
	ok "fixture: exit 0 ($out)"
else
	notok "fixture: report.sh failed: $out"
	exit 1
fi

# zipf, theta 0.8: miss_ratio reps (classic, mglru, series) = (.40 .50 .36),
# (.42 .48 .35), (.41 .49 .37): medians .41 .49 .36.  Per rep:
# mglru/classic 1.25 1.1429 1.1951 -> 1.195 (1.143-1.250); series/classic
# .9 .8333 .9024 -> 0.900 (0.833-0.902); series/mglru .72 .7292 .7551.
has "zipf: miss ratio medians and ranges" \
	"| miss_ratio | 0.41 (0.4–0.42) | 0.49 (0.48–0.5) | 0.36 (0.35–0.37) |"
has "zipf: iops medians and ranges" "| iops | 1040 (1000–1100) | 950 (900–1000) | 1150 (1100–1200) |"
has "zipf: miss ratio ratios per repetition pair" \
	"| miss_ratio | 1.195 (1.143–1.250) | 0.900 (0.833–0.902) | 0.729 (0.720–0.755) |"
# Bounds on tests/data/textbook.iolog (warm-up = first job, 5 requests;
# hand-checked in tests/bound.sh): C = 3 (classic): MIN .25, static .25,
# LRU .625; C = 4 (series, cache_pages 4 4 5): all .25.  Gap of classic:
# .41 - .25 = +.16 = +64 %; calibration .21 / .41 = 0.512.
has "zipf: bounds at C=3, gaps, calibration" \
	"| classic | 3 | 0.41 (0.4–0.42) | 0.2500 | 0.2500 | 0.6250 | +0.1600 (+64.0 %) | +0.1600 (+64.0 %) | 0.512 |"
has "zipf: bounds at the arm's own C=4" \
	"| series | 4 | 0.36 (0.35–0.37) | 0.2500 | 0.2500 | 0.2500 | +0.1100 (+44.0 %) | +0.1100 (+44.0 %) | 0.444 |"
# The online policies on the same trace (hand-checked in tests/bound.sh on
# the textbook trace, whose measured part is this one's): C = 3, CLOCK and
# SIEVE miss 3 4 2 3 (.5), 2Q all but one 3 (.875), ARC and S3-FIFO 5 of 8
# (.625); best CLOCK (the first of the lowest), .41 - .5 = -.09 = -18 %.
# C = 4: 2Q misses 3 4 0 (.375), the others 3 4 (.25).
has "zipf: online policies at C=3, best and gap" \
	"| classic | 3 | 0.41 (0.4–0.42) | 0.5000 | 0.5000 | 0.8750 | 0.6250 | 0.6250 | CLOCK 0.5000 | -0.0900 (-18.0 %) |"
has "zipf: online policies at the arm's own C=4" \
	"| series | 4 | 0.36 (0.35–0.37) | 0.2500 | 0.2500 | 0.3750 | 0.2500 | 0.2500 | CLOCK 0.2500 | +0.1100 (+44.0 %) |"
# uniform, N = 1 MiB = 256 pages: 1 - 64/256 = .75; series C = median(60
# 64 62) = 62: 1 - 62/256 = .7578; mglru's median .80 is .05 off: flagged.
has "uniform: classic matches 1 - C/N" "| classic | 64 | 0.7500 | 0.75 (0.74–0.76) | +0.0000 | ok |"
has "uniform: 1 - C/N at the arm's C" "| series | 62 | 0.7578 | 0.76 (0.75–0.77) | +0.0022 | ok |"
has "uniform: a deviating arm is flagged" "| mglru | 64 | 0.7500 | 0.8 (0.79–0.81) | +0.0500 | **FLAG** |"
has "flags: the uniform deviation" \
	"- uniform (file_mib=1, ios=500, memcg_mib=1), arm mglru: miss ratio deviates from 1 − C/N = 0.7500 by +0.0500 (tolerance 0.03): harness or cache-size problem"
# The uniform trace comes from tests/data/uniform.fio through trace.sh:
# exact LRU on a uniform stream is close to 1 - C/N, and MIN <= static <= LRU.
lru=$(awk -F' [|] ' '/^### uniform/ { u = 1 }
	u && $1 == "| classic" && NF == 9 { print $4, $5, $6; exit }' "$report")
if [ -n "$lru" ] && awk -v v="$lru" 'BEGIN { split(v, b, " ")
	exit !(b[1] <= b[2] && b[2] <= b[3] && b[3] > 0.72 && b[3] < 0.78) }' &&
	[ -s "$BUILD/bench/traces/uniform.iolog" ] && [ ! -e "$tmp/absent" ]; then
	ok "uniform: bounds from the job file's trace (MIN static LRU = $lru)"
else
	notok "uniform: bounds from uniform.fio: '$lru'"
fi
# hotstream: fg-off/series hit ratio .76/.95 .75/.94 .77/.96 = .8 .7979 .8021,
# pud-off/series .71/.95 .73/.94 .72/.96 = .7474 .7766 .75
has "hotstream: ratios of every arm pair present" \
	"| hit_ratio | 0.783 (0.778–0.813) | 1.055 (1.022–1.056) | 1.306 (1.297–1.357) | 0.800 (0.798–0.802) | 0.750 (0.747–0.777) |"
has "hotstream: time metric as median (range)" \
	"| stream_s | 11 (10–12) | 11.5 (10.5–12.5) | 12 (11–13) | 11 (10.5–11.5) | 10 (10–10) |"
has "flags: a single repetition is not a result" \
	"- idle (hot_mib=16, rounds=3), arm classic: only 1 repetition, not a result"
has "idle: the record of another run is reported too" "### idle: hot_mib=16, rounds=3"
# The summary: zipf's series/mglru .72 .7292 .7551 are all below 1 by more
# than 2 %: a win; the best online policy and MIN at the series' C = 4.
has "summary: zipf row" \
	"| zipf: file_mib=1, ios=5, memcg_mib=1, theta=0.8 | miss_ratio (lower is better) | 0.36 (0.35–0.37) | 0.729 (0.720–0.755) | 0.900 (0.833–0.902) | CLOCK 0.2500 | 0.2500 | 3 | win |"
has "summary: hotstream row, higher is better" \
	"| hotstream: hot_mib=16, k=4, memcg_mib=64, stream_mib=256 | hit_ratio (higher is better) | 0.95 (0.94–0.96) | 1.306 (1.297–1.357) | 1.055 (1.022–1.056) | — | — | 3 | win |"
# fgswitch has the series arm only: its own FG on / FG off ratios .97 .96 .98
# stand in for series/stock, all below 1 by more than 2 %: a loss
has "summary: fgswitch row, FG on over FG off within one boot" \
	"| fgswitch: hot_mib=16, memcg_mib=64, ops=50000, rounds=20 | readers1_on_off_ratio (higher is better) | 0.97 (0.96–0.98) | 0.970 (0.960–0.980) | — | — | — | 3 | loss |"
# verdict(): 3 pairs or more, beyond the band with every pair on one side,
# else a tie; ratio(): 0/0 is 1 (no miss on either arm), x/0 infinite, so
# that a stock arm without a miss cannot hide the series' misses
got=$(cd "$top/scripts" && PYTHONDONTWRITEBYTECODE=1 python3 -c 'import report as r
z = [r.ratio(x, y) for x, y in ((0, 0), (.05, 0), (0, .5))]
print(r.verdict([.9, .95, .97], "lower"), r.verdict([1.1, 1.05, 1.2], "lower"),
      r.verdict([.9, .95, 1.01], "lower"), r.verdict([.99, 1.01, 1.0], "higher"),
      r.verdict([1.1, 1.05, 1.2], "higher"), r.verdict([.5, .5], "lower"),
      r.verdict([1.05, .95, 1.08], "lower", .1), r.verdict([z[1], z[1], z[0]], "lower"),
      r.verdict(3 * [z[0]], "lower"), r.verdict(3 * [z[2]], "lower"))')
want="win loss tie tie win — tie tie tie win"
if [ "$got" = "$want" ]; then
	ok "summary: verdicts and the ratios of zeros"
else
	notok "summary: verdicts '$got', want '$want'"
fi
over=hotmove_hot_mib1_k4_memcg_mib1_stream_mib2-over-time
plots="fgswitch hotmove $over hotstream idle uniform uniform_file_mib1_ios500_memcg_mib1-miss_ratio zipf zipf_file_mib1_ios5_memcg_mib1_theta0.8-miss_ratio"
want=$(for p in $plots; do echo "$p.svg"; done | LC_ALL=C sort)
if [ "$(LC_ALL=C ls "$BUILD/bench/plots")" = "$want" ] &&
	for p in $plots; do grep -q '<svg' "$BUILD/bench/plots/$p.svg" || exit 1; done; then
	ok "plots: one bar chart per workload, one miss-ratio chart per zipf/uniform cell, hotmove over time"
else
	notok "plots: $(find "$BUILD/bench/plots" -mindepth 1 -printf '%f ')"
fi
if grep -q 'MIN' "$BUILD/bench/plots/zipf_file_mib1_ios5_memcg_mib1_theta0.8-miss_ratio.svg"; then
	ok "plots: the miss-ratio chart has the bound lines"
else
	notok "plots: no MIN line in the zipf miss-ratio chart"
fi

# hotmove over time: the moved set's hit ratio and the first set's residency
if grep -qF 'hit ratio of the moved hot set' "$BUILD/bench/plots/$over.svg" &&
	grep -qF 'first hot set still cached' "$BUILD/bench/plots/$over.svg"; then
	ok "plots: hotmove over time has the moved set's hits and the first set's residency"
else
	notok "plots: hotmove over time lacks a panel"
fi
has "hotmove: the over-time line names both panels" \
	"The moved hot set's hit ratio per eighth of the second half and the first hot set still cached at its end: ![over time](plots/$over.svg)"

# 'make report': no argument, $BUILD/bench/results.jsonl; RUN_ID keeps one run.
cp "$data/results.jsonl" "$data/textbook.iolog" "$data/uniform.fio" "$BUILD/bench/"
if RUN_ID=fixture make -s -C "$top" report > "$tmp/out" 2>&1 &&
	grep -qF "Source: \`results.jsonl\`, 40 records, run fixture (RUN_ID)." "$report" &&
	! grep -q '^### idle' "$report"; then
	ok "make report: default input, RUN_ID=fixture leaves out the other run"
else
	notok "make report: $(cat "$tmp/out")"
fi

# Malformed input: exit 2, a message, nothing written (not even over the
# previous report).
sum=$(cat "$report" "$BUILD/bench/plots"/* | md5sum)
bad() { # bad NAME [ENV=VALUE] RESULTS_CONTENT
	local name=$1 rc=0
	shift
	printf '%s\n' "$1" > "$BUILD/bench/bad.jsonl"
	"$top/scripts/report.sh" "$BUILD/bench/bad.jsonl" > "$tmp/out" 2> "$tmp/err" || rc=$?
	if [ "$rc" = 2 ] && grep -q error "$tmp/err" &&
		[ "$(cat "$report" "$BUILD/bench/plots"/* | md5sum)" = "$sum" ]; then
		ok "malformed, $name: exit 2 ($(head -1 "$tmp/err" | sed 's/.*error: //'))"
	else
		notok "malformed, $name: exit $rc, $(cat "$tmp/err" "$tmp/out")"
	fi
}
rec() { # rec SED: the first fixture record, edited
	head -1 "$data/results.jsonl" | sed "$1"
}
bad "not JSON" "$(rec 's/}$//')"
bad "not an object" "[1, 2]"
bad "missing metrics" "$(rec 's/,"metrics":{[^}]*}//')"
bad "missing run_id" "$(rec 's/"run_id":"fixture",//')"
bad "rep not a number" "$(rec 's/"rep":1/"rep":"1"/')"
bad "metric not a number" "$(rec 's/"iops":1000/"iops":"fast"/')"
bad "zipf without cache_pages" "$(rec 's/,"cache_pages":3//')"
bad "trace file missing" "$(rec 's/textbook.iolog/nonexistent.iolog/')"
bad "uniform without file_mib" "$(sed -n '/"uniform"/{s/"file_mib":1,//;p;q}' "$data/results.jsonl")"
bad "duplicate record" "$(rec '')
$(rec '')"
bad "no records" ""
rc=0
RUN_ID=nosuchrun "$top/scripts/report.sh" "$data/results.jsonl" > /dev/null 2>&1 || rc=$?
if [ "$rc" = 2 ]; then ok "RUN_ID of no record: exit 2"; else notok "RUN_ID of no record: exit $rc"; fi
rc=0
"$top/scripts/report.sh" "$tmp/nonexistent.jsonl" > /dev/null 2>&1 || rc=$?
if [ "$rc" = 2 ]; then ok "no results file: exit 2"; else notok "no results file: exit $rc"; fi
rc=0
printf '{"workload":\n' > "$tmp/bad.jsonl"
BUILD=$tmp/fresh "$top/scripts/report.sh" "$tmp/bad.jsonl" > /dev/null 2>&1 || rc=$?
if [ "$rc" = 2 ] && [ ! -e "$tmp/fresh/bench" ]; then
	ok "malformed input in a fresh BUILD: no bench/ directory created"
else
	notok "malformed input in a fresh BUILD: exit $rc, $(find "$tmp/fresh" -maxdepth 1 -printf '%f ' 2>&1)"
fi

ktap_print_totals
[ "$fails" = 0 ]
