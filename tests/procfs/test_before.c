// SPDX-License-Identifier: MIT
/*
 * test_before.c - the "before" renderers of the seed benchmarks (libc printf,
 * as the kernel printed these files before each patch) print exactly the
 * bytes ours print: status of every task, /proc/stat with few and many irqs,
 * maps of every process with and without the delimiter fast path, and
 * schedstat, over several synthetic machines.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "before.h"
#include "uprocfs/procfs.h"
#include "spec.h"
#include "tap.h"

/* Render one file through the seq protocol with either set of callbacks. */
static char *render(int (*show)(struct seq_file *, void *), const struct seq_operations *ops,
		    struct pfs_ctx *ctx, size_t *len)
{
	struct pfs_entry e = { .path = "x", .scopes = PFS_IN_TASK | PFS_IN(PFS_SCOPE_GLOBAL), .kind = PFS_FILE,
			       .show = show, .ops = ops };
	struct pfs_node n = { .entry = &e, .scope = ctx->proc ? PFS_SCOPE_TGID : PFS_SCOPE_GLOBAL,
			      .pid = ctx->proc ? ctx->proc->tgid : 0 };
	char *text;

	if (pfs_render(&n, ctx, &text, len))
		return NULL;
	return text;
}

static unsigned long compare(const char *what, int (*bshow)(struct seq_file *, void *),
			     const struct seq_operations *bops, int (*ashow)(struct seq_file *, void *),
			     const struct seq_operations *aops, struct pfs_ctx *ctx, unsigned long *files)
{
	size_t blen, alen;
	char *b = render(bshow, bops, ctx, &blen), *a = render(ashow, aops, ctx, &alen);
	unsigned long bad = !a || !b || alen != blen || memcmp(a, b, alen);

	if (bad) {
		diag("%s differs (pid %d)", what, ctx->proc ? (int)ctx->proc->tgid : 0);
		if (a && b)
			is_bytes(b, blen, a, alen, "%s: before vs after", what);
	}
	(*files)++;
	free(a);
	free(b);
	return bad;
}

static void check_machine(const char *spec)
{
	struct mach_machine *m;
	char err[256];
	unsigned long bad = 0, files = 0;

	if (mach_from_spec(spec, &m, err, sizeof(err))) {
		ok(0, "%s: %s", spec, err);
		return;
	}
	for (size_t i = 0; i < m->nprocs; i++) {
		struct mach_process *p = &m->procs[i];

		for (unsigned int t = 0; t < p->nthreads; t++) {
			struct pfs_ctx ctx = { .mach = m, .proc = p, .thread = &p->threads[t], .whole = t == 0,
					       .ptrace_ok = true };
			bad += compare("status", before_show_pid_status, NULL, pfs_show_pid_status, NULL, &ctx,
				       &files);
		}
		struct pfs_ctx ctx = { .mach = m, .proc = p, .thread = &p->threads[0], .whole = true,
				       .ptrace_ok = true };
		bad += compare("maps", NULL, &before_pid_maps_ops, NULL, &pfs_pid_maps_ops, &ctx, &files);
		bad += compare("maps (no fast path)", NULL, &nofastpath_pid_maps_ops, NULL, &pfs_pid_maps_ops,
			       &ctx, &files);
	}
	struct pfs_ctx g = { .mach = m, .ptrace_ok = true };
	bad += compare("stat", before_show_stat, NULL, pfs_show_stat, NULL, &g, &files);
	bad += compare("schedstat", NULL, &before_schedstat_ops, NULL, &pfs_schedstat_ops, &g, &files);
	/* many irq slots, mostly zero: the gap filler against one " %u" each */
	m->nr_irqs = 4096;
	bad += compare("stat, 4096 irqs", before_show_stat, NULL, pfs_show_stat, NULL, &g, &files);
	ok(bad == 0, "%s: before and after print the same bytes in %lu files", spec, files);
	mach_free(m);
}

int main(void)
{
	char spec[64];

	plan(0);
	for (int seed = 1; seed <= 10; seed++) {
		snprintf(spec, sizeof(spec), "synth:seed=%d", seed);
		check_machine(spec);
	}
	check_machine("synth:cpus=72,tasks=300,seed=4");
	check_machine("synth:cpus=1,tasks=20,seed=5");
	return tap_done();
}
