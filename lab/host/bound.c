// SPDX-License-Identifier: GPL-2.0
/*
 * bound: the offline miss bounds of a page-cache request trace.
 *
 * usage: bound [-w WARMUP] TRACE CAPACITY
 *
 *   TRACE     a fio --write_iolog file (iolog version 2 or 3, several jobs
 *             appended one after the other are fine), or one page number
 *             per line ('#' comments and blank lines are skipped).
 *             In an iolog, 'read' and 'write' lines are requests; a request
 *             touches every 4 KiB page of [offset, offset + length); pages
 *             of different files are different pages.  'add', 'open',
 *             'close', 'sync', 'datasync', 'trim' and 'wait' lines are
 *             ignored.
 *   CAPACITY  the cache size C in 4 KiB pages (the measured effective
 *             cache size, not the memcg limit).
 *   -w WARMUP the first WARMUP requests are a warm-up: they fill the cache
 *             but are not counted (default 0).  The trace must have more.
 *
 * Prints one JSON line; *_misses count page accesses of the measured part
 * (requests after the warm-up) that miss, *_miss_ratio = misses / accesses:
 *
 *   {"capacity":C,"warmup":W,"requests":R,"accesses":A,"pages":P,
 *    "min_misses":..,"min_miss_ratio":..,"static_misses":..,
 *    "static_miss_ratio":..,"lru_misses":..,"lru_miss_ratio":..,
 *    then the same two keys for clock, sieve, 2q, arc and s3fifo}
 *
 * R and A are the measured requests and page accesses, P the distinct
 * pages of the whole trace.  Every policy starts empty before the warm-up
 * and holds at most C pages; a page enters the cache only when requested.
 *
 *   lru     exact LRU (every miss is cached, the least recently used page
 *           is evicted).  Hash map to dense ids, then a doubly linked list:
 *           O(1) per access.
 *   static  the best fixed cache: the C pages that save the most measured
 *           misses stay resident, every other page is served without being
 *           cached.  A page saves its measured access count, minus one if it
 *           is not requested in the warm-up (its first access is then a
 *           compulsory miss).  So this is "the top C pages by frequency over
 *           the measured part", with compulsory misses counted.
 *           O(P log P) for the sort.
 *   min     Belady's MIN, the least number of measured misses any policy
 *           can have (bypass allowed): at the end of the warm-up the cache
 *           holds the C warm-up pages used soonest afterwards (any set of
 *           warm-up pages is reachable), then on a miss the page used
 *           farthest in the future, the requested page included, is not
 *           kept.  Next-use indices from a backward pass, a max-heap with
 *           lazy deletion: O(A log A).
 *
 * Since lru and static are policies of that kind, min <= static and
 * min <= lru always hold.  Allowing bypass makes min at most the demand
 * (always-cache) MIN at C and at least the demand MIN at C + 1.
 *
 * The online policies the field compares against, each as its paper
 * describes it (the comment above each function says how); all cache every
 * missed page, so min bounds them too:
 *
 *   clock   CLOCK, one reference bit per page (second chance)
 *   sieve   SIEVE (Zhang et al., NSDI '24)
 *   2q      2Q, the full version (Johnson and Shasha, VLDB '94)
 *   arc     ARC (Megiddo and Modha, FAST '03)
 *   s3fifo  S3-FIFO (Yang et al., SOSP '23)
 *
 * Bad or missing arguments, an unreadable, malformed or empty trace, or a
 * trace no longer than the warm-up: a message on stderr and exit status 2.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PAGE_SHIFT	12
#define PAGE_BITS	44		/* pages of one file: 64 PiB */
#define FILE_BITS	(64 - PAGE_BITS)
#define NONE		UINT32_MAX

static const char *trace_path;
static unsigned long lineno;

static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "bound: ");
	if (lineno)
		fprintf(stderr, "%s:%lu: ", trace_path, lineno);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

static void usage(void)
{
	fprintf(stderr, "usage: bound [-w WARMUP] TRACE CAPACITY\n"
		"  TRACE: fio iolog (v2/v3) or one page number per line\n"
		"  CAPACITY: cache size in 4 KiB pages; -w: warm-up requests not counted\n");
	exit(2);
}

