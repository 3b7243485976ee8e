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
#include <signal.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

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

/* cachestat(2) (6.5), which older C libraries do not wrap */
#define NR_CACHESTAT	451

struct cachestat_range {
	uint64_t off, len;
};

struct cachestat {
	uint64_t nr_cache, nr_dirty, nr_writeback, nr_evicted, nr_recently_evicted;
};

/* How many pages of [off, off + len) of the file FD are in the page cache. */
static inline uint64_t cached_pages(int fd, uint64_t off, uint64_t len)
{
	struct cachestat_range r = { off, len };
	struct cachestat cs;

	if (syscall(NR_CACHESTAT, fd, &r, &cs, 0))
		die("cachestat: %s", strerror(errno));
	return cs.nr_cache;
}

/*
 * Start ARGV[0] (searched in PATH) with ARGV, its standard output on
 * /dev/null, as the leader of a process group of its own (kill(-pid) stops
 * or continues all of it), killed if this process dies; with CG (a cgroup
 * v2 path such as "/bench/b", NULL for none), the child first moves itself
 * into that cgroup.  Returns its pid.
 */
static inline pid_t spawn(char *const *argv, const char *cg)
{
	pid_t pid = fork();
	char path[256];
	int fd;

	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (pid) {
		setpgid(pid, pid);	/* either this or the child's wins */
		return pid;
	}
	if (setpgid(0, 0) || prctl(PR_SET_PDEATHSIG, SIGKILL))
		_exit(127);
	if (cg) {
		snprintf(path, sizeof(path), CGROUP_ROOT "%s/cgroup.procs", cg);
		fd = open(path, O_WRONLY);
		if (fd < 0 || write(fd, "0", 1) != 1) {
			fprintf(stderr, "error: cannot join %s: %s\n", path, strerror(errno));
			_exit(127);
		}
		close(fd);
	}
	fd = open("/dev/null", O_WRONLY);
	if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0)
		_exit(127);
	execvp(argv[0], argv);
	fprintf(stderr, "error: cannot run %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

/*
 * -1 while the child PID runs, then its exit status (128 + signal if a
 * signal ended it); reaps it.
 */
static inline int spawn_status(pid_t pid)
{
	int st;
	pid_t r = waitpid(pid, &st, WNOHANG);

	if (r < 0)
		die("waitpid: %s", strerror(errno));
	if (!r)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static inline int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Measurements, e.g. latencies in us; samples_sort() before percentile(). */
struct samples {
	double *v;
	size_t n, cap;
};

static inline void samples_add(struct samples *s, double x)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 1024;
		s->v = realloc(s->v, s->cap * sizeof(*s->v));
		if (!s->v)
			die("out of memory");
	}
	s->v[s->n++] = x;
}

static inline void samples_sort(struct samples *s)
{
	qsort(s->v, s->n, sizeof(*s->v), cmp_double);
}

/*
 * The P-th percentile (1 <= P <= 100) of sorted samples, by nearest rank:
 * the smallest value with at least P % of the samples at or below it (with
 * fewer than 100 samples, the 99th is the largest).
 */
static inline double percentile(const struct samples *s, unsigned int p)
{
	size_t rank = ((unsigned long long)p * s->n + 99) / 100;

	if (!s->n)
		return 0;
	return s->v[(rank ? rank : 1) - 1];
}

/* A name=value counter of an lruvec as a number, -1 if the kernel has none. */
static inline long lruvec_named(const struct lru_gen_lruvec *lv, const char *name)
{
	unsigned long v;

	return lru_gen_named_value(lv, name, &v) ? -1 : (long)v;
}

#endif
