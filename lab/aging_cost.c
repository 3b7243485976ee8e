// SPDX-License-Identifier: GPL-2.0
/*
 * aging_cost: the cost of MGLRU page-table aging on a node that holds none
 * of a process's memory, or (-n) only a little of it.
 *
 * The process joins its own memcg, binds its memory to one node, maps a
 * sparse address space (one page per 2 MiB over many 1 GiB PUDs) plus a
 * dense hot set in the first PUD, then asks debugfs for aging passes of
 * the other node (force_scan=0, so the Bloom filters apply).  With -t, the
 * sparse PUDs hold THPs instead, one every 64 MiB.  With -n, NODE_MIB of
 * anon memory right after the hot set, in the same PUD, is bound to the
 * aged node and touched before each pass as the hot set is.  The series
 * skips the walks of an lruvec without folios: without -n, aging a node
 * that holds none of the memcg's memory walks nothing, and only with -n do
 * the passes measure the PUD filter.  For each value of
 * /sys/kernel/mm/lru_gen/enabled given with -e, interleaved over -r
 * repetitions, it prints one JSON line: the time of the passes (the aging
 * command written to lru_gen) and the per-pass walk counters of
 * lru_gen_full (T leaf, Y young, S pud_skipped, C pud_carried), -1 where
 * the kernel does not have them as the series does (stock 7.3).
 */
#include <stdint.h>
#include <linux/mempolicy.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include "lrugen.h"

#define PUD_SIZE	(1UL << 30)
#define PMD_SIZE	(1UL << 21)
#define THP_STRIDE	(64UL << 20)

/* the walk counters summed over passes; false if the kernel has none */
struct counters {
	bool has;
	struct lru_gen_mm_stats last;
	unsigned long sum[LRU_GEN_NR_MM_STATS];
};

static void counters_start(const struct lab_memcg *cg, int nid, struct counters *c)
{
	memset(c, 0, sizeof(*c));
	c->has = !lru_gen_read_mm_stats(cg->id, nid, &c->last);
}

/* after a pass: totals minus those before it, or those of its generation */
static void counters_add(const struct lab_memcg *cg, int nid, struct counters *c)
{
	struct lru_gen_mm_stats now;
	int err;

	if (!c->has)
		return;
	err = lru_gen_read_mm_stats(cg->id, nid, &now);
	if (err)
		die("memcg %lu node %d in " LRU_GEN_FULL_DEBUGFS ": %s", cg->id, nid,
		    strerror(-err));
	for (int i = 0; i < LRU_GEN_NR_MM_STATS; i++)
		c->sum[i] += now.n[i] - (now.cumulative ? c->last.n[i] : 0);
	c->last = now;
}

