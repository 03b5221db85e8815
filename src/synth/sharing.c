// SPDX-License-Identifier: MIT
/*
 * sharing.c - how many processes map each shared file, counted from the
 * plan before any process is built.
 *
 * A page of libc is mapped by every process that maps libc; the kernel's
 * PSS divides it by that mapcount.  The generator takes every resident page
 * of a shared file to be mapped by all its mappers, so a process's Pss
 * depends on the plan (who runs what) and on nothing built before it.
 * Zombies and kernel threads map nothing; a forked copy shares the shared
 * memory of the layout it inherited; libraries upgraded while the machine
 * ran are two files, the deleted one mapped by the processes older than the
 * upgrade.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "synth_int.h"

/* The libraries replaced by the upgrade (mmap_area.c UPGRADED_LIBS). */
#define UPGRADED (LIB(L_SSL) | LIB(L_CRYPTO))

static void count_libs(struct sy_sharing *sh, const struct prog *pg, bool upgraded)
{
	for (unsigned int id = 0; id < NR_LIBS; id++)
		if (pg->libs & LIB(id))
			sh->lib[id][upgraded && (UPGRADED & LIB(id))]++;
	sh->libc++;
	sh->ld_so++;
}

int sy_plan_sharing(struct synth *s)
{
	struct sy_sharing *sh = &s->share;
	uint32_t prog_n[NR_PROGS][2];

	memset(prog_n, 0, sizeof(prog_n));
	free(sh->group);
	memset(sh, 0, sizeof(*sh));
	sh->group = calloc(s->n ? s->n : 1, sizeof(*sh->group));
	if (!sh->group)
		return -ENOMEM;
	for (size_t i = 0; i < s->n; i++) {
		const struct gen *g = &s->gen[i];
		const struct prog *pg;

		if (g->kind != G_USER || g->state == MACH_TASK_ZOMBIE)
			continue;
		pg = &sy_progs[g->prog];
		prog_n[g->prog][!!(g->flags & GF_DELETED)]++;
		sh->group[g->lroot]++;
		sh->vdso++;
		if (!(pg->flags & (PR_GO | PR_STATIC)))
			count_libs(sh, pg, sy_pid_start_ns(s, s->m->procs[i].tgid) < s->upgrade_ns);
		sh->locale += !!(pg->flags & PR_TTY);
		sh->modules += !!(pg->flags & PR_JAVA);
		sh->journals += !!(pg->flags & PR_JOURNAL);
	}
	/* programs that run one executable (bash, a login bash; nginx and its workers) share its pages */
	for (unsigned int p = 0; p < NR_PROGS; p++)
		for (unsigned int q = 0; q < NR_PROGS; q++)
			if (s->exe_ino[p] == s->exe_ino[q])
				for (int d = 0; d < 2; d++)
					sh->exe[p][d] += prog_n[q][d];
	return 0;
}
