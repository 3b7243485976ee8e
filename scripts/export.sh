#!/bin/bash
# Write the tree's series branches back to series/: for each series/N-NAME/,
# the commits of branch N-NAME on top of the previous series (or 'base') as
# git format-patch files, and their order in series/N-NAME/series.  Output
# is stable: zero commit ids, no version signature, fixed numbering, so
# re-exporting an unchanged series changes no file.  Each patch ends with
# 'base-commit:' (base) and, after the first series, the
# 'prerequisite-patch-id:' lines of the series it applies on.  Cover
# letters and mail.conf are kept as they are.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ -e "$TREE/.git" ] || die "no tree at $TREE: run 'make tree'"
cd "$TREE"
[ -z "$(git status --porcelain --untracked-files=no)" ] ||
	die "$TREE has uncommitted changes: commit them first"
dirs=$(series_dirs)
[ -n "$dirs" ] || die "no series/N-NAME/ directories"
last=$(echo "$dirs" | tail -1)
last=${last##*/}
[ "$(git symbolic-ref -q --short HEAD)" = "$last" ] ||
	die "check out $last (the last series) before exporting; HEAD is $(git rev-parse --abbrev-ref HEAD)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prev=base
for d in $dirs; do
	name=${d##*/}
	git rev-parse -q --verify "refs/heads/$name" >/dev/null || die "no branch $name in $TREE"
	git merge-base --is-ancestor "$prev" "$name" ||
		die "$name is not on top of $prev: rebase it (git rebase --update-refs keeps the stack)"
	git format-patch -q --zero-commit --no-signature --no-numbered --base=base \
		-o "$tmp/$name" "$prev..$name"
	rm -f "$d"/[0-9][0-9][0-9][0-9]-*.patch
	n=0
	for p in "$tmp/$name"/*.patch; do
		[ -e "$p" ] || break
		cp "$p" "$d/"
		n=$((n + 1))
	done
	(cd "$d" && find . -maxdepth 1 -name '[0-9][0-9][0-9][0-9]-*.patch' | sed 's|^\./||' | sort) > "$d/series"
	note "exported $n patches to series/$name/"
	prev=$name
done
