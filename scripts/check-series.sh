#!/bin/bash
# 'make check-series': review gates for every commit of base..HEAD.
#  - bisectability: each commit builds mm/ plus the directories it touches,
#    with CONFIG_LRU_GEN=y and =n; the tip builds a whole bzImage with both;
#  - no new W=1 or sparse warnings in the C files the series touches
#    (tip against base, line numbers ignored);
#  - checkpatch --strict per patch.
# SINCE=REV: per-commit builds only for REV..HEAD (see below).
# Works in its own worktree ($BUILD/check-tree), never in $TREE.
set -eu
. "$(dirname "$0")/lib.sh"

[ -e "$TREE/.git" ] || die "no tree at $TREE: run 'make tree'"
wt=$BUILD/check-tree
logs=$BUILD/logs/check-series
mkdir -p "$logs"
if [ ! -e "$wt/.git" ]; then
	git -C "$TREE" worktree prune
	git -C "$TREE" worktree add -q --detach "$wt" base
fi
# SINCE=REV limits the per-commit builds to REV..HEAD (commits already
# checked); the tip builds, the warning diff and checkpatch always cover
# the whole series.
since=${SINCE:-base}
git -C "$TREE" merge-base --is-ancestor base "$since" 2>/dev/null ||
	die "SINCE=$since is not a commit of the series"
commits=$(git -C "$TREE" rev-list --reverse "$since"..HEAD)
tip=$(git -C "$TREE" rev-parse HEAD)
[ -n "$commits" ] || { note "the series is empty"; exit 0; }
bad=0
result() { # result OK? DESCRIPTION
	if [ "$1" = 0 ]; then echo "ok - $2"; else echo "not ok - $2"; bad=1; fi
}

# Two configs: the small kernel (no debug) with LRU_GEN=y and KUnit tests,
# and the same without LRU_GEN.  EROFS is on because the series touches
# fs/erofs/zdata.c (EROFS_FS_ZIP defaults to y); the tip's check below makes
# sure no touched C file is left out of the build.
configure() { # configure OUT y|n
	local out=$1
	mkdir -p "$out"
	make -s -C "$wt" O="$out" tinyconfig >/dev/null
	(cd "$out" && "$wt/scripts/kconfig/merge_config.sh" -m -O "$out" .config \
		"$TOP/configs/base.config" >/dev/null)
	"$wt/scripts/config" --file "$out/.config" -e LRU_GEN_KUNIT_TEST \
		-e MISC_FILESYSTEMS -e EROFS_FS
	[ "$2" = y ] || "$wt/scripts/config" --file "$out/.config" -d LRU_GEN
	make -s -C "$wt" O="$out" olddefconfig
}
build() { # build OUT TARGETS...
	local out=$1
	shift
	make -s -C "$wt" O="$out" -j"$JOBS" "$@"
}

for c in $commits; do
	git -C "$wt" checkout -q --detach "$c"
	subject=$(git -C "$wt" log -1 --format='%h %s')
	dirs=$(git -C "$wt" diff --name-only "$c^" "$c" -- '*.c' | xargs -r -n1 dirname |
		grep -v '^tools/' | sort -u | sed 's|$|/|' | xargs)
	for y in y n; do
		out=$BUILD/out-check-$y
		configure "$out" "$y"
		targets=$(echo mm/ "$dirs" | tr ' ' '\n' | sort -u | xargs)
		[ "$c" = "$tip" ] && targets=bzImage
		r=0
		# shellcheck disable=SC2086
		build "$out" $targets > "$logs/build-$y-${c:0:12}.log" 2>&1 || r=1
		result $r "builds with LRU_GEN=$y ($targets): $subject"
	done
done

# W=1 and sparse on the touched C files: the tip must add no warning.
files=$(git -C "$TREE" diff --name-only base "$tip" -- '*.c' | grep -v '^tools/' || true)
# Only files that kbuild compiles as objects (not #included test files).
objs=$(for f in $files; do
	o=${f%.c}.o
	grep -qw "${o##*/}" "$TREE/${f%/*}/Makefile" 2>/dev/null && echo "$o"
done | xargs)
warnings() { # warnings REV: W=1 and sparse warnings of $objs at REV
	git -C "$wt" checkout -q --detach "$1"
	# shellcheck disable=SC2086
	build "$BUILD/out-check-y" W=1 C=2 $objs 2>&1 >/dev/null |
		grep -E 'warning:|error:' | sed -E 's/:[0-9]+:[0-9]+:/:/; s/:[0-9]+:/:/' | sort
}
if [ -n "$objs" ]; then
	# a file that the configs do not compile would be checked by nothing
	missing=$(for o in $objs; do [ -f "$BUILD/out-check-y/$o" ] || echo "$o"; done | xargs)
	r=0
	[ -z "$missing" ] || { echo "#   not compiled: $missing"; r=1; }
	result $r "the tip compiles every touched C file ($objs)"
	configure "$BUILD/out-check-y" y
	warnings base > "$logs/warnings-base.txt" || true
	warnings "$tip" > "$logs/warnings-tip.txt" || true
	new=$(comm -13 "$logs/warnings-base.txt" "$logs/warnings-tip.txt")
	[ -z "$new" ] || echo "$new" | sed 's/^/#   /'
	# a compile error hides the warnings after it, at base as at the tip
	errors=$(grep -h 'error:' "$logs/warnings-base.txt" "$logs/warnings-tip.txt" || true)
	[ -z "$errors" ] || echo "$errors" | sed 's/^/#   /'
	r=0
	[ -z "$new$errors" ] || r=1
	result $r "no new W=1 or sparse warnings in $objs"
fi

"$TOP/scripts/checkpatch.sh" || bad=1
[ "$bad" = 0 ] || die "series checks failed (logs in $logs)"
note "series checks passed"
