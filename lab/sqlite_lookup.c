// SPDX-License-Identifier: GPL-2.0
/*
 * sqlite_lookup: point lookups of a hot key set of an SQLite database while
 * a command streams cold files, as an application sees the page cache.
 *
 *   sqlite_lookup -D DB -n KEYS -t STRIDE [-w PASSES] [-k K -d DEV] -- COMMAND [ARG...]
 *
 * DB holds a table kv(id INTEGER PRIMARY KEY, v BLOB) (scripts/bench.sh
 * makes it with the sqlite3 shell).  The hot keys are 1 + i * STRIDE for
 * i < KEYS.  DB is opened read-only and immutable, with SQLite's own cache
 * cut to 64 KiB and no mmap, so that the page cache holds the hot set.
 *
 * Looks every hot key up PASSES times (default 2) in order, then starts
 * COMMAND and, until it exits, looks up random hot keys: back to back, or
 * with -k, K lookups per 64 KiB that COMMAND reads from the block device
 * DEV (e.g. vdb): the sectors DEV read since COMMAND started, minus 8 per
 * page of DB that missed (DB is read without readahead, POSIX_FADV_RANDOM,
 * so a missed page is one 4 KiB read).  COMMAND, in a process group of its
 * own, is stopped (SIGSTOP) while the lookups are more than 2 x K behind,
 * so that the ratio of lookups to streamed bytes is the same on every arm
 * and machine, as hotstream's K; the record has the ratio achieved.
 * COMMAND must exit with status 0.
 * Each lookup (bind, step, reset) is timed with CLOCK_MONOTONIC.  Each
 * read of DB by SQLite goes through a wrapper installed with the unix
 * VFS's xSetSystemCall(), which first asks cachestat() how many of the
 * pages it reads are cached: the hot set's hit ratio in pages, and the
 * pages read from the device per lookup, without counting COMMAND's I/O.
 * The latency of a lookup leaves out the time of these cachestat() calls.
 *
 * Prints one JSON object: lookups, p50/p99/max latency (us), pages read,
 * pages missed, hit ratio, misses per lookup, COMMAND's time and MiB read
 * (with -k), lookups per 64 KiB, and the fraction of DB cached at the end.
 */
#include <signal.h>
#include <sqlite3.h>
#include "lrugen.h"

typedef ssize_t (*pread_fn)(int fd, void *buf, size_t n, off_t off);
typedef ssize_t (*read_fn)(int fd, void *buf, size_t n);

static pread_fn real_pread, real_pread64;
static read_fn real_read;
static long long page_reads, page_misses;
static double count_us;		/* time spent in count() */
static int advised_fd = -1;

/* Count the pages of [off, off + n) of FD, and those not cached. */
static void count(int fd, off_t off, size_t n)
{
	double t = now_us();
	uint64_t first, pages;

	if (!n)
		return;
	if (fd != advised_fd) {
		/* no readahead: a missed page is one read of 4 KiB */
		posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM);
		advised_fd = fd;
	}
	first = off / 4096;
	pages = (off + n - 1) / 4096 - first + 1;
	page_reads += pages;
	page_misses += pages - cached_pages(fd, first * 4096, pages * 4096);
	count_us += now_us() - t;
}

static ssize_t counted_pread(int fd, void *buf, size_t n, off_t off)
{
	count(fd, off, n);
	return real_pread(fd, buf, n, off);
}

static ssize_t counted_pread64(int fd, void *buf, size_t n, off_t off)
{
	count(fd, off, n);
	return real_pread64(fd, buf, n, off);
}

static ssize_t counted_read(int fd, void *buf, size_t n)
{
	off_t off = lseek(fd, 0, SEEK_CUR);

	if (off >= 0)
		count(fd, off, n);
	return real_read(fd, buf, n);
}

/* Route the unix VFS's reads through the counting wrappers. */
static void wrap_reads(void)
{
	sqlite3_vfs *vfs = sqlite3_vfs_find(NULL);

	if (!vfs || vfs->iVersion < 3 || !vfs->xGetSystemCall)
		die("SQLite's default VFS cannot replace its system calls");
	real_pread = (pread_fn)vfs->xGetSystemCall(vfs, "pread");
	real_pread64 = (pread_fn)vfs->xGetSystemCall(vfs, "pread64");
	real_read = (read_fn)vfs->xGetSystemCall(vfs, "read");
	if ((real_pread && vfs->xSetSystemCall(vfs, "pread", (sqlite3_syscall_ptr)counted_pread)) ||
	    (real_pread64 &&
	     vfs->xSetSystemCall(vfs, "pread64", (sqlite3_syscall_ptr)counted_pread64)) ||
	    (real_read && vfs->xSetSystemCall(vfs, "read", (sqlite3_syscall_ptr)counted_read)))
		die("cannot wrap SQLite's reads");
}

static sqlite3 *db;
static sqlite3_stmt *stmt;

static void lookup(long key)
{
	int rc;

	sqlite3_bind_int64(stmt, 1, key);
	rc = sqlite3_step(stmt);
	if (rc != SQLITE_ROW || sqlite3_column_bytes(stmt, 0) <= 0)
		die("key %ld: %s", key, rc == SQLITE_ROW ? "empty value" : sqlite3_errmsg(db));
	sqlite3_reset(stmt);
}

