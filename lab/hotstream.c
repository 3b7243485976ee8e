// SPDX-License-Identifier: GPL-2.0
/*
 * hotstream: a hot file's page cache against a one-shot stream of cold files.
 *
 *   hotstream mix  -H HOT -s DIR -k K [-w PASSES] [-d DEV] [-m ADVICE] [-S]
 *	Read HOT fully PASSES times (default 1), then stream every file of DIR
 *	once with 64 KiB read()s; after each 64 KiB, K random 4 KiB pread()s
 *	of HOT, each preceded by cachestat() of that block to count hits.  The
 *	ratio of hot reads to streamed bytes is fixed, so the result does not
 *	depend on the speed of the machine.  With -m, each hot read is a load
 *	of one byte of the block through a shared read-only mapping of HOT
 *	instead, madvise()d ADVICE: "normal" (a miss reads around the block)
 *	or "random" (no read-around, as the pread()s with POSIX_FADV_RANDOM;
 *	the kernel then ignores the mapping's accessed bits, see
 *	vma_has_recency()).
 *	With -S, the stream is read through a shared read-only mapping of each
 *	file instead of read()s, one load of one byte per 4 KiB: a one-shot
 *	stream whose only accesses are the young bits of its faults.
 *	With -M MOVED, the hot set moves: from the middle of the stream on,
 *	the hot reads go to the file MOVED (of HOT's size, never read before)
 *	instead, and the hit ratio of MOVED is also reported per eighth of
 *	the second half ("moved_w1" to "moved_w8"): how fast the cache picks
 *	up a working set that changes; and how much of HOT, no longer read,
 *	is still cached at the end of each eighth ("old_w1" to "old_w8", taken
 *	before the first hot read of the next): how fast it lets go of the one
 *	that went away.
 *   hotstream idle -H HOT -s DIR -r ROUNDS -p PASSES -b MIB [-d DEV]
 *	ROUNDS times: read HOT fully PASSES times, then leave it idle while
 *	the next MIB of DIR's files stream by (no file is read twice), then
 *	record the fraction of HOT still cached (cachestat()).
 *   hotstream fit  -H HOT -n OPS
 *	Read HOT fully twice, then time OPS random 4 KiB pread()s of it (all
 *	hits if HOT fits in memory): the cost of a page-cache hit.
 *   hotstream probe -H HOT -b KIB -i MS -c CGROUP -- COMMAND [ARG...]
 *	A latency probe: run COMMAND in the cgroup CGROUP (e.g. a stream in a
 *	sibling memcg), and while it runs, every MS milliseconds read the first
 *	KIB KiB of HOT with one pread(), timed, after a cachestat() of that
 *	range counts its pages that are not cached.  Reports the number of
 *	probes, those that missed at least one page, the pages missed, the
 *	probe latency (median, 99th percentile, maximum) and COMMAND's time.
 *
 * Prints one JSON object of metrics.  Refaults are the workingset_refault_file
 * delta of the memcg the process runs in, device read I/Os those of DEV
 * (e.g. vdb), both over the measured phase only.  The random block sequence
 * is the same on every run (fixed seed).
 */
#include <dirent.h>
#include <stdint.h>
#include <sys/mman.h>
#include "lrugen.h"

#define CHUNK		(64 << 10)
#define BLOCK		4096
static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static char buf[CHUNK];

/* Read a whole file with CHUNK-sized read()s; returns the bytes read. */
static long long read_all(int fd)
{
	long long total = 0;
	ssize_t n;

	if (lseek(fd, 0, SEEK_SET))
		die("lseek: %s", strerror(errno));
	while ((n = read(fd, buf, CHUNK)) > 0)
		total += n;
	if (n < 0)
		die("read: %s", strerror(errno));
	return total;
}

