// SPDX-License-Identifier: GPL-2.0
/*
 * lru_gen_query: the multi-gen LRU helpers for shell scripts, so that they
 * parse neither lru_gen/enabled nor lru_gen(_full): lru_gen and lru_gen_full
 * go through the kselftests' lru_gen_util.c, the rest through lrugen.h.
 *
 *   lru_gen_query caps                  print the caps, e.g. 0x000f
 *   lru_gen_query has-cap BIT           exit 0 if the kernel has cap BIT, else 1
 *   lru_gen_query set-caps CAPS         write CAPS, exit 1 unless they read back
 *   lru_gen_query memcg-create PREFIX [PID]
 *                                       a memcg of a unique name PREFIX.PID.N (memory
 *                                       controller on), PID moved into it; print its
 *                                       path.  It stays after this program exits.
 *   lru_gen_query memcg-id NAME         the id lru_gen shows for the memcg NAME
 *                                       ("/" for the root); fails if lru_gen lists
 *                                       another memcg of that name first (a dying one)
 *   lru_gen_query nodes ID              the nodes of memcg ID, one per line
 *   lru_gen_query min-seq ID NID        the oldest generation in use
 *   lru_gen_query max-seq ID NID        the youngest generation
 *   lru_gen_query age ID NID [--force] [--no-swap]
 *                                       one aging step (swappiness 100, or 0 with
 *                                       --no-swap: file only), retried if concurrent
 *                                       aging gets in the way; print the new max_seq
 *   lru_gen_query mm-stats ID NID       the page-table walk counters of lru_gen_full
 *                                       as the kernel letters them: "NT NY NF NA NS NC"
 *                                       (totals), lower case with CONFIG_LRU_GEN_STATS
 *                                       (those of generation max_seq - 1); fails
 *                                       without them (stock 7.3 has T Y F A only)
 *   lru_gen_query sizes ID              the pages of memcg ID in its generations,
 *                                       anon and file, all nodes: "ANON FILE"
 *
 * A memcg ID must still have its directory in the cgroup file system (the
 * name is what the helper looks lru_gen up by).  Errors go to stderr with
 * exit status 2 (1 is "no" for has-cap), but for a memcg that lru_gen does
 * not list: the helper then ends the program with status 1.
 */
#include "lrugen.h"

static void usage(void)
{
	fprintf(stderr,
		"usage: lru_gen_query caps | has-cap BIT | set-caps CAPS\n"
		"       lru_gen_query memcg-create PREFIX [PID] | memcg-id NAME | nodes ID\n"
		"       lru_gen_query min-seq ID NID | max-seq ID NID\n"
		"       lru_gen_query age ID NID [--force] [--no-swap]\n"
		"       lru_gen_query mm-stats ID NID | sizes ID\n");
	exit(2);
}

static void check(int err, const char *what)
{
	if (err)
		die("%s: %s", what, strerror(-err));
}

/* the memcg of the id in ARG */
static void memcg(const char *arg, struct lab_memcg *cg)
{
	unsigned long id = num(arg, 1, LONG_MAX, "ID");

	check(lab_memcg_by_id(cg, id), "no memcg of that id in " CGROUP_ROOT);
}

static int nid_arg(const char *arg)
{
	return num(arg, 0, MAX_NR_NODES - 1, "NID");
}

/* lru_gen of memcg CG, malloc'ed */
static struct memcg_stats *stats_of(const struct lab_memcg *cg)
{
	struct memcg_stats *stats = malloc(sizeof(*stats));

	if (!stats)
		die("out of memory");
	check(lab_memcg_stats(cg, stats), "reading " LRU_GEN_DEBUGFS);
	return stats;
}

