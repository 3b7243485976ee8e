#!/bin/bash
# Host-side test of 'make mail' (scripts/mail.sh), run by 'make test'; prints
# KTAP.  Runs in a scratch BUILD, so build/mail (and b4's state there) is
# left alone.  To stay near a minute it skips checkpatch ('make test' runs it
# on its own) and get_maintainer.pl (To/Cc); the clones for b4 take most of
# the rest.  Checks:
#  - a cover letter with placeholders, a bad REVISION, no git identity and a
#    placeholder identity fail clearly and create nothing;
#  - v1 of each series has one message per patch plus the cover letter,
#    subjects with the series' prefixes, 'base-commit: <base>' in each, and
#    for a series after the first one 'prerequisite-patch-id:' lines that
#    match the patches of the series before it; everything is To: the list
#    and from, and signed off by, the mailing user;
#  - the first series' patches git am to a clean base, and each later
#    series' patches git am on top of the series before it;
#  - REVISION=2 writes v2 with a range-diff against v1 under the diffstat
#    (all patches '=': nothing changed), keeps v1, and applies too;
#  - going back to REVISION=1 then fails and changes nothing.
# While a series has no patches (being ported), only mail.sh's refusal is
# checked.
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"
# shellcheck source=/dev/null # from the kernel tree
. "$TREE/tools/testing/selftests/kselftest/ktap_helpers.sh"

