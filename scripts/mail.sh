#!/bin/bash
# 'make mail': produce the series as mail with b4 (0.12), never sending it.
# A clone of the tree ($BUILD/mail/tree) is enrolled with b4; its cover
# letter comes from series/cover-letter.txt, To/Cc from get_maintainer.pl
# (b4 prep --auto-to-cc) plus the list, and 'b4 send -o' writes one .eml
# per message to $BUILD/mail/v<REVISION>/.  Fails on cover-letter
# placeholders, on a bad REVISION and on checkpatch findings, before it
# changes anything.
#
# Revisions: REVISION (series/mail.conf) is the revision to write.  Keep
# $BUILD/mail: the clone holds b4's state (change-id, revision, sent/ tags)
# and each v<N>/ folder stays.  Raising REVISION above the revision b4 is
# at tags the mail of that revision as b4's 'sent/mglru-v<N>' (what
# 'b4 send' does; offline, 'b4 prep --manual-reroll' cannot fetch the cover
# letter), and the cover letter gets a range-diff against it.  Lowering
# REVISION below b4's fails.
#
# Identity: series/ keeps the commits under a placeholder identity; the
# mail's author and Signed-off-by are the mailing user's git identity
# (git config user.name and user.email), which the scratch clone's copy
# of the series is rewritten to.  No identity, or a placeholder one (an
# example.* or .invalid address, or the series' own), is refused.
#
# Environment: REVISION=N overrides series/mail.conf; COVER=FILE replaces
# series/cover-letter.txt.  For tests/mail.sh: SKIP_CHECKPATCH=1 skips the
# checkpatch gate ('make test' runs checkpatch itself) and SKIP_CC=1 skips
# get_maintainer.pl (two runs per patch, about 1 s each), so To: is only
# the list and there is no Cc:.
set -eu -o pipefail
. "$(dirname "$0")/lib.sh"
env_revision=${REVISION:-}
# shellcheck source=../series/mail.conf
. "$SERIES/mail.conf"
REVISION=${env_revision:-$REVISION}

case $REVISION in
'' | 0* | *[!0-9]*) die "REVISION must be a positive integer (1 for v1, ...), not '$REVISION'" ;;
esac
cover=${COVER:-$SERIES/cover-letter.txt}
[ -s "$cover" ] || die "$cover is missing or empty"
cover=$(realpath "$cover")
if grep -nE 'EDITME|TODO|TBD|FIXME|XXX|@@[A-Z_]+@@' "$cover"; then
	die "$cover still has placeholders (lines above)"
fi
[ -n "$(series_patches)" ] || die "series/ has no patches"
ident_name=$(git -C "$TOP" config user.name || true)
ident_email=$(git -C "$TOP" config user.email || true)
if [ -z "$ident_name" ] || [ -z "$ident_email" ]; then
	die "no git identity: set git config user.name and user.email, the author and Signed-off-by of the mail"
fi
case $ident_email in
*@example.* | *.example.* | *.example | *.invalid | *@invalid | "$SERIES_EMAIL")
	die "git config user.email '$ident_email' is a placeholder: set your own address" ;;
esac
[ "$ident_name" != "$SERIES_NAME" ] ||
	die "git config user.name '$ident_name' is a placeholder: set your own name"
[ "${SKIP_CHECKPATCH:-}" = 1 ] || "$TOP/scripts/checkpatch.sh" > /dev/null ||
	die "checkpatch is not clean: run scripts/checkpatch.sh"

mail=$BUILD/mail
mt=$mail/tree
out=$mail/v$REVISION
subject() { # subject FILE: the Subject: header of a message, unfolded
	awk '/^Subject: / {s = substr($0, 10); f = 1; next}
		f && /^[ \t]/ {s = s $0; next} {f = 0} /^$/ {exit} END {print s}' "$1"
}
b4q() { # b4 in the clone; its messages go to $mail/b4.log
	(cd "$mt" && b4 --offline-mode "$@") 2>> "$mail/b4.log" ||
		{ tail -n 5 "$mail/b4.log" >&2; die "b4 $1 $2 failed (see $mail/b4.log)"; }
}

mkdir -p "$mail"
: > "$mail/b4.log"
if [ ! -d "$mt/.git" ]; then
	note "cloning $TREE for b4"
	git clone -q --shared --branch series "$TREE" "$mt"
	git -C "$mt" config b4.send-no-patatt-sign yes
	# An SMTP setting keeps b4 off its web endpoint (which insists on
	# signing); with 'send -o' nothing is ever sent.
	git -C "$mt" config sendemail.smtpserver localhost
	git -C "$mt" config b4.send-series-to "$LIST"
	git -C "$mt" checkout -q -b mglru
	b4q prep -e base > /dev/null
fi
git -C "$mt" config user.name "$ident_name"
git -C "$mt" config user.email "$ident_email"
state=$(b4q prep --show-info)
info() { echo "$state" | sed -n "s/^$1: //p"; }
rev=$(info revision)
[ "$REVISION" -ge "$rev" ] || die "REVISION=$REVISION but b4 in $mt is at v$rev:" \
	"raise REVISION in series/mail.conf (or delete $mail to start over at v1)"

