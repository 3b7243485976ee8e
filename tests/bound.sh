#!/bin/bash
# Host test of lab/host/bound (the offline MIN / static / LRU miss counts)
# and lab/host/trace.sh (the fio request stream without I/O).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=../scripts/lib.sh
. "$top/scripts/lib.sh"
# shellcheck source=/dev/null # from the kernel tree
. "$TREE/tools/testing/selftests/kselftest/ktap_helpers.sh"
ktap_print_header
data=$top/tests/data
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bound=$tmp/bound
cc -O2 -Wall -Wextra -Werror -o "$bound" "$top/lab/host/bound.c"

fails=0
# KTAP results, one line each: details of a failure go into diagnostics.
# ktap_helpers.sh echoes unquoted, hence set -f around it.
ok() {
	set -f
	ktap_test_pass "$(echo "$*" | head -1)"
	set +f
}
notok() {
	while IFS= read -r line; do echo "# $line"; done <<< "$*"
	set -f
	ktap_test_fail "$(echo "$*" | head -1 | cut -c1-120)"
	set +f
	fails=$((fails + 1))
}

# check NAME EXPECTED ARGS...: bound's JSON has every "key":value of EXPECTED
check() {
	local name=$1 want=$2 out kv
	shift 2
	out=$("$bound" "$@" 2>&1) || { notok "$name: exit status $?: $out"; return; }
	for kv in $want; do	# "key":value, followed by ',' or '}'
		case $out in *"\"${kv%%=*}\":${kv#*=},"* | *"\"${kv%%=*}\":${kv#*=}}"*) ;; *)
			notok "$name: want ${kv%%=*}=${kv#*=}, got $out"
			return ;;
		esac
	done
	ok "$name"
}

# fails_with NAME ARGS...: exit status 2 and a message on stderr
fails_with() {
	local name=$1 rc=0
	shift
	"$bound" "$@" > "$tmp/out" 2> "$tmp/err" || rc=$?
	if [ "$rc" = 2 ] && [ -s "$tmp/err" ] && [ ! -s "$tmp/out" ]; then
		ok "$name: exit 2 ($(head -1 "$tmp/err"))"
	else
		notok "$name: exit $rc, stderr '$(cat "$tmp/err")', stdout '$(cat "$tmp/out")'"
	fi
}

# The textbook trace, C = 3, every request counted (positions 0..12):
#   7 0 1 2 0 3 0 4 2 3 0 3 2
# LRU: misses at 7 0 1 2, 3 (evicts 1), 4 (evicts 2), 2 (evicts 3),
#   3 (evicts 0), 0 (evicts 4); hits at 0 0 3 2: 9 misses.
# MIN (farthest next use, bypass allowed): 7 0 1 miss and fill; 2 misses,
#   evicts 7 (never used again); 0 hits; 3 misses, evicts 1; 0 hits; 4 is
#   never used again and every cached page is (0 at 10, 2 at 8, 3 at 9):
#   4 is not kept; 2 3 0 3 2 all hit: 6 misses.  (The demand-paging MIN of
#   the textbooks must cache 4 and evicts 0, so misses 0 again: 7.)
# static: counts 0:4 2:3 3:3, others 1; keep {0,2,3}: misses are the three
#   single uses plus the first use of each kept page: 6.
printf '%s\n' 7 0 1 2 0 3 0 4 2 3 0 3 2 > "$tmp/textbook"
check "textbook C=3" "requests=13 accesses=13 pages=6 min_misses=6 static_misses=6 lru_misses=9 lru_miss_ratio=0.692308" \
	"$tmp/textbook" 3
