#!/bin/bash
# 'make check-series': review gates for every series of series/, in order,
# each against the one it applies on ('base' for the first):
#  - bisectability: each commit builds mm/ plus the directories it touches,
#    with CONFIG_LRU_GEN=y and =n; the tip of each series builds a whole
#    bzImage with both;
#  - no new W=1 or sparse warnings in the C files the series touches (its
#    tip against the tip it applies on, line numbers ignored);
#  - checkpatch --strict per patch;
#  - a patch with a Fixes: tag applies to 'base' on its own and builds
#    there, as a stand-alone fix must;
#  - every series but the last (which 'make test' covers) boots on its own
#    in the test VM and passes its own tests there: KUnit, the smoke test
#    and its kselftests, with no splat.
# Prints each result as it comes, then writes the whole run as KTAP to
# $BUILD/logs/check-series/results.ktap and reports it through
# scripts/ktap.py.  SINCE=REV: per-commit builds only for REV..tip (commits
# already checked); everything else always covers every series.
# Works in its own worktree ($BUILD/check-tree), never in $TREE.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ -e "$TREE/.git" ] || die "no tree at $TREE: run 'make tree'"
wt=$BUILD/check-tree
logs=$BUILD/logs/check-series
mkdir -p "$logs"
if [ ! -e "$wt/.git" ]; then
	git -C "$TREE" worktree prune
	git -C "$TREE" worktree add -q --detach "$wt" base
fi
since=${SINCE:-base}
git -C "$TREE" merge-base --is-ancestor base "$since" 2>/dev/null ||
	die "SINCE=$since is not a commit of the series"

n=0
results=$logs/results.body
: > "$results"
result() { # result STATUS DESCRIPTION
	local line
	n=$((n + 1))
	if [ "$1" = 0 ]; then line="ok $n $2"; else line="not ok $n $2"; fi
	echo "$line" | tee -a "$results"
}
diag() { sed 's/^/# /' | tee -a "$results"; }

# Two configs: the small kernel (no debug) with LRU_GEN=y and KUnit tests,
# and the same without LRU_GEN.  The check below makes sure no touched C
# file is left out of the build: a series that touches a file these
# configs do not compile turns its option on here.
configure() { # configure OUT y|n
	local out=$1
	mkdir -p "$out"
	make -s -C "$wt" O="$out" tinyconfig >/dev/null
	(cd "$out" && "$wt/scripts/kconfig/merge_config.sh" -m -O "$out" .config \
		"$TOP/configs/base.config" >/dev/null)
	"$wt/scripts/config" --file "$out/.config" -e LRU_GEN_KUNIT_TEST
	[ "$2" = y ] || "$wt/scripts/config" --file "$out/.config" -d LRU_GEN
	make -s -C "$wt" O="$out" olddefconfig
}
build() { # build OUT TARGETS...
	local out=$1
	shift
	make -s -C "$wt" O="$out" -j"$JOBS" "$@"
}
# touched_dirs REV...: the kernel directories whose C files the commits touch
touched_dirs() {
	git -C "$wt" diff --name-only "$@" -- '*.c' | xargs -r -n1 dirname |
		grep -v '^tools/' | sort -u | sed 's|$|/|' | xargs
}
# objects FROM TO: the objects kbuild builds from the C files FROM..TO touches
objects() {
	local f o
	for f in $(git -C "$TREE" diff --name-only "$1" "$2" -- '*.c' | grep -v '^tools/'); do
		o=${f%.c}.o
		grep -qw "${o##*/}" "$TREE/${f%/*}/Makefile" 2>/dev/null && echo "$o"
	done | xargs
}
warnings() { # warnings REV OBJS...: W=1 and sparse warnings of OBJS at REV
	local rev=$1
	shift
	git -C "$wt" checkout -q --detach "$rev"
	build "$BUILD/out-check-y" W=1 C=2 "$@" 2>&1 >/dev/null |
		grep -E 'warning:|error:' | sed -E 's/:[0-9]+:[0-9]+:/:/; s/:[0-9]+:/:/' | sort
}

