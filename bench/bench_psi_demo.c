// SPDX-License-Identifier: MIT
/*
 * bench_psi_demo.c - `uprocfs bench psi_demo`: one load, run for 30 s on this
 * machine and in the simulator, pressure printed side by side.
 *
 * The real load: CPU hogs (one more than there are CPUs, so runnable tasks
 * wait) and a reader of a file opened with O_DIRECT (every read waits on the
 * disk: io pressure).  The simulator gets a machine of as many CPUs with the
 * workload's knobs set to the same shape.  Not a test: the kernel's figures
 * depend on everything else the VM does.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "spec.h"
#include "uprocfs/procfs.h"
#include "uprocfs/sim.h"

#define DIRECT_FILE_SIZE (64u << 20)

static void hog(void)
{
	volatile unsigned long x = 0;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	for (;;)
		x++;
}

/* Read @path with O_DIRECT, block by block, forever: each read waits for the disk. */
static void direct_reader(const char *path)
{
	void *buf;
	int fd;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	fd = open(path, O_RDONLY | O_DIRECT);
	if (fd < 0 || posix_memalign(&buf, 4096, 1 << 20))
		_exit(1);
	for (;;) {
		if (read(fd, buf, 1 << 20) <= 0)
			lseek(fd, 0, SEEK_SET);
	}
}

static int make_file(const char *path)
{
	char *block = calloc(1, 1 << 20);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	if (fd < 0 || !block)
		return -1;
	for (unsigned int i = 0; i < DIRECT_FILE_SIZE >> 20; i++) {
		memset(block, (int)i, 1 << 20);
		if (write(fd, block, 1 << 20) != 1 << 20)
			break;
	}
	fsync(fd);
	close(fd);
	free(block);
	return 0;
}

/* Print @text's lines under @label, the first beside it, the rest aligned. */
static void print_lines(const char *label, const char *text, size_t len)
{
	const char *p = text, *end = text + len;
	bool first = true;

	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		size_t n = eol ? (size_t)(eol - p) : (size_t)(end - p);

		printf("  %-10s %.*s\n", first ? label : "", (int)n, p);
		first = false;
		p += n + 1;
	}
}

static void print_file(const char *label, const char *path)
{
	char buf[512];
	int fd = open(path, O_RDONLY);
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;

	if (fd >= 0)
		close(fd);
	if (n > 0)
		print_lines(label, buf, (size_t)n);
	else
		printf("  %-10s (no such file)\n", label);
}

static void print_rendered(const char *label, const struct mach_machine *m, const char *path)
{
	struct pfs_node f;
	struct pfs_ctx ctx;
	char err[128], *text;
	size_t len;

	if (pfs_resolve(m, path, &f, &ctx, err, sizeof(err)) || pfs_render(&f, &ctx, &text, &len)) {
		printf("  %-10s (none)\n", label);
		return;
	}
	print_lines(label, text, len);
	free(text);
}

int bench_psi_demo(const struct bench_opts *o)
{
	long ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned int seconds = o->quick ? 6 : 30;
	char file[] = "/var/tmp/uprocfs-direct.XXXXXX", spec[128], err[256];
	pid_t kids[64];
	int nkids = 0;
	struct mach_machine *m = NULL;
	struct mach_sim *sim = NULL;
	struct mach_sim_opts so;
	int fd = mkstemp(file);

	if (fd < 0) {
		fprintf(stderr, "bench psi_demo: %s: %s\n", file, strerror(errno));
		return 1;
	}
	close(fd);
	make_file(file);
	if (ncpus < 1)
		ncpus = 1;
	printf("# psi_demo: %ld CPU hogs + 1 O_DIRECT reader for %u s on this machine (%ld CPUs),\n"
	       "# and the same shape in the simulator\n", ncpus + 1, seconds, ncpus);
	printf("real machine, before:\n");
	print_file("cpu", "/proc/pressure/cpu");
	print_file("io", "/proc/pressure/io");
	for (long i = 0; i <= ncpus && nkids < 63; i++) {
		pid_t p = fork();
		if (p == 0)
			hog();
		if (p > 0)
			kids[nkids++] = p;
	}
	pid_t r = fork();
	if (r == 0)
		direct_reader(file);
	if (r > 0)
		kids[nkids++] = r;
	sleep(seconds);
	printf("real machine, after %u s:\n", seconds);
	print_file("cpu", "/proc/pressure/cpu");
	print_file("io", "/proc/pressure/io");
	print_file("loadavg", "/proc/loadavg");
	for (int i = 0; i < nkids; i++)
		kill(kids[i], SIGKILL);
	for (int i = 0; i < nkids; i++)
		waitpid(kids[i], NULL, 0);
	unlink(file);

	/* the simulator: every CPU busy with one task more than CPUs, some io */
	snprintf(spec, sizeof(spec), "synth:cpus=%ld,tasks=60,load=1,io=0.2,mem=0,depth=1,seed=5", ncpus);
	if (mach_from_spec(spec, &m, err, sizeof(err)) || mach_sim_opts_from_spec(spec, &so, err, sizeof(err)) ||
	    mach_sim_create(m, &so, &sim, err, sizeof(err))) {
		fprintf(stderr, "bench psi_demo: %s\n", err);
		mach_free(m);
		return 1;
	}
	mach_sim_advance(sim, m->uptime_ns + 1000000000ull); /* settle */
	printf("simulator (%s), before:\n", spec);
	print_rendered("cpu", m, "/proc/pressure/cpu");
	print_rendered("io", m, "/proc/pressure/io");
	mach_sim_advance(sim, m->uptime_ns + (uint64_t)seconds * 1000000000ull);
	printf("simulator, after %u s:\n", seconds);
	print_rendered("cpu", m, "/proc/pressure/cpu");
	print_rendered("io", m, "/proc/pressure/io");
	print_rendered("loadavg", m, "/proc/loadavg");
	mach_sim_destroy(sim);
	mach_free(m);
	return 0;
}