# Warm-up 7 0 1 2 0 (not counted), measured 3 0 4 2 3 0 3 2, C = 3:
# LRU holds 1 2 0 at the end of the warm-up (1 least recent): 3 misses
#   (evicts 1), 0 hits, 4 (evicts 2), 2 (evicts 3), 3 (evicts 0), 0
#   (evicts 4) miss, 3 2 hit: 5 misses of 8.
# MIN keeps the warm-up pages used soonest: 0 (at 6) and 2 (at 8); 3
#   misses and is kept, 4 misses and is not kept, the rest hit: 2 misses.
# static: measured counts 3:3 0:2 2:2 4:1; 3 was not in the warm-up (its
#   first use is a miss anyway): keep {3,0,2}: 4 and the first 3 miss: 2.
check "textbook, warm-up 5, C=3" "requests=8 accesses=8 min_misses=2 static_misses=2 lru_misses=5 lru_miss_ratio=0.625000" \
	-w 5 "$tmp/textbook" 3
# C = 4: LRU holds 7 1 2 0; 3 evicts 7, 4 evicts 1, all else hits: 2.
check "textbook, warm-up 5, C=4" "min_misses=2 static_misses=2 lru_misses=2" -w 5 "$tmp/textbook" 4
# A cycle over 3 pages with C = 2 defeats LRU (every access misses), the
# static cache {1,2} misses only the 3s; MIN can do no better here: 3 of 9.
printf '%s\n' 1 2 3 1 2 3 1 2 3 1 2 3 > "$tmp/cycle"
check "cycle, warm-up 3, C=2" "requests=9 min_misses=3 static_misses=3 lru_misses=9" -w 3 "$tmp/cycle" 2
# Phases 1 1 1 2 2 2, C = 1: LRU and MIN miss each first use (2); a fixed
# cache of one page misses the other page 3 times plus its own first use.
printf '%s\n' 1 1 1 2 2 2 > "$tmp/phases"
check "phases, C=1 (static above LRU)" "min_misses=2 static_misses=4 lru_misses=2" "$tmp/phases" 1

# The online policies on the textbook trace, C = 3 (their rules are in
# bound.c; "m" marks a miss):
# CLOCK (frames f0 f1 f2, hand at f0, new pages with the bit clear): 7 0 1
#   fill; 2 replaces 7 (hand to f1); 0 hits (bit set); 3: the hand clears
#   0, replaces 1; 0 hits; 4 replaces 2; 2: clears 0, replaces 3; 3
#   replaces 4; 0 3 2 hit: 8 misses.
# SIEVE (queue newest first): 7 0 1 fill; 2 evicts 7 (tail, unvisited),
#   hand on 0; 0 visited; 3: 0 cleared, 1 evicted, hand on 2; 0 visited;
#   4 evicts 2 (hand on 3), 2 evicts 3 (hand on 4), 3 evicts 4; 0 3 2
#   hit: 8.
# 2Q (Kin 1, Kout 1): 7 0 1 fill A1in; 2: 7 to A1out; 0 hits in A1in;
#   3: 0 to A1out (7 dropped); 0m (A1out: to Am; 1 to A1out); 4m (2 to
#   A1out); 2m (A1out: to Am; 3 to A1out); 3m (A1out: to Am, Am's tail
#   0 evicted); 0m (Am's tail 2 evicted, 0 to A1in); 3 hits; 2m: 11.
# ARC (p 0): 7 0 1 fill T1; 2: T1 + B1 = C and T1 = C, 7 forgotten; 0
#   hits, to T2; 3m: T1's tail 1 to B1; 0 hits; 4m: B1's 1 dropped, 2 to
#   B1; 2m in B1: p 1, 3 to B1, 2 to T2; 3m in B1: p 2, T2's tail 0 to
#   B2; 0m in B2: p 1, T1 (= p) gives 4 to B1; 3 2 hit: 9.
# S3-FIFO (S 1, M 2, G 2): 7 0 1 fill S; 2: 7 to G; 0 hits (counter 1);
#   3: 0 (counter 1, not above 1) to G; 0m in G: 1 to G (7 dropped), 0 to
#   M; 4m: 2 to G; 2m in G: 3 to G, 2 to M; 3m in G: 4 to G, 3 to M; 0 3
#   2 hit: 9.
check "textbook C=3, online policies" "clock_misses=8 sieve_misses=8 2q_misses=11 arc_misses=9 s3fifo_misses=9 s3fifo_miss_ratio=0.692308" \
	"$tmp/textbook" 3
