// SPDX-License-Identifier: MIT
/*
 * fuse_stress.c - reads a mounted uprocfs tree the awkward ways: one byte at
 * a time, random chunk sizes, random offsets, many threads at once.
 *
 *   fuse_stress chunks MOUNT FILE...      every way of reading a file of
 *                                         stable content gives the same bytes
 *   fuse_stress concurrent MOUNT SECONDS THREADS [--tolerate]
 *                                         threads open/read/close files of
 *                                         the tree; errors are failures unless
 *                                         --tolerate (the tree is unmounted
 *                                         under us).  Every text read must be
 *                                         whole: lines, no NUL, the file's
 *                                         first word (a torn snapshot shows
 *                                         as anything else)
 *
 * Exit status 0 on success; messages on stderr name the file and the read.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAXFILE (1u << 20)

static uint64_t rng = 0x1234567887654321ull;

static uint64_t rnd(uint64_t *s)
{
	uint64_t x = *s;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545F4914F6CDD1Dull;
}

/* Read @fd to EOF with reads of @chunk bytes (0: random sizes). */
static ssize_t read_all(int fd, char *buf, size_t chunk, uint64_t *seed)
{
	size_t have = 0;
	ssize_t n;

	do {
		size_t want = chunk ? chunk : 1 + (size_t)(rnd(seed) % 700);
		if (have + want > MAXFILE)
			want = MAXFILE - have;
		n = read(fd, buf + have, want);
		if (n > 0)
			have += (size_t)n;
	} while (n > 0 && have < MAXFILE);
	return n < 0 ? -1 : (ssize_t)have;
}

static int chunks(const char *mount, char **files, int nfiles)
{
	char *want = malloc(MAXFILE), *got = malloc(MAXFILE), path[4096];
	int failures = 0;

	for (int i = 0; i < nfiles; i++) {
		ssize_t wlen, glen;
		int fd;

		snprintf(path, sizeof(path), "%s/%s", mount, files[i]);
		fd = open(path, O_RDONLY);
		if (fd < 0 || (wlen = read_all(fd, want, 65536, &rng)) < 0) {
			fprintf(stderr, "%s: %s\n", path, strerror(errno));
			failures++;
			if (fd >= 0)
				close(fd);
			continue;
		}
		close(fd);
		/* 1-byte reads, random chunks: one open each */
		for (int mode = 0; mode < 2; mode++) {
			fd = open(path, O_RDONLY);
			glen = fd < 0 ? -1 : read_all(fd, got, mode ? 0 : 1, &rng);
			if (fd >= 0)
				close(fd);
			if (glen != wlen || memcmp(want, got, (size_t)wlen)) {
				fprintf(stderr, "%s: %s reads gave %zd bytes, a whole read %zd\n", path,
					mode ? "random-size" : "1-byte", glen, wlen);
				failures++;
			}
		}
		/* pread at random offsets of one open file: each returns those bytes */
		fd = open(path, O_RDONLY);
		for (int k = 0; fd >= 0 && k < 200; k++) {
			off_t off = wlen ? (off_t)(rnd(&rng) % (uint64_t)(wlen + 5)) : 0;
			size_t n = 1 + (size_t)(rnd(&rng) % 300);
			ssize_t r = pread(fd, got, n, off);
			size_t expect = off >= wlen ? 0 : (size_t)(wlen - off) < n ? (size_t)(wlen - off) : n;

			if (r < 0 || (size_t)r > expect || memcmp(got, want + off, (size_t)r) ||
			    (r == 0 && expect)) {
				fprintf(stderr, "%s: pread(%zu at %lld) gave %zd, want up to %zu\n", path, n,
					(long long)off, r, expect);
				failures++;
				break;
			}
		}
		if (fd >= 0) {
			/* lseek back to 0 and read again: a fresh snapshot, same stable bytes */
			lseek(fd, 0, SEEK_SET);
			glen = read_all(fd, got, 4096, &rng);
			if (glen != wlen || memcmp(want, got, (size_t)wlen)) {
				fprintf(stderr, "%s: read after lseek 0 differs\n", path);
				failures++;
			}
			close(fd);
		}
	}
	free(want);
	free(got);
	return failures ? 1 : 0;
}

struct worker {
	const char *mount;
	double seconds;
	bool tolerate;
	atomic_ulong *reads, *errors;
	pid_t *pids;
	size_t npids;
	unsigned int id;
};

static const char *const pid_files[] = { "status", "stat", "statm", "maps", "cmdline", "comm" };
static const char *const global_files[] = { "stat", "meminfo", "vmstat", "loadavg", "uptime",
					    "pressure/cpu", "pressure/io", "pressure/memory" };

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * Whether @len bytes read from @path (a file of pid_files or global_files)
 * look like that file: what a render from a snapshot rewritten under the
 * reader would not.  cmdline may be empty or hold NULs; maps may be empty.
 */
