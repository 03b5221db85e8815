// SPDX-License-Identifier: MIT
/*
 * bench_render.c - `uprocfs bench render`: what each file costs to render
 * for a typical task of a synthetic machine (open, read whole, close through
 * the seq_file protocol), beside the live kernel's open+read+close of the same
 * file on this machine (this process's own for per-pid files), in one run.
 */
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "spec.h"
#include "uprocfs/procfs.h"

#define BUF (1u << 20)

struct render_job {
	struct pfs_node f;
	struct pfs_ctx ctx;
	size_t iters, bytes;
	char *buf;
};

static void render_pass(void *arg)
{
	struct render_job *j = arg;

	for (size_t i = 0; i < j->iters; i++) {
		struct seq_file m;
		loff_t pos = 0;
		ssize_t n;

		if (pfs_open(&m, &j->f, &j->ctx))
			exit(1);
		j->bytes = 0;
		while ((n = seq_read(&m, j->buf + j->bytes, BUF - j->bytes, &pos)) > 0)
			j->bytes += (size_t)n;
		seq_release(&m);
	}
	bench_escape(j->buf);
}

struct live_job {
	char path[64];
	size_t iters;
	char *buf;
	bool ok;
};

static void live_pass(void *arg)
{
	struct live_job *j = arg;

	for (size_t i = 0; i < j->iters; i++) {
		int fd = open(j->path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			j->ok = false;
			return;
		}
		while (read(fd, j->buf, BUF) > 0)
			;
		close(fd);
	}
}

/* A typical task: a user process with a full set of mappings and a few threads at most. */
static const struct mach_process *typical(const struct mach_machine *m)
{
	for (size_t i = 0; i < m->nprocs; i++) {
		const struct mach_process *p = &m->procs[i];
		if (p->mm && p->mm->nvmas >= 20 && p->nthreads <= 4 && p->threads[0].state == MACH_TASK_SLEEPING)
			return p;
	}
	return m->nprocs ? &m->procs[m->nprocs - 1] : NULL;
}

int bench_render(const struct bench_opts *o)
{
	struct mach_machine *m;
	const struct mach_process *p;
	char err[256];
	int passes = o->quick ? 9 : 21;
	size_t iters = o->quick ? 2000 : 20000;

	if (mach_from_spec("synth", &m, err, sizeof(err))) {
		fprintf(stderr, "bench render: %s\n", err);
		return 1;
	}
	p = typical(m);
	for (size_t i = 0; i < pfs_nentries; i++) {
		const struct pfs_entry *e = &pfs_entries[i];
		bool per_pid = !(e->scopes & PFS_IN(PFS_SCOPE_GLOBAL));
		struct render_job rj = { .iters = iters };
		struct live_job lj = { .iters = iters, .ok = true };
		double ours, kernel = 0, unused;
		char note[96];

		if (e->kind != PFS_FILE || e->load == MACH_LD_NONE)
			continue;
		rj.f = (struct pfs_node){ .entry = e, .scope = per_pid ? PFS_SCOPE_TGID : PFS_SCOPE_GLOBAL,
					  .pid = per_pid ? p->tgid : 0 };
		rj.ctx = (struct pfs_ctx){ .ptrace_ok = true };
		if (pfs_bind(m, &rj.f, &rj.ctx))
			continue; /* this machine has no such file */
		rj.buf = malloc(BUF);
		lj.buf = malloc(BUF);
		if (!rj.buf || !lj.buf)
			return 1;
		bench_progress(o, "render: %s", e->path);
		bench_pair(render_pass, &rj, render_pass, &rj, passes, &ours, &unused);
		snprintf(lj.path, sizeof(lj.path), per_pid ? "/proc/self/%s" : "/proc/%s", e->path);
		if (!access(lj.path, R_OK)) {
			/*
			 * Some of the kernel's files cost milliseconds (/proc/net/tcp walks
			 * the whole established hash): as many reads as fit in the time
			 * the others take, and never fewer than 20.
			 */
			uint64_t t0 = bench_now_ns(), one;

			lj.iters = 1;
			live_pass(&lj);
			one = bench_now_ns() - t0;
			lj.iters = one * iters > (uint64_t)iters * 20000 ? (size_t)((uint64_t)iters * 20000 / one) : iters;
			if (lj.iters < 20)
				lj.iters = 20;
			bench_pair(live_pass, &lj, live_pass, &lj, passes, &kernel, &unused);
			if (!lj.ok)
				kernel = 0;
		}
		snprintf(note, sizeof(note), "%zu B rendered%s", rj.bytes, kernel > 0 ? "" : "; the kernel here has no such file");
		char name[48];
		snprintf(name, sizeof(name), "%s%s", per_pid ? "pid/" : "", e->path);
		struct bench_result r = {
			.bench = "render", .case_name = name, .unit = "ns/file",
			.value = ours / (double)iters, .note = note,
		};
		if (kernel > 0) {
			r.baseline = "live_kernel";
			r.baseline_value = kernel / (double)lj.iters;
		}
		bench_report(o, &r);
		free(rj.buf);
		free(lj.buf);
	}
	bench_progress(o, "%s", "");
	mach_free(m);
	return 0;
}
