#!/bin/bash
# Install what the project needs on Debian 12 (as root): the packages in
# scripts/packages and exactly the pinned linux-source version of base/BASE.
# BASE_OVERRIDE=1 accepts another linux-source version if the pinned one
# is no longer in the archive.
set -eu
. "$(dirname "$0")/lib.sh"

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
	if ! apt-get install -y -qq --no-install-recommends "$BASE_PACKAGE=$BASE_VERSION" >/dev/null; then
		found=$(apt-cache policy "$BASE_PACKAGE" | sed -n 's/ *Candidate: //p')
		[ "${BASE_OVERRIDE:-0}" = 1 ] ||
			die "the archive does not serve $BASE_PACKAGE=$BASE_VERSION (it has '$found'); update base/BASE, or BASE_OVERRIDE=1 to build on '$found'"
		note "BASE_OVERRIDE=1: installing $BASE_PACKAGE $found instead of $BASE_VERSION"
		apt-get install -y -qq --no-install-recommends "$BASE_PACKAGE" >/dev/null
	fi
fi
note "packages installed"
