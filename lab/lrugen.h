/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers for lab workloads.  The multi-gen LRU's debugfs files, lru_gen and
 * lru_gen_full, are read and written only through the kselftests' helper
 * (tools/testing/selftests/mm/lru_gen_util.c of the tree), which
 * scripts/lab-build.sh links into every workload: lru_gen_read_memcg_stats()
 * for the generations of a memcg, lru_gen_read_mm_stats() for the page-table
 * walk counters of an lruvec and lru_gen_write_cmd() for the commands.  What
 * the lab needs on top of that is here (the lab_ functions): the caps of
 * lru_gen/enabled, a memcg looked up by name or by id, the nodes, min_seq and
 * max_seq of a memcg's lruvecs, and a timed aging step.
 */
#ifndef LAB_LRUGEN_H
#define LAB_LRUGEN_H

#include <dirent.h>
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

/* A whole file, NUL-terminated (malloc'ed), or die. */
static inline char *read_file(const char *path)
{
	size_t size = 65536, len = 0;
	char *buf = NULL;
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		die("cannot read %s: %s", path, strerror(errno));
	do {
		if (!buf || len + 1 >= size) {
			size = buf ? 2 * size : size;
			buf = realloc(buf, size);
			if (!buf)
				die("out of memory");
		}
		n = read(fd, buf + len, size - len - 1);
		if (n < 0)
			die("cannot read %s: %s", path, strerror(errno));
		len += n;
	} while (n);
	close(fd);
	buf[len] = 0;
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

/* ---- the multi-gen LRU, on top of lru_gen_util.c ------------------------ */

/* the swappiness of the lab's aging steps: anon and file (0: file only) */
#define LAB_SWAPPINESS	100
/* how often lab_age() writes its command before giving up */
#define LAB_AGE_TRIES	5

/* One write(2) of S to PATH (sysfs takes a value per write); 0 or -errno. */
static inline int lab_write_file(const char *path, const char *s)
{
	size_t len = strlen(s);
	int fd = open(path, O_WRONLY), err = 0;
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, s, len);
	if (n < 0)
		err = -errno;
	else if ((size_t)n != len)
		err = -EIO;
	close(fd);
	return err;
}

/* The caps of lru_gen/enabled, e.g. 0x0007; 0 or -errno. */
static inline int lab_read_caps(unsigned int *caps)
{
	char buf[32], *end;
	int fd = open(LRU_GEN_ENABLED_PATH, O_RDONLY), err;
	unsigned long v;
	ssize_t n;

	*caps = 0;
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	err = errno;
	close(fd);
	if (n < 0)
		return -err;
	buf[n] = 0;
	errno = 0;
	v = strtoul(buf, &end, 0);
	if (errno || end == buf || (*end && *end != '\n') || v > 0xffffffffUL)
		return -EINVAL;
	*caps = v;
	return 0;
}

static inline int lab_write_caps(unsigned int caps)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "0x%x\n", caps);
	return lab_write_file(LRU_GEN_ENABLED_PATH, buf);
}

/*
 * Whether the kernel has the cap BIT: the current caps with BIT set written,
 * read back and restored (the series rejects a bit it does not have with
 * EINVAL, a stock kernel drops it: only the read back tells).  1, 0 or -errno.
 */
static inline int lab_has_cap(unsigned int bit)
{
	unsigned int orig, val;
	int err, err2;

	err = lab_read_caps(&orig);
	if (err)
		return err;
	if ((orig & bit) == bit)
		return 1;
	err = lab_write_caps(orig | bit);
	if (err == -EINVAL)
		return 0;
	if (err)
		return err;
	err = lab_read_caps(&val);
	err2 = lab_write_caps(orig);
	if (err)
		return err;
	if (err2)
		return err2;
	return (val & bit) == bit;
}

