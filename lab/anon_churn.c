// SPDX-License-Identifier: GPL-2.0
/*
 * anon_churn: random touches of an anonymous working set larger than the
 * memcg it runs in, with swap (zram or a disk).
 *
 *   anon_churn -s TOTAL_MIB -H HOT_MIB -P HOT_PCT -n OPS [-w WARM_OPS] [-d DEV]
 *              [-S STREAM_MIB]
 *
 * Maps TOTAL_MIB of anonymous memory, fills every page (1 KiB of random
 * bytes, the rest zero: compressible, but not a same-filled page), runs
 * WARM_OPS (default OPS / 4) unmeasured operations, then OPS measured ones.
 * One operation increments one byte of one page: with probability HOT_PCT %
 * a page of the first HOT_MIB, else a page of the whole area.  The page
 * sequence is the same on every run (fixed seed).
 *
 * With -S, the operations that do not go to the hot pages fill the next page
 * of a separate one-shot stream of STREAM_MIB instead, which is written once
 * and never touched again (like the output of a sort or a build's temporary
 * objects): the hot pages' swap-ins then tell how well the hot set is kept
 * while the stream passes.  STREAM_MIB must hold every such operation.
 *
 * Prints one JSON object: operations per CPU-second of this process (user +
 * system, which includes direct reclaim and swap-in), swap-ins per
 * operation (major faults of the memcg: the only file it maps is the
 * binary, in the initramfs), pages reclaimed from the memcg, its anon
 * refaults, and its PSI memory "some" stall time over the wall time.
 * With -d, also the pages read and written by the swap device DEV per
 * operation (its sectors: swap readahead included; nothing else of the
 * guest uses the device).
 */
#include <stdbool.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include "lrugen.h"

#define PAGE	4096UL

static uint64_t rng = 0x2545f4914f6cdd1dULL;

static double cpu_s(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

/* "some ... total=N" of the memcg's memory.pressure, or -1 without PSI. */
static long long psi_some_us(void)
{
	char cg[192], path[256], *buf, *p;
	long long v = -1;

	self_cgroup(cg, sizeof(cg));
	snprintf(path, sizeof(path), CGROUP_ROOT "%s/memory.pressure", cg);
	if (access(path, R_OK))
		return -1;
	buf = read_file(path);
	p = strstr(buf, "total=");
	if (!strncmp(buf, "some", 4) && p)
		v = strtoll(p + 6, NULL, 10);
	free(buf);
	return v;
}

static unsigned long pages, hot, stream_pages, streamed;
static long pct;
static char *area, *stream;

/* 1 KiB of random bytes, the rest zero: compressible, not same-filled */
static void fill(char *page)
{
	uint64_t *w = (uint64_t *)page;

	for (int i = 0; i < 128; i++)
		w[i] = xorshift64s(&rng);
}

static void run(long ops)
{
	for (long i = 0; i < ops; i++) {
		uint64_t r = xorshift64s(&rng);
		bool in_hot = (long)(r % 100) < pct;
		unsigned long pg;

		if (!in_hot && stream) {
			if (streamed == stream_pages)
				die("the stream of -S is used up after %lu pages", streamed);
			fill(stream + streamed++ * PAGE);
			continue;
		}
		pg = in_hot ? (r >> 8) % hot : (r >> 8) % pages;
		area[pg * PAGE + (r >> 40) % PAGE]++;
	}
}

int main(int argc, char **argv)
{
	long total = 0, hot_mib = 0, ops = 0, warm = -1, stream_mib = 0;
	long long swin, steal, refaults, psi, rd = 0, wr = 0;
	const char *dev = NULL;
	double cpu, wall;
	int opt;

	pct = -1;
	while ((opt = getopt(argc, argv, "s:H:P:n:w:d:S:")) != -1) {
		switch (opt) {
		case 's': total = num(optarg, 1, 1 << 20, "-s"); break;
		case 'H': hot_mib = num(optarg, 1, 1 << 20, "-H"); break;
		case 'P': pct = num(optarg, 0, 100, "-P"); break;
		case 'n': ops = num(optarg, 1, 1L << 40, "-n"); break;
		case 'w': warm = num(optarg, 0, 1L << 40, "-w"); break;
		case 'd': dev = optarg; break;
		case 'S': stream_mib = num(optarg, 1, 1 << 20, "-S"); break;
		default: goto usage;
		}
	}
	if (!total || !hot_mib || pct < 0 || !ops || optind != argc || hot_mib > total)
		goto usage;
	if (warm < 0)
		warm = ops / 4;
	pages = total * 256;
	hot = hot_mib * 256;
	area = mmap(NULL, pages * PAGE, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (area == MAP_FAILED)
		die("mmap %ld MiB: %s", total, strerror(errno));
	madvise(area, pages * PAGE, MADV_NOHUGEPAGE);
	if (stream_mib) {
		stream_pages = stream_mib * 256;
		/* the stream's share of the operations, with a margin of 10 % */
		if ((warm + ops) * (100 - pct) / 100 * 11 / 10 + 1 > (long)stream_pages)
			die("-S %ld: too small for %ld operations at -P %ld", stream_mib,
			    warm + ops, pct);
		stream = mmap(NULL, stream_pages * PAGE, PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (stream == MAP_FAILED)
			die("mmap %ld MiB: %s", stream_mib, strerror(errno));
		madvise(stream, stream_pages * PAGE, MADV_NOHUGEPAGE);
	}
	for (unsigned long pg = 0; pg < pages; pg++)
		fill(area + pg * PAGE);
	run(warm);

	swin = memcg_stat("pgmajfault");
	steal = memcg_stat("pgsteal");
	refaults = memcg_stat("workingset_refault_anon");
	psi = psi_some_us();
	if (dev) {
		rd = dev_stat(dev, DEV_READ_SECTORS);
		wr = dev_stat(dev, DEV_WRITE_SECTORS);
	}
	cpu = cpu_s();
	wall = now_us();
	run(ops);
	wall = now_us() - wall;
	cpu = cpu_s() - cpu;
	swin = memcg_stat("pgmajfault") - swin;
	steal = memcg_stat("pgsteal") - steal;
	refaults = memcg_stat("workingset_refault_anon") - refaults;
	printf("{\"ops\":%ld,\"cpu_s\":%.3f,\"wall_s\":%.3f,\"ops_per_cpu_s\":%.1f,"
	       "\"swapins\":%lld,\"reclaimed\":%lld,\"swapins_per_op\":%.5f,"
	       "\"refaults_anon\":%lld",
	       ops, cpu, wall / 1e6, ops / cpu, swin, steal, (double)swin / ops, refaults);
	if (dev) {
		/* 512-byte sectors, 8 to a page */
		rd = dev_stat(dev, DEV_READ_SECTORS) - rd;
		wr = dev_stat(dev, DEV_WRITE_SECTORS) - wr;
		printf(",\"swap_read_pages_per_op\":%.5f,\"swap_write_pages_per_op\":%.5f",
		       rd / 8.0 / ops, wr / 8.0 / ops);
	}
	if (stream)
		printf(",\"streamed_pages\":%lu", streamed);
	if (psi >= 0) {
		psi = psi_some_us() - psi;
		printf(",\"churn_psi_some_us\":%lld,\"churn_psi\":%.4f", psi, psi / wall);
	}
	printf("}\n");
	return 0;
usage:
	fprintf(stderr, "usage: anon_churn -s TOTAL_MIB -H HOT_MIB -P HOT_PCT -n OPS [-w WARM_OPS] [-d DEV]\n"
		"                  [-S STREAM_MIB]\n");
	return 2;
}
