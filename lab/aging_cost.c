// SPDX-License-Identifier: GPL-2.0
/*
 * aging_cost: the cost of MGLRU page-table aging on a node that holds none
 * of a process's memory.
 *
 * The process joins its own memcg, binds its memory to one node, maps a
 * sparse address space (one page per 2 MiB over many 1 GiB PUDs) plus a
 * dense hot set in the first PUD, then asks debugfs for aging passes of
 * the other node (force_scan=0, so the Bloom filters apply).  With -t, the
 * sparse PUDs hold THPs instead, one every 64 MiB.  For each
 * value of /sys/kernel/mm/lru_gen/enabled given with -e, interleaved over
 * -r repetitions, it prints one JSON line: the time of the passes (write(2)
 * of the aging command) and the per-pass deltas of the walk counters.
 */
#include <stdint.h>
#include <linux/mempolicy.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include "lrugen.h"

#define PUD_SIZE	(1UL << 30)
#define PMD_SIZE	(1UL << 21)
#define THP_STRIDE	(64UL << 20)

/* The counters of one node of the memcg, as the JSON fields want them. */
struct counters {
	long leaf, young, pmd_tested, pud_skipped, walks, empty_walks;
};

static void read_counters(int id, int nid, struct counters *c)
{
	struct lru_gen_lruvec lv;
	int err = lru_gen_read_lruvec(id, nid, &lv);

	if (err)
		die("memcg %d node %d in " LRU_GEN_FULL_PATH ": %s", id, nid, strerror(-err));
	c->leaf = lv.has_mm_stats ? (long)lv.mm_stats[0] : -1;
	c->young = lv.has_mm_stats ? (long)lv.mm_stats[1] : -1;
	c->pmd_tested = lruvec_named(&lv, "pmd_tested");
	c->pud_skipped = lruvec_named(&lv, "pud_skipped");
	c->walks = lruvec_named(&lv, "walks");
	c->empty_walks = lruvec_named(&lv, "empty_walks");
}

/* One aging step without force_scan (room made first); *us: its write(2). */
static void age_once(int id, int nid, double *us)
{
	struct lru_gen_step step;
	int err = lru_gen_age_step(id, nid, true, false, &step);

	if (err)
		die("aging node %d: %s", nid, strerror(-err));
	*us = step.us;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: aging_cost [-t] [-s SPARSE_GIB] [-H HOT_MIB] [-p PASSES] [-r REPS]\n"
		"                  [-b BIND_NODE] [-a AGE_NODE] -e CAPS[,CAPS...]\n"
		"  -t  THPs in the sparse PUDs, one every 64 MiB, instead of a page per 2 MiB\n");
	exit(2);
}

/*
 * A store, not an increment: a load first, as emulators may do for an
 * increment, would map the huge zero page, which the store after it
 * replaces with small pages.
 */
static void touch(char *p, size_t len, size_t stride)
{
	for (size_t off = 0; off < len; off += stride)
		*(volatile char *)(p + off) = 1;
}

