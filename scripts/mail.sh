#!/bin/bash
# 'make mail': write each series of series/ as mail with b4 (0.12), never
# sending it.  Per series series/N-NAME/ (or only ONLY=N-NAME): a branch
# mglru-NAME of a clone of the tree ($BUILD/mail/tree) is enrolled with b4;
# its cover letter
# is series/N-NAME/cover-letter.txt, its subject prefixes, revision and list
# come from series/N-NAME/mail.conf, To/Cc from get_maintainer.pl (b4 prep
# --auto-to-cc) plus the list, and 'b4 send -o' writes one .eml per message
# to $BUILD/mail/N-NAME/v<REVISION>/.  Fails on cover-letter placeholders,
# on a bad REVISION, on a missing or placeholder identity and on checkpatch
# findings, before it changes anything.
#
# Dependencies: a series after the first applies on 'base' plus the series
# before it.  Its messages say so the way git format-patch --base does:
# 'base-commit: <base>' and one 'prerequisite-patch-id:' line per patch of
# those series (git patch-id --stable), which b4 and git users can match.
# Each message of every series has its base-commit: line, so that a patch
# picked out of a thread still names its base.
#
# Revisions: REVISION (mail.conf) is the revision to write.  Keep
# $BUILD/mail: the clone holds b4's state (change-ids, revisions, sent/
# tags) and each v<N>/ folder stays.  Raising REVISION above the revision
# b4 is at tags the mail of that revision as b4's 'sent/<branch>-v<N>'
# (what 'b4 send' does; offline, 'b4 prep --manual-reroll' cannot fetch
# the cover letter), and the cover letter gets a range-diff against it.
# Lowering REVISION below b4's fails.
#
# Identity: series/ keeps the commits under a placeholder identity; the
# mail's author and Signed-off-by are the mailing user's git identity
# (git config user.name and user.email), which the clone's copy of the
# series is rewritten to.  No identity, or a placeholder one (an example.*
# or .invalid address, or the series' own), is refused.
#
# Environment: REVISION=N overrides mail.conf; COVER=FILE replaces the
# cover letter (with ONLY); ONLY=N-NAME writes one series.  For
# tests/mail.sh: SKIP_CHECKPATCH=1 skips the checkpatch gate ('make test'
# runs checkpatch itself) and SKIP_CC=1 skips get_maintainer.pl (two runs
# per patch, about 1 s each), so To: is only the list and there is no Cc:.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# Fixed identity and date of the commits that the prerequisite series make
# in a clone, so that the fork point of a later series does not change
# while the series before it stays the same.
FORK_ENV=(GIT_AUTHOR_NAME="$BASE_IDENT_NAME" GIT_AUTHOR_EMAIL="$BASE_IDENT_EMAIL"
	GIT_COMMITTER_NAME="$BASE_IDENT_NAME" GIT_COMMITTER_EMAIL="$BASE_IDENT_EMAIL"
	GIT_COMMITTER_DATE="$BASE_DATE")

env_revision=${REVISION:-}
dirs=
for d in $(series_dirs); do
	[ -z "${ONLY:-}" ] || [ "${d##*/}" = "$ONLY" ] || continue
	dirs="$dirs $d"
done
[ -n "$dirs" ] || die "no series to mail${ONLY:+ named $ONLY} in $SERIES"
[ -z "${COVER:-}" ] || [ -n "${ONLY:-}" ] || [ "$(echo "$dirs" | wc -w)" = 1 ] ||
	die "COVER=$COVER needs ONLY=N-NAME: there are several series"

# settings DIR: REVISION, PREFIXES, LIST and the cover letter of a series
settings() {
	REVISION='' PREFIXES='' LIST=
	# shellcheck source=../series/1-pud-filter/mail.conf
	. "$1/mail.conf"
	REVISION=${env_revision:-$REVISION}
	cover=${COVER:-$1/cover-letter.txt}
}
# Everything is checked before anything is created.
for d in $dirs; do
	[ -f "$d/mail.conf" ] || die "$d/mail.conf is missing"
	settings "$d"
	case $REVISION in
	'' | 0* | *[!0-9]*) die "REVISION must be a positive integer (1 for v1, ...), not '$REVISION'" ;;
	esac
	[ -n "$LIST" ] || die "$d/mail.conf sets no LIST"
	[ -s "$cover" ] || die "$cover is missing or empty"
	if grep -nE 'EDITME|TODO|TBD|FIXME|XXX|@@[A-Z_]+@@' "$cover"; then
		die "$cover still has placeholders (lines above)"
	fi
	[ -n "$(series_patches "$d")" ] || die "$d has no patches"
