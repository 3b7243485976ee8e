/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers for lab workloads.  The multi-gen LRU interfaces (the caps, the
 * lru_gen debugfs files, aging and a memcg of their own) come from the
 * kselftests' lru_gen_util.c, which scripts/lab-build.sh links into every
 * workload; this file only adds what is lab-specific.
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

#include "lru_gen_util.h"

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

/* A whole file, or die. */
static inline char *read_file(const char *path)
{
	char *buf = lru_gen_read_file(path);

	if (!buf)
		die("cannot read %s: %s", path, strerror(errno));
	return buf;
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

/* KEY of memory.stat of the memcg this process is in (set up by its caller). */
static inline long long memcg_stat(const char *key)
{
	char cg[192], path[256];

	self_cgroup(cg, sizeof(cg));
	snprintf(path, sizeof(path), CGROUP_ROOT "%s/memory.stat", cg);
	return stat_value(path, key);
}

/* Fields of /sys/block/DEV/stat (Documentation/block/stat.rst). */
enum { DEV_READ_IOS = 0, DEV_READ_SECTORS = 2, DEV_WRITE_IOS = 4, DEV_WRITE_SECTORS = 6 };

/* Field FIELD of block device DEV's stat file. */
static inline long long dev_stat(const char *dev, int field)
{
	char path[128], *buf, *p;
	long long v = 0;

	snprintf(path, sizeof(path), "/sys/block/%s/stat", dev);
	buf = read_file(path);
	p = buf;
	for (int i = 0; i <= field; i++)
		v = strtoll(p, &p, 10);
	free(buf);
	return v;
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

/* A name=value counter of an lruvec as a number, -1 if the kernel has none. */
static inline long lruvec_named(const struct lru_gen_lruvec *lv, const char *name)
{
	unsigned long v;

	return lru_gen_named_value(lv, name, &v) ? -1 : (long)v;
}

#endif
