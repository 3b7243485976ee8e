#!/bin/bash
# Build (or bring up to date) the kernel git tree in $TREE:
#   commit 1: the pristine Debian source, tag 'import'
#   commit 2: LOCAL, drops Debian's ignore-everything .gitignore rule, tag 'base'
#   then each series/N-NAME/ applied with git am on its branch N-NAME,
#   stacked: the first on 'base', each next one on the previous branch; the
#   last one is checked out.
# Both base commits use a fixed identity and date, so 'base' has the same hash
# on every machine.  Refuses to throw away commits that are not in series/.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

import_tree() {
	local tmp=$TREE.tmp
	[ -f "$BASE_TARBALL" ] || die "$BASE_TARBALL missing: run 'make setup'"
	note "checking $BASE_TARBALL against base/BASE"
	echo "$BASE_SHA256  $BASE_TARBALL" | sha256sum -c --quiet - ||
		die "$BASE_TARBALL does not match base/BASE: 'make setup' installs $BASE_PACKAGE=$BASE_VERSION"
	rm -rf "$tmp"
	mkdir -p "$tmp"
	note "extracting $BASE_TARBALL"
	tar -C "$tmp" --strip-components=1 -xJf "$BASE_TARBALL"
	export GIT_AUTHOR_NAME=$BASE_IDENT_NAME GIT_AUTHOR_EMAIL=$BASE_IDENT_EMAIL
	export GIT_COMMITTER_NAME=$BASE_IDENT_NAME GIT_COMMITTER_EMAIL=$BASE_IDENT_EMAIL
	export GIT_AUTHOR_DATE=$BASE_DATE GIT_COMMITTER_DATE=$BASE_DATE
	(
		cd "$tmp"
		git init -q -b series
		git config core.autocrlf false
		git config gc.auto 0
		note "importing into git (about 30 s)"
		# Debian's .gitignore ignores everything: force-add the whole tree.
		git add -A -f
		git commit -q -m "Import $BASE_PACKAGE $BASE_VERSION"
		git tag import
		# Local-only commit, never mailed: let git see new files.
		sed -i '/^# Debian packaging: ignore everything/,$d' .gitignore
		git commit -q -a -m "LOCAL: .gitignore: drop Debian's ignore-everything rule

Debian's source package appends a rule that ignores every top-level
path, so new files would be invisible to git. Not for upstream."
		git tag base
	)
	mv "$tmp" "$TREE"
}

apply_series() {
	local d p n prev=base name
	git -C "$TREE" config user.name "$SERIES_NAME"
	git -C "$TREE" config user.email "$SERIES_EMAIL"
	for d in $(series_dirs); do
		name=${d##*/}
		git -C "$TREE" checkout -q -B "$name" "$prev"
		n=0
		for p in $(series_patches "$d"); do
			git -C "$TREE" am -q --keep-cr "$p" ||
				die "git am failed on $name/${p##*/} (tree left in 'git am' state)"
			n=$((n + 1))
		done
		note "$name: applied $n patches on $prev: $(git -C "$TREE" rev-parse --short HEAD)"
		prev=$name
	done
	git -C "$TREE" tag -f series-applied >/dev/null
}

# up_to_date: every series branch holds exactly the patches of its
# directory, stacked in order, and the last one is checked out.
up_to_date() {
	local d prev=base name
	for d in $(series_dirs); do
		name=${d##*/}
		git rev-parse -q --verify "refs/heads/$name" >/dev/null || return 1
		git merge-base --is-ancestor "$prev" "$name" || return 1
		[ "$(git log -p --reverse "$prev..$name" | patch_ids)" = \
			"$(series_patches "$d" | xargs -r cat | patch_ids)" ] || return 1
		prev=$name
	done
	[ "$(git symbolic-ref -q --short HEAD)" = "$prev" ]
}

[ -d "$TREE/.git" ] || import_tree
cd "$TREE"
git rev-parse -q --verify base >/dev/null || die "$TREE has no 'base' tag: remove it and rerun"
[ -d .git/rebase-apply ] && die "$TREE is in the middle of 'git am': finish or 'git am --abort'"
[ -d .git/rebase-merge ] && die "$TREE is in the middle of a rebase: finish or 'git rebase --abort'"
[ -z "$(git status --porcelain --untracked-files=no)" ] ||
	die "$TREE has uncommitted changes: commit them (then 'make export') or discard them"

if up_to_date; then
	note "tree is up to date with series/ ($(git rev-list --count base..HEAD) patches)"
	exit 0
fi
# Commits on any branch (or HEAD) that series/ does not have would be lost.
tree_ids=$(git log -p HEAD --branches --not base | patch_ids | sort -u)
series_ids=$(series_patches | xargs -r cat | patch_ids | sort -u)
lost=$(comm -23 <(echo "$tree_ids") <(echo "$series_ids") | grep -c . || true)
if [ "$lost" -gt 0 ] && [ "${FORCE:-0}" != 1 ]; then
	die "$TREE has $lost commit(s) not in series/: run 'make export' first (or FORCE=1 to drop them)"
fi
note "re-applying series/ onto base"
git checkout -q --detach base
apply_series