done
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

subject() { # subject FILE: the Subject: header of a message, unfolded
	awk '/^Subject: / {s = substr($0, 10); f = 1; next}
		f && /^[ \t]/ {s = s $0; next} {f = 0} /^$/ {exit} END {print s}' "$1"
}
mt=$BUILD/mail/tree
b4q() { # b4 in the clone; its messages go to $mail/b4.log
	(cd "$mt" && b4 --offline-mode "$@") 2>> "$mail/b4.log" ||
		{ tail -n 5 "$mail/b4.log" >&2; die "b4 $1 $2 failed (see $mail/b4.log)"; }
}
# fork PREREQ_DIR: base plus the patches in PREREQ_DIR (if any), applied in
# the clone with the fixed identity and dates; prints the commit
fork() {
	local p
	git -C "$mt" checkout -q --detach "$base"
	for p in $(find "$1" -maxdepth 1 -name '*.patch' 2>/dev/null | sort); do
		env "${FORK_ENV[@]}" git -C "$mt" am -q --committer-date-is-author-date "$p" ||
			{ git -C "$mt" am --abort; die "prerequisite ${p##*/} does not apply to base"; }
	done
	git -C "$mt" rev-parse HEAD
}
# tag_sent N: tag the patches mailed in $mail/vN/ as b4's sent/$branch-vN,
# with the cover letter as the message and the fork point they were mailed
# on as its base-commit:, as 'b4 send' would have; 'b4 prep --compare-to
# vN' uses it.
tag_sent() {
	local dir=$mail/v$1 f
	f=$(fork "$dir/prereq")
	# shellcheck disable=SC2046 # .eml file names have no spaces
	if ! git -C "$mt" am -q $(find "$dir" -maxdepth 1 -name '*.eml' ! -name '0000-*' | sort); then
		git -C "$mt" am --abort
		git -C "$mt" checkout -q "$branch"
		die "the patches of $dir do not apply to their prerequisites"
	fi
	{
		# the subject, a blank line, the body without the signature
		subject "$dir"/0000-*.eml
		echo
		sed '1,/^$/d; /^-- $/,$d; /^prerequisite-patch-id: /d' "$dir"/0000-*.eml |
			sed "s/^base-commit: .*/base-commit: $f/"
	} | git -C "$mt" tag -a -F - "sent/$branch-v$1"
	git -C "$mt" checkout -q "$branch"
}