prev=base
for d in $(series_dirs); do
	name=${d##*/}
	tip=$(git -C "$TREE" rev-parse "$name")
	echo "# series $name: $(git -C "$TREE" rev-list --count "$prev..$name") commits on $prev"

	# bisectability
	from=$prev
	git -C "$TREE" merge-base --is-ancestor "$since" "$prev" || from=$since
	git -C "$TREE" merge-base --is-ancestor "$from" "$tip" || from=$tip
	for c in $(git -C "$TREE" rev-list --reverse "$from..$tip"); do
		git -C "$wt" checkout -q --detach "$c"
		subject=$(git -C "$wt" log -1 --format='%h %s')
		for y in y n; do
			out=$BUILD/out-check-$y
			configure "$out" "$y"
			targets=$(echo mm/ "$(touched_dirs "$c^" "$c")" | tr ' ' '\n' | sort -u | xargs)
			[ "$c" = "$tip" ] && targets=bzImage
			r=0
			# shellcheck disable=SC2086 # a list of make targets
			build "$out" $targets > "$logs/build-$y-${c:0:12}.log" 2>&1 || r=1
			[ "$r" = 0 ] || tail -20 "$logs/build-$y-${c:0:12}.log" | diag
			result $r "$name: builds with LRU_GEN=$y ($targets): $subject"
		done
	done

	# W=1 and sparse on the touched C files: the tip must add no warning.
	objs=$(objects "$prev" "$tip")
	if [ -n "$objs" ]; then
		configure "$BUILD/out-check-y" y
		# a file that the config does not compile would be checked by nothing
		# shellcheck disable=SC2086 # a list of objects
		(cd "$BUILD/out-check-y" && rm -f $objs)
		# shellcheck disable=SC2086
		warnings "$prev" $objs > "$logs/warnings-$name-before.txt" || true
		# shellcheck disable=SC2086
		warnings "$tip" $objs > "$logs/warnings-$name-tip.txt" || true
		missing=$(for o in $objs; do [ -f "$BUILD/out-check-y/$o" ] || echo "$o"; done | xargs)
		[ -z "$missing" ] || echo "not compiled: $missing" | diag
		result "$([ -z "$missing" ] && echo 0 || echo 1)" "$name: the tip compiles every touched C file ($objs)"
		new=$(comm -13 "$logs/warnings-$name-before.txt" "$logs/warnings-$name-tip.txt")
		# a compile error hides the warnings after it, before as at the tip
		errors=$(grep -h 'error:' "$logs/warnings-$name-before.txt" "$logs/warnings-$name-tip.txt" || true)
		[ -z "$new$errors" ] || echo "$new$errors" | diag
		result "$([ -z "$new$errors" ] && echo 0 || echo 1)" "$name: no new W=1 or sparse warnings"
	fi

	# checkpatch, one case per patch
	# shellcheck disable=SC2046 # patch file names have no spaces
	cp_out=$("$TOP/scripts/checkpatch.sh" $(series_patches "$d") || true)
	for p in $(series_patches "$d"); do
		entry=$(echo "$cp_out" | grep -E "^(not )?ok [0-9]+ checkpatch ${p#"$SERIES"/}\$" || true)
		[ "${entry#not }" = "$entry" ] || echo "$cp_out" | diag
		result "$([ "${entry#not }" = "$entry" ] && [ -n "$entry" ] && echo 0 || echo 1)" \
			"$name: checkpatch ${p##*/}"
	done

	# stand-alone fixes: apply to base alone and build there
	for p in $(series_patches "$d"); do
		grep -q '^Fixes: ' "$p" || continue
		git -C "$wt" checkout -q --detach base
		r=0
		git -C "$wt" apply --index "$p" > "$logs/fix-${p##*/}.log" 2>&1 || r=1
		if [ "$r" = 0 ]; then
			configure "$BUILD/out-check-y" y
			# shellcheck disable=SC2046 # a list of make targets
			build "$BUILD/out-check-y" mm/ $(touched_dirs --cached) >> "$logs/fix-${p##*/}.log" 2>&1 || r=1
		fi
		git -C "$wt" reset -q --hard
		[ "$r" = 0 ] || tail -20 "$logs/fix-${p##*/}.log" | diag
		result $r "$name: ${p##*/} (Fixes:) applies to base alone and builds"
	done

	# every series but the last boots and passes its own tests alone
	if [ "$d" != "$(series_dirs | tail -1)" ]; then
		git -C "$wt" checkout -q --detach "$tip"
		r=0
		{
			TREE=$wt O=$BUILD/out-check-alone "$TOP/scripts/kernel.sh" test &&
				TREE=$wt HDR="$BUILD/out-check-alone/usr/include" KSELFTEST_OUT="$BUILD/kselftest-check" \
					"$TOP/scripts/selftests.sh" "$BUILD/guest-check/mm" &&
				"$TOP/scripts/lab-build.sh" "$BUILD/guest-check" &&
				cp "$TOP/guest/smoke.sh" "$wt/tools/testing/selftests/kselftest/ktap_helpers.sh" \
					"$BUILD/guest-check/"
		} > "$logs/alone-$name.log" 2>&1 || r=1
		vr=0
		[ "$r" = 1 ] || "$TOP/scripts/vm-run.sh" -k "$BUILD/out-check-alone/arch/x86/boot/bzImage" \
			-n "check-$name" -z 256 -d 512 -f "$BUILD/guest-check" "$TOP/guest/test.sh" \
			>> "$logs/alone-$name.log" 2>&1 || vr=$?
		if [ "$r" = 0 ]; then
			python3 "$TOP/scripts/ktap.py" split "$BUILD/logs/check-$name.guest.log" "$logs/ktap-$name"
			{
				echo "KTAP version 1"
				echo "1..1"
				if [ "$vr" = 0 ]; then echo "ok 1 vm_run"; else echo "not ok 1 vm_run # exit $vr"; fi
			} > "$logs/ktap-$name/vm.ktap"
			python3 "$TOP/scripts/ktap.py" report --kunit "$wt/tools/testing/kunit/kunit.py" \
				--json-dir "$logs/ktap-$name" vm="$logs/ktap-$name/vm.ktap" \
				kunit="$BUILD/logs/check-$name.console.log" smoke="$logs/ktap-$name/smoke.ktap" \
				kselftest="$logs/ktap-$name/kselftest.ktap" > "$logs/alone-$name.report" || r=1
			diag < "$logs/alone-$name.report"
		else
			tail -20 "$logs/alone-$name.log" | diag
		fi
		result $r "$name: boots alone and passes its own tests (KUnit, smoke, kselftests)"
	fi
	prev=$name
done
git -C "$wt" checkout -q --detach base
{
	echo "KTAP version 1"
	echo "1..$n"
	cat "$results"
} > "$logs/results.ktap"
python3 "$TOP/scripts/ktap.py" report --kunit "$TREE/tools/testing/kunit/kunit.py" \
	--json-dir "$logs" check-series="$logs/results.ktap" ||
	die "series checks failed (logs in $logs)"
note "series checks passed"