static void *xrealloc(void *p, size_t n, size_t size)
{
	if (n && size > SIZE_MAX / n)
		die("out of memory");
	p = realloc(p, n * size);
	if (!p && n)
		die("out of memory");
	return p;
}

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return errno || *end ? -1 : 0;
}

/* Page keys to dense ids: open addressing, linear probing. */
static uint64_t *hkeys;
static uint32_t *hvals;
static size_t hcap;		/* a power of two */
static uint32_t npages;		/* ids 0 .. npages - 1 */

static size_t hslot(uint64_t key)
{
	key ^= key >> 33;
	key *= 0xff51afd7ed558ccdULL;
	key ^= key >> 33;
	return key & (hcap - 1);
}

static void hgrow(void)
{
	uint64_t *okeys = hkeys;
	uint32_t *ovals = hvals;
	size_t ocap = hcap;

	hcap = hcap ? hcap * 2 : 1 << 16;
	hkeys = xrealloc(NULL, hcap, sizeof(*hkeys));
	hvals = xrealloc(NULL, hcap, sizeof(*hvals));
	memset(hvals, 0xff, hcap * sizeof(*hvals));
	for (size_t i = 0; i < ocap; i++) {
		size_t s;

		if (ovals[i] == NONE)
			continue;
		for (s = hslot(okeys[i]); hvals[s] != NONE; s = (s + 1) & (hcap - 1))
			;
		hkeys[s] = okeys[i];
		hvals[s] = ovals[i];
	}
	free(okeys);
	free(ovals);
}

static uint32_t page_id(uint64_t key)
{
	size_t s;

	if ((size_t)npages * 2 >= hcap)
		hgrow();
	for (s = hslot(key); hvals[s] != NONE; s = (s + 1) & (hcap - 1))
		if (hkeys[s] == key)
			return hvals[s];
	if (npages == NONE - 1)
		die("too many distinct pages");
	hkeys[s] = key;
	hvals[s] = npages;
	return npages++;
}

/* The trace as page ids, one per page access. */
static uint32_t *acc;
static size_t nacc, acc_cap;

static void access_page(uint64_t key)
{
	if (nacc == acc_cap) {
		acc_cap = acc_cap ? acc_cap * 2 : 1 << 16;
		acc = xrealloc(acc, acc_cap, sizeof(*acc));
	}
	acc[nacc++] = page_id(key);
}

/* File names of an iolog to small indices (few files: linear search). */
static char **files;
static size_t nfiles;

static uint64_t file_index(const char *name)
{
	size_t i;

	for (i = 0; i < nfiles; i++)
		if (!strcmp(files[i], name))
			return i;
	if (nfiles == (1UL << FILE_BITS) - 1)
		die("too many files");
	files = xrealloc(files, nfiles + 1, sizeof(*files));
	files[nfiles] = strdup(name);
	if (!files[nfiles])
		die("out of memory");
	return nfiles++;
}

/*
 * Read the trace; returns the number of requests, and in *warm_acc the
 * number of page accesses of the first 'warm' requests.
 */
