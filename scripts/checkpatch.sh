#!/bin/bash
# checkpatch.sh [PATCH...]: run checkpatch.pl --strict with codespell on the
# given patch files (default: every series in series/).  Prints KTAP, one
# test case per patch, and exits non-zero if any patch has an error, warning
# or check.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

dict=/usr/lib/python3/dist-packages/codespell_lib/data/dictionary.txt
[ -f "$dict" ] || die "codespell dictionary missing: run 'make setup'"
if [ $# -eq 0 ]; then
	# shellcheck disable=SC2046 # patch file names have no spaces
	set -- $(series_patches)
fi
# series/checkpatch-exceptions: 'PATCH-FILE-GLOB TYPE REASON' lines.
exceptions=$SERIES/checkpatch-exceptions
ignores() { # ignores PATCH: the --ignore option for that patch, if any
	local glob type reason list=
	[ -f "$exceptions" ] || return 0
	while read -r glob type reason; do
		case $glob in '' | '#'*) continue ;; esac
		[ -n "$reason" ] || die "$exceptions: no reason given for $glob $type"
		# shellcheck disable=SC2254
		case ${1##*/} in $glob) list=${list:+$list,}$type ;; esac
	done < "$exceptions"
	[ -z "$list" ] || echo "--ignore=$list"
}
bad=0 n=0
echo "KTAP version 1"
echo "1..$#"
for p in "$@"; do
	n=$((n + 1))
	# An absolute path: given a path that git ls-files lists, checkpatch
	# reads the patch as a source file.
	p=$(realpath "$p")
	name=${p#"$SERIES"/}
	# Debian's python3 has the modules checkpatch's helpers need.
	# shellcheck disable=SC2046 # ignores prints one option or nothing
	if out=$(PATH=/usr/bin:$PATH "$TREE/scripts/checkpatch.pl" --strict -q $(ignores "$p") \
		--codespell --codespellfile="$dict" --no-summary --showfile "$p" 2>&1) &&
		[ -z "$out" ]; then
		echo "ok $n checkpatch $name"
	else
		printf '# %s\n' "${out//$'\n'/$'\n'# }"
		echo "not ok $n checkpatch $name"
		bad=1
	fi
done
exit $bad