/*
 * A memcg of the cgroup v2 hierarchy at CGROUP_ROOT.  Its id is the one
 * lru_gen shows and takes in commands: on 7.3, mem_cgroup_id() is
 * cgroup_id(), which on 64-bit is the inode number of the cgroup's directory
 * (kernfs_id_ino()), so that a memcg is found by name or by id without
 * reading lru_gen; lab_memcg_stats() checks that lru_gen agrees.
 */
struct lab_memcg {
	unsigned long id;
	char name[256];		/* below CGROUP_ROOT, with a leading '/'; "/": the root */
	char path[512];		/* CGROUP_ROOT and name */
};

/* CG of the cgroup NAME ("/" for the root, else "/a/b"); 0 or -errno. */
static inline int lab_memcg_by_name(struct lab_memcg *cg, const char *name)
{
	struct stat st;

	if (name[0] != '/')
		return -EINVAL;
	if ((size_t)snprintf(cg->name, sizeof(cg->name), "%s", name) >= sizeof(cg->name) ||
	    (size_t)snprintf(cg->path, sizeof(cg->path), "%s%s", CGROUP_ROOT,
			     strcmp(name, "/") ? name : "") >= sizeof(cg->path))
		return -ENAMETOOLONG;
	if (stat(cg->path, &st))
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	cg->id = st.st_ino;
	return 0;
}

/* The cgroup below DIR (named REL below CGROUP_ROOT) of inode number ID. */
static inline int lab_find_memcg(const char *dir, const char *rel, unsigned long id,
				 struct lab_memcg *cg)
{
	char sub[512], subrel[256];
	DIR *d = opendir(dir);
	struct dirent *e;
	int err = -ENOENT;