/* The hot file: one fd for full passes, one (FADV_RANDOM) for pread(). */
static int hot_seq, hot_rnd;
static uint64_t hot_pages;
/* with -m: the hot file mapped, read through loads instead of pread() */
static const volatile char *hot_map;
/* with -M: the file the hot reads move to, and the windows of its hit ratio */
#define MOVED_WINDOWS	8
static int moved_fd = -1;
static uint64_t moved_pages;

static void open_hot(const char *path)
{
	struct stat st;

	hot_seq = open(path, O_RDONLY);
	hot_rnd = open(path, O_RDONLY);
	if (hot_seq < 0 || hot_rnd < 0 || fstat(hot_seq, &st))
		die("open %s: %s", path, strerror(errno));
	hot_pages = st.st_size / BLOCK;
	if (!hot_pages)
		die("%s is empty", path);
	posix_fadvise(hot_rnd, 0, 0, POSIX_FADV_RANDOM);
}

static void map_hot(const char *advice)
{
	void *p = mmap(NULL, hot_pages * BLOCK, PROT_READ, MAP_SHARED, hot_rnd, 0);
	int adv;

	if (!strcmp(advice, "normal"))
		adv = MADV_NORMAL;
	else if (!strcmp(advice, "random"))
		adv = MADV_RANDOM;
	else
		die("-m must be normal or random, got '%s'", advice);
	if (p == MAP_FAILED || madvise(p, hot_pages * BLOCK, adv))
		die("mmap hot: %s", strerror(errno));
	hot_map = p;
}

/* One random 4 KiB block of the hot file: 1 if it was cached. */
static int hot_read(int check)
{
	uint64_t off = xorshift64s(&rng) % hot_pages * BLOCK;
	int hit = check ? cached_pages(hot_rnd, off, BLOCK) == 1 : 0;

	if (hot_map)
		(void)hot_map[off];
	else if (pread(hot_rnd, buf, BLOCK, off) != BLOCK)
		die("pread hot: %s", strerror(errno));
	return hit;
}

/* With -M: the hot file of the second half of the stream. */
static void open_moved(const char *path)
{
	struct stat st;

	moved_fd = open(path, O_RDONLY);
	if (moved_fd < 0 || fstat(moved_fd, &st))
		die("open %s: %s", path, strerror(errno));
	moved_pages = st.st_size / BLOCK;
	if (moved_pages != hot_pages)
		die("%s has %llu pages, the hot file %llu", path,
		    (unsigned long long)moved_pages, (unsigned long long)hot_pages);
	posix_fadvise(moved_fd, 0, 0, POSIX_FADV_RANDOM);
}

/* The stream: the regular files of a directory, in name order, once each. */
static struct dirent **names;
static int nr_names, next_name;
static const char *stream_dir;

static void open_stream(const char *dir)
{
	stream_dir = dir;
	nr_names = scandir(dir, &names, NULL, alphasort);
	if (nr_names < 0)
		die("scandir %s: %s", dir, strerror(errno));
}

