// SPDX-License-Identifier: MIT
/*
 * bench_capture.c - `uprocfs bench capture`: loading a 2,000-process capture
 * archive (.tar.zst), as `--machine tree:FILE.tar.zst` and `verify --proc`
 * do, against loading the same tree unpacked in a directory.
 *
 * The capture is a synthetic machine (synth:cpus=16,tasks=2000: 2,000
 * processes, 2,500 threads, every file uprocfs loads) rendered once into an
 * archive and into a directory under $TMPDIR.  Each pass loads it whole
 * into a fresh model; the archive's passes are split into reading it into
 * memory (libarchive: zstd, tar) and the loader's walk over the members.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "capture_read.h"
#include "spec.h"
#include "tree_write.h"
#include "uprocfs/load.h"
#include "uprocfs/procfs.h"

#define SPEC "synth:cpus=16,tasks=2000"

/* CPU time of this thread: what a load costs whatever else the VM runs. */
static uint64_t cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

struct load_job {
	const char *path;
	uint64_t read_ns, load_ns;  /* the archive's two phases, summed over the passes (CPU time) */
	uint64_t cpu_ns;            /* CPU time of whole passes */
	unsigned int calls;
	size_t nprocs;
	bool failed;
};

/* One load of the archive: read into memory, then walked by the loader. */
static void archive_pass(void *arg)
{
	struct load_job *j = arg;
	struct capture_archive a;
	struct mach_load_opts o = { 0 };
	struct mach_machine *m = NULL;
	char err[1024];
	uint64_t t0 = cpu_ns(), t1;

	if (capture_archive_read(j->path, NULL, 0, &a, err, sizeof(err))) {
		fprintf(stderr, "bench capture: %s\n", err);
		j->failed = true;
		return;
	}
	t1 = cpu_ns();
	o.members = a.m;
	o.nmembers = a.n;
	if (pfs_load_tree(a.name, &o, &m, NULL, err, sizeof(err))) {
		fprintf(stderr, "bench capture: %s\n", err);
		j->failed = true;
	} else {
		j->nprocs = m->nprocs;
	}
	j->read_ns += t1 - t0;
	j->load_ns += cpu_ns() - t1;
	j->cpu_ns += cpu_ns() - t0;
	j->calls++;
	mach_free(m);
	capture_archive_free(&a);
}

/* One load of the unpacked directory. */
static void dir_pass(void *arg)
{
	struct load_job *j = arg;
	struct mach_machine *m = NULL;
	char err[1024];
	uint64_t t0 = cpu_ns();

	j->calls++;
	if (capture_load(j->path, NULL, &m, NULL, err, sizeof(err))) {
		fprintf(stderr, "bench capture: %s\n", err);
		j->failed = true;
		return;
	}
	j->nprocs = m->nprocs;
	mach_free(m);
	j->cpu_ns += cpu_ns() - t0;
}

/* The synthetic capture, written as @archive and as @dir. */
static int make_capture(const char *archive, const char *dir)
{
	struct mach_machine *m;
	char err[1024];
	int rc = mach_from_spec(SPEC, &m, err, sizeof(err));

	if (!rc)
		rc = tw_write_machine(m, archive, err, sizeof(err));
	if (!rc)
		rc = tw_write_machine(m, dir, err, sizeof(err));
	if (rc)
		fprintf(stderr, "bench capture: %s\n", err);
	mach_free(m);
	return rc;
}

int bench_capture(const struct bench_opts *o)
{
	const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	char base[512], archive[600], dir[600], cmd[1300], note[300];
	struct load_job aj = { .path = archive }, dj = { .path = dir };
	int passes = o->quick ? 3 : 7;
	double arc_ns, dir_ns;
	int rc = 0;

	snprintf(base, sizeof(base), "%s/uprocfs-bench-capture-XXXXXX", tmp);
	if (!mkdtemp(base)) {
		fprintf(stderr, "bench capture: %s: %s\n", base, strerror(errno));
		return 1;
	}
	snprintf(archive, sizeof(archive), "%s/cap.tar.zst", base);
	snprintf(dir, sizeof(dir), "%s/cap", base);
	bench_progress(o, "capture: rendering %s", SPEC);
	if (make_capture(archive, dir)) {
		rc = 1;
		goto out;
	}
	bench_progress(o, "capture: loading");
	bench_pair(dir_pass, &dj, archive_pass, &aj, passes, &dir_ns, &arc_ns);
	bench_progress(o, "%s", "");
	if (aj.failed || dj.failed) {
		rc = 1;
		goto out;
	}
	snprintf(note, sizeof(note),
		 "%zu processes; CPU time (means): archive %.0f ms (read %.0f + load %.0f), directory %.0f ms", aj.nprocs,
		 (double)aj.cpu_ns / 1e6 / aj.calls, (double)aj.read_ns / 1e6 / aj.calls,
		 (double)aj.load_ns / 1e6 / aj.calls, (double)dj.cpu_ns / 1e6 / dj.calls);
	bench_report(o, &(struct bench_result){ .bench = "capture", .case_name = "load 2,000-process .tar.zst",
						.unit = "ms", .value = arc_ns / 1e6,
						.baseline = "the same tree unpacked in a directory",
						.baseline_value = dir_ns / 1e6, .note = note });
out:
	/* our own scratch directory only */
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base);
	if (!strncmp(base, tmp, strlen(tmp)) && system(cmd))
		fprintf(stderr, "bench capture: could not remove %s\n", base);
	return rc;
}