static uint64_t read_trace(FILE *f, uint64_t warm, size_t *warm_acc)
{
	char line[4096], *tok[6];
	uint64_t nreq = 0;
	int iolog = 0, version = 0;

	*warm_acc = 0;
	while (fgets(line, sizeof(line), f)) {
		uint64_t off, len, page, last, fi;
		int ntok = 0, a;
		char *p, *save;

		lineno++;
		if (!strchr(line, '\n') && !feof(f))
			die("line too long");
		if (sscanf(line, "fio version %d iolog", &version) == 1) {
			if (version != 2 && version != 3)
				die("unsupported iolog version %d", version);
			if (!iolog && nreq)
				die("iolog header after page numbers");
			iolog = 1;
			continue;
		}
		for (p = strtok_r(line, " \t\r\n", &save); p && ntok < 6;
		     p = strtok_r(NULL, " \t\r\n", &save))
			tok[ntok++] = p;
		if (!ntok || tok[0][0] == '#')
			continue;
		if (!iolog) {
			if (ntok != 1 || parse_u64(tok[0], &page))
				die("expected a page number or a fio iolog header");
			access_page(page);
		} else {
			/* v2: FILE ACTION [OFFSET LENGTH]; v3: TIME FILE ... */
			a = version == 3 ? 1 : 0;
			if (ntok < a + 2)
				die("expected an iolog v%d line", version);
			if (a && parse_u64(tok[0], &off))
				die("bad timestamp '%s'", tok[0]);
			if (strcmp(tok[a + 1], "read") && strcmp(tok[a + 1], "write")) {
				static const char *const skip[] = { "add", "open",
					"close", "sync", "datasync", "trim", "wait" };
				size_t i;

				for (i = 0; i < sizeof(skip) / sizeof(*skip); i++)
					if (!strcmp(tok[a + 1], skip[i]))
						break;
				if (i == sizeof(skip) / sizeof(*skip))
					die("unknown iolog action '%s'", tok[a + 1]);
				continue;
			}
			if (ntok != a + 4 || parse_u64(tok[a + 2], &off) ||
			    parse_u64(tok[a + 3], &len) || !len ||
			    off + len < off || (off + len - 1) >> PAGE_SHIFT >> PAGE_BITS)
				die("expected FILE read|write OFFSET LENGTH");
			fi = file_index(tok[a]) << PAGE_BITS;
			last = (off + len - 1) >> PAGE_SHIFT;
			for (page = off >> PAGE_SHIFT; page <= last; page++)
				access_page(fi | page);
		}
		if (++nreq == warm)
			*warm_acc = nacc;
	}
	if (ferror(f))
		die("%s: read error: %s", trace_path, strerror(errno));
	lineno = 0;
	return nreq;
}

/* Max-heap of (next use << 32 | page id), for MIN. */
static uint64_t *heap;
static size_t nheap, heap_cap;

static void heap_push(uint64_t v)
{
	size_t i = nheap++;

	if (nheap > heap_cap) {
		heap_cap = heap_cap ? heap_cap * 2 : 1 << 16;
		heap = xrealloc(heap, heap_cap, sizeof(*heap));
	}
	for (; i && heap[(i - 1) / 2] < v; i = (i - 1) / 2)
		heap[i] = heap[(i - 1) / 2];
	heap[i] = v;
}

static void heap_pop(void)
{
	uint64_t v = heap[--nheap];
	size_t i = 0, c;

	for (; (c = 2 * i + 1) < nheap; i = c) {
		if (c + 1 < nheap && heap[c + 1] > heap[c])
			c++;
		if (heap[c] <= v)
			break;
		heap[i] = heap[c];
	}
	heap[i] = v;
}

/*
 * MIN over accesses [0, nacc) with warm-up [0, w): during the warm-up every
 * page is kept, at its end the cache shrinks to the c pages used soonest.
 */
static uint64_t min_misses(size_t w, uint64_t c)
{
	uint32_t *next = xrealloc(NULL, nacc, sizeof(*next));
	uint32_t *when = xrealloc(NULL, npages, sizeof(*when));
	uint32_t *key = xrealloc(NULL, npages, sizeof(*key));	/* NONE: out */
	uint64_t misses = 0, size = 0;
	size_t i;

	/* next[i]: index of the next access to acc[i]'s page, nacc if none */
	for (i = 0; i < npages; i++)
		when[i] = (uint32_t)nacc;
	for (i = nacc; i-- > 0;) {
		next[i] = when[acc[i]];
		when[acc[i]] = (uint32_t)i;
	}
	memset(key, 0xff, npages * sizeof(*key));
	nheap = 0;
	for (i = 0; i < nacc; i++) {
		uint32_t p = acc[i];

		if (i == w) {
			for (; size > c; size--) {
				for (;;) {	/* the farthest live entry */
					uint32_t q = (uint32_t)heap[0];

					if (key[q] == heap[0] >> 32)
						break;
					heap_pop();
				}
				key[(uint32_t)heap[0]] = NONE;
				heap_pop();
			}
		}
		if (key[p] == NONE) {
			if (i >= w) {
				misses++;
				if (size == c) {
					uint32_t q;

					for (;;) {
						q = (uint32_t)heap[0];
						if (key[q] == heap[0] >> 32)
							break;
						heap_pop();
					}
					if (key[q] <= next[i])
						continue;	/* bypass */
					key[q] = NONE;
					heap_pop();
					size--;
				}
			}
			size++;
		}
		key[p] = next[i];
		heap_push((uint64_t)next[i] << 32 | p);
	}
	free(next);
	free(when);
	free(key);
	return misses;
}