/* One aging step without force_scan; its command's time in us. */
static double age_once(const struct lab_memcg *cg, int nid)
{
	struct lab_step step;
	int err = lab_age(cg, nid, LAB_SWAPPINESS, false, true, &step);

	if (err)
		die("aging node %d: %s", nid, strerror(-err));
	return step.us;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: aging_cost [-t] [-s SPARSE_GIB] [-H HOT_MIB] [-n NODE_MIB] [-p PASSES]\n"
		"                  [-r REPS] [-b BIND_NODE] [-a AGE_NODE] -e CAPS[,CAPS...]\n"
		"  -t  THPs in the sparse PUDs, one every 64 MiB, instead of a page per 2 MiB\n"
		"  -n  NODE_MIB after the hot set bound to AGE_NODE, touched before each pass\n");
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
	long sparse_gib = 64, hot_mib = 64, node_mib = 0, passes = 100, reps = 3, bind = 0, age = 1;
	unsigned int caps[8], orig, val;
	int ncaps = 0, opt, err, thp = 0;
	struct lab_memcg cg;
	char *caps_arg = NULL;

	while ((opt = getopt(argc, argv, "ts:H:n:p:r:b:a:e:")) != -1) {
		switch (opt) {
		case 't': thp = 1; break;
		case 's': sparse_gib = num(optarg, 1, 1024, "-s"); break;
		case 'H': hot_mib = num(optarg, 2, 512, "-H"); break;
		case 'n': node_mib = num(optarg, 0, 512, "-n"); break;
		case 'p': passes = num(optarg, 1, 100000, "-p"); break;
		case 'r': reps = num(optarg, 1, 100, "-r"); break;
		case 'b': bind = num(optarg, 0, 63, "-b"); break;
		case 'a': age = num(optarg, 0, MAX_NR_NODES - 1, "-a"); break;
		case 'e': caps_arg = optarg; break;
		default: usage();
		}
	}
	if (!caps_arg || optind != argc)
		usage();
	if (node_mib && age == bind)
		die("-n: the aged node %ld is the bound one", age);
	for (char *tok = strtok(caps_arg, ","); tok; tok = strtok(NULL, ",")) {
		if (ncaps == 8)
			die("at most 8 values for -e");
		caps[ncaps++] = num(tok, 0, 0xffff, "-e value");
	}

	if (lab_read_caps(&orig))
		die("cannot read " LRU_GEN_ENABLED_PATH);
	for (int i = 0; i < ncaps; i++) {
		if (lab_write_caps(caps[i]) || lab_read_caps(&val) || val != caps[i])
			die("this kernel does not accept lru_gen/enabled=0x%04x", caps[i]);
	}
	lab_write_caps(orig);

	err = lab_memcg_create(&cg, "aging_cost");
	if (err)
		die("a memcg of our own: %s", strerror(-err));

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
	char *node_mem = base + (hot_mib << 20);

	madvise(base, PUD_SIZE, MADV_NOHUGEPAGE);
	madvise(base + PUD_SIZE, len - PUD_SIZE, thp ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
	if (node_mib) {
		unsigned long node_mask = 1UL << age;
		int nid = -1;

		if (syscall(SYS_mbind, node_mem, node_mib << 20, MPOL_BIND, &node_mask, 64, 0))
			die("mbind(node %ld): %s", age, strerror(errno));
		touch(node_mem, node_mib << 20, 4096);
		if (syscall(SYS_get_mempolicy, &nid, NULL, 0, node_mem, MPOL_F_NODE | MPOL_F_ADDR))
			die("get_mempolicy: %s", strerror(errno));
		if (nid != age)
			die("-n: the memory went to node %d, not %ld", nid, age);
	}
	touch(base + PUD_SIZE, len - PUD_SIZE, thp ? THP_STRIDE : PMD_SIZE);
	touch(base, hot_mib << 20, 4096);

	long huge_kb = stat_value("/proc/self/smaps_rollup", "AnonHugePages:");

	if (thp && huge_kb < (long)(sparse_gib * (PUD_SIZE / THP_STRIDE) * (PMD_SIZE >> 10)) * 9 / 10)
		die("only %ld kB of THPs in the sparse PUDs", huge_kb);

	double *t = malloc(passes * sizeof(*t));

	for (int rep = 0; rep < reps; rep++) {
		for (int c = 0; c < ncaps; c++) {
			struct counters cnt;
			double total = 0;

			lab_write_caps(caps[c]);
			/* one untimed pass to settle the filters in this mode */
			touch(base, (hot_mib + node_mib) << 20, 4096);
			usleep(1000);
			age_once(&cg, age);
			counters_start(&cg, age, &cnt);
			for (long i = 0; i < passes; i++) {
				touch(base, (hot_mib + node_mib) << 20, 4096);
				usleep(1000);	/* let the mm be used again */
				t[i] = age_once(&cg, age);
				total += t[i];
				counters_add(&cg, age, &cnt);
			}
			qsort(t, passes, sizeof(*t), cmp_double);
#define PER_PASS(i) (cnt.has ? (double)cnt.sum[i] / passes : -1.0)
			printf("{\"workload\":\"aging_cost\",\"enabled\":\"0x%04x\",\"rep\":%d,"
			       "\"sparse_gib\":%ld,\"sparse_thp\":%d,\"anon_huge_kb\":%ld,\"hot_mib\":%ld,"
			       "\"node_mib\":%ld,\"bind_node\":%ld,\"age_node\":%ld,"
			       "\"passes\":%ld,\"aging_us_total\":%.1f,\"aging_us_median\":%.1f,"
			       "\"leaf_per_pass\":%.1f,\"young_per_pass\":%.1f,"
			       "\"pud_skipped_per_pass\":%.1f,\"pud_carried_per_pass\":%.1f}\n",
			       caps[c], rep, sparse_gib, thp, huge_kb, hot_mib, node_mib, bind, age,
			       passes, total, t[passes / 2], PER_PASS(LRU_GEN_LEAF_TOTAL),
			       PER_PASS(LRU_GEN_LEAF_YOUNG), PER_PASS(LRU_GEN_PUD_SKIPPED),
			       PER_PASS(LRU_GEN_PUD_ADDED));
			fflush(stdout);
		}
	}
	lab_write_caps(orig);
	munmap(raw, len + PUD_SIZE);
	lab_memcg_leave(&cg);
	return 0;
}