	if (!d)
		return -ENOENT;	/* e.g., removed meanwhile: not there */
	while (err == -ENOENT && (e = readdir(d))) {
		if (e->d_type != DT_DIR || !strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if ((size_t)snprintf(sub, sizeof(sub), "%s/%s", dir, e->d_name) >= sizeof(sub) ||
		    (size_t)snprintf(subrel, sizeof(subrel), "%s/%s", rel, e->d_name) >= sizeof(subrel))
			continue;
		if (e->d_ino == id)
			err = lab_memcg_by_name(cg, subrel);
		else
			err = lab_find_memcg(sub, subrel, id, cg);
	}
	closedir(d);
	return err;
}

/* CG of the memcg of id ID, if it still has a directory; 0 or -errno. */
static inline int lab_memcg_by_id(struct lab_memcg *cg, unsigned long id)
{
	int err = lab_memcg_by_name(cg, "/");

	if (err || cg->id == id)
		return err;
	err = lab_find_memcg(CGROUP_ROOT, "", id, cg);
	if (!err && cg->id != id)
		err = -ENOENT;
	return err;
}

/*
 * A memcg of a unique name, /PREFIX.PID.N (lru_gen lists dying memcgs too,
 * by name), made and entered by lru_gen_memcg_enter() of the helper: no
 * limit, the memory controller on in the root, the calling process moved
 * into it.  lab_memcg_leave() moves it back and removes the memcg.
 */
static inline int lab_memcg_create(struct lab_memcg *cg, const char *prefix)
{
	char name[128], path[512];
	struct stat st;
	int err, i;

	for (i = 0; i < 1000; i++) {
		if ((size_t)snprintf(name, sizeof(name), "/%s.%d.%d", prefix, (int)getpid(),
				     i) >= sizeof(name))
			return -ENAMETOOLONG;
		snprintf(path, sizeof(path), "%s%s", CGROUP_ROOT, name);
		if (stat(path, &st) && errno == ENOENT)
			break;
	}
	if (i == 1000)
		return -EEXIST;
	err = lru_gen_memcg_enter(name + 1, path, sizeof(path));
	if (err)
		return err;
	err = lab_memcg_by_name(cg, name);
	/* the helper makes it in the first cgroup2 mount of /proc/mounts */
	if (!err && strcmp(cg->path, path))
		err = -EXDEV;
	if (err)
		lru_gen_memcg_leave(path);
	return err;
}

static inline void lab_memcg_leave(const struct lab_memcg *cg)
{
	lru_gen_memcg_leave(cg->path);
}

/*
 * The generations of the memcg CG in lru_gen, per node, by
 * lru_gen_read_memcg_stats() of the helper, which finds the first memcg
 * of that name.  -EEXIST if that is another one (a dying memcg of the same
 * name).  The helper ends the process (status 1) if lru_gen does not list
 * the name, with a "Bail out!" line that goes to stderr here, not stdout.
 */
static inline int lab_memcg_stats(const struct lab_memcg *cg, struct memcg_stats *stats)
{
	int out;

	fflush(stdout);
	out = dup(STDOUT_FILENO);
	if (out < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
		return -errno;
	lru_gen_read_memcg_stats(stats, cg->name + 1);
	fflush(stdout);
	dup2(out, STDOUT_FILENO);
	close(out);
	return stats->memcg_id == cg->id ? 0 : -EEXIST;
}

/*
 * The oldest (of anon and file: lru_gen lists from the older one) and the
 * youngest generation of the lruvec (CG, NID); 0 or -errno.
 */
static inline int lab_seqs(const struct lab_memcg *cg, int nid, unsigned long *min_seq,
			   unsigned long *max_seq)
{
	struct memcg_stats *stats = malloc(sizeof(*stats));
	const struct node_stats *ns = NULL;
	int err, i;

	if (!stats)
		return -ENOMEM;
	err = lab_memcg_stats(cg, stats);
	for (i = 0; !err && i < stats->nr_nodes; i++) {
		if (stats->nodes[i].node == nid)
			ns = &stats->nodes[i];
	}
	if (!err && (!ns || !ns->nr_gens))
		err = -ENOENT;
	for (i = 0; !err && i < ns->nr_gens; i++) {
		if (!i || (unsigned long)ns->gens[i].gen < *min_seq)
			*min_seq = ns->gens[i].gen;
		if (!i || (unsigned long)ns->gens[i].gen > *max_seq)
			*max_seq = ns->gens[i].gen;
	}
	free(stats);
	return err;
}

/* what lab_age() did */
struct lab_step {
	unsigned long seq;	/* the max_seq it made: the one before, plus one */
	double us;		/* the command that made it: open, write(2), close */
	int tries;		/* commands written */
};

/*
 * One aging step of the lruvec (CG, NID) from its max_seq, with SWAPPINESS
 * and FORCE_SCAN, written by lru_gen_write_cmd() of the helper; on 7.3 the
 * kernel makes room in a full lruvec itself.  Tried again while another
 * aging of the lruvec gets in the way: EEXIST from the kernel (another
 * walker has the mm list), or max_seq did not move by exactly one between
 * the reads around the command (with EXACT; else any move counts).  The
 * helper's lru_gen_age() neither times the write nor works where
 * lru_gen_full has no walk counters of the series (stock 7.3).
 */
static inline int lab_age(const struct lab_memcg *cg, int nid, int swappiness,
			  bool force_scan, bool exact, struct lab_step *step)
{
	unsigned long min_seq, before, after;
	int err = -EAGAIN, i;
	double t;

	memset(step, 0, sizeof(*step));
	for (i = 0; i < LAB_AGE_TRIES; i++) {
		if (i)
			usleep(10000);
		err = lab_seqs(cg, nid, &min_seq, &before);
		if (err)
			return err;
		t = now_us();
		err = lru_gen_write_cmd("+ %lu %d %lu %d %d\n", cg->id, nid, before,
					swappiness, force_scan);
		step->us = now_us() - t;
		step->tries++;
		if (err == -EEXIST)
			continue;
		if (err)
			return err;
		err = lab_seqs(cg, nid, &min_seq, &after);
		if (err)
			return err;
		step->seq = before + 1;
		if (after == before + 1 || (!exact && after > before))
			return 0;
		err = -EAGAIN;
	}
	return err;
}

#endif
