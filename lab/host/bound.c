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
 *    "static_miss_ratio":..,"lru_misses":..,"lru_miss_ratio":..}
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

/* Exact LRU; the list is circular through the head 'npages'. */
static uint64_t lru_misses(size_t w, uint64_t c)
{
	uint32_t *prev = xrealloc(NULL, npages + 1, sizeof(*prev));
	uint32_t *next = xrealloc(NULL, npages + 1, sizeof(*next));
	uint32_t head = npages;
	uint64_t misses = 0, size = 0;
	size_t i;

	memset(next, 0xff, npages * sizeof(*next));	/* NONE: not cached */
	prev[head] = next[head] = head;
	for (i = 0; i < nacc; i++) {
		uint32_t p = acc[i];

		if (next[p] != NONE) {		/* hit: unlink */
			next[prev[p]] = next[p];
			prev[next[p]] = prev[p];
		} else {
			misses += i >= w;
			if (size == c) {	/* evict the tail */
				uint32_t q = prev[head];

				prev[head] = prev[q];
				next[prev[q]] = head;
				next[q] = NONE;
			} else {
				size++;
			}
		}
		next[p] = next[head];	/* insert at the head */
		prev[p] = head;
		prev[next[head]] = p;
		next[head] = p;
	}
	free(prev);
	free(next);
	return misses;
}

int main(int argc, char **argv)
{
	uint64_t warm = 0, cap, nreq, mn, st, lr;
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

	mn = min_misses(warm_acc, cap);
	st = static_misses(warm_acc, cap);
	lr = lru_misses(warm_acc, cap);
	a = (double)(nacc - warm_acc);
	printf("{\"capacity\":%llu,\"warmup\":%llu,\"requests\":%llu,"
	       "\"accesses\":%llu,\"pages\":%llu,"
	       "\"min_misses\":%llu,\"min_miss_ratio\":%.6f,"
	       "\"static_misses\":%llu,\"static_miss_ratio\":%.6f,"
	       "\"lru_misses\":%llu,\"lru_miss_ratio\":%.6f}\n",
	       (unsigned long long)cap, (unsigned long long)warm,
	       (unsigned long long)(nreq - warm),
	       (unsigned long long)(nacc - warm_acc), (unsigned long long)npages,
	       (unsigned long long)mn, mn / a, (unsigned long long)st, st / a,
	       (unsigned long long)lr, lr / a);
	return 0;
}