static void exec_sql(const char *sql)
{
	if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
		die("%s: %s", sql, sqlite3_errmsg(db));
}

int main(int argc, char **argv)
{
	long keys = 0, stride = 0, passes = 2, k = 0;
	long long sectors0 = 0;
	const char *dev = NULL;
	long long reads0, misses0, units = 0, allowed = 0;
	int stopped = 0;
	const char *path = NULL;
	uint64_t rng = 0x9e3779b97f4a7c15ULL;
	struct samples lat = { 0 };
	double t0, t;
	char uri[512];
	struct stat st;
	int opt, status, fd;
	pid_t pid;

	while ((opt = getopt(argc, argv, "D:n:t:w:k:d:")) != -1) {
		switch (opt) {
		case 'D': path = optarg; break;
		case 'n': keys = num(optarg, 1, 1 << 24, "-n"); break;
		case 't': stride = num(optarg, 1, 1 << 20, "-t"); break;
		case 'w': passes = num(optarg, 0, 100, "-w"); break;
		case 'k': k = num(optarg, 1, 1024, "-k"); break;
		case 'd': dev = optarg; break;
		default: die("usage: sqlite_lookup -D DB -n KEYS -t STRIDE [-w PASSES] [-k K -d DEV] -- COMMAND...");
		}
	}
	if (!path || !keys || !stride || optind == argc || !k != !dev)
		die("usage: sqlite_lookup -D DB -n KEYS -t STRIDE [-w PASSES] [-k K -d DEV] -- COMMAND...");
	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st))
		die("open %s: %s", path, strerror(errno));
	wrap_reads();
	snprintf(uri, sizeof(uri), "file:%s?immutable=1", path);
	if (sqlite3_open_v2(uri, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL) != SQLITE_OK)
		die("sqlite3_open %s: %s", path, db ? sqlite3_errmsg(db) : "out of memory");
	exec_sql("PRAGMA cache_size = -64; PRAGMA mmap_size = 0");
	if (sqlite3_prepare_v2(db, "SELECT v FROM kv WHERE id = ?", -1, &stmt, NULL) != SQLITE_OK)
		die("prepare: %s", sqlite3_errmsg(db));

	for (long p = 0; p < passes; p++)
		for (long i = 0; i < keys; i++)
			lookup(1 + i * stride);
	if (passes && !page_reads)
		die("no read of %s went through the wrapped system calls", path);

	reads0 = page_reads;
	misses0 = page_misses;
	if (dev)
		sectors0 = dev_stat(dev, DEV_READ_SECTORS);
	t0 = now_us();
	pid = spawn(argv + optind, NULL);
	/* a status of 1 is grep's "nothing matched" */
	while ((status = spawn_status(pid)) < 0) {
		long key = 1 + (long)(xorshift64s(&rng) % keys) * stride;
		double c;

		if (dev) {
			/* COMMAND's 64 KiB units: 128 sectors of 512 bytes */
			units = (dev_stat(dev, DEV_READ_SECTORS) - sectors0 -
				 8 * (page_misses - misses0)) / 128;
			allowed = k * units;
			if ((long long)lat.n >= allowed) {
				if (stopped && kill(-pid, SIGCONT))
					die("SIGCONT: %s", strerror(errno));
				stopped = 0;
				usleep(1000);
				continue;
			}
			if (!stopped && (long long)lat.n + 2 * k < allowed) {
				if (kill(-pid, SIGSTOP))
					die("SIGSTOP: %s", strerror(errno));
				stopped = 1;
			}
		}
		c = count_us;
		t = now_us();
		lookup(key);
		t = now_us() - t - (count_us - c);
		samples_add(&lat, t);
	}
	t = now_us() - t0;
	if (status)
		die("%s exited with status %d", argv[optind], status);
	if (dev)
		units = (dev_stat(dev, DEV_READ_SECTORS) - sectors0 - 8 * (page_misses - misses0)) / 128;
	if (!lat.n)
		die("%s ended before the first lookup", argv[optind]);
	samples_sort(&lat);
	page_reads -= reads0;
	page_misses -= misses0;
	printf("{\"lookups\":%lld,\"p50_us\":%.1f,\"p99_us\":%.1f,\"max_us\":%.1f,"
	       "\"page_reads\":%lld,\"page_misses\":%lld,\"hit_ratio\":%.4f,"
	       "\"misses_per_lookup\":%.4f,\"stream_s\":%.2f,\"db_cached\":%.4f",
	       (long long)lat.n, percentile(&lat, 50), percentile(&lat, 99),
	       lat.v[lat.n - 1], page_reads, page_misses,
	       page_reads ? 1 - (double)page_misses / page_reads : 0,
	       (double)page_misses / lat.n, t / 1e6,
	       (double)cached_pages(fd, 0, st.st_size) / ((st.st_size + 4095) / 4096));
	if (dev)
		printf(",\"stream_read_mib\":%.1f,\"lookups_per_64k\":%.3f",
		       units / 16.0, units ? (double)lat.n / units : 0);
	printf("}\n");
	sqlite3_finalize(stmt);
	sqlite3_close(db);
	free(lat.v);
	return 0;
}
