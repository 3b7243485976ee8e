// SPDX-License-Identifier: GPL-2.0
/*
 * lru_gen_query: the multi-gen LRU helpers of lru_gen_util.c for shell
 * scripts, so that they parse neither lru_gen/enabled nor lru_gen(_full).
 *
 *   lru_gen_query caps                  print the caps, e.g. 0x001f
 *   lru_gen_query has-cap BIT           exit 0 if the kernel has cap BIT, else 1
 *   lru_gen_query set-caps CAPS         write CAPS, exit 1 unless they read back
 *   lru_gen_query memcg-create PREFIX [PID]
 *                                       a memcg of a unique name PREFIX.PID.N (memory
 *                                       controller on), PID moved into it; print its
 *                                       path.  It stays after this program exits.
 *   lru_gen_query memcg-id NAME         the id lru_gen shows for the memcg NAME
 *                                       ("/" for the root); fails if listed twice
 *   lru_gen_query nodes ID              the nodes of memcg ID, one per line
 *   lru_gen_query min-seq ID NID        the oldest generation in use
 *   lru_gen_query max-seq ID NID        the youngest generation
 *   lru_gen_query age ID NID [--force] [--no-swap]
 *                                       one aging step, retried if concurrent aging
 *                                       gets in the way (room made first without
 *                                       --force); print the new max_seq
 *   lru_gen_query named ID NID NAME     a name=value counter of lru_gen_full
 *   lru_gen_query sizes ID              the pages of memcg ID in its generations,
 *                                       anon and file, all nodes: "ANON FILE"
 *
 * Errors go to stderr with exit status 2 (1 is "no" for has-cap).
 */
#include "lrugen.h"

static void usage(void)
{
	fprintf(stderr,
		"usage: lru_gen_query caps | has-cap BIT | set-caps CAPS\n"
		"       lru_gen_query memcg-create PREFIX [PID] | memcg-id NAME | nodes ID\n"
		"       lru_gen_query min-seq ID NID | max-seq ID NID\n"
		"       lru_gen_query age ID NID [--force] [--no-swap]\n"
		"       lru_gen_query named ID NID NAME | sizes ID\n");
	exit(2);
}

static void check(int err, const char *what)
{
	if (err)
		die("%s: %s", what, strerror(-err));
}

static void lruvec(int argc, char **argv, struct lru_gen_lruvec *lv)
{
	if (argc < 4)
		usage();
	check(lru_gen_read_lruvec(num(argv[2], 0, 65535, "ID"),
				  num(argv[3], 0, LRU_GEN_MAX_NODES - 1, "NID"), lv),
	      "reading the lruvec");
}

int main(int argc, char **argv)
{
	struct lru_gen_lruvec lv;
	struct lru_gen_memcg cg;
	unsigned int caps, val;
	unsigned long v;
	int nids[LRU_GEN_MAX_NODES];
	int i, n;

	if (argc < 2)
		usage();
	if (!strcmp(argv[1], "caps") && argc == 2) {
		check(lru_gen_read_caps(&caps), "reading " LRU_GEN_ENABLED_PATH);
		printf("0x%04x\n", caps);
	} else if (!strcmp(argv[1], "has-cap") && argc == 3) {
		n = lru_gen_has_cap(num(argv[2], 1, 0xffff, "BIT"));
		if (n < 0)
			check(n, "probing the cap");
		return !n;
	} else if (!strcmp(argv[1], "set-caps") && argc == 3) {
		caps = num(argv[2], 0, 0xffff, "CAPS");
		check(lru_gen_write_caps(caps), "writing " LRU_GEN_ENABLED_PATH);
		check(lru_gen_read_caps(&val), "reading " LRU_GEN_ENABLED_PATH);
		if (val != caps) {
			fprintf(stderr, "lru_gen_query: wrote 0x%04x, read back 0x%04x\n",
				caps, val);
			return 1;
		}
	} else if (!strcmp(argv[1], "memcg-create") && (argc == 3 || argc == 4)) {
		check(lru_gen_memcg_create(&cg, argv[2]), "creating a memcg");
		if (argc == 4)
			check(lru_gen_memcg_join(&cg, num(argv[3], 1, 1 << 30, "PID")),
			      "moving the process");
		printf("%s\n", cg.path);
	} else if (!strcmp(argv[1], "memcg-id") && argc == 3) {
		snprintf(cg.name, sizeof(cg.name), "%s", argv[2]);
		check(lru_gen_memcg_id(&cg), argv[2]);
		printf("%d\n", cg.id);
	} else if (!strcmp(argv[1], "nodes") && argc == 3) {
		n = lru_gen_nodes(num(argv[2], 0, 65535, "ID"), nids, LRU_GEN_MAX_NODES);
		if (n < 0)
			check(n, "reading " LRU_GEN_PATH);
		for (i = 0; i < n; i++)
			printf("%d\n", nids[i]);
	} else if (!strcmp(argv[1], "min-seq") && argc == 4) {
		lruvec(argc, argv, &lv);
		printf("%lu\n", lv.min_seq);
	} else if (!strcmp(argv[1], "max-seq") && argc == 4) {
		lruvec(argc, argv, &lv);
		printf("%lu\n", lv.max_seq);
	} else if (!strcmp(argv[1], "age") && argc >= 4) {
		bool force = false, can_swap = true;

		for (i = 4; i < argc; i++) {
			if (!strcmp(argv[i], "--force"))
				force = true;
			else if (!strcmp(argv[i], "--no-swap"))
				can_swap = false;
			else
				usage();
		}
		check(lru_gen_age(num(argv[2], 0, 65535, "ID"),
				  num(argv[3], 0, LRU_GEN_MAX_NODES - 1, "NID"),
				  can_swap, force, &v), "aging");
		printf("%lu\n", v);
	} else if (!strcmp(argv[1], "sizes") && argc == 3) {
		long sizes[2] = { 0, 0 };
		int id = num(argv[2], 0, 65535, "ID"), j;

		n = lru_gen_nodes(id, nids, LRU_GEN_MAX_NODES);
		if (n < 0)
			check(n, "reading " LRU_GEN_PATH);
		for (i = 0; i < n; i++) {
			check(lru_gen_read_lruvec(id, nids[i], &lv), "reading the lruvec");
			/* every generation index: one out of use must be empty too */
			for (j = 0; j < lv.nr_gens; j++) {
				sizes[0] += lv.gens[j].nr_pages[0];
				sizes[1] += lv.gens[j].nr_pages[1];
			}
		}
		printf("%ld %ld\n", sizes[0], sizes[1]);
	} else if (!strcmp(argv[1], "named") && argc == 5) {
		lruvec(argc, argv, &lv);
		check(lru_gen_named_value(&lv, argv[4], &v), argv[4]);
		printf("%lu\n", v);
	} else {
		usage();
	}
	return 0;
}
