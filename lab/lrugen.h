/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers for lab workloads: the lru_gen sysfs switch, the lru_gen debugfs
 * files and a private memory cgroup.  Header-only so that each workload is
 * one static binary built from one .c file.
 */
#ifndef LAB_LRUGEN_H
#define LAB_LRUGEN_H

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#define LRU_GEN_ENABLED	"/sys/kernel/mm/lru_gen/enabled"
#define LRU_GEN_DEBUGFS	"/sys/kernel/debug/lru_gen"
#define CGROUP_ROOT	"/sys/fs/cgroup"

static inline void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "error: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	exit(2);
}

/* A command-line number in [lo, hi]; anything else is a usage error. */
static inline long num(const char *s, long lo, long hi, const char *what)
{
	char *end;
	long v = strtol(s, &end, 0);

	if (*s == 0 || *end || v < lo || v > hi)
		die("%s must be a number in [%ld, %ld], got '%s'", what, lo, hi, s);
	return v;
}

/* xorshift64*: a fixed pseudo-random sequence per seed in *state */
static inline uint64_t xorshift64s(uint64_t *state)
{
	*state ^= *state >> 12;
	*state ^= *state << 25;
	*state ^= *state >> 27;
	return *state * 0x2545f4914f6cdd1dULL;
}

/* Write a string to a file; returns 0 or -errno. */
static inline int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;
	int err = 0;

	if (fd < 0)
		return -errno;
	n = write(fd, s, strlen(s));
	if (n < 0)
		err = -errno;
	close(fd);
	return err;
}

static inline char *read_file(const char *path)
{
	size_t cap = 1 << 16, len = 0;
	char *buf = malloc(cap);
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (!buf || fd < 0)
		die("cannot read %s: %s", path, strerror(errno));
	while ((n = read(fd, buf + len, cap - len - 1)) > 0) {
		len += n;
		if (cap - len < 4096) {
			cap *= 2;
			buf = realloc(buf, cap);
			if (!buf)
				die("out of memory");
		}
	}
	close(fd);
	buf[len] = 0;
	return buf;
}

static inline unsigned int lru_gen_caps(void)
{
	char *s = read_file(LRU_GEN_ENABLED);
	unsigned int caps = strtoul(s, NULL, 0);

	free(s);
	return caps;
}

static inline int set_lru_gen_caps(unsigned int caps)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "0x%x", caps);
	return write_str(LRU_GEN_ENABLED, buf);
}

/* Create CGROUP_ROOT/name with the memory controller and move into it. */
static inline void join_cgroup(const char *name)
{
	char path[256], pid[32];

	write_str(CGROUP_ROOT "/cgroup.subtree_control", "+memory");
	snprintf(path, sizeof(path), CGROUP_ROOT "/%s", name);
	if (mkdir(path, 0755) && errno != EEXIST)
		die("mkdir %s: %s", path, strerror(errno));
	snprintf(path, sizeof(path), CGROUP_ROOT "/%s/cgroup.procs", name);
	snprintf(pid, sizeof(pid), "%d", getpid());
	if (write_str(path, pid))
		die("cannot join cgroup %s", name);
}

/* The cgroup v2 path of this process, e.g. "/bench", from /proc/self/cgroup. */
static inline void self_cgroup(char *path, size_t size)
{
	char *buf = read_file("/proc/self/cgroup"), *p = strstr(buf, "0::");

	if (!p)
		die("no cgroup v2 entry in /proc/self/cgroup");
	p += 3;
	p[strcspn(p, "\n")] = 0;
	snprintf(path, size, "%s", p);
	free(buf);
}

/*
 * The value of KEY in a "key value" file (memory.stat, /proc/vmstat), or
 * -1 if the key is not there.
 */
static inline long long stat_value(const char *file, const char *key)
{
	char *buf = read_file(file), *line, *save;
	size_t n = strlen(key);
	long long v = -1;

	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, key, n) && line[n] == ' ') {
			v = strtoll(line + n + 1, NULL, 10);
			break;
		}
	}
	free(buf);
	return v;
}

/* KEY of memory.stat of the memcg this process is in. */
static inline long long memcg_stat(const char *key)
{
	char cg[192], path[256];

	self_cgroup(cg, sizeof(cg));
	snprintf(path, sizeof(path), CGROUP_ROOT "%s/memory.stat", cg);
	return stat_value(path, key);
}

/* Completed read I/Os of block device DEV (first field of its stat file). */
static inline long long dev_read_ios(const char *dev)
{
	char path[128], *buf;
	long long v;

	snprintf(path, sizeof(path), "/sys/block/%s/stat", dev);
	buf = read_file(path);
	v = strtoll(buf, NULL, 10);
	free(buf);
	return v;
}