int main(int argc, char **argv)
{
	long sparse_gib = 64, hot_mib = 64, passes = 100, reps = 3, bind = 0, age = 1;
	unsigned int caps[8], orig, val;
	int ncaps = 0, opt, id, err, thp = 0;
	struct lru_gen_memcg cg;
	char *caps_arg = NULL;

	while ((opt = getopt(argc, argv, "ts:H:p:r:b:a:e:")) != -1) {
		switch (opt) {
		case 't': thp = 1; break;
		case 's': sparse_gib = num(optarg, 1, 1024, "-s"); break;
		case 'H': hot_mib = num(optarg, 2, 512, "-H"); break;
		case 'p': passes = num(optarg, 1, 100000, "-p"); break;
		case 'r': reps = num(optarg, 1, 100, "-r"); break;
		case 'b': bind = num(optarg, 0, 63, "-b"); break;
		case 'a': age = num(optarg, 0, 63, "-a"); break;
		case 'e': caps_arg = optarg; break;
		default: usage();
		}
	}
	if (!caps_arg || optind != argc)
		usage();
	for (char *tok = strtok(caps_arg, ","); tok; tok = strtok(NULL, ",")) {
		if (ncaps == 8)
			die("at most 8 values for -e");
		caps[ncaps++] = num(tok, 0, 0xffff, "-e value");
	}

	if (lru_gen_read_caps(&orig))
		die("cannot read " LRU_GEN_ENABLED_PATH);
	for (int i = 0; i < ncaps; i++) {
		if (lru_gen_write_caps(caps[i]) || lru_gen_read_caps(&val) || val != caps[i])
			die("this kernel does not accept lru_gen/enabled=0x%04x", caps[i]);
	}
	lru_gen_write_caps(orig);

	err = lru_gen_memcg_create(&cg, "aging_cost");
	if (!err)
		err = lru_gen_memcg_join(&cg, 0);
	if (!err)
		err = lru_gen_memcg_id(&cg);
	if (err)
		die("a memcg of our own: %s", strerror(-err));
	id = cg.id;

	unsigned long mask = 1UL << bind;

	if (syscall(SYS_set_mempolicy, MPOL_BIND, &mask, 64))
		die("set_mempolicy(node %ld): %s", bind, strerror(errno));

	/* (1 + sparse_gib) PUDs, aligned to 1 GiB; the first one is hot. */
	size_t len = (sparse_gib + 1) * PUD_SIZE;
	char *raw = mmap(NULL, len + PUD_SIZE, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	if (raw == MAP_FAILED)
		die("mmap %zu bytes: %s", len, strerror(errno));
	char *base = (char *)(((uintptr_t)raw + PUD_SIZE - 1) & ~(PUD_SIZE - 1));

	madvise(base, PUD_SIZE, MADV_NOHUGEPAGE);
	madvise(base + PUD_SIZE, len - PUD_SIZE, thp ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
	touch(base + PUD_SIZE, len - PUD_SIZE, thp ? THP_STRIDE : PMD_SIZE);
	touch(base, hot_mib << 20, 4096);

	long huge_kb = stat_value("/proc/self/smaps_rollup", "AnonHugePages:");

	if (thp && huge_kb < (long)(sparse_gib * (PUD_SIZE / THP_STRIDE) * (PMD_SIZE >> 10)) * 9 / 10)
		die("only %ld kB of THPs in the sparse PUDs", huge_kb);

	double *t = malloc(passes * sizeof(*t));

	for (int rep = 0; rep < reps; rep++) {
		for (int c = 0; c < ncaps; c++) {
			struct counters a, b;
			double us, total = 0;

			lru_gen_write_caps(caps[c]);
			/* one untimed pass to settle the filters in this mode */
			touch(base, hot_mib << 20, 4096);
			usleep(1000);
			age_once(id, age, &us);
			read_counters(id, age, &a);
			for (long i = 0; i < passes; i++) {
				touch(base, hot_mib << 20, 4096);
				usleep(1000);	/* let the mm be used again */
				age_once(id, age, &t[i]);
				total += t[i];
			}
			read_counters(id, age, &b);
			qsort(t, passes, sizeof(*t), cmp_double);
#define PER_PASS(f) (a.f < 0 ? -1.0 : (double)(b.f - a.f) / passes)
			printf("{\"workload\":\"aging_cost\",\"enabled\":\"0x%04x\",\"rep\":%d,"
			       "\"sparse_gib\":%ld,\"sparse_thp\":%d,\"anon_huge_kb\":%ld,\"hot_mib\":%ld,\"bind_node\":%ld,\"age_node\":%ld,"
			       "\"passes\":%ld,\"aging_us_total\":%.1f,\"aging_us_median\":%.1f,"
			       "\"leaf_per_pass\":%.1f,\"young_per_pass\":%.1f,"
			       "\"pmd_tested_per_pass\":%.1f,\"pud_skipped_per_pass\":%.1f,"
			       "\"walks_per_pass\":%.2f,\"empty_walks_per_pass\":%.2f}\n",
			       caps[c], rep, sparse_gib, thp, huge_kb, hot_mib, bind, age, passes, total,
			       t[passes / 2], PER_PASS(leaf), PER_PASS(young),
			       PER_PASS(pmd_tested), PER_PASS(pud_skipped), PER_PASS(walks),
			       PER_PASS(empty_walks));
			fflush(stdout);
		}
	}
	lru_gen_write_caps(orig);
	munmap(raw, len + PUD_SIZE);
	lru_gen_memcg_destroy(&cg);
	return 0;
}
