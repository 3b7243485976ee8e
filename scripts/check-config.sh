#!/bin/bash
# check-config.sh DOTCONFIG FRAGMENT...: fail if an option requested by the
# fragments (a later fragment overrides an earlier one, as in
# merge_config.sh) is not set that way in DOTCONFIG: olddefconfig silently
# drops options whose dependencies are missing.
set -eu
config=$1
shift
declare -A want
for frag in "$@"; do
	while IFS= read -r line; do
		case $line in
		CONFIG_*=*) want[${line%%=*}]=$line ;;
		"# CONFIG_"*" is not set")
			opt=${line#\# }
			want[${opt%% *}]=$line
			;;
		esac
	done < "$frag"
done
bad=0
for opt in "${!want[@]}"; do
	line=${want[$opt]}
	case $line in
	CONFIG_*) grep -qxF "$line" "$config" && continue ;;
	*) grep -qE "^$opt=" "$config" || continue ;;
	esac
	have=$(grep -E "^($opt=|# $opt is not set)" "$config" || echo "$opt absent")
	echo "check-config: wanted '$line', .config has '$have'" >&2
	bad=1
done
[ "$bad" = 0 ] || { echo "check-config: requested options were dropped (missing dependencies?)" >&2; exit 1; }