static int cmp_desc(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? 1 : x > y ? -1 : 0;
}

/* The best fixed set of c pages over accesses [w, nacc). */
static uint64_t static_misses(size_t w, uint64_t c)
{
	uint32_t *save = xrealloc(NULL, npages, sizeof(*save));
	uint8_t *warm = xrealloc(NULL, npages, 1);
	uint64_t kept = 0;
	size_t i;

	memset(save, 0, npages * sizeof(*save));
	memset(warm, 0, npages);
	for (i = 0; i < w; i++)
		warm[acc[i]] = 1;
	for (i = w; i < nacc; i++)
		save[acc[i]]++;
	for (i = 0; i < npages; i++)
		if (save[i] && !warm[i])
			save[i]--;	/* the compulsory miss */
	qsort(save, npages, sizeof(*save), cmp_desc);
	for (i = 0; i < npages && i < c; i++)
		kept += save[i];
	free(save);
	free(warm);
	return (nacc - w) - kept;
}

/*
 * Doubly linked lists of page ids for the policies below.  A page is on at
 * most one list at a time (each policy's cache and ghost lists are
 * disjoint).  Nodes 0 .. npages - 1 are the pages, npages + l the head of
 * list l; a page is pushed at the head (newest, or most recently used), so
 * next[] leads toward the tail (oldest) and prev[] back toward the head.
 */
#define NLISTS		4
#define NO_LIST		0xff

struct lists {
	uint32_t *prev, *next;
	uint8_t *on;			/* the list of each page, or NO_LIST */
	uint64_t len[NLISTS];
};

static void lists_init(struct lists *l)
{
	l->prev = xrealloc(NULL, npages + NLISTS, sizeof(*l->prev));
	l->next = xrealloc(NULL, npages + NLISTS, sizeof(*l->next));
	l->on = xrealloc(NULL, npages, 1);
	memset(l->on, NO_LIST, npages);
	for (int i = 0; i < NLISTS; i++) {
		l->prev[npages + i] = l->next[npages + i] = npages + i;
		l->len[i] = 0;
	}
}

static void lists_free(struct lists *l)
{
	free(l->prev);
	free(l->next);
	free(l->on);
}

static void l_del(struct lists *l, uint32_t p)
{
	l->next[l->prev[p]] = l->next[p];
	l->prev[l->next[p]] = l->prev[p];
	l->len[l->on[p]]--;
	l->on[p] = NO_LIST;
}

/* p to the head of list, off the list it was on */
static void l_push(struct lists *l, int list, uint32_t p)
{
	uint32_t h = npages + list;

	if (l->on[p] != NO_LIST)
		l_del(l, p);
	l->next[p] = l->next[h];
	l->prev[p] = h;
	l->prev[l->next[h]] = p;
	l->next[h] = p;
	l->on[p] = list;
	l->len[list]++;
}

/* the oldest page of list, taken off it */
static uint32_t l_pop(struct lists *l, int list)
{
	uint32_t p = l->prev[npages + list];

	if (!l->len[list])
		die("internal error: popping an empty list");
	l_del(l, p);
	return p;
}

/* Exact LRU: one list, most recently used at the head. */
static uint64_t lru_misses(size_t w, uint64_t c)
{
	uint64_t misses = 0;
	struct lists l;

	lists_init(&l);
	for (size_t i = 0; i < nacc; i++) {
		uint32_t p = acc[i];

		if (l.on[p] == NO_LIST) {
			misses += i >= w;
			if (l.len[0] == c)
				l_pop(&l, 0);
		}
		l_push(&l, 0, p);
	}
	lists_free(&l);
	return misses;
}

