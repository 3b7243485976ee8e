#!/bin/bash
# report.sh [RESULTS]: 'make report'.  Reads the lab's JSON-lines results
# (default $BUILD/bench/results.jsonl) and writes $BUILD/bench/report.md and
# the SVG plots in $BUILD/bench/plots/ (scripts/report.py says what is in
# them).  Builds lab/host/bound for the offline bounds of the zipf and
# uniform traces.  RUN_ID=ID reports only that run.  Malformed results:
# exit status 2, nothing written.
set -eu
. "$(dirname "$0")/lib.sh"

[ $# -le 1 ] || { echo "usage: ${0##*/} [RESULTS]" >&2; exit 2; }
results=${1:-$BUILD/bench/results.jsonl}
[ -f "$results" ] || { echo "${0##*/}: error: no results file '$results' (run 'make bench')" >&2; exit 2; }
bound=$BUILD/host/bound
if [ ! -x "$bound" ] || [ "$TOP/lab/host/bound.c" -nt "$bound" ]; then
	mkdir -p "$BUILD/host"
	cc -O2 -Wall -Wextra -Werror -o "$bound" "$TOP/lab/host/bound.c"
fi
# Debian's python3, which has python3-matplotlib (scripts/packages).
exec /usr/bin/python3 "$TOP/scripts/report.py" --bound "$bound" \
	--trace-sh "$TOP/lab/host/trace.sh" --out "$BUILD/bench" "$results"