/* The memcg id that lru_gen prints for the cgroup /name, or -1. */
static inline int memcg_id(const char *name)
{
	char *buf = read_file(LRU_GEN_DEBUGFS), *line, *save;
	char want[256], path[256];
	int id, found = -1;

	snprintf(want, sizeof(want), "/%s", name);
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "memcg %d %255s", &id, path) == 2 && !strcmp(path, want))
			found = id;
	}
	free(buf);
	return found;
}

/*
 * One node of one memcg in lru_gen_full: the generation range and the
 * page-table walk counters of the current row (cumulative).  Counters the
 * kernel does not print stay at -1.
 */
struct lru_gen_node {
	long min_seq, max_seq;
	long leaf, young, pmd_found, pmd_added;		/* T Y F A */
	long pmd_tested, pud_skipped, pud_carried;
	long walks, empty_walks, empty_walk_leaves;
};

static inline long token(const char *line, const char *name)
{
	char key[64];
	const char *p;

	snprintf(key, sizeof(key), " %s=", name);
	p = strstr(line, key);
	return p ? strtol(p + strlen(key), NULL, 10) : -1;
}

static inline double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static inline int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Lines of the memcg @id, node @nid block of an lru_gen file; 0 if found. */
typedef void (*lru_gen_line_fn)(const char *line, struct lru_gen_node *st);

static inline int scan_lru_gen(const char *path, int id, int nid, lru_gen_line_fn fn,
			       struct lru_gen_node *st)
{
	char *buf = read_file(path), *line, *save;
	int in_memcg = 0, in_node = 0, found = 0, a;

	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "memcg %d", &a) == 1) {
			in_memcg = a == id;
			in_node = 0;
		} else if (sscanf(line, " node %d", &a) == 1) {
			in_node = in_memcg && a == nid;
			found |= in_node;
		} else if (in_node) {
			fn(line, st);
		}
	}
	free(buf);
	return found ? 0 : -1;
}

/* lru_gen: " %10lu %10u %10lu %10lu" per generation, oldest first */
static inline void gen_line(const char *line, struct lru_gen_node *st)
{
	long seq;

	if (strlen(line) < 11 || line[10] < '0' || line[10] > '9' ||
	    sscanf(line, "%ld", &seq) != 1)
		return;
	if (st->min_seq < 0)
		st->min_seq = seq;
	st->max_seq = seq;
}

/*
 * lru_gen_full: the mm stats row "T Y F A" of the current generation, and the
 * line of name=value tokens after it.  Kernels before the series print only
 * the row; an early version of the series printed the tokens on the row.
 */
static inline void stats_line(const char *line, struct lru_gen_node *st)
{
	long v[4];
	char c[4];

	if (sscanf(line, " %ld%c %ld%c %ld%c %ld%c", &v[0], &c[0], &v[1], &c[1],
		   &v[2], &c[2], &v[3], &c[3]) == 8 && c[0] == 'T' && c[1] == 'Y') {
		st->leaf = v[0];
		st->young = v[1];
		st->pmd_found = v[2];
		st->pmd_added = v[3];
	}
	if (!strstr(line, " pmd_tested="))
		return;
	st->pmd_tested = token(line, "pmd_tested");
	st->pud_skipped = token(line, "pud_skipped");
	st->pud_carried = token(line, "pud_carried");
	st->walks = token(line, "walks");
	st->empty_walks = token(line, "empty_walks");
	st->empty_walk_leaves = token(line, "empty_walk_leaves");
}

static inline int read_lru_gen_node(int id, int nid, struct lru_gen_node *st)
{
	memset(st, 0xff, sizeof(*st));
	if (scan_lru_gen(LRU_GEN_DEBUGFS, id, nid, gen_line, st))
		return -1;
	return scan_lru_gen(LRU_GEN_DEBUGFS "_full", id, nid, stats_line, st);
}

/* Run one aging step on (id, nid) without force_scan; make room first. */
static inline int age_once(int id, int nid, double *us)
{
	struct lru_gen_node st;
	char cmd[128];
	double t;
	int err;

	if (read_lru_gen_node(id, nid, &st))
		return -ENOENT;
	if (st.max_seq - st.min_seq + 1 >= 4) {
		snprintf(cmd, sizeof(cmd), "- %d %d %ld", id, nid, st.min_seq);
		write_str(LRU_GEN_DEBUGFS, cmd);
	}
	snprintf(cmd, sizeof(cmd), "+ %d %d %ld 1 0", id, nid, st.max_seq);
	t = now_us();
	err = write_str(LRU_GEN_DEBUGFS, cmd);
	*us = now_us() - t;
	if (err)
		fprintf(stderr, "'%s' > %s: %s\n", cmd, LRU_GEN_DEBUGFS, strerror(-err));
	return err;
}

#endif
