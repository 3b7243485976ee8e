# Common settings for the project's scripts; sourced, not run.
# shellcheck shell=bash
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
TREE=$(realpath -m "${TREE:-$BUILD/linux}")
SERIES=$TOP/series
JOBS=${JOBS:-$(nproc)}
# shellcheck source=../base/BASE
. "$TOP/base/BASE"

# Fixed identity and date for the two base commits, so that their hashes
# (and the series' base-commit: line) are the same on every machine.
# shellcheck disable=SC2034 # used by the scripts that source this file
BASE_IDENT_NAME="Debian linux-source import"
# shellcheck disable=SC2034
BASE_IDENT_EMAIL="nobody@invalid"
# shellcheck disable=SC2034
BASE_DATE="2026-01-01T00:00:00+0000"

# Identity for commits of the series made in the tree (overridable).
SERIES_NAME=${SERIES_NAME:-"MGLRU Series Developers"}
SERIES_EMAIL=${SERIES_EMAIL:-"mglru-series@example.org"}

die() { printf '%s: error: %s\n' "${0##*/}" "$*" >&2; exit 1; }
note() { printf '== %s\n' "$*"; }

# The series, in the order they apply, one directory each: series/N-NAME/
# holds the patches, 'series' (their order), cover-letter.txt and
# mail.conf.  In the tree, each series is the branch N-NAME, stacked on the
# previous one (the first on 'base').
series_dirs() {
	find "$SERIES" -mindepth 1 -maxdepth 1 -type d -name '[0-9]*-*' | sort -V
}
# series_patches [DIR]: the patch files of one series, or of all of them,
# in order (a cover letter is not a patch).
series_patches() {
	local d
	if [ $# -gt 0 ]; then
		find "$1" -maxdepth 1 -name '[0-9][0-9][0-9][0-9]-*.patch' ! -name '0000-*' | sort
		return
	fi
	for d in $(series_dirs); do
		series_patches "$d"
	done
}
# series_base DIR: the branch a series applies on ('base' for the first)
series_base() {
	local d prev=base
	for d in $(series_dirs); do
		[ "$d" = "$1" ] && break
		prev=${d##*/}
	done
	echo "$prev"
}

# patch-ids (one per line, sorted) of a stream of patches on stdin.
patch_ids() { git patch-id --stable | cut -d' ' -f1 | sort; }