/*
 * CLOCK: C frames in a circle and a reference bit per page, set by a hit.
 * A miss takes the next free frame while there is one; then the hand, which
 * starts at the first frame, clears every set bit it passes, replaces the
 * first page whose bit is clear and moves one frame on.  A page comes in
 * with its bit clear.
 */
static uint64_t clock_misses(size_t w, uint64_t c)
{
	uint32_t *frame = xrealloc(NULL, c, sizeof(*frame));
	uint32_t *where = xrealloc(NULL, npages, sizeof(*where));
	uint8_t *ref = xrealloc(NULL, npages, 1);
	uint64_t used = 0, hand = 0, misses = 0;

	memset(where, 0xff, npages * sizeof(*where));	/* NONE: not cached */
	memset(ref, 0, npages);
	for (size_t i = 0; i < nacc; i++) {
		uint32_t p = acc[i];

		if (where[p] != NONE) {
			ref[p] = 1;
			continue;
		}
		misses += i >= w;
		if (used < c) {
			frame[used] = p;
			where[p] = (uint32_t)used++;
			continue;
		}
		for (; ref[frame[hand]]; hand = (hand + 1) % c)
			ref[frame[hand]] = 0;
		where[frame[hand]] = NONE;
		frame[hand] = p;
		where[p] = (uint32_t)hand;
		hand = (hand + 1) % c;
	}
	free(frame);
	free(where);
	free(ref);
	return misses;
}

/*
 * SIEVE: a FIFO, new pages at the head, and a visited bit per page, set by a
 * hit.  To evict, the hand moves from where it stopped last time (from the
 * tail at first) toward the head, clearing visited bits, evicts the first
 * page whose bit is clear and stays on the next newer page; past the head
 * it goes on from the tail.  Pages that survive keep their place.
 */
static uint64_t sieve_misses(size_t w, uint64_t c)
{
	uint8_t *visited = xrealloc(NULL, npages, 1);
	uint32_t hand = NONE, head = npages;
	uint64_t misses = 0;
	struct lists l;

	lists_init(&l);
	memset(visited, 0, npages);
	for (size_t i = 0; i < nacc; i++) {
		uint32_t p = acc[i], q;

		if (l.on[p] != NO_LIST) {
			visited[p] = 1;
			continue;
		}
		misses += i >= w;
		if (l.len[0] == c) {
			/* prev[head] is the tail, prev[q] the page after q */
			q = hand == NONE ? l.prev[head] : hand;
			while (visited[q]) {
				visited[q] = 0;
				q = l.prev[q];
				if (q == head)
					q = l.prev[head];
			}
			hand = l.prev[q] == head ? NONE : l.prev[q];
			l_del(&l, q);
		}
		l_push(&l, 0, p);
	}
	lists_free(&l);
	free(visited);
	return misses;
}
/*
 * 2Q, the full version: A1in, a FIFO of pages seen once, of Kin = C / 4
 * pages; A1out, a FIFO of the ids of pages pushed out of A1in, Kout = C / 2
 * of them; Am, an LRU of the pages seen again (both at least 1).  A hit in
 * Am moves the page to Am's head, a hit in A1in changes nothing.  A miss in
 * a full cache first makes room: the tail of A1in moves to A1out if A1in
 * holds more than Kin pages (or Am none), else the tail of Am is evicted and
 * forgotten.  Then the page goes to Am's head if A1out had it at the time
 * of the request, else to A1in's head.
 */
enum { AM, A1IN, A1OUT };

static uint64_t twoq_misses(size_t w, uint64_t c)
{
	uint64_t kin = c / 4 ? c / 4 : 1, kout = c / 2 ? c / 2 : 1, misses = 0;
	struct lists l;

	lists_init(&l);
	for (size_t i = 0; i < nacc; i++) {
		uint32_t p = acc[i];
		int seen;

		if (l.on[p] == AM)
			l_push(&l, AM, p);
		if (l.on[p] == AM || l.on[p] == A1IN)
			continue;
		misses += i >= w;
		seen = l.on[p] == A1OUT;
		if (seen)
			l_del(&l, p);
		if (l.len[AM] + l.len[A1IN] == c) {
			if (l.len[A1IN] > kin || !l.len[AM]) {
				l_push(&l, A1OUT, l_pop(&l, A1IN));
				if (l.len[A1OUT] > kout)
					l_pop(&l, A1OUT);
			} else {
				l_pop(&l, AM);
			}
		}
		l_push(&l, seen ? AM : A1IN, p);
	}
	lists_free(&l);
	return misses;
}