# A scan: 1 2 1 2, then 3 4 5 6 once, then 1 2 again, C = 3.  LRU loses 1
#   and 2 to the scan, CLOCK and SIEVE too (the scan's first miss clears
#   their bits); in 2Q they are still in A1in (a hit there changes
#   nothing), which the scan pushes through A1out; S3-FIFO moves a page to
#   M only above one hit in S, so they go to G, which the scan overflows;
#   ARC moved them to T2 at their second use and takes the scan out of T1
#   (p stays 0): misses 1 2 3 4 5 6 for ARC, and 1 2 again for the others.
printf '%s\n' 1 2 1 2 3 4 5 6 1 2 > "$tmp/scan"
check "scan C=3, online policies" "lru_misses=8 clock_misses=8 sieve_misses=8 2q_misses=8 arc_misses=6 s3fifo_misses=8 min_misses=6" \
	"$tmp/scan" 3
# Frequency: 1 1 1 2 3 4 5 1, C = 3.  LRU and 2Q evict 1 at 4's miss
#   (oldest; in 2Q it is still in A1in, a hit there does not move it);
#   CLOCK and SIEVE clear its bit and evict the next page; S3-FIFO moves it
#   to M (counter 2); ARC has it in T2: 5 misses for those four, 6 for LRU
#   and 2Q.
printf '%s\n' 1 1 1 2 3 4 5 1 > "$tmp/freq"
check "frequency C=3, online policies" "lru_misses=6 2q_misses=6 clock_misses=5 sieve_misses=5 arc_misses=5 s3fifo_misses=5" \
	"$tmp/freq" 3
# 2Q's share of A1in, C = 4 (Kin 1, Kout 2): 1 2 3 4 fill A1in; 5m: 1 to
#   A1out; 2 hits in A1in; 6m: 2 to A1out; 1m in A1out: to Am, 3 to A1out;
#   2m in A1out: to Am, 4 to A1out; 7m: A1in (6 5) holds more than Kin, 5
#   to A1out; 1 hits in Am: 9 misses (with Kin 2, 7 would evict 1 from Am).
printf '%s\n' 1 2 3 4 5 2 6 1 2 7 1 > "$tmp/kin"
check "2Q's Kin, C=4" "2q_misses=9" "$tmp/kin" 4
# The cycle of 3 pages with C = 2 after a warm-up of one round: every
#   policy misses every time but 2Q, which has a page in A1in or Am at
#   times: it hits 3 in the first round and 2 in the third, 7 misses of 9.
check "cycle, warm-up 3, C=2, online policies" "clock_misses=9 sieve_misses=9 2q_misses=7 arc_misses=9 s3fifo_misses=9" \
	-w 3 "$tmp/cycle" 2

# fio iolog v3 with two jobs: the same textbook trace as above.
check "iolog v3, two jobs" "requests=8 accesses=8 pages=6 min_misses=2 static_misses=2 lru_misses=5" \
	-w 5 "$data/textbook.iolog" 3
# iolog v2, multi-page and unaligned requests: pages 0-1, 1-2 (6000+4096
# ends in page 2), 2: 5 accesses.  C = 1, all counted: LRU misses 0 1 2.
# Warm-up 1 request (pages 0 1): LRU then hits 1, misses 2, hits 2; MIN
# keeps 1 (used next), the same; static: 1 saves 1 use, 2 saves 1 (2 uses,
# first one compulsory): keep either, 2 misses of 3.
cat > "$tmp/v2.iolog" <<-EOF
	fio version 2 iolog
	/d/f add
	/d/f open
	/d/f read 0 8192
	/d/f read 6000 4096
	/d/f sync
	/d/f read 8192 4096
	/d/f close
EOF
check "iolog v2, multi-page requests" "requests=3 accesses=5 pages=3 lru_misses=3" "$tmp/v2.iolog" 1
check "iolog v2, warm-up 1 request" "requests=2 accesses=3 min_misses=1 static_misses=2 lru_misses=1" \
	-w 1 "$tmp/v2.iolog" 1