int main(int argc, char **argv)
{
	unsigned long min_seq, max_seq;
	struct memcg_stats *stats;
	struct lab_memcg cg;
	unsigned int caps, val;
	int i, n;

	if (argc < 2)
		usage();
	if (!strcmp(argv[1], "caps") && argc == 2) {
		check(lab_read_caps(&caps), "reading " LRU_GEN_ENABLED_PATH);
		printf("0x%04x\n", caps);
	} else if (!strcmp(argv[1], "has-cap") && argc == 3) {
		n = lab_has_cap(num(argv[2], 1, 0xffff, "BIT"));
		if (n < 0)
			check(n, "probing the cap");
		return !n;
	} else if (!strcmp(argv[1], "set-caps") && argc == 3) {
		caps = num(argv[2], 0, 0xffff, "CAPS");
		check(lab_write_caps(caps), "writing " LRU_GEN_ENABLED_PATH);
		check(lab_read_caps(&val), "reading " LRU_GEN_ENABLED_PATH);
		if (val != caps) {
			fprintf(stderr, "lru_gen_query: wrote 0x%04x, read back 0x%04x\n",
				caps, val);
			return 1;
		}
	} else if (!strcmp(argv[1], "memcg-create") && (argc == 3 || argc == 4)) {
		char pid[32];

		check(lab_memcg_create(&cg, argv[2]), "creating a memcg");
		if (argc == 4) {
			snprintf(pid, sizeof(pid), "%ld\n", num(argv[3], 1, 1 << 30, "PID"));
			strcat(cg.path, "/cgroup.procs");
			check(lab_write_file(cg.path, pid), "moving the process");
			cg.path[strlen(cg.path) - strlen("/cgroup.procs")] = 0;
		}
		printf("%s\n", cg.path);
	} else if (!strcmp(argv[1], "memcg-id") && argc == 3) {
		check(lab_memcg_by_name(&cg, argv[2]), argv[2]);
		free(stats_of(&cg));
		printf("%lu\n", cg.id);
	} else if (!strcmp(argv[1], "nodes") && argc == 3) {
		memcg(argv[2], &cg);
		stats = stats_of(&cg);
		for (i = 0; i < stats->nr_nodes; i++)
			printf("%d\n", stats->nodes[i].node);
		free(stats);
	} else if ((!strcmp(argv[1], "min-seq") || !strcmp(argv[1], "max-seq")) && argc == 4) {
		memcg(argv[2], &cg);
		check(lab_seqs(&cg, nid_arg(argv[3]), &min_seq, &max_seq), "reading the lruvec");
		printf("%lu\n", argv[1][1] == 'i' ? min_seq : max_seq);
	} else if (!strcmp(argv[1], "age") && argc >= 4) {
		int swappiness = LAB_SWAPPINESS;
		struct lab_step step;
		bool force = false;

		for (i = 4; i < argc; i++) {
			if (!strcmp(argv[i], "--force"))
				force = true;
			else if (!strcmp(argv[i], "--no-swap"))
				swappiness = 0;
			else
				usage();
		}
		memcg(argv[2], &cg);
		check(lab_age(&cg, nid_arg(argv[3]), swappiness, force, false, &step), "aging");
		printf("%lu\n", step.seq);
	} else if (!strcmp(argv[1], "mm-stats") && argc == 4) {
		struct lru_gen_mm_stats mm;

		memcg(argv[2], &cg);
		check(lru_gen_read_mm_stats(cg.id, nid_arg(argv[3]), &mm),
		      "the walk counters in " LRU_GEN_FULL_DEBUGFS);
		for (i = 0; i < LRU_GEN_NR_MM_STATS; i++)
			printf("%s%lu%c", i ? " " : "", mm.n[i],
			       (mm.cumulative ? "TYFASC" : "tyfasc")[i]);
		printf("\n");
	} else if (!strcmp(argv[1], "sizes") && argc == 3) {
		long anon = 0, file = 0;

		memcg(argv[2], &cg);
		stats = stats_of(&cg);
		/* lru_gen lists every generation in use */
		for (i = 0; i < stats->nr_nodes; i++) {
			for (n = 0; n < stats->nodes[i].nr_gens; n++) {
				anon += stats->nodes[i].gens[n].nr_anon;
				file += stats->nodes[i].gens[n].nr_file;
			}
		}
		free(stats);
		printf("%ld %ld\n", anon, file);
	} else {
		usage();
	}
	return 0;
}