/*
 * ARC, as in the paper's figure: T1 and T2, LRU lists of the cached pages
 * seen once and more than once recently; B1 and B2, LRU lists of the ids
 * of pages evicted from each; p, the target size of T1.  A hit moves the
 * page to T2's head.  A miss of a page in B1 raises p by max(1, |B2| /
 * |B1|) (at most to C), one in B2 lowers it by max(1, |B1| / |B2|) (at
 * least to 0; integer division), makes room with REPLACE and puts the page
 * at T2's head.  Any other miss trims the ghosts (if T1 and B1 hold C
 * pages: B1's tail if T1 holds fewer than C, else T1's tail is evicted and
 * forgotten; else, once the four lists hold C pages or more, B2's tail when
 * they hold 2C), makes room with REPLACE where the figure does, and puts
 * the page at T1's head.  REPLACE evicts T1's tail to B1 if T1 is not empty
 * and holds more than p pages (or exactly p, for a page in B2), else T2's
 * tail to B2.
 */
enum { T1, T2, B1, B2 };

static void arc_replace(struct lists *l, uint64_t p, int in_b2)
{
	if (l->len[T1] && (l->len[T1] > p || (in_b2 && l->len[T1] == p)))
		l_push(l, B1, l_pop(l, T1));
	else
		l_push(l, B2, l_pop(l, T2));
}

static uint64_t arc_misses(size_t w, uint64_t c)
{
	uint64_t p = 0, misses = 0;
	struct lists l;

	lists_init(&l);
	for (size_t i = 0; i < nacc; i++) {
		uint32_t x = acc[i];
		uint64_t b1, b2, d;

		if (l.on[x] == T1 || l.on[x] == T2) {
			l_push(&l, T2, x);
			continue;
		}
		misses += i >= w;
		b1 = l.len[B1];
		b2 = l.len[B2];
		if (l.on[x] == B1) {
			d = b1 >= b2 ? 1 : b2 / b1;
			p = p + d < c ? p + d : c;
			arc_replace(&l, p, 0);
			l_push(&l, T2, x);
			continue;
		}
		if (l.on[x] == B2) {
			d = b2 >= b1 ? 1 : b1 / b2;
			p = p > d ? p - d : 0;
			arc_replace(&l, p, 1);
			l_push(&l, T2, x);
			continue;
		}
		if (l.len[T1] + b1 == c) {
			if (l.len[T1] < c) {
				l_pop(&l, B1);
				arc_replace(&l, p, 0);
			} else {
				l_pop(&l, T1);
			}
		} else if (l.len[T1] + l.len[T2] + b1 + b2 >= c) {
			if (l.len[T1] + l.len[T2] + b1 + b2 == 2 * c)
				l_pop(&l, B2);
			arc_replace(&l, p, 0);
		}
		l_push(&l, T1, x);
	}
	lists_free(&l);
	return misses;
}

/*
 * S3-FIFO, as in the paper's Algorithm 1: a small FIFO S of C / 10 pages (at
 * least 1), a main FIFO M of the rest, and a ghost FIFO G of the ids of as
 * many pages as M holds.  A hit adds one to the page's counter, capped at 3.
 * A miss in a full cache first evicts: from S if S holds at least its
 * share, else from M.  Evicting from S looks at its tail: a page with a
 * counter above 1 moves to M's head (then if M is over its share, one
 * eviction from M) and the next tail is looked at; a page with a counter of
 * 0 or 1 moves to G (its tail dropped beyond M's share) and is the
 * eviction.  Evicting from M looks at its tail: a page with a counter above
 * 0 goes back to M's head with one less, until a page with 0 is evicted.
 * The missed page then goes, counter 0, to M's head if G had it (off G),
 * else to S's head.
 */