# The same offset in two files is two pages.
printf 'fio version 2 iolog\n/a read 0 4096\n/b read 0 4096\n/a read 0 4096\n' > "$tmp/files.iolog"
check "two files" "pages=2 lru_misses=3" "$tmp/files.iolog" 1

# Errors: exit status 2 with a message.
: > "$tmp/empty"
printf 'fio version 3 iolog\n0 /f add\n' > "$tmp/noreq"
printf '1\n2\nthree\n' > "$tmp/garbage"
printf 'fio version 2 iolog\n/f read 0\n' > "$tmp/short"
printf 'fio version 2 iolog\n/f frobnicate 0 4096\n' > "$tmp/action"
printf 'fio version 9 iolog\n' > "$tmp/version"
fails_with "no arguments"
fails_with "one argument" "$tmp/textbook"
fails_with "capacity 0" "$tmp/textbook" 0
fails_with "capacity not a number" "$tmp/textbook" 3x
fails_with "bad -w" -w -1 "$tmp/textbook" 3
fails_with "unknown option" -x "$tmp/textbook" 3
fails_with "missing trace" "$tmp/nonexistent" 3
fails_with "unreadable trace (a directory)" "$tmp" 3
fails_with "empty trace" "$tmp/empty" 3
fails_with "iolog without requests" "$tmp/noreq" 3
fails_with "not a page number" "$tmp/garbage" 3
fails_with "iolog line without length" "$tmp/short" 3
fails_with "unknown iolog action" "$tmp/action" 3
fails_with "unknown iolog version" "$tmp/version" 3
fails_with "warm-up as long as the trace" -w 13 "$tmp/textbook" 3

# Property check against brute force on random traces: the exact optimum
# over every policy (cache of at most C pages, starting empty, a page
# enters only when requested, bypass allowed; dynamic programming over the
# cache contents), exact LRU, and the best of all fixed sets of at most C
# pages; and MIN <= static, MIN <= LRU.
if /usr/bin/python3 - "$bound" "$tmp" <<-'EOF'
	import itertools, json, random, subprocess, sys
	bound, tmp = sys.argv[1], sys.argv[2]
	def opt(t, w, c):
	    states = {frozenset(): 0}
	    for i, p in enumerate(t):
	        new = {}
	        def put(s, m):
	            if new.get(s, m + 1) > m:
	                new[s] = m
	        for s, m in states.items():
	            if p in s:
	                put(s, m)
	                continue
	            m += i >= w
	            put(s, m)                       # bypass
	            if len(s) < c:
	                put(s | {p}, m)
	            for q in s:
	                put((s - {q}) | {p}, m)
	        states = new
	    return min(states.values())
	def lru(t, w, c):
	    cache, misses = [], 0
	    for i, p in enumerate(t):
	        if p in cache:
	            cache.remove(p)
	        else:
	            misses += i >= w
	            if len(cache) == c:
	                cache.pop(0)
	        cache.append(p)
	    return misses
	def static(t, w, c):
	    pages, best = sorted(set(t)), None
	    for k in range(c + 1):
	        for keep in itertools.combinations(pages, k):
	            seen, m = set(t[:w]), 0
	            for p in t[w:]:
	                m += p not in keep or p not in seen
	                seen.add(p)
	            best = m if best is None else min(best, m)
	    return best
	rng, bad = random.Random(5), 0
	for case in range(150):
	    n, npages = rng.randint(1, 14), rng.randint(1, 6)
	    t = [rng.randint(1, npages) for _ in range(n)]
	    w, c = rng.randint(0, n - 1), rng.randint(1, 4)
	    with open(f"{tmp}/rand", "w") as f:
	        f.write("".join(f"{p}\n" for p in t))
	    b = json.loads(subprocess.run([bound, "-w", str(w), f"{tmp}/rand", str(c)],
	                                  capture_output=True, text=True, check=True).stdout)
	    want = {"min_misses": opt(t, w, c), "static_misses": static(t, w, c),
	            "lru_misses": lru(t, w, c)}
	    got = {k: b[k] for k in want}
	    online = {k: b[f"{k}_misses"] for k in ("clock", "sieve", "2q", "arc", "s3fifo")}
	    if got != want or not (b["min_misses"] <= b["static_misses"] and
	                           b["min_misses"] <= b["lru_misses"]) or \
	            not all(want["min_misses"] <= m <= b["accesses"] for m in online.values()):
	        bad += 1
	        if bad <= 5:
	            print(f"# trace {t} -w {w} C={c}: bound {got} {online}, brute force {want}")
	sys.exit(bad > 0)
