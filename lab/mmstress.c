// SPDX-License-Identifier: GPL-2.0
/*
 * mmstress: memory operations that change what the multi-gen LRU tracks,
 * in a loop, for the stress run (guest/stress.sh).
 *
 *   mmstress thp  -t SECONDS [-m MIB]           THPs split and remapped
 *   mmstress mmap -t SECONDS -f FILE            a file mapped and touched
 *   mmstress numa -t SECONDS [-m MIB]           pages moved between nodes
 *   mmstress hint -t SECONDS [-m MIB]           MADV_COLD and MADV_PAGEOUT
 *
 * thp:  maps MIB (default 64) of THP-aligned anonymous memory, touches it,
 *       then splits THPs: partial munmap(), MADV_DONTNEED of a part, and
 *       mremap() of a huge region to another place and back.
 * mmap: maps FILE shared and reads random pages of it, 4 KiB apart.
 * numa: touches MIB of anonymous memory and moves it between the first two
 *       nodes, a page at a time with move_pages() and all of it with
 *       migrate_pages().
 * hint: touches MIB of anonymous memory, then hints parts of it cold or to
 *       page out, and touches it again.
 * Each prints one JSON object with the number of operations it did.
 */
#define _GNU_SOURCE
#include <sys/mman.h>
#include <sys/syscall.h>
#include <linux/mempolicy.h>
#include "lrugen.h"

#define PAGE		4096UL
#define HPAGE		(2UL << 20)

static uint64_t rng = 0x9e3779b97f4a7c15ULL;
static double deadline;

static bool running(void)
{
	return now_us() < deadline;
}

static void touch(char *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i += PAGE)
		p[i]++;
}

/* len bytes aligned to a THP, or die */
static char *map_aligned(size_t len)
{
	char *p = mmap(NULL, len + HPAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *q;

	if (p == MAP_FAILED)
		die("mmap: %s", strerror(errno));
	q = (char *)(((uintptr_t)p + HPAGE - 1) & ~(HPAGE - 1));
	if (q > p)
		munmap(p, q - p);
	munmap(q + len, p + HPAGE - q);
	madvise(q, len, MADV_HUGEPAGE);
	return q;
}

static void thp(size_t len)
{
	long maps = 0, splits = 0, moves = 0;

	while (running()) {
		char *p = map_aligned(len), *q;
		size_t off;

		touch(p, len);
		maps++;
		/* split: unmap the second half of the first THP */
		munmap(p + HPAGE / 2, HPAGE / 2);
		/* split: drop a quarter of the second THP */
		madvise(p + HPAGE + HPAGE / 4, HPAGE / 4, MADV_DONTNEED);
		splits += 2;
		/* move a huge region away and back */
		off = 2 * HPAGE;
		q = mremap(p + off, len - off, len - off, MREMAP_MAYMOVE);
		if (q != MAP_FAILED) {
			touch(q, len - off);
			moves++;
			munmap(q, len - off);
		}
		munmap(p, HPAGE / 2);
		munmap(p + HPAGE, HPAGE);
	}
	printf("{\"maps\":%ld,\"splits\":%ld,\"mremaps\":%ld}\n", maps, splits, moves);
}

static void mapfile(const char *path)
{
	int fd = open(path, O_RDONLY);
	struct stat st;
	long reads = 0;
	volatile char sink;
	char *p;

	if (fd < 0 || fstat(fd, &st) || st.st_size < (off_t)PAGE)
		die("cannot open %s", path);
	p = mmap(NULL, st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		die("mmap %s: %s", path, strerror(errno));
	while (running()) {
		int i;

		for (i = 0; i < 1024; i++) {
			sink = p[(xorshift64s(&rng) % (st.st_size / PAGE)) * PAGE];
			reads++;
		}
	}
	(void)sink;
	munmap(p, st.st_size);
	close(fd);
	printf("{\"reads\":%ld}\n", reads);
}

static void numa(size_t len)
{
	unsigned long from = 1, to = 2;
	long moved = 0, migrations = 0, i, nr = len / PAGE;
	char *p = map_aligned(len);
	void **pages = calloc(nr, sizeof(*pages));
	int *nodes = calloc(nr, sizeof(*nodes)), *status = calloc(nr, sizeof(*status));

	if (!pages || !nodes || !status)
		die("out of memory");
	for (i = 0; i < nr; i++)
		pages[i] = p + i * PAGE;
	while (running()) {
		touch(p, len);
		for (i = 0; i < nr; i++)
			nodes[i] = (i + moved) & 1;
		if (!syscall(SYS_move_pages, 0, nr, pages, nodes, status, MPOL_MF_MOVE))
			moved++;
		if (syscall(SYS_migrate_pages, 0, 8 * sizeof(from), &from, &to) >= 0)
			migrations++;
		if (syscall(SYS_migrate_pages, 0, 8 * sizeof(from), &to, &from) >= 0)
			migrations++;
	}
	printf("{\"move_pages\":%ld,\"migrate_pages\":%ld}\n", moved, migrations);
}

static void hint(size_t len)
{
	long cold = 0, pageout = 0;
	char *p = map_aligned(len);

	while (running()) {
		size_t off = (xorshift64s(&rng) % (len / HPAGE)) * HPAGE;

		touch(p, len);
		if (!madvise(p + off, HPAGE, MADV_COLD))
			cold++;
		off = (xorshift64s(&rng) % (len / HPAGE)) * HPAGE;
		if (!madvise(p + off, HPAGE, MADV_PAGEOUT))
			pageout++;
	}
	printf("{\"cold\":%ld,\"pageout\":%ld}\n", cold, pageout);
}

static void usage(void)
{
	die("usage: mmstress thp|numa|hint -t SECONDS [-m MIB] | mmstress mmap -t SECONDS -f FILE");
}

int main(int argc, char **argv)
{
	long seconds = 0, mib = 64;
	const char *file = NULL, *mode;
	int opt;

	if (argc < 2)
		usage();
	mode = argv[1];
	optind = 2;
	while ((opt = getopt(argc, argv, "t:m:f:")) != -1) {
		switch (opt) {
		case 't': seconds = num(optarg, 1, 1 << 20, "-t"); break;
		case 'm': mib = num(optarg, 8, 4096, "-m"); break;
		case 'f': file = optarg; break;
		default: usage();
		}
	}
	if (!seconds || optind != argc)
		usage();
	deadline = now_us() + seconds * 1e6;
	if (!strcmp(mode, "thp"))
		thp(mib << 20);
	else if (!strcmp(mode, "mmap") && file)
		mapfile(file);
	else if (!strcmp(mode, "numa"))
		numa(mib << 20);
	else if (!strcmp(mode, "hint"))
		hint(mib << 20);
	else
		usage();
	return 0;
}
