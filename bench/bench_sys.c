// SPDX-License-Identifier: MIT
/*
 * bench_sys.c - `uprocfs bench sys`: /sys/devices/system/cpu of a 4096-CPU
 * machine.  Its listing (4096 cpuN directories among the attributes, in
 * kernfs hash order, as FUSE's opendir builds it) and its `online` list
 * must each take under a millisecond; the live kernel's of this machine
 * (with its few CPUs) is printed beside them for scale.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "spec.h"
#include "uprocfs/procfs.h"

#define SYS_CPU "/sys/devices/system/cpu"

struct list_job {
	struct pfs_node dir;
	struct pfs_ctx ctx;
	size_t iters, n;
	bool ok;
};

/* What FUSE's opendir does: every child of the directory, sorted by kernfs hash. */
static void list_pass(void *arg)
{
	struct list_job *j = arg;

	for (size_t i = 0; i < j->iters; i++) {
		struct pfs_listing l = { 0 };

		if (pfs_dir_list(&j->dir, &j->ctx, &l)) {
			j->ok = false;
			return;
		}
		j->n = l.n;
		bench_escape(l.ents);
		pfs_listing_free(&l);
	}
}

/* The live kernel's: opendir, readdir to the end, closedir. */
static void live_list_pass(void *arg)
{
	struct list_job *j = arg;

	for (size_t i = 0; i < j->iters; i++) {
		DIR *d = opendir(SYS_CPU);
		size_t n = 0;

		if (!d) {
			j->ok = false;
			return;
		}
		while (readdir(d))
			n++;
		closedir(d);
		j->n = n - 2; /* . and .. */
	}
}

static void report_ms(const struct bench_opts *o, const char *name, double ns, const char *base, double base_ns,
		      const char *note)
{
	struct bench_result r = {
		.bench = "sys", .case_name = name, .unit = "ns/op", .value = ns,
		.baseline = base, .baseline_value = base_ns, .note = note,
	};

	bench_report(o, &r);
}

static int bench_listing(const struct bench_opts *o, const struct mach_machine *m, int passes)
{
	struct list_job ours = { .iters = o->quick ? 20 : 200, .ok = true }, live = { .iters = 2000, .ok = true };
	double ours_ns, live_ns = 0, unused;
	char err[256], note[160];

	if (pfs_resolve(m, SYS_CPU, &ours.dir, &ours.ctx, err, sizeof(err))) {
		fprintf(stderr, "bench sys: %s\n", err);
		return 1;
	}
	bench_progress(o, "sys: %s listing, 4096 CPUs", SYS_CPU);
	bench_pair(list_pass, &ours, list_pass, &ours, passes, &ours_ns, &unused);
	if (!ours.ok)
		return 1;
	bench_pair(live_list_pass, &live, live_list_pass, &live, passes, &live_ns, &unused);
	ours_ns /= (double)ours.iters;
	snprintf(note, sizeof(note), "%zu entries vs the kernel's %zu here; goal: under 1 ms (%s)", ours.n,
		 live.ok ? live.n : 0, ours_ns < 1e6 ? "met" : "MISSED");
	report_ms(o, "cpu_listing_4096cpu", ours_ns, live.ok ? "live_kernel" : NULL, live_ns / (double)live.iters,
		  note);
	return ours_ns < 1e6 ? 0 : 1;
}

static int bench_online(const struct bench_opts *o, const struct mach_machine *m, int passes)
{
	struct bench_render_job rj = { .iters = o->quick ? 200 : 2000, .cap = BENCH_RENDER_BUF };
	struct bench_live_job lj = { .iters = 2000, .ok = true };
	double ours_ns, live_ns = 0, unused;
	char err[256], note[160];
	int rc = 1;

	rj.buf = malloc(BENCH_RENDER_BUF);
	lj.buf = malloc(BENCH_RENDER_BUF);
	snprintf(lj.path, sizeof(lj.path), "%s/online", SYS_CPU);
	if (!rj.buf || !lj.buf || pfs_resolve(m, SYS_CPU "/online", &rj.f, &rj.ctx, err, sizeof(err))) {
		fprintf(stderr, "bench sys: %s\n", rj.buf && lj.buf ? err : "out of memory");
		goto out;
	}
	bench_progress(o, "sys: %s/online, 4096 CPUs", SYS_CPU);
	bench_pair(bench_render_pass, &rj, bench_render_pass, &rj, passes, &ours_ns, &unused);
	bench_pair(bench_live_pass, &lj, bench_live_pass, &lj, passes, &live_ns, &unused);
	ours_ns /= (double)rj.iters;
	snprintf(note, sizeof(note), "\"%.*s\" (%zu B); goal: under 1 ms (%s)", rj.bytes && rj.buf[rj.bytes - 1] == '\n'
		 ? (int)rj.bytes - 1 : (int)rj.bytes, rj.buf, rj.bytes, ours_ns < 1e6 ? "met" : "MISSED");
	report_ms(o, "cpu_online_4096cpu", ours_ns, lj.ok ? "live_kernel" : NULL, live_ns / (double)lj.iters, note);
	rc = ours_ns < 1e6 ? 0 : 1;
out:
	free(rj.buf);
	free(lj.buf);
	return rc;
}

int bench_sys(const struct bench_opts *o)
{
	struct mach_machine *m;
	int passes = o->quick ? 9 : 21, rc;
	char err[256];

	bench_progress(o, "sys: building a 4096-CPU machine");
	if (mach_from_spec("synth:cpus=4096,tasks=200", &m, err, sizeof(err))) {
		fprintf(stderr, "bench sys: %s\n", err);
		return 1;
	}
	rc = bench_listing(o, m, passes);
	rc |= bench_online(o, m, passes);
	bench_progress(o, "%s", "");
	mach_free(m);
	return rc;
}