static bool looks_whole(const char *path, const char *buf, size_t len)
{
	const char *name = strrchr(path, '/') + 1;
	static const struct {
		const char *file, *starts;
	} first[] = { { "status", "Name:\t" }, { "meminfo", "MemTotal:" }, { "vmstat", "nr_free_pages " },
		      { "cpu", "some avg10=" }, { "io", "some avg10=" }, { "memory", "some avg10=" } };

	if (!strcmp(name, "cmdline"))
		return true;
	if (!len)
		return !strcmp(name, "maps");
	if (buf[len - 1] != '\n' || memchr(buf, '\0', len))
		return false;
	for (size_t i = 0; i < sizeof(first) / sizeof(first[0]); i++)
		if (!strcmp(name, first[i].file))
			return len >= strlen(first[i].starts) && !memcmp(buf, first[i].starts, strlen(first[i].starts));
	if (!strcmp(name, "stat")) {
		/* /proc/stat starts "cpu  "; a task's stat "PID (" with its own pid */
		const char *slash = name - 1, *pid = slash;

		while (pid > path && pid[-1] != '/')
			pid--;
		if (pid[0] >= '1' && pid[0] <= '9') {
			size_t n = (size_t)(slash - pid);

			return len > n + 2 && !memcmp(buf, pid, n) && buf[n] == ' ' && buf[n + 1] == '(';
		}
		return len > 5 && !memcmp(buf, "cpu  ", 5);
	}
	return true;
}

static void *work(void *arg)
{
	struct worker *w = arg;
	uint64_t seed = 0x9e3779b97f4a7c15ull * (w->id + 1);
	char *buf = malloc(MAXFILE), path[4096];
	double end = now_s() + w->seconds;

	while (now_s() < end) {
		int fd;

		if (rnd(&seed) % 3 == 0 || !w->npids)
			snprintf(path, sizeof(path), "%s/%s", w->mount, global_files[rnd(&seed) % 8]);
		else
			snprintf(path, sizeof(path), "%s/%d/%s", w->mount, (int)w->pids[rnd(&seed) % w->npids],
				 pid_files[rnd(&seed) % 6]);
		fd = open(path, O_RDONLY);
		ssize_t got = fd < 0 ? -1 : read_all(fd, buf, rnd(&seed) % 2 ? 4096 : 0, &seed);

		if (got >= 0 && !looks_whole(path, buf, (size_t)got)) {
			atomic_fetch_add(w->errors, 1);
			fprintf(stderr, "%s: %zd bytes that are not the file's: %.60s\n", path, got, buf);
		} else if (got < 0) {
			atomic_fetch_add(w->errors, 1);
			if (!w->tolerate)
				fprintf(stderr, "%s: %s\n", path, strerror(errno));
			if (w->tolerate && (errno == ENOTCONN || errno == ENOENT))
				end = 0; /* the tree is gone: done */
		} else {
			atomic_fetch_add(w->reads, 1);
		}
		if (fd >= 0)
			close(fd);
	}
	free(buf);
	return NULL;
}

static size_t list_pids(const char *mount, pid_t *pids, size_t max)
{
	DIR *d = opendir(mount);
	struct dirent *de;
	size_t n = 0;

	while (d && (de = readdir(d)) && n < max) {
		char *end;
		long v = strtol(de->d_name, &end, 10);
		if (!*end && v > 0 && v < 3000000) /* the machine's pids, not ours */
			pids[n++] = (pid_t)v;
	}
	if (d)
		closedir(d);
	return n;
}

static int concurrent(const char *mount, double seconds, unsigned int nthreads, bool tolerate)
{
	atomic_ulong reads = 0, errors = 0;
	pthread_t th[64];
	struct worker w[64];
	pid_t pids[4096];
	size_t npids = list_pids(mount, pids, 4096);

	if (nthreads > 64)
		nthreads = 64;
	for (unsigned int i = 0; i < nthreads; i++) {
		w[i] = (struct worker){ .mount = mount, .seconds = seconds, .tolerate = tolerate,
					.reads = &reads, .errors = &errors, .pids = pids, .npids = npids, .id = i };
		pthread_create(&th[i], NULL, work, &w[i]);
	}
	for (unsigned int i = 0; i < nthreads; i++)
		pthread_join(th[i], NULL);
	printf("concurrent: %u threads, %.0f s, %lu reads, %lu errors, %zu pids\n", nthreads, seconds,
	       (unsigned long)reads, (unsigned long)errors, npids);
	return !tolerate && (errors || !reads) ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc >= 4 && !strcmp(argv[1], "chunks"))
		return chunks(argv[2], argv + 3, argc - 3);
	if (argc >= 5 && !strcmp(argv[1], "concurrent"))
		return concurrent(argv[2], atof(argv[3]), (unsigned int)atoi(argv[4]),
				  argc > 5 && !strcmp(argv[5], "--tolerate"));
	fprintf(stderr, "usage: fuse_stress chunks MOUNT FILE... | concurrent MOUNT SECONDS THREADS [--tolerate]\n");
	return 2;
}
