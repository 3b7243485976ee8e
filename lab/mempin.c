// SPDX-License-Identifier: GPL-2.0
/*
 * mempin: make a large guest small, so that a workload without a memcg
 * limit meets global (kswapd and direct) reclaim.
 *
 *   mempin -l MIB [-r]
 *	With -r, first lock every regular file of the root file system in
 *	memory (a shared mapping, mlock()ed): the guest's initramfs, whose
 *	tmpfs pages reclaim could otherwise swap out instead of touching the
 *	workload, by a margin that changes from boot to boot.  Then on every
 *	memory node, lock anonymous memory of that node, at most
 *	CHUNK_MIB at a time, until MIB / (number of nodes) MiB of it are free
 *	above the node's high watermarks (MemFree of the node's meminfo less
 *	the "high" of its zones in /proc/zoneinfo, to 1 MiB), print "locked L
 *	MiB of files, pinned N MiB, free F MiB" (F: MemFree of all nodes less
 *	their high watermarks) and wait until killed.  Below the high
 *	watermark, kswapd would reclaim anyway; below min, the OOM killer runs.  Locked memory is unevictable: reclaim works with what
 *	is left, the free memory plus the page cache and the swappable anon
 *	memory already there.
 *
 * Without libnuma: mbind(2) and the node list of sysfs.  The policy is
 * MPOL_PREFERRED, not MPOL_BIND: a chunk that does not fit its node any more
 * (page tables and other allocations take some of the free memory while it
 * runs) spills to the other nodes instead of calling the OOM killer.  A
 * node that does not come down to its share after 4096 chunks is an error.
 */
#define _GNU_SOURCE	/* nftw() */
#include <ftw.h>
#include <signal.h>
#include <sys/mman.h>
#include "lrugen.h"

#define MPOL_PREFERRED	1
#define CHUNK_MIB	8
#define NODE_DIR	"/sys/devices/system/node"

/* MemFree of node NODE in MiB, or -1 if there is no such node. */
static long node_free_mib(int node)
{
	char path[128], *buf, *p;
	long kb;

	snprintf(path, sizeof(path), NODE_DIR "/node%d/meminfo", node);
	if (access(path, R_OK))
		return -1;
	buf = read_file(path);
	p = strstr(buf, "MemFree:");
	if (!p)
		die("no MemFree in %s", path);
	kb = strtol(p + strlen("MemFree:"), NULL, 10);
	free(buf);
	return kb >> 10;
}

/* The high watermarks of the zones of node NODE, in MiB. */
static long node_high_mib(int node)
{
	char *buf = read_file("/proc/zoneinfo"), *line, *save;
	long pages = 0, high;
	int n = -1;

	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "Node %d,", &n) == 1)
			continue;
		if (n == node && sscanf(line, " high %ld", &high) == 1)
			pages += high;
	}
	free(buf);
	return pages * sysconf(_SC_PAGESIZE) >> 20;
}

/* Lock MIB MiB of anonymous memory on node NODE. */
static void pin(int node, long mib)
{
	size_t len = (size_t)mib << 20;
	unsigned long mask = 1UL << node;
	char *p;

	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		die("mmap %ld MiB: %s", mib, strerror(errno));
	if (syscall(SYS_mbind, p, len, MPOL_PREFERRED, &mask, sizeof(mask) * 8, 0))
		die("mbind node %d: %s", node, strerror(errno));
	/*
	 * Small pages, not zero: the shrinker of underused THPs (since 6.12)
	 * would split THPs of zeros and give their memory back.
	 */
	if (madvise(p, len, MADV_NOHUGEPAGE))
		die("madvise: %s", strerror(errno));
	if (mlock(p, len))
		die("mlock %ld MiB on node %d: %s", mib, node, strerror(errno));
	memset(p, 0x5a, len);
}

static long long locked_bytes;

/* nftw() callback: lock a regular file of the root file system. */
static int lock_file(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	void *p;
	int fd;

	(void)ftw;
	if (flag != FTW_F || !S_ISREG(st->st_mode) || !st->st_size)
		return 0;
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;	/* e.g. a file that went away */
	p = mmap(NULL, st->st_size, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (p == MAP_FAILED || mlock(p, st->st_size))
		die("lock %s: %s", path, strerror(errno));
	locked_bytes += st->st_size;
	return 0;
}

int main(int argc, char **argv)
{
	long leave = -1, share, pinned = 0, total = 0, free_mib, step;
	int nodes = 0, opt, root = 0;

	while ((opt = getopt(argc, argv, "l:r")) != -1) {
		if (opt == 'l')
			leave = num(optarg, 1, 1 << 20, "-l");
		else if (opt == 'r')
			root = 1;
		else
			die("usage: mempin -l MIB [-r]");
	}
	if (leave < 0 || optind != argc)
		die("usage: mempin -l MIB [-r]");
	/* the root file system only (FTW_MOUNT): not /proc, /sys, the disks */
	if (root && nftw("/", lock_file, 64, FTW_PHYS | FTW_MOUNT))
		die("walking /: %s", strerror(errno));
	while (node_free_mib(nodes) >= 0)
		nodes++;
	if (!nodes)
		die("no node in " NODE_DIR);
	share = leave / nodes;
	for (int n = 0; n < nodes; n++) {
		long high = node_high_mib(n);

		int chunks = 0;

		for (free_mib = node_free_mib(n) - high; free_mib > share;
		     free_mib = node_free_mib(n) - high) {
			step = free_mib - share < CHUNK_MIB ? free_mib - share : CHUNK_MIB;
			if (++chunks > 4096)
				die("node %d: %ld MiB free above its high watermarks after "
				    "pinning %ld MiB", n, free_mib, pinned);
			pin(n, step);
			pinned += step;
		}
		total += node_free_mib(n) - high;
	}
	printf("locked %lld MiB of files, pinned %ld MiB, free %ld MiB\n",
	       locked_bytes >> 20, pinned, total);
	fflush(stdout);
	for (;;)
		pause();
}
