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

#define BUF BENCH_RENDER_BUF

void bench_render_pass(void *arg)
{
	struct bench_render_job *j = arg;

	for (size_t i = 0; i < j->iters; i++) {
		struct seq_file m;
		loff_t pos = 0;
		ssize_t n;

		if (pfs_open(&m, &j->f, &j->ctx))
			exit(1);
		j->bytes = 0;
		while ((n = seq_read(&m, j->buf + j->bytes, (j->cap ? j->cap : BENCH_RENDER_BUF) - j->bytes, &pos)) > 0)
			j->bytes += (size_t)n;
		seq_release(&m);
	}
	bench_escape(j->buf);
}

void bench_live_pass(void *arg)
{
	struct bench_live_job *j = arg;
	ssize_t n;

	for (size_t i = 0; i < j->iters; i++) {
		int fd = open(j->path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			j->ok = false;
			return;
		}
		j->bytes = 0;
		while ((n = read(fd, j->buf, BUF)) > 0)
			j->bytes += (size_t)n;
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

/*
 * /proc/interrupts against /proc/stat on one 1024-CPU machine: a row per irq
 * and arch counter, a column per CPU, beside stat's line per CPU.  The goal
 * is within 10x of stat.
 */
static int interrupts_vs_stat(const struct bench_opts *o)
{
	struct mach_machine *m;
	struct bench_render_job irqs = { .iters = o->quick ? 30 : 300, .cap = 4 * BUF }, stat = irqs;
	int passes = o->quick ? 9 : 21;
	double irq_ns, stat_ns;
	char err[256], note[128];

	if (mach_from_spec("synth:cpus=1024,tasks=200", &m, err, sizeof(err))) {
		fprintf(stderr, "bench render: %s\n", err);
		return 1;
	}
	bench_progress(o, "render: interrupts vs stat, 1024 CPUs");
	irqs.buf = malloc(BUF * 4);
	stat.buf = malloc(BUF * 4);
	if (!irqs.buf || !stat.buf || pfs_resolve(m, "interrupts", &irqs.f, &irqs.ctx, err, sizeof(err)) ||
	    pfs_resolve(m, "stat", &stat.f, &stat.ctx, err, sizeof(err))) {
		fprintf(stderr, "bench render: %s\n", err);
		return 1;
	}
	bench_pair(bench_render_pass, &stat, bench_render_pass, &irqs, passes, &stat_ns, &irq_ns);
	snprintf(note, sizeof(note), "%zu B vs stat's %zu B; goal: within 10x of stat", irqs.bytes, stat.bytes);
	struct bench_result r = {
		.bench = "render", .case_name = "interrupts_1024cpu", .unit = "ns/file",
		.value = irq_ns / (double)irqs.iters, .baseline = "stat_1024cpu",
		.baseline_value = stat_ns / (double)stat.iters, .note = note,
	};
	bench_report(o, &r);
	free(irqs.buf);
	free(stat.buf);
	mach_free(m);
	return 0;
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
		struct bench_render_job rj = { .iters = iters, .cap = BUF };
		struct bench_live_job lj = { .iters = iters, .ok = true };
		double ours, kernel = 0, unused;
		char note[96], rel[64];

		if (e->kind != PFS_FILE || e->load == MACH_LD_NONE)
			continue;
		/* /sys files have no task to bind to here: `bench sys` times those */
		if (e->scopes & (PFS_IN(PFS_SCOPE_SYS) | PFS_IN(PFS_SCOPE_SYSOBJ)))
			continue;
		/* a collection's file (fdinfo/N): its fd 0, which this process has too */
		rj.f = (struct pfs_node){ .entry = e, .scope = per_pid ? PFS_SCOPE_TGID : PFS_SCOPE_GLOBAL,
					  .pid = per_pid ? p->tgid : 0, .inst = 0 };
		rj.ctx = (struct pfs_ctx){ .ptrace_ok = true };
		if (pfs_bind(m, &rj.f, &rj.ctx))
			continue; /* this machine has no such file */
		rj.buf = malloc(BUF);
		lj.buf = malloc(BUF);
		if (!rj.buf || !lj.buf)
			return 1;
		bench_progress(o, "render: %s", e->path);
		bench_pair(bench_render_pass, &rj, bench_render_pass, &rj, passes, &ours, &unused);
		/* the kernel's file of this process: "self" in place of the task's pid */
		if (pfs_node_path(&rj.f, &rj.ctx, rel, sizeof(rel)))
			continue;
		snprintf(lj.path, sizeof(lj.path), "/proc/%s%s", per_pid ? "self" : "", per_pid ? strchr(rel, '/') : rel);
		if (!access(lj.path, R_OK)) {
			/*
			 * Some of the kernel's files cost milliseconds (/proc/net/tcp walks
			 * the whole established hash): as many reads as fit in the time
			 * the others take, and never fewer than 20.
			 */
			uint64_t t0 = bench_now_ns(), one;

			lj.iters = 1;
			bench_live_pass(&lj);
			one = bench_now_ns() - t0;
			lj.iters = one * iters > (uint64_t)iters * 20000 ? (size_t)((uint64_t)iters * 20000 / one) : iters;
			if (lj.iters < 20)
				lj.iters = 20;
			bench_pair(bench_live_pass, &lj, bench_live_pass, &lj, passes, &kernel, &unused);
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
	bench_render_smaps_1000(o, p);
	bench_render_vmas_made(o);
	bench_progress(o, "%s", "");
	mach_free(m);
	return interrupts_vs_stat(o);
}
