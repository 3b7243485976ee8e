#!/bin/bash
# check-config.sh DOTCONFIG FRAGMENT...: fail if an option requested by a
# fragment is not set that way in DOTCONFIG (olddefconfig drops options
# whose dependencies are missing, silently).
set -eu
config=$1
shift
bad=0
for frag in "$@"; do
	while IFS= read -r line; do
		case $line in
		CONFIG_*=*)
			opt=${line%%=*}
			grep -qxF "$line" "$config" && continue
			have=$(grep -E "^($opt=|# $opt is not set)" "$config" || echo "$opt absent")
			;;
		"# CONFIG_"*" is not set")
			opt=${line#\# }
			opt=${opt%% *}
			grep -qE "^$opt=" "$config" || continue
			have=$(grep -E "^$opt=" "$config")
			;;
		*) continue ;;
		esac
		echo "check-config: ${frag##*/} wants '$line', .config has '$have'" >&2
		bad=1
	done < "$frag"
done
[ "$bad" = 0 ] || { echo "check-config: requested options were dropped (missing dependencies?)" >&2; exit 1; }
