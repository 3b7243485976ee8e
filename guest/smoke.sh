#!/bin/sh
# Smoke test of the multi-gen LRU interfaces that stock 6.12 already has.
# Runs in the guest; prints TAP.  Exit status 0 only if every check passed.
set -u
enabled=/sys/kernel/mm/lru_gen/enabled
dbg=/sys/kernel/debug/lru_gen
n=0 failed=0
check() { # check DESCRIPTION COMMAND...
	desc=$1
	shift
	n=$((n + 1))
	if "$@"; then echo "ok $n - $desc"; else echo "not ok $n - $desc"; failed=$((failed + 1)); fi
}
# max_seq of node $2 in memcg $1: the first column of the last generation
# line of that node's block in lru_gen.
max_seq() {
	awk -v id="$1" -v nid="$2" '
		$1 == "memcg" { in_memcg = ($2 == id); in_node = 0; next }
		$1 == "node" { in_node = in_memcg && ($2 == nid); next }
		in_node && NF >= 4 { seq = $1 }
		END { print seq }' "$dbg"
}

is_caps() { echo "$1" | grep -qx '0x[0-9a-f]\{4\}'; }
err=${TMPDIR:-/tmp}/smoke.err
rejected() { ! (echo "$1" > "$enabled") 2>"$err" && grep -q "Invalid argument" "$err"; }

echo "TAP version 13"
echo "1..9"
orig=$(cat "$enabled" 2>/dev/null)
check "read $enabled ($orig)" is_caps "$orig"
check "write 0 reads back 0x0000" sh -c "echo 0 > $enabled && [ \$(cat $enabled) = 0x0000 ]"
check "write $orig reads back $orig" sh -c "echo $orig > $enabled && [ \$(cat $enabled) = $orig ]"
check "bad value 'bogus' is rejected with EINVAL" rejected bogus
check "bad value leaves $orig in place" [ "$(cat "$enabled")" = "$orig" ]
check "read $dbg" grep -q '^memcg .* /$' "$dbg"
check "read ${dbg}_full" grep -q '^ node ' "${dbg}_full"
before=$(max_seq 1 0)
check "write '+ 1 0 $before' to $dbg" sh -c "echo '+ 1 0 $before' > $dbg"
after=$(max_seq 1 0)
check "aging advanced max_seq of node 0 ($before -> $after)" [ "$after" = $((before + 1)) ]
[ "$failed" = 0 ]