# tag_sent N: tag the patches mailed in $mail/vN/ as b4's sent/mglru-vN,
# with the cover letter (and so its base-commit: and change-id:) as the
# message, as 'b4 send' would have.  'b4 prep --compare-to vN' uses it.
tag_sent() {
	local dir=$mail/v$1 base
	base=$(sed -n 's/^base-commit: //p' "$dir"/0000-*.eml)
	[ -n "$base" ] || die "no base-commit: in the cover letter of $dir"
	git -C "$mt" checkout -q --detach "$base"
	# shellcheck disable=SC2046
	if ! git -C "$mt" am -q $(find "$dir" -name '*.eml' ! -name '0000-*' | sort); then
		git -C "$mt" am --abort
		git -C "$mt" checkout -q mglru
		die "the patches of $dir do not apply to $base"
	fi
	{
		# the subject, a blank line, the body without the signature
		subject "$dir"/0000-*.eml
		echo
		sed '1,/^$/d; /^-- $/,$d' "$dir"/0000-*.eml
	} | git -C "$mt" tag -a -F - "sent/mglru-v$1"
	git -C "$mt" checkout -q mglru
}
if [ "$REVISION" -gt "$rev" ]; then
	if git -C "$mt" rev-parse -q --verify "refs/tags/sent/mglru-v$rev" > /dev/null; then
		:
	elif [ -d "$mail/v$rev" ]; then
		note "tagging the mail in $mail/v$rev as sent/mglru-v$rev"
		tag_sent "$rev"
	else
		note "no $mail/v$rev: v$REVISION gets no range-diff"
	fi
	b4q prep --force-revision "$REVISION" > /dev/null
	state=$(b4q prep --show-info) # the cover commit changed
fi

# Put the current series on top of b4's cover commit, with the mailing
# user's identity in place of the placeholder as author and in the
# Signed-off-by lines.
rm -rf "$mail/patches"
mkdir -p "$mail/patches"
for p in $(series_patches); do
	awk -v old="$SERIES_NAME <$SERIES_EMAIL>" -v new="$ident_name <$ident_email>" '
		$0 == "From: " old { $0 = "From: " new }
		$0 == "Signed-off-by: " old { $0 = "Signed-off-by: " new }
		{ print }' "$p" > "$mail/patches/${p##*/}"
done
git -C "$mt" reset -q --hard "$(info start-commit)"
# shellcheck disable=SC2046
git -C "$mt" am -q $(find "$mail/patches" -name '*.patch' | sort) ||
	{ git -C "$mt" am --abort; die "git am of series/ failed in $mt"; }
# shellcheck disable=SC2086
b4q prep --set-prefixes ${PREFIXES:-""} > /dev/null
EDITOR="cp $cover" b4q prep --edit-cover > /dev/null
# A range-diff against the latest sent revision below this one goes under
# the diffstat, as 'git format-patch --range-diff' puts it, through b4's
# cover template (its default plus the range-diff, '$' doubled): in the
# cover text b4 would take its 'NN: ...' lines for trailers.
prev=$(git -C "$mt" tag -l 'sent/mglru-v*' | sed 's/.*-v//' |
	awk -v r="$REVISION" '$1 < r' | sort -n | tail -1)
# shellcheck disable=SC2016
{
	printf '%s\n' '${cover}' '' '---' '${shortlog}' '' '${diffstat}'
	if [ -n "$prev" ]; then
		printf '\nRange-diff against v%s:\n' "$prev"
		b4q prep --compare-to "v$prev" | sed 's/\$/$$/g'
	fi
	printf '%s\n' '---' 'base-commit: ${base_commit}' 'change-id: ${change_id}' '' \
		'Best regards,' '-- ' '${signature}'
} > "$mail/cover-template.txt"
git -C "$mt" config b4.prep-cover-template "$mail/cover-template.txt"
[ "${SKIP_CC:-}" = 1 ] || b4q prep --auto-to-cc > /dev/null
rm -rf "$out"
b4q send -o "$out" --no-sign > /dev/null

# b4 0.12 writes 'base-commit:' only into the cover letter.  Each patch
# gets it too, where 'git format-patch --base' puts it for a single patch
# (after the diff, before the signature), so that every message names its
# base on its own, e.g. when a patch is picked out of the thread.
base=$(sed -n 's/^base-commit: //p' "$out"/0000-*.eml)
[ -n "$base" ] || die "b4 wrote no base-commit: into the cover letter"
for f in "$out"/*.eml; do
	case $f in */0000-*) continue ;; esac
	grep -qi '^Content-Transfer-Encoding: [78]bit$' "$f" ||
		die "${f##*/} is not 7bit/8bit: cannot add base-commit: to it"
	sig=$(grep -n '^-- $' "$f" | tail -1 | cut -d: -f1)
	if [ -n "$sig" ]; then
		sed -i "${sig}i base-commit: $base" "$f"
	else
		echo "base-commit: $base" >> "$f"
	fi
done

n=$(find "$out" -name '*.eml' | wc -l)
note "wrote $n messages to $out:"
for f in "$out"/*.eml; do
	printf '  %s  %s\n' "${f##*/}" "$(subject "$f")"
done