enum { S3_S, S3_M, S3_G };

static void s3_evict_main(struct lists *l, uint8_t *freq)
{
	while (l->len[S3_M]) {
		uint32_t t = l_pop(l, S3_M);

		if (!freq[t])
			return;
		freq[t]--;
		l_push(l, S3_M, t);
	}
}

static uint64_t s3fifo_misses(size_t w, uint64_t c)
{
	uint64_t small = c / 10 ? c / 10 : 1, main_share = c - small, misses = 0;
	uint8_t *freq = xrealloc(NULL, npages, 1);
	struct lists l;

	lists_init(&l);
	memset(freq, 0, npages);
	for (size_t i = 0; i < nacc; i++) {
		uint32_t x = acc[i];

		if (l.on[x] == S3_S || l.on[x] == S3_M) {
			freq[x] += freq[x] < 3;
			continue;
		}
		misses += i >= w;
		while (l.len[S3_S] + l.len[S3_M] >= c) {
			if (l.len[S3_S] < small) {
				s3_evict_main(&l, freq);
				continue;
			}
			while (l.len[S3_S]) {
				uint32_t t = l_pop(&l, S3_S);

				if (freq[t] > 1) {
					l_push(&l, S3_M, t);
					if (l.len[S3_M] > main_share)
						s3_evict_main(&l, freq);
					continue;
				}
				l_push(&l, S3_G, t);
				if (l.len[S3_G] > main_share)
					l_pop(&l, S3_G);
				break;
			}
		}
		l_push(&l, l.on[x] == S3_G ? S3_M : S3_S, x);
		freq[x] = 0;
	}
	lists_free(&l);
	free(freq);
	return misses;
}

static const struct {
	const char *name;
	uint64_t (*misses)(size_t w, uint64_t c);
} policies[] = {
	{ "min", min_misses }, { "static", static_misses }, { "lru", lru_misses },
	{ "clock", clock_misses }, { "sieve", sieve_misses }, { "2q", twoq_misses },
	{ "arc", arc_misses }, { "s3fifo", s3fifo_misses },
};

int main(int argc, char **argv)
{
	uint64_t warm = 0, cap, nreq;
	size_t warm_acc;
	double a;
	FILE *f;
	int opt;

	while ((opt = getopt(argc, argv, "w:")) != -1) {
		if (opt != 'w')
			usage();
		if (parse_u64(optarg, &warm))
			die("-w: expected a number of requests, got '%s'", optarg);
	}
	if (argc - optind != 2)
		usage();
	trace_path = argv[optind];
	if (parse_u64(argv[optind + 1], &cap) || !cap || cap >= NONE)
		die("CAPACITY: expected a number of pages >= 1, got '%s'",
		    argv[optind + 1]);
	f = fopen(trace_path, "r");
	if (!f)
		die("%s: %s", trace_path, strerror(errno));
	nreq = read_trace(f, warm, &warm_acc);
	fclose(f);
	if (!nreq)
		die("%s: no requests", trace_path);
	if (nreq <= warm)
		die("%s: %llu requests, not more than the warm-up (%llu)",
		    trace_path, (unsigned long long)nreq, (unsigned long long)warm);
	if (nacc >= NONE)
		die("%s: too many page accesses", trace_path);

	a = (double)(nacc - warm_acc);
	printf("{\"capacity\":%llu,\"warmup\":%llu,\"requests\":%llu,"
	       "\"accesses\":%llu,\"pages\":%llu",
	       (unsigned long long)cap, (unsigned long long)warm,
	       (unsigned long long)(nreq - warm),
	       (unsigned long long)(nacc - warm_acc), (unsigned long long)npages);
	for (size_t i = 0; i < sizeof(policies) / sizeof(*policies); i++) {
		uint64_t m = policies[i].misses(warm_acc, cap);

		printf(",\"%s_misses\":%llu,\"%s_miss_ratio\":%.6f", policies[i].name,
		       (unsigned long long)m, policies[i].name, m / a);
	}
	printf("}\n");
	return 0;
}