EOF
then
	ok "150 random traces: bound = brute force (optimum, static, LRU); MIN <= static, LRU and every online policy"
else
	notok "random traces disagree with brute force"
fi

# Scale: 1e6 requests over about 1e6 distinct pages in a few seconds.
awk 'BEGIN { srand(7); for (i = 0; i < 1000000; i++) print int(rand() * 4000000) }' > "$tmp/big"
start=$(date +%s)
if out=$("$bound" -w 200000 "$tmp/big" 100000 2>&1) &&
	/usr/bin/python3 -c 'import json, sys; b = json.loads(sys.argv[1])
sys.exit(not (b["requests"] == 800000 and b["pages"] > 800000 and
	b["min_misses"] <= b["static_misses"] and b["min_misses"] <= b["lru_misses"]))' "$out"; then
	pages=${out#*\"pages\":}
	ok "1e6 requests, ${pages%%[!0-9]*} pages: $(($(date +%s) - start)) s"
else
	notok "1e6 requests: $out"
fi

# trace.sh: the stream of a job file, without I/O (tests/data/uniform.fio
# uses ioengine=psync and write_iolog; its files must not be created).
trace=$top/lab/host/trace.sh
sed "s|/nonexistent/mglru-lab-fixture|$tmp/absent|" "$data/uniform.fio" > "$tmp/uniform.fio"
if out=$("$trace" "$tmp/uniform.fio" "$tmp/u1.iolog" 2>&1) &&
	[ "$out" = "$tmp/u1.iolog: requests per job: 500 700" ] &&
	[ "$(grep -c '^fio version 3 iolog$' "$tmp/u1.iolog")" = 2 ] &&
	[ ! -e "$tmp/absent" ]; then
	ok "trace.sh: two jobs, 500 + 700 requests, no file touched"
else
	notok "trace.sh on uniform.fio: $out"
fi
"$trace" "$tmp/uniform.fio" "$tmp/u2.iolog" > /dev/null
if cmp -s <(cut -d' ' -f2- "$tmp/u1.iolog") <(cut -d' ' -f2- "$tmp/u2.iolog"); then
	ok "trace.sh: the same stream twice (timestamps aside)"
else
	notok "trace.sh: two runs give different streams"
fi
"$trace" "$tmp/uniform.fio" "$tmp/m.iolog" measure > /dev/null
if [ "$(grep -c ' read ' "$tmp/m.iolog")" = 700 ] &&
	cmp -s <(grep ' read ' "$tmp/m.iolog" | cut -d' ' -f2- | head -500) \
		<(grep ' read ' "$tmp/u1.iolog" | cut -d' ' -f2- | head -500); then
	ok "trace.sh SECTION: the section alone is job 1, so it replays job 1's stream"
else
	notok "trace.sh measure section"
fi
check "bound on trace.sh's iolog, warm-up = first job" "requests=700 accesses=700" -w 500 "$tmp/u1.iolog" 64
rc=0
"$trace" "$tmp/nonexistent.fio" "$tmp/x.iolog" 2> /dev/null || rc=$?
if [ "$rc" != 0 ] && [ ! -e "$tmp/x.iolog" ]; then
	ok "trace.sh: a missing job file fails, nothing written"
else
	notok "trace.sh: missing job file gave exit 0 or wrote $tmp/x.iolog"
fi

ktap_print_totals
[ "$fails" = 0 ]
