// SPDX-License-Identifier: MIT
/*
 * bench_smaps.c - part of `uprocfs bench render`: /proc/<pid>/smaps of a
 * task with 1000 mappings, rendered from the model, beside the kernel's
 * open+read+close of the smaps of a live process with 1000 mappings (a
 * child started here, which maps them, touches them and sleeps).
 *
 * The synthetic task's mappings are a typical process's, repeated (packed
 * a page apart) until there are 1000 of them: the same mix of file,
 * anonymous and special mappings, names and counters.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#include "bench.h"
#include "uprocfs/procfs.h"

#define NVMAS 1000

/* A machine of one process whose mm repeats @p's mappings until it has NVMAS. */
static struct mach_machine *thousand(const struct mach_process *p)
{
	const struct mach_mm *src = p->mm;
	const struct mach_vma *sv;
	size_t own = mach_mm_vmas(src, &sv) ? 0 : mach_vmas_own(sv, src->nvmas);
	struct mach_machine *m = mach_new();
	struct mach_process *q;
	struct mach_mm *mm;
	uint64_t at = own ? sv[0].start : 0x10000;

	if (!m || !own || !(m->procs = calloc(1, sizeof(*q))) || !(mm = calloc(1, sizeof(*mm))))
		goto fail;
	m->nprocs = 1;
	q = &m->procs[0];
	*q = (struct mach_process){ .tgid = p->tgid, .ppid = p->ppid, .nthreads = 1, .nr_threads = 1, .mm = mm };
	if (!(q->threads = calloc(1, sizeof(*q->threads))) || !(mm->vmas = calloc(NVMAS, sizeof(*mm->vmas))))
		goto fail;
	q->threads[0] = (struct mach_thread){ .tid = p->tgid, .state = MACH_TASK_SLEEPING };
	{
		struct mach_vma *vmas = mm->vmas;

		*mm = *src;
		mm->vmas = vmas;
		mm->maker = NULL; /* this one stores its VMAs */
		/* what mach_mm_free frees is its own copy, never the source's */
		mm->cmdline = mm->environ = NULL;
		mm->exe = src->exe ? strdup(src->exe) : NULL;
		mm->nvmas = NVMAS;
	}
	for (size_t i = 0; i < NVMAS; i++) {
		const struct mach_vma *v = &sv[i % own];

		/* the same sizes, packed from where the process's first mapping is, a page apart */
		mm->vmas[i] = *v;
		mm->vmas[i].start = at;
		mm->vmas[i].end = at + (v->end - v->start);
		mm->vmas[i].name = v->name ? strdup(v->name) : NULL;
		at = mm->vmas[i].end + 4096;
	}
	return m;
fail:
	mach_free(m);
	return NULL;
}

/* A live child with NVMAS mappings: private pages, every other one read-only so none merge. */
static pid_t live_thousand(void)
{
	int ready[2];
	char c;
	pid_t pid;

	if (pipe(ready))
		return -1;
	pid = fork();
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(ready[0]);
		for (int i = 0; i < NVMAS - 30; i++) {
			char *a = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

			if (a == MAP_FAILED)
				_exit(1);
			a[0] = 1;
			if (i % 2)
				mprotect(a, 4096, PROT_READ);
		}
		if (write(ready[1], "r", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(ready[1]);
	if (pid < 0 || read(ready[0], &c, 1) != 1) {
		close(ready[0]);
		if (pid > 0) {
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
		}
		return -1;
	}
	close(ready[0]);
	return pid;
}

void bench_render_smaps_1000(const struct bench_opts *o, const struct mach_process *typical)
{
	struct mach_machine *m = typical && typical->mm ? thousand(typical) : NULL;
	struct bench_render_job model = { .iters = o->quick ? 20 : 200 };
	struct bench_live_job kernel = { .iters = o->quick ? 20 : 200, .ok = true };
	int passes = o->quick ? 5 : 11;
	double ours, theirs = 0, unused;
	char note[160];
	pid_t pid;

	if (!m)
		return;
	model.f = (struct pfs_node){ .entry = NULL, .scope = PFS_SCOPE_TGID, .pid = m->procs[0].tgid };
	for (size_t i = 0; i < pfs_nentries; i++)
		if (!strcmp(pfs_entries[i].path, "smaps") && (pfs_entries[i].scopes & PFS_IN(PFS_SCOPE_TGID)))
			model.f.entry = &pfs_entries[i];
	model.ctx.ptrace_ok = true;
	model.buf = malloc(BENCH_RENDER_BUF);
	kernel.buf = malloc(BENCH_RENDER_BUF);
	pid = live_thousand();
	if (!model.f.entry || pfs_bind(m, &model.f, &model.ctx) || !model.buf || !kernel.buf || pid < 0)
		goto out;
	bench_progress(o, "render: smaps of %d mappings", NVMAS);
	bench_pair(bench_render_pass, &model, bench_render_pass, &model, passes, &ours, &unused);
	snprintf(kernel.path, sizeof(kernel.path), "/proc/%d/smaps", (int)pid);
	bench_pair(bench_live_pass, &kernel, bench_live_pass, &kernel, passes, &theirs, &unused);
	snprintf(note, sizeof(note), "%zu B rendered; the kernel's, of a live process with %d mappings: %zu B",
		 model.bytes, NVMAS, kernel.bytes);
	struct bench_result r = {
		.bench = "render", .case_name = "pid/smaps, 1000 mappings", .unit = "ns/file",
		.value = ours / (double)model.iters, .note = note,
	};
	if (kernel.ok && theirs > 0) {
		r.baseline = "live_kernel";
		r.baseline_value = theirs / (double)kernel.iters;
	}
	bench_report(o, &r);
out:
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
	free(model.buf);
	free(kernel.buf);
	mach_free(m);
}
