#!/bin/bash
# trace.sh JOBFILE OUT [SECTION...]: write to OUT the exact request stream
# that fio issues for JOBFILE, as a fio iolog (v3), without any I/O.
#
# It runs fio on a copy of JOBFILE whose ioengine lines say 'null' and whose
# write_iolog/read_iolog lines are dropped (a job file's ioengine overrides
# fio's command line, and the psync engine would create and read the files).
# With randrepeat=1 (the default) and numjobs=1, fio 3.33's random offsets
# depend only on the job file and on each job's position in the run, not on
# the engine, the seed or the file names: run the same job file (and the
# same SECTIONs, given to fio as --section) as the guest does, with the same
# environment for ${VAR}s in the job file.  Jobs must run one after another
# (stonewall), as the guest's must for a deterministic stream.  fio appends
# the jobs' requests to OUT in that order; the line printed at the end gives
# the number of requests of each job, e.g. the warm-up count to pass to
# lab/host/bound -w.
set -eu
. "$(dirname "$0")/../../scripts/lib.sh"

[ $# -ge 2 ] || { echo "usage: ${0##*/} JOBFILE OUT [SECTION...]" >&2; exit 2; }
job=$1 out=$2
shift 2
[ -r "$job" ] || die "cannot read job file '$job'"
command -v fio > /dev/null || die "fio missing: run 'make setup'"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sed -e 's/^[[:space:]]*ioengine[[:space:]]*=.*/ioengine=null/' \
	-e '/^[[:space:]]*\(write\|read\)_iolog[[:space:]]*=/d' "$job" > "$tmp/job.fio"
sections=()
for s in "$@"; do sections+=("--section=$s"); done
fio --ioengine=null --write_iolog="$tmp/iolog" \
	${sections[@]+"${sections[@]}"} "$tmp/job.fio" > "$tmp/fio.log" 2>&1 ||
	{ cat "$tmp/fio.log" >&2; die "fio failed on '$job'"; }
{ [ -f "$tmp/iolog" ] && grep -qE ' (read|write) ' "$tmp/iolog"; } ||
	die "fio issued no request for '$job'"
counts=$(awk '/^fio version/ { n++ } / (read|write) / { c[n]++ }
	END { for (i = 1; i <= n; i++) printf " %d", c[i] }' "$tmp/iolog")
mv "$tmp/iolog" "$out"
echo "$out: requests per job:$counts"
