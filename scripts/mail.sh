#!/bin/bash
# 'make mail': produce the series as mail with b4, never sending it.
# A clone of the tree ($BUILD/mail/tree) is enrolled with b4; its cover
# letter comes from series/cover-letter.txt, To/Cc from get_maintainer.pl
# (b4 prep --auto-to-cc) plus the list, and 'b4 send -o' writes one .eml
# per message to $BUILD/mail/v<REVISION>/.  Fails on cover-letter
# placeholders and on checkpatch findings.
set -eu -o pipefail
. "$(dirname "$0")/lib.sh"
# shellcheck source=../series/mail.conf
. "$SERIES/mail.conf"

cover=${COVER:-$SERIES/cover-letter.txt}
[ -s "$cover" ] || die "$cover is missing or empty"
if grep -nE 'EDITME|TODO|TBD|FIXME|XXX|@@[A-Z_]+@@' "$cover"; then
	die "$cover still has placeholders (lines above)"
fi
[ -n "$(series_patches)" ] || die "series/ has no patches"
"$TOP/scripts/checkpatch.sh" > /dev/null || die "checkpatch is not clean: run scripts/checkpatch.sh"

mail=$BUILD/mail
mt=$mail/tree
out=$mail/v$REVISION
b4q() { (cd "$mt" && b4 --offline-mode "$@"); }

if [ ! -d "$mt/.git" ]; then
	note "cloning $TREE for b4"
	mkdir -p "$mail"
	git clone -q --shared --branch series "$TREE" "$mt"
	git -C "$mt" config user.name "$SERIES_NAME"
	git -C "$mt" config user.email "$SERIES_EMAIL"
	git -C "$mt" config b4.send-no-patatt-sign yes
	# An SMTP setting keeps b4 off its web endpoint (which insists on
	# signing); with 'send -o' nothing is ever sent.
	git -C "$mt" config sendemail.smtpserver localhost
	git -C "$mt" config b4.send-series-to "$LIST"
	git -C "$mt" checkout -q -b mglru
	b4q prep -e base > /dev/null
fi
info() { b4q prep --show-info | sed -n "s/^$1: //p"; }
rev=$(info revision)
[ "$REVISION" -ge "$rev" ] || die "series/mail.conf has REVISION=$REVISION but b4 is at v$rev"
if [ "$REVISION" -gt "$rev" ]; then
	prev=$mail/v$rev
	msgid=$(sed -n 's/^Message-Id: <\(.*\)>$/\1/Ip' "$prev"/0000-*.eml 2>/dev/null | head -1)
	if [ -n "$msgid" ]; then
		note "marking v$rev as sent ($msgid) and rerolling"
		b4q prep --manual-reroll "$msgid" > /dev/null
	fi
	b4q prep --force-revision "$REVISION" > /dev/null
fi

# Put the current series on top of b4's cover commit.
start=$(info start-commit)
git -C "$mt" reset -q --hard "$start"
for p in $(series_patches); do
	git -C "$mt" am -q "$p" || die "git am of ${p##*/} failed in $mt"
done
# shellcheck disable=SC2086
[ -z "$PREFIXES" ] || b4q prep --set-prefixes $PREFIXES > /dev/null
cp "$cover" "$mail/cover.txt"
if [ "$REVISION" -gt 1 ] && git -C "$mt" rev-parse -q --verify "refs/tags/sent/*v$((REVISION - 1))" >/dev/null 2>&1; then
	{ echo; echo "Range-diff against v$((REVISION - 1)):"; b4q prep --compare-to "v$((REVISION - 1))"; } >> "$mail/cover.txt"
fi
EDITOR="cp $mail/cover.txt" b4q prep --edit-cover > /dev/null
b4q prep --auto-to-cc > /dev/null
rm -rf "$out"
b4q send -o "$out" --no-sign > "$mail/send.log" 2>&1 || { cat "$mail/send.log"; die "b4 send -o failed"; }
n=$(ls "$out"/*.eml | wc -l)
note "wrote $n messages to $out:"
for f in "$out"/*.eml; do
	printf '  %s  %s\n' "${f##*/}" "$(sed -n 's/^Subject: //p' "$f" | head -1)"
done
