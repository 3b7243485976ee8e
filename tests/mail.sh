#!/bin/bash
# Host-side test of 'make mail' (scripts/mail.sh), run by 'make test'.
# Runs in a scratch BUILD, so build/mail (and b4's state there) is left
# alone.  To stay under a minute it skips checkpatch ('make test' runs it
# on its own) and get_maintainer.pl (To/Cc; 20 s for 19 patches); the
# clone of the tree for b4 takes most of the rest.  Checks:
#  - a cover letter with placeholders and a bad REVISION fail clearly and
#    create nothing;
#  - v1 has one message per patch of series/ plus the cover letter, each
#    with 'base-commit: <base>' and To: the list, and its patches 'git am'
#    to a clean checkout of the tag base, giving the tree of base + series/;
#  - REVISION=2 then writes v2 ('[PATCH ... v2 n/N]') whose cover letter
#    has a range-diff against v1 under the diffstat (all patches '=': the
#    series did not change), keeps v1 as it was, and its patches apply too;
#  - going back to REVISION=1 then fails and changes nothing;
#  - without a git identity, or with a placeholder one, mail.sh fails; the
#    messages carry the mailing user's identity as author and sign-off.
# Prints 'ok'/'not ok' lines; exits non-zero on any failure.
set -eu
. "$(dirname "$0")/../scripts/lib.sh"

[ -e "$TREE/.git" ] || die "no tree at $TREE: run 'make tree'"
unset REVISION COVER
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mail-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mail=$tmp/build/mail
mt=$mail/tree
n=$(series_patches | wc -l)
base=$(git -C "$TREE" rev-parse base)
bad=0
result() { # result STATUS DESCRIPTION
	if [ "$1" = 0 ]; then echo "ok - $2"; else echo "not ok - $2"; bad=1; fi
}
check() { # check DESCRIPTION COMMAND...: one result line for COMMAND
	local d=$1 rc=0
	shift
	"$@" || rc=$?
	result "$rc" "$d"
}
must() { # must DESCRIPTION [VAR=VALUE...]: mail.sh succeeds, or stop here
	local d=$1
	shift
	mail "$@" || { sed 's/^/#   /' "$tmp/log"; result 1 "$d"; exit 1; }
	result 0 "$d"
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
fails() { # fails PATTERN [VAR=VALUE...]: mail.sh fails, saying PATTERN
	local pattern=$1
	shift
	! mail "$@" && grep -q "error: .*$pattern" "$tmp/log"
}
patches() { find "$1" -name '*.eml' ! -name '0000-*' | sort; }
count() { # count DIR: one message per patch plus one cover letter
	[ "$(ls "$1"/*.eml | wc -l)" = $((n + 1)) ] && [ "$(ls "$1"/0000-*.eml | wc -l)" = 1 ]
}
has_base() { # has_base DIR: every message has exactly one base-commit: <base>
	local f
	for f in "$1"/*.eml; do
		[ "$(grep -c "^base-commit: $base\$" "$f")" = 1 ] || return 1
	done
}
to_list() { # to_list DIR: every message is To: the list of series/mail.conf
	local list f
	list=$(sed -n 's/^LIST=//p' "$SERIES/mail.conf")
	for f in "$1"/*.eml; do
		grep -q "^To: $list" "$f" || return 1
	done
}
subjects() { # subjects DIR VERSION: '[PATCH ...VERSION k/N]', k = 0..N in file order
	local k=0 f
	for f in "$1"/*.eml; do
		grep -q "^Subject: \[PATCH\( [A-Z]*\)*$2 $(printf "%0${#n}d" "$k")/$n\]" "$f" ||
			return 1
		k=$((k + 1))
	done
}
applies() { # applies DIR: the patches git am to a clean base, giving base + series/
	local rc=0
	git -C "$mt" checkout -q --detach base
	[ -z "$(git -C "$mt" status --porcelain --ignored)" ] || rc=1
	# shellcheck disable=SC2046
	git -C "$mt" am -q $(patches "$1") > "$tmp/am.log" 2>&1 || rc=1
	[ "$(git -C "$mt" rev-list --count base..HEAD)" = "$n" ] || rc=1
	[ "$(git -C "$mt" rev-parse 'HEAD^{tree}')" = "$(git -C "$mt" rev-parse 'mglru^{tree}')" ] || rc=1
	git -C "$mt" am --abort > /dev/null 2>&1 || true
	git -C "$mt" checkout -q mglru
	return "$rc"
}
sums() { (cd "$mail" && md5sum v*/*.eml && git -C tree for-each-ref); }
identity() { # identity DIR: every patch is from the mailing user and signed off by it
	local f
	for f in $(patches "$1"); do
		grep -qx "From: $ident" "$f" && grep -qx "Signed-off-by: $ident" "$f" &&
			! grep -q "$SERIES_EMAIL" "$f" || return 1
	done
}

printf 'Subject line\n\nA body with a TODO in it.\n' > "$tmp/cover.txt"
check "placeholders in the cover letter: mail.sh fails" fails placeholders COVER="$tmp/cover.txt"
check "bad REVISION: mail.sh fails" fails "REVISION must be" REVISION=two
check "no git identity: mail.sh fails" fails "no git identity" GIT_CONFIG_GLOBAL="$tmp/noident"
check "placeholder identity: mail.sh fails" fails "is a placeholder" GIT_CONFIG_GLOBAL="$tmp/placeholder"
check "... and nothing was created" test ! -e "$mail"

must "v1: mail.sh runs" REVISION=1
v1=$mail/v1
check "v1: $n patches + cover letter" count "$v1"
check "v1: subjects [PATCH ... k/$n]" subjects "$v1" ""
check "v1: every message has base-commit: $base" has_base "$v1"
check "v1: every message is To: the list" to_list "$v1"
check "v1: author and Signed-off-by are the mailing user" identity "$v1"
check "v1: the patches git am to a fresh base" applies "$v1"

sums > "$tmp/v1.sums"
must "v2: REVISION=2 mail.sh runs" REVISION=2
v2=$mail/v2
check "v2: $n patches + cover letter" count "$v2"
check "v2: subjects [PATCH ... v2 k/$n]" subjects "$v2" " v2"
check "v2: every message has base-commit: $base" has_base "$v2"
check "v2: cover letter has a range-diff against v1, under the diffstat" \
	grep -q '^Range-diff against v1:$' <(sed -n '/^---$/,$p' "$v2"/0000-*.eml)
check "v2: range-diff: $n unchanged patches" test \
	"$(grep -cE '^ *[0-9]+: +[0-9a-f]+ = +[0-9]+: +[0-9a-f]+ ' "$v2"/0000-*.eml)" = "$n"
check "v2: v1 was kept as it was" cmp -s <(grep ' v1/' "$tmp/v1.sums") <(sums | grep ' v1/')
check "v2: the patches git am to a fresh base" applies "$v2"

sums > "$tmp/v2.sums"
check "back to REVISION=1 after v2: mail.sh fails" fails "b4 .* is at v2" REVISION=1
check "... and changes nothing" cmp -s "$tmp/v2.sums" <(sums)
exit $bad
