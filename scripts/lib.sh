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
BASE_IDENT_NAME="Debian linux-source import"
BASE_IDENT_EMAIL="nobody@invalid"
BASE_DATE="2026-01-01T00:00:00+0000"

# Identity for commits of the series made in the tree (overridable).
SERIES_NAME=${SERIES_NAME:-"MGLRU Series Developers"}
SERIES_EMAIL=${SERIES_EMAIL:-"mglru-series@example.org"}

die() { printf '%s: error: %s\n' "${0##*/}" "$*" >&2; exit 1; }
note() { printf '== %s\n' "$*"; }

# The series' patch files in order (the cover letter is not a patch).
series_patches() { ls "$SERIES"/[0-9][0-9][0-9][0-9]-*.patch 2>/dev/null | grep -v '/0000-' || true; }

# patch-ids (one per line, sorted) of a stream of patches on stdin.
patch_ids() { git patch-id --stable | cut -d' ' -f1 | sort; }
