// SPDX-License-Identifier: MIT
/*
 * bench_vmas_made.c - part of `uprocfs bench render`: what VMAs made on
 * demand (synth:vmas=made, the default) cost a reader.
 *
 * The maps and smaps_rollup of every user process of one machine, in turn,
 * so each file asks for another mm's VMAs than the one before and the
 * per-thread cache never hits: every file replays a build.  Beside it, the
 * same files of the same machine built with vmas=stored.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "spec.h"
#include "uprocfs/procfs.h"

#define SPEC "synth:tasks=2000,seed=3"

/* One file of every process that has an mm, rendered in turn. */
struct round_job {
	struct bench_render_job *files;
	size_t n, rounds, bytes;
};

static void round_pass(void *arg)
{
	struct round_job *j = arg;

	j->bytes = 0;
	for (size_t r = 0; r < j->rounds; r++)
		for (size_t i = 0; i < j->n; i++) {
			bench_render_pass(&j->files[i]);
			j->bytes += j->files[i].bytes;
		}
}

/* @j: file @path of each process of @m with an mm, sharing @buf; 0 or -1. */
static int round_setup(struct round_job *j, const struct mach_machine *m, const char *path, char *buf)
{
	const struct pfs_entry *e = NULL;

	for (size_t i = 0; i < pfs_nentries; i++)
		if (!strcmp(pfs_entries[i].path, path) && (pfs_entries[i].scopes & PFS_IN(PFS_SCOPE_TGID)))
			e = &pfs_entries[i];
	if (!e || !(j->files = calloc(m->nprocs, sizeof(*j->files))))
		return -1;
	for (size_t i = 0; i < m->nprocs; i++) {
		struct bench_render_job *f = &j->files[j->n];

		if (!m->procs[i].mm)
			continue;
		*f = (struct bench_render_job){ .iters = 1, .buf = buf };
		f->f = (struct pfs_node){ .entry = e, .scope = PFS_SCOPE_TGID, .pid = m->procs[i].tgid };
		f->ctx.ptrace_ok = true;
		if (!pfs_bind(m, &f->f, &f->ctx))
			j->n++;
	}
	return j->n ? 0 : -1;
}

void bench_render_vmas_made(const struct bench_opts *o)
{
	static const char *const files[] = { "maps", "smaps_rollup" };
	struct mach_machine *made = NULL, *stored = NULL;
	char err[256], *buf = malloc(BENCH_RENDER_BUF);
	int passes = o->quick ? 5 : 11;

	if (!buf || mach_from_spec(SPEC, &made, err, sizeof(err)) ||
	    mach_from_spec(SPEC ",vmas=stored", &stored, err, sizeof(err))) {
		fprintf(stderr, "bench render: %s\n", buf ? err : "out of memory");
		goto out;
	}
	for (size_t k = 0; k < sizeof(files) / sizeof(files[0]); k++) {
		struct round_job a = { .rounds = o->quick ? 1 : 3 }, b = a;
		double made_ns, stored_ns;
		char name[48], note[160];

		if (round_setup(&a, made, files[k], buf) || round_setup(&b, stored, files[k], buf) || a.n != b.n) {
			free(a.files);
			free(b.files);
			continue;
		}
		bench_progress(o, "render: %s of %zu processes, VMAs made on demand", files[k], a.n);
		bench_pair(round_pass, &b, round_pass, &a, passes, &stored_ns, &made_ns);
		snprintf(name, sizeof(name), "pid/%s_vmas_made", files[k]);
		snprintf(note, sizeof(note), "each of %zu processes in turn, every file making its mm's VMAs; %zu B a file",
			 a.n, a.bytes / (a.n * a.rounds));
		struct bench_result r = {
			.bench = "render", .case_name = name, .unit = "ns/file",
			.value = made_ns / (double)(a.n * a.rounds), .baseline = "vmas_stored",
			.baseline_value = stored_ns / (double)(b.n * b.rounds), .note = note,
		};
		bench_report(o, &r);
		free(a.files);
		free(b.files);
	}
out:
	mach_free(made);
	mach_free(stored);
	free(buf);
}