[ -e "$TREE/.git" ] || { echo "Bail out! no tree at $TREE: run 'make tree'"; exit 1; }
unset REVISION COVER ONLY
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mail-test.XXXXXX")
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
base=$(git -C "$TREE" rev-parse base)
dirs=$(series_dirs)
check() { # check DESCRIPTION COMMAND...: one result for COMMAND
	local d=$1
	shift
	if "$@"; then ktap_test_pass "$d"; else ktap_test_fail "$d"; fi
}
# The mailing user: a test identity of its own, not this machine's.
ident="Mail Test <mail-test@mglru.test>"
printf '[user]\n\tname = Mail Test\n\temail = mail-test@mglru.test\n' > "$tmp/gitconfig"
printf '[user]\n\tname = Someone\n\temail = someone@example.org\n' > "$tmp/placeholder"
: > "$tmp/noident"
mail() { # mail [VAR=VALUE...]: scripts/mail.sh in the scratch BUILD; output in $tmp/log
	env BUILD="$tmp/build" TREE="$TREE" SKIP_CHECKPATCH=1 SKIP_CC=1 \
		GIT_CONFIG_GLOBAL="$tmp/gitconfig" GIT_CONFIG_NOSYSTEM=1 "$@" \
		"$TOP/scripts/mail.sh" > "$tmp/log" 2>&1
}
must() { # must DESCRIPTION [VAR=VALUE...]: mail.sh succeeds, or bail out
	local d=$1
	shift
	if ! mail "$@"; then
		sed 's/^/# /' "$tmp/log"
		ktap_test_fail "$d"
		ktap_exit_fail_msg "mail.sh failed"
	fi
	ktap_test_pass "$d"
}
fails() { # fails PATTERN [VAR=VALUE...]: mail.sh fails, saying PATTERN
	local pattern=$1
	shift
	! mail "$@" && grep -q "error: .*$pattern" "$tmp/log"
}
emls() { find "$1" -maxdepth 1 -name '*.eml' | sort; }
patches() { find "$1" -maxdepth 1 -name '*.eml' ! -name '0000-*' | sort; }
count() { # count DIR N: N patches plus one cover letter
	[ "$(emls "$1" | wc -l)" = $(($2 + 1)) ] &&
		[ "$(find "$1" -maxdepth 1 -name '0000-*.eml' | wc -l)" = 1 ]
}
subjects() { # subjects DIR PREFIX N: 'Subject: [PREFIX k/N]', k = 0..N in file order
	local k=0 f
	for f in $(emls "$1"); do
		grep -qF "Subject: [$2 $(printf "%0${#3}d" "$k")/$3]" "$f" || return 1
		k=$((k + 1))
	done
}
trailer() { # trailer DIR PREREQ_IDS: base-commit: <base>, then the prerequisite ids
	local f want
	want=$(printf 'base-commit: %s\n' "$base"; for i in $2; do printf 'prerequisite-patch-id: %s\n' "$i"; done)
	for f in $(emls "$1"); do
		[ "$(grep -E '^(base-commit|prerequisite-patch-id): ' "$f")" = "$want" ] || return 1
	done
}
to_list() { # to_list DIR LIST: every message is To: the list
	local f
	for f in $(emls "$1"); do
		grep -q "^To: $2" "$f" || return 1
	done
}
identity() { # identity DIR: every patch is from the mailing user and signed off by it
	local f
	for f in $(patches "$1"); do
		grep -qx "From: $ident" "$f" && grep -qx "Signed-off-by: $ident" "$f" &&
			! grep -q "$SERIES_EMAIL" "$f" || return 1
	done
}
applies() { # applies DIR BRANCH PREV: DIR's patches apply on PREV, giving BRANCH's tree
	local f idx=$tmp/index
	# in an index of its own: no work tree to check out
	rm -f "$idx"
	GIT_INDEX_FILE=$idx git -C "$TREE" read-tree "$3" || return 1
	for f in $(patches "$1"); do
		GIT_INDEX_FILE=$idx git -C "$TREE" apply --cached "$f" 2>> "$tmp/am.log" || return 1
	done
	[ "$(GIT_INDEX_FILE=$idx git -C "$TREE" write-tree)" = "$(git -C "$TREE" rev-parse "$2^{tree}")" ]
}
tagged() { git -C "$tmp/build/mail/tree" rev-parse -q --verify "refs/tags/sent/$1" > /dev/null; }
sums() { (cd "$tmp/build/mail" && find . -name '*.eml' | sort | xargs md5sum && git -C tree for-each-ref); }

# A series without patches (one being ported, say): mail.sh refuses it,
# and there is nothing else to check.
for d in $dirs; do
	[ -z "$(series_patches "$d")" ] || continue
	ktap_print_header
	ktap_set_plan 3
	check "${d##*/} has no patches: mail.sh fails" fails "has no patches"
	check "... and nothing was created" test ! -e "$tmp/build/mail"
	ktap_test_skip "every other check: ${d##*/} has no patches"
	ktap_finished
done
nseries=$(echo "$dirs" | wc -w)
ktap_print_header
ktap_set_plan $((5 + 2 + nseries * 14 + 2))

first=$(echo "$dirs" | head -1)
printf 'Subject line\n\nA body with a TODO in it.\n' > "$tmp/cover.txt"
check "placeholders in the cover letter: mail.sh fails" \
	fails placeholders COVER="$tmp/cover.txt" ONLY="${first##*/}"
check "bad REVISION: mail.sh fails" fails "REVISION must be" REVISION=two
check "no git identity: mail.sh fails" fails "no git identity" GIT_CONFIG_GLOBAL="$tmp/noident"
check "placeholder identity: mail.sh fails" fails "is a placeholder" GIT_CONFIG_GLOBAL="$tmp/placeholder"
check "... and nothing was created" test ! -e "$tmp/build/mail"

must "v1: mail.sh writes every series" REVISION=1
ids=
prev=base
for d in $dirs; do
	name=${d##*/}
	n=$(series_patches "$d" | wc -l)
	PREFIXES='' LIST=''
	# shellcheck source=../series/1-pud-filter/mail.conf
	. "$d/mail.conf"
	prefix=$(echo "PATCH $PREFIXES" | xargs)
	v1=$tmp/build/mail/$name/v1
	check "$name v1: $n patches and a cover letter" count "$v1" "$n"
	check "$name v1: subjects $prefix k/$n" subjects "$v1" "$prefix" "$n"
	check "$name v1: base-commit and $(echo "$ids" | wc -w) prerequisite-patch-id lines" \
		trailer "$v1" "$ids"
	check "$name v1: every message is To: $LIST" to_list "$v1" "$LIST"
	check "$name v1: author and Signed-off-by are the mailing user" identity "$v1"
	check "$name v1: the patches git am on $prev" applies "$v1" "$name" "$prev"
	ids="$ids $(for p in $(series_patches "$d"); do git patch-id --stable < "$p" | cut -d' ' -f1; done)"
	prev=$name
done

sums > "$tmp/v1.sums"
must "v2: REVISION=2 mail.sh writes every series" REVISION=2
ids=
prev=base
for d in $dirs; do
	name=${d##*/}
	n=$(series_patches "$d" | wc -l)
	PREFIXES=''
	# shellcheck source=../series/1-pud-filter/mail.conf
	. "$d/mail.conf"
	prefix=$(echo "PATCH $PREFIXES v2" | xargs)
	v2=$tmp/build/mail/$name/v2
	check "$name v2: $n patches and a cover letter" count "$v2" "$n"
	check "$name v2: subjects $prefix k/$n" subjects "$v2" "$prefix" "$n"
	check "$name v2: base-commit and prerequisite-patch-id lines" trailer "$v2" "$ids"
	check "$name v2: the cover letter has a range-diff against v1 under the diffstat" \
		grep -q '^Range-diff against v1:$' <(sed -n '/^---$/,$p' "$v2"/0000-*.eml)
	check "$name v2: range-diff: $n unchanged patches" test \
		"$(grep -cE '^ *[0-9]+: +[0-9a-f]+ = +[0-9]+: +[0-9a-f]+ ' "$v2"/0000-*.eml)" = "$n"
	check "$name v2: v1 was kept as it was" \
		cmp -s <(grep " ./$name/v1/" "$tmp/v1.sums") <(sums | grep " ./$name/v1/")
	check "$name v2: the patches git am on $prev" applies "$v2" "$name" "$prev"
	check "$name v2: b4 tagged v1 as sent" tagged "mglru-${name#*-}-v1"
	ids="$ids $(for p in $(series_patches "$d"); do git patch-id --stable < "$p" | cut -d' ' -f1; done)"
	prev=$name
done

sums > "$tmp/v2.sums"
check "back to REVISION=1 after v2: mail.sh fails" fails "b4 .* is at v2" REVISION=1
check "... and changes nothing" cmp -s "$tmp/v2.sums" <(sums)
ktap_finished