# mail_series DIR: the mail of one series
mail_series() {
	local d=$1 name=${1##*/} prev rev f prereq
	settings "$d"
	cover=$(realpath "$cover")
	mail=$BUILD/mail/$name
	out=$mail/v$REVISION
	branch=mglru-${name#*-}
	base=$(git -C "$TREE" rev-parse base)
	mkdir -p "$mail"
	: > "$mail/b4.log"
	if [ ! -d "$mt/.git" ]; then
		note "cloning $TREE for b4"
		git clone -q --shared --no-checkout "$TREE" "$mt"
		git -C "$mt" config b4.send-no-patatt-sign yes
		# An SMTP setting keeps b4 off its web endpoint (which insists on
		# signing); with 'send -o' nothing is ever sent.
		git -C "$mt" config sendemail.smtpserver localhost
		git -C "$mt" checkout -q --detach "$base"
	fi
	if ! git -C "$mt" rev-parse -q --verify "refs/heads/$branch" > /dev/null; then
		git -C "$mt" checkout -q -b "$branch" "$base"
		b4q prep -e "$base" > /dev/null
	fi
	git -C "$mt" config b4.send-series-to "$LIST"
	git -C "$mt" config user.name "$ident_name"
	git -C "$mt" config user.email "$ident_email"
	git -C "$mt" checkout -q "$branch"
	state=$(b4q prep --show-info)
	rev=$(echo "$state" | sed -n 's/^revision: //p')
	[ "$REVISION" -ge "$rev" ] || die "REVISION=$REVISION but b4 in $mt is at v$rev:" \
		"raise REVISION in $d/mail.conf (or delete $mail to start over at v1)"
	if [ "$REVISION" -gt "$rev" ]; then
		if git -C "$mt" rev-parse -q --verify "refs/tags/sent/$branch-v$rev" > /dev/null; then
			:
		elif [ -d "$mail/v$rev" ]; then
			note "tagging the mail in $mail/v$rev as sent/$branch-v$rev"
			tag_sent "$rev"
		else
			note "no $mail/v$rev: v$REVISION gets no range-diff"
		fi
		b4q prep --force-revision "$REVISION" > /dev/null
		state=$(b4q prep --show-info)
	fi

	# The prerequisites: the patches of the series before this one.
	prereq=$mail/prereq
	rm -rf "$prereq" "$mail/patches"
	mkdir -p "$prereq" "$mail/patches"
	for p in $(series_dirs); do
		[ "$p" = "$d" ] && break
		series_patches "$p" | xargs -r cp -t "$prereq/"
	done
	# b4's cover commit on the fork point, then the current series with the
	# mailing user's identity in place of the placeholder as author and in
	# the Signed-off-by lines.
	cover_commit=$(echo "$state" | sed -n 's/^start-commit: //p')
	f=$(fork "$prereq")
	git -C "$mt" checkout -q -B "$branch" "$f"
	git -C "$mt" cherry-pick --allow-empty --keep-redundant-commits "$cover_commit" > /dev/null
	for p in $(series_patches "$d"); do
		awk -v old="$SERIES_NAME <$SERIES_EMAIL>" -v new="$ident_name <$ident_email>" '
			$0 == "From: " old { $0 = "From: " new }
			$0 == "Signed-off-by: " old { $0 = "Signed-off-by: " new }
			{ print }' "$p" > "$mail/patches/${p##*/}"
	done
	# shellcheck disable=SC2046 # patch file names have no spaces
	git -C "$mt" am -q $(find "$mail/patches" -name '*.patch' | sort) ||
		{ git -C "$mt" am --abort; die "git am of $d failed in $mt"; }
	# shellcheck disable=SC2086 # PREFIXES is a list of words
	b4q prep --set-prefixes ${PREFIXES:-""} > /dev/null
	EDITOR="cp $cover" b4q prep --edit-cover > /dev/null
	# A range-diff against the latest sent revision below this one goes under
	# the diffstat, as 'git format-patch --range-diff' puts it, through b4's
	# cover template (its default plus the range-diff, '$' doubled): in the
	# cover text b4 would take its 'NN: ...' lines for trailers.
	prev=$(git -C "$mt" tag -l "sent/$branch-v*" | sed 's/.*-v//' |
		awk -v r="$REVISION" '$1 < r' | sort -n | tail -1)
	# shellcheck disable=SC2016 # b4 expands the ${...} of its template
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
	cp -r "$prereq" "$out/prereq"

	# b4 0.12 writes 'base-commit:' (the fork point in the clone) only into
	# the cover letter.  Every message gets 'base-commit: <base>' and the
	# prerequisite-patch-id: lines after it, where 'git format-patch --base'
	# puts them for a single patch (after the diff, before the signature).
	ids=$(for p in $(find "$prereq" -name '*.patch' | sort); do
		git patch-id --stable < "$p" | cut -d' ' -f1
	done)
	trailer=$mail/base-trailer.txt
	{
		echo "base-commit: $base"
		for id in $ids; do echo "prerequisite-patch-id: $id"; done
	} > "$trailer"
	for e in "$out"/*.eml; do
		grep -qi '^Content-Transfer-Encoding: [78]bit$' "$e" ||
			die "${e##*/} is not 7bit/8bit: cannot add base-commit: to it"
		if grep -q '^base-commit: ' "$e"; then
			sed -i -e "/^base-commit: /{r $trailer" -e 'd}' "$e"
		else
			sig=$(grep -n '^-- $' "$e" | tail -1 | cut -d: -f1)
			if [ -n "$sig" ]; then
				sed -i "$((sig - 1))r $trailer" "$e"
			else
				cat "$trailer" >> "$e"
			fi
		fi
	done

	n=$(find "$out" -maxdepth 1 -name '*.eml' | wc -l)
	note "wrote $n messages of $name to $out:"
	for e in "$out"/*.eml; do
		printf '  %s  %s\n' "${e##*/}" "$(subject "$e")"
	done
}

for d in $dirs; do
	mail_series "$d"
done
