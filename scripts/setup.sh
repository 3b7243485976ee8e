#!/bin/bash
# Install what the project needs on Debian 12 (as root): the packages in
# scripts/packages and exactly the linux-source version of base/BASE.
# That package comes from BASE_SUITE (trixie-backports): as root, this
# writes an apt source for the suite and a pin that lets only
# BASE_PACKAGE come from it (every other package of the suite at -10,
# never installed), each only if its content differs.  Running it again
# changes nothing.
set -eu
. "$(dirname "$0")/lib.sh"

sources=/etc/apt/sources.list.d/$BASE_SUITE.sources
pin=/etc/apt/preferences.d/$BASE_PACKAGE.pref
# put FILE: stdin into FILE, unless FILE already has that content
put() {
	local new
	new=$(cat)
	[ "$(cat "$1" 2>/dev/null)" != "$new" ] || return 0
	note "writing $1"
	printf '%s\n' "$new" > "$1.tmp"
	mv "$1.tmp" "$1"
}
if [ "$(id -u)" = 0 ]; then
	put "$sources" <<-EOF
	Types: deb
	URIs: http://deb.debian.org/debian
	Suites: $BASE_SUITE
	Components: main
	Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
	EOF
	put "$pin" <<-EOF
	Package: *
	Pin: release n=$BASE_SUITE
	Pin-Priority: -10

	Package: $BASE_PACKAGE
	Pin: release n=$BASE_SUITE
	Pin-Priority: 500
	EOF
fi

want=$(grep -v '^#' "$TOP/scripts/packages" | xargs)
have_version() { dpkg-query -W -f='${Status} ${Version}\n' "$1" 2>/dev/null | sed -n 's/^install ok installed //p'; }
missing=
for p in $want; do
	[ -n "$(have_version "$p")" ] || missing="$missing $p"
done
src=$(have_version "$BASE_PACKAGE")
[ "$src" = "$BASE_VERSION" ] || missing="$missing $BASE_PACKAGE"
if [ -z "$missing" ]; then
	note "all packages present"
	exit 0
fi
[ "$(id -u)" = 0 ] || die "missing packages:$missing (run 'make setup' as root)"
note "installing:$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
pkgs=()
for p in $missing; do
	[ "$p" = "$BASE_PACKAGE" ] || pkgs+=("$p")
done
[ ${#pkgs[@]} = 0 ] || apt-get install -y -qq --no-install-recommends "${pkgs[@]}" >/dev/null
if [ "$src" != "$BASE_VERSION" ]; then
	# --allow-downgrades: back to the pinned version after an upgrade
	if ! apt-get install -y -qq --no-install-recommends --allow-downgrades \
		"$BASE_PACKAGE=$BASE_VERSION" >/dev/null; then
		found=$(apt-cache policy "$BASE_PACKAGE" | sed -n 's/ *Candidate: //p')
		die "the archive does not serve $BASE_PACKAGE=$BASE_VERSION (it has '$found'): update base/BASE"
	fi
fi
note "packages installed"
