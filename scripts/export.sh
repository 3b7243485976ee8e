#!/bin/bash
# Write the tree's commits since 'base' to series/ as git format-patch files.
# Output is stable: zero commit ids, no version signature, fixed numbering, so
# re-exporting an unchanged series changes no file.  series/cover-letter.txt
# is kept as it is.
set -eu
. "$(dirname "$0")/lib.sh"

[ -e "$TREE/.git" ] || die "no tree at $TREE: run 'make tree'"
cd "$TREE"
[ -z "$(git status --porcelain --untracked-files=no)" ] ||
	die "$TREE has uncommitted changes: commit them first"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git format-patch -q --zero-commit --no-signature --no-numbered --base=base \
	-o "$tmp" base..HEAD
rm -f "$SERIES"/[0-9][0-9][0-9][0-9]-*.patch
n=0
for p in "$tmp"/*.patch; do
	[ -e "$p" ] || break
	cp "$p" "$SERIES/"
	n=$((n + 1))
done
(cd "$SERIES" && ls [0-9][0-9][0-9][0-9]-*.patch 2>/dev/null || true) > "$SERIES/series"
note "exported $n patches to series/"