/* The bytes of the stream's files. */
static long long stream_bytes(void)
{
	long long total = 0;
	char path[512];
	struct stat st;

	for (int i = 0; i < nr_names; i++) {
		if (names[i]->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", stream_dir, names[i]->d_name);
		if (stat(path, &st))
			die("stat %s: %s", path, strerror(errno));
		total += st.st_size;
	}
	return total;
}

/* Open the next stream file, or return -1 if none is left. */
static int next_stream_file(void)
{
	char path[512];
	int fd;

	while (next_name < nr_names && names[next_name]->d_name[0] == '.')
		next_name++;
	if (next_name == nr_names)
		return -1;
	snprintf(path, sizeof(path), "%s/%s", stream_dir, names[next_name++]->d_name);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		die("open %s: %s", path, strerror(errno));
	return fd;
}

/* Map a whole stream file read-only and shared; its size in *@size. */
static const volatile char *map_file(int fd, size_t *size)
{
	struct stat st;
	void *p;

	if (fstat(fd, &st))
		die("fstat stream: %s", strerror(errno));
	*size = st.st_size;
	if (!*size)
		return NULL;
	p = mmap(NULL, *size, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		die("mmap stream: %s", strerror(errno));
	return p;
}

static const char *dev;
static long long refaults0, ios0;

static void phase_start(void)
{
	refaults0 = memcg_stat("workingset_refault_file");
	ios0 = dev ? dev_stat(dev, DEV_READ_IOS) : 0;
}

static void phase_end_json(void)
{
	printf("\"refaults\":%lld", memcg_stat("workingset_refault_file") - refaults0);
	if (dev)
		printf(",\"dev_read_ios\":%lld", dev_stat(dev, DEV_READ_IOS) - ios0);
	printf(",\"cache_pages\":%lld", (memcg_stat("file") - memcg_stat("shmem")) / BLOCK);
}

/*
 * The hits and reads of the moved hot set, per window and in all; the
 * fraction of the first hot set cached at the end of each window.
 */
static long long total_bytes, moved_hits[MOVED_WINDOWS], moved_reads[MOVED_WINDOWS];
static double old_cached[MOVED_WINDOWS];

/* The fraction of the first hot set that is cached. */
static double old_fraction(void)
{
	return (double)cached_pages(hot_seq, 0, hot_pages * BLOCK) / hot_pages;
}

/*
 * The K hot reads after each CHUNK of the stream, counting their hits; with
 * -M, from the middle of the stream (@streamed bytes so far) on, of the
 * moved hot set, counted per window.
 */
static void hot_reads_after_chunk(long k, long long streamed, long long *hits, long long *reads)
{
	long long half = total_bytes / 2;
	int w;

	if (moved_fd >= 0 && streamed > half) {
		hot_rnd = moved_fd;
		w = (streamed - half - 1) * MOVED_WINDOWS / (total_bytes - half);
		w = w < MOVED_WINDOWS ? w : MOVED_WINDOWS - 1;
		/* the first chunk of a window closes the one before */
		if (w > 0 && !moved_reads[w])
			old_cached[w - 1] = old_fraction();
		for (long i = 0; i < k; i++) {
			moved_hits[w] += hot_read(1);
			moved_reads[w]++;
		}
		return;
	}
	for (long i = 0; i < k; i++) {
		*hits += hot_read(1);
		(*reads)++;
	}
}

/* With -M: the moved hot set's hit ratio, in all and per window. */
static void moved_json(void)
{
	long long hits = 0, reads = 0;

	for (int w = 0; w < MOVED_WINDOWS; w++) {
		hits += moved_hits[w];
		reads += moved_reads[w];
		printf("\"moved_w%d\":%.4f,", w + 1,
		       moved_reads[w] ? (double)moved_hits[w] / moved_reads[w] : 0.0);
	}
	old_cached[MOVED_WINDOWS - 1] = old_fraction();
	for (int w = 0; w < MOVED_WINDOWS; w++)
		printf("\"old_w%d\":%.4f,", w + 1, old_cached[w]);
	if (!reads)
		die("the stream is too short to move the hot set");
	printf("\"moved_reads\":%lld,\"moved_hit_ratio\":%.4f,", reads, (double)hits / reads);
}

static void mix(long k, long warm, int stream_mapped)
{
	long long hot_reads = 0, hits = 0, streamed = 0;
	double t;
	ssize_t n;
	int fd;

	total_bytes = stream_bytes();
	for (long i = 0; i < warm; i++)
		read_all(hot_seq);
	phase_start();
	t = now_us();
	while ((fd = next_stream_file()) >= 0) {
		if (stream_mapped) {
			size_t size;
			const volatile char *p = map_file(fd, &size);

			for (size_t off = 0; off + CHUNK <= size; off += CHUNK) {
				for (size_t b = 0; b < CHUNK; b += BLOCK)
					(void)p[off + b];
				streamed += CHUNK;
				hot_reads_after_chunk(k, streamed, &hits, &hot_reads);
			}
			if (p)
				munmap((void *)p, size);
			close(fd);
			continue;
		}
		while ((n = read(fd, buf, CHUNK)) > 0) {
			streamed += n;
			hot_reads_after_chunk(k, streamed, &hits, &hot_reads);
		}
		if (n < 0)
			die("read stream: %s", strerror(errno));
		close(fd);
	}
	t = now_us() - t;
	if (!hot_reads)
		die("the stream directory %s has no data", stream_dir);
	printf("{\"hot_reads\":%lld,\"hot_hits\":%lld,\"hit_ratio\":%.4f,"
	       "\"stream_mib\":%.1f,\"seconds\":%.2f,\"mapped\":%d,\"stream_mapped\":%d,",
	       hot_reads, hits, (double)hits / hot_reads, streamed / 1048576.0, t / 1e6,
	       !!hot_map, stream_mapped);
	if (moved_fd >= 0)
		moved_json();
	phase_end_json();
	printf("}\n");
}

static void idle(long rounds, long passes, long budget_mib)
{
	double sum = 0;
	int fd;

	phase_start();
	printf("{");
	for (long r = 1; r <= rounds; r++) {
		long long streamed = 0;
		double res;

		for (long i = 0; i < passes; i++)
			read_all(hot_seq);
		while (streamed < budget_mib << 20) {
			fd = next_stream_file();
			if (fd < 0)
				die("the stream in %s is shorter than %ld x %ld MiB",
				    stream_dir, rounds, budget_mib);
			streamed += read_all(fd);
			close(fd);
		}
		res = (double)cached_pages(hot_rnd, 0, hot_pages * BLOCK) / hot_pages;
		sum += res;
		printf("\"residency_r%ld\":%.4f,", r, res);
	}
	printf("\"residency_mean\":%.4f,", sum / rounds);
	phase_end_json();
	printf("}\n");
}

static void fit(long ops)
{
	double t;

	read_all(hot_seq);
	read_all(hot_seq);
	t = now_us();
	for (long i = 0; i < ops; i++)
		hot_read(0);
	t = now_us() - t;
	printf("{\"ops\":%ld,\"seconds\":%.3f,\"ops_per_s\":%.1f,\"resident_end\":%.4f}\n",
	       ops, t / 1e6, ops / (t / 1e6),
	       (double)cached_pages(hot_rnd, 0, hot_pages * BLOCK) / hot_pages);
}

static void probe(long kib, long ms, const char *cg, char *const *cmd)
{
	uint64_t len = kib << 10, pages = (len + BLOCK - 1) / BLOCK;
	long long misses = 0, missed_pages = 0;
	struct samples lat = { 0 };
	struct timespec next;
	double t0, t;
	pid_t pid;
	int status;

	if (len > hot_pages * BLOCK)
		die("-b %ld: the hot file has only %llu KiB", kib,
		    (unsigned long long)hot_pages * BLOCK >> 10);
	/* accessed twice: hot before the first probe */
	for (int i = 0; i < 2; i++)
		if (pread(hot_rnd, buf, len, 0) != (ssize_t)len)
			die("pread hot: %s", strerror(errno));
	phase_start();
	t0 = now_us();
	pid = spawn(cmd, cg);
	clock_gettime(CLOCK_MONOTONIC, &next);
	while ((status = spawn_status(pid)) < 0) {
		uint64_t missing = pages - cached_pages(hot_rnd, 0, len);

		t = now_us();
		if (pread(hot_rnd, buf, len, 0) != (ssize_t)len)
			die("pread hot: %s", strerror(errno));
		t = now_us() - t;
		samples_add(&lat, t);
		misses += !!missing;
		missed_pages += missing;
		/* the next tick; after a late probe, one interval from now */
		if (now_us() > next.tv_sec * 1e6 + next.tv_nsec / 1e3 + ms * 1000)
			clock_gettime(CLOCK_MONOTONIC, &next);
		next.tv_nsec += ms * 1000000;
		next.tv_sec += next.tv_nsec / 1000000000;
		next.tv_nsec %= 1000000000;
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
	}
	t = now_us() - t0;
	if (status)
		die("%s exited with status %d", cmd[0], status);
	if (!lat.n)
		die("%s ended before the first probe", cmd[0]);
	samples_sort(&lat);
	printf("{\"probes\":%lld,\"probe_misses\":%lld,\"missed_pages\":%lld,"
	       "\"miss_ratio\":%.5f,\"p50_us\":%.1f,\"p99_us\":%.1f,\"max_us\":%.1f,"
	       "\"command_s\":%.2f,",
	       (long long)lat.n, misses, missed_pages, (double)misses / lat.n,
	       percentile(&lat, 50), percentile(&lat, 99), lat.v[lat.n - 1],
	       t / 1e6);
	phase_end_json();
	printf("}\n");
	free(lat.v);
}

static void usage(void)
{
	fprintf(stderr,
		"usage: hotstream mix  -H HOT -s DIR -k K [-w PASSES] [-d DEV] [-m ADVICE] [-S]\n"
		"                      [-M MOVED]\n"
		"       hotstream idle -H HOT -s DIR -r ROUNDS -p PASSES -b MIB [-d DEV]\n"
		"       hotstream fit  -H HOT -n OPS\n"
		"       hotstream probe -H HOT -b KIB -i MS -c CGROUP -- COMMAND [ARG...]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	long k = 0, warm = 1, rounds = 0, passes = 0, budget = 0, ops = 0, ms = 0;
	const char *advice = NULL, *cg = NULL;
	const char *hot = NULL, *dir = NULL, *moved = NULL, *mode;
	int opt, stream_mapped = 0;

	if (argc < 2)
		usage();
	mode = argv[1];
	optind = 2;
	while ((opt = getopt(argc, argv, "H:s:k:w:d:r:p:b:n:m:Si:c:M:")) != -1) {
		switch (opt) {
		case 'H': hot = optarg; break;
		case 's': dir = optarg; break;
		case 'k': k = num(optarg, 1, 1024, "-k"); break;
		case 'w': warm = num(optarg, 0, 100, "-w"); break;
		case 'd': dev = optarg; break;
		case 'r': rounds = num(optarg, 1, 100, "-r"); break;
		case 'p': passes = num(optarg, 1, 100, "-p"); break;
		case 'b': budget = num(optarg, 1, 1 << 20, "-b"); break;
		case 'n': ops = num(optarg, 1, 1L << 40, "-n"); break;
		case 'm': advice = optarg; break;
		case 'S': stream_mapped = 1; break;
		case 'i': ms = num(optarg, 1, 10000, "-i"); break;
		case 'c': cg = optarg; break;
		case 'M': moved = optarg; break;
		default: usage();
		}
	}
	/* only probe takes a command, after "--" */
	if (!hot || (optind != argc) != !strcmp(mode, "probe"))
		usage();
	open_hot(hot);
	if ((advice || stream_mapped || moved) && strcmp(mode, "mix"))
		usage();
	/* the moved hot set is read with pread() only */
	if (moved && advice)
		usage();
	if ((ms || cg) && strcmp(mode, "probe"))
		usage();
	if (!strcmp(mode, "mix") && dir && k) {
		if (advice)
			map_hot(advice);
		if (moved)
			open_moved(moved);
		open_stream(dir);
		mix(k, warm, stream_mapped);
	} else if (!strcmp(mode, "idle") && dir && rounds && passes && budget) {
		open_stream(dir);
		idle(rounds, passes, budget);
	} else if (!strcmp(mode, "fit") && ops) {
		fit(ops);
	} else if (!strcmp(mode, "probe") && budget && ms && cg) {
		if (budget > CHUNK >> 10)
			die("-b %ld: a probe reads at most %d KiB", budget, CHUNK >> 10);
		probe(budget, ms, cg, argv + optind);
	} else {
		usage();
	}
	return 0;
}
