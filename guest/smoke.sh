#!/bin/sh
# Smoke test of the multi-gen LRU interfaces that the stock kernel already
# has.
# Runs in the guest (busybox sh); prints KTAP with the kernel's
# ktap_helpers.sh and reads lru_gen/enabled and lru_gen(_full) through
# lru_gen_query (lab/lru_gen_query.c), both in /guest.  Exit status 0 only
# if every check passed.
set -eu
enabled=/sys/kernel/mm/lru_gen/enabled
dbg=/sys/kernel/debug/lru_gen
query=${LRU_GEN_QUERY:-/guest/lru_gen_query}
helpers=${KTAP_HELPERS:-/guest/ktap_helpers.sh}
err=${TMPDIR:-/tmp}/smoke.err

if [ ! -r "$helpers" ] || [ ! -x "$query" ]; then
	echo "TAP version 13"
	echo "Bail out! smoke.sh needs $helpers and $query"
	exit 1
fi
# shellcheck source=/dev/null # the kernel's tools/testing/selftests/kselftest/
. "$helpers"

check() { # check DESCRIPTION COMMAND...: one test, passed if COMMAND succeeds
	desc=$1
	shift
	if "$@"; then ktap_test_pass "$desc"; else ktap_test_fail "$desc"; fi
}
is_caps() { echo "$1" | grep -qx '0x[0-9a-f]\{4\}'; }
reads_back() { [ "$(cat "$enabled")" = "$1" ] && [ "$("$query" caps)" = "$1" ]; }
rejected() { ! (echo "$1" > "$enabled") 2>"$err" && grep -q "Invalid argument" "$err"; }
write_dbg() { echo "$1" > "$dbg"; }
is_num() { case $1 in '' | *[!0-9]*) return 1 ;; esac; }
next_of() { is_num "$1" && is_num "$2" && [ "$2" = $(($1 + 1)) ]; } # next_of SEQ NEXT
at_least() { is_num "$1" && is_num "$2" && [ "$1" -ge "$2" ]; }

ktap_print_header
ktap_set_plan 11
orig=$("$query" caps) || orig=
check "read $enabled ($orig)" is_caps "$orig"
check "write 0 reads back 0x0000" "$query" set-caps 0
check "write $orig reads back $orig" "$query" set-caps "${orig:-0x0007}"
check "bad value 'bogus' is rejected with EINVAL" rejected bogus
check "bad value leaves $orig in place" reads_back "$orig"
root=$("$query" memcg-id /) || root=
check "read $dbg: the root memcg is listed once (id $root)" is_num "$root"
root=${root:-1}
node=$("$query" nodes "$root" | head -1) || node=
node=${node:-0}
before=$("$query" max-seq "$root" "$node") || before=
check "read ${dbg}_full: memcg $root node $node max_seq $before" is_num "$before"
check "write '+ $root $node $before' to $dbg" write_dbg "+ $root $node $before"
after=$("$query" max-seq "$root" "$node") || after=
check "aging advanced max_seq of node $node ($before -> $after)" next_of "$before" "$after"
new=$("$query" age "$root" "$node" --force) || new=
now=$("$query" max-seq "$root" "$node") || now=
check "lru_gen_query age: one more step ($after -> $new, now $now)" next_of "$after" "$new"
check "max_seq did not go back ($new, now $now)" at_least "$now" "$new"
ktap_finished
