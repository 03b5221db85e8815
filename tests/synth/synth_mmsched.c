// SPDX-License-Identifier: MIT
/*
 * synth_mmsched.c - see synth_mmsched.h.
 *
 * The checks read the files as a tool would, from their rendered text:
 * the sums of smaps' lines against smaps_rollup, status and statm (Pss
 * each VMA truncated apart, so the rollup may exceed their sum by under a
 * kB a VMA); schedstat's run time against stat's utime + stime (each
 * truncated to a tick); wchan against the stack's first frame and the
 * state; syscall "running" exactly for a running task; children against
 * the parents of the machine's processes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_vmas.h"
#include "synth_mmsched.h"
#include "uprocfs/procfs.h"

const char *const mms_prop_names[MMS_NR] = {
	[MMS_SMAPS] = "smaps: sum of its lines = smaps_rollup = status VmRSS/RssAnon/RssFile/RssShmem/VmSwap, "
		      "statm resident; Pss <= Rss; Locked is locked VMAs' Pss, their size VmLck",
	[MMS_SCHED] = "schedstat: run time = utime + stime of the task's stat, within a tick each",
	[MMS_WAITS] = "wchan is the stack's first frame, \"0\" when running; syscall \"running\" iff R; "
		      "stat field 35 iff not running",
	[MMS_CHILDREN] = "task/<tid>/children: each process once, under a thread of its parent",
};

/* @path rendered as the command line reads it; NULL if it fails. */
static char *render(const struct mach_machine *m, const char *path, size_t *len)
{
	struct pfs_node n;
	struct pfs_ctx c;
	char err[128], *text;

	if (pfs_resolve(m, path, &n, &c, err, sizeof(err)) || pfs_render(&n, &c, &text, len))
		return NULL;
	text = realloc(text, *len + 1);
	if (text)
		text[*len] = '\0';
	return text;
}

/* The sum of the values after @label at line starts in @text (every one, or the first). */
static unsigned long long sum_label(const char *text, const char *label, bool all)
{
	unsigned long long sum = 0, v;
	size_t ll = strlen(label);

	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		if (!strncmp(l, label, ll) && sscanf(l + ll, "%llu", &v) == 1) {
			sum += v;
			if (!all)
				break;
		}
	}
	return sum;
}

static void check_smaps(const struct mach_machine *m, const struct mach_process *p, mms_check_fn check)
{
	static const char *const exact[] = { "Rss:", "Anonymous:", "Swap:", "Shared_Clean:", "Private_Dirty:",
					     "Referenced:", "AnonHugePages:" };
	char path[64];
	size_t len;
	char *sm, *ro, *st, *stm;
	unsigned long long lck = 0, vmas = 0;
	unsigned long long statm[7] = { 0 };

	snprintf(path, sizeof(path), "/proc/%d/smaps", (int)p->tgid);
	sm = render(m, path, &len);
	snprintf(path, sizeof(path), "/proc/%d/smaps_rollup", (int)p->tgid);
	ro = render(m, path, &len);
	snprintf(path, sizeof(path), "/proc/%d/status", (int)p->tgid);
	st = render(m, path, &len);
	snprintf(path, sizeof(path), "/proc/%d/statm", (int)p->tgid);
	stm = render(m, path, &len);
	check(MMS_SMAPS, sm && ro && st && stm, "pid %d: a file does not render", (int)p->tgid);
	if (!sm || !ro || !st || !stm)
		goto out;
	sscanf(stm, "%llu %llu %llu %llu %llu %llu %llu", &statm[0], &statm[1], &statm[2], &statm[3],
	       &statm[4], &statm[5], &statm[6]);
	for (size_t i = 0; i < sizeof(exact) / sizeof(exact[0]); i++)
		check(MMS_SMAPS, sum_label(sm, exact[i], true) == sum_label(ro, exact[i], false),
		      "pid %d: smaps' %s add up to %llu, smaps_rollup says %llu", (int)p->tgid, exact[i],
		      sum_label(sm, exact[i], true), sum_label(ro, exact[i], false));
	check(MMS_SMAPS, sum_label(ro, "Rss:", false) == sum_label(st, "VmRSS:", false) &&
				 sum_label(ro, "Anonymous:", false) == sum_label(st, "RssAnon:", false) &&
				 sum_label(ro, "Swap:", false) == sum_label(st, "VmSwap:", false) &&
				 statm[1] * 4 == sum_label(st, "VmRSS:", false),
	      "pid %d: rollup Rss/Anonymous/Swap vs status VmRSS/RssAnon/VmSwap vs statm", (int)p->tgid);
	for (size_t i = 0; i < p->mm->nvmas; i++) {
		const struct mach_vma *v = &test_vmas(p->mm)[i];
		const struct mach_mss *s = &v->mss;

		vmas += v->kind != MACH_VMA_VSYSCALL;
		if (v->flags & MACH_VM_LOCKED)
			lck += (v->end - v->start) / 1024;
		check(MMS_SMAPS, s->pss <= s->resident << MACH_PSS_SHIFT &&
					 s->pss == s->pss_anon + s->pss_file + s->pss_shmem &&
					 s->pss_dirty <= s->pss && s->anonymous <= s->resident &&
					 s->shared_clean + s->shared_dirty + s->private_clean + s->private_dirty ==
						 s->resident && s->swap_pss <= s->swap << MACH_PSS_SHIFT,
		      "pid %d: mapping %llx: its counters", (int)p->tgid, (unsigned long long)v->start);
	}
	/* the rest of Rss is file or shmem as status splits it: shmem pages count in Pss_Shmem */
	check(MMS_SMAPS, sum_label(ro, "Rss:", false) - sum_label(ro, "Anonymous:", false) ==
				 sum_label(st, "RssFile:", false) + sum_label(st, "RssShmem:", false) &&
				 sum_label(ro, "Pss_Shmem:", false) <= sum_label(st, "RssShmem:", false) &&
				 sum_label(ro, "Pss_Anon:", false) <= sum_label(st, "RssAnon:", false),
	      "pid %d: rollup's file and shmem vs status RssFile/RssShmem", (int)p->tgid);
	check(MMS_SMAPS, sum_label(sm, "Pss:", true) <= sum_label(ro, "Pss:", false) &&
				 sum_label(ro, "Pss:", false) <= sum_label(sm, "Pss:", true) + vmas &&
				 sum_label(ro, "Pss:", false) <= sum_label(ro, "Rss:", false) &&
				 sum_label(sm, "Locked:", true) <= sum_label(ro, "Locked:", false),
	      "pid %d: Pss %llu of smaps' lines, %llu in the rollup", (int)p->tgid, sum_label(sm, "Pss:", true),
	      sum_label(ro, "Pss:", false));
	check(MMS_SMAPS, lck == sum_label(st, "VmLck:", false), "pid %d: locked VMAs span %llu kB, VmLck %llu",
	      (int)p->tgid, lck, sum_label(st, "VmLck:", false));
out:
	free(sm);
	free(ro);
	free(st);
	free(stm);
}

/* Field @n (as proc(5) numbers them, from 3 on) of a stat line. */
static unsigned long long stat_field(const char *stat, int n)
{
	const char *p = strrchr(stat, ')');
	unsigned long long v = 0;

	for (int f = 2; p && f < n; f++)
		p = strchr(p + 1, ' ');
	if (p && n == 3)
		return (unsigned char)p[1];
	if (p)
		sscanf(p + 1, "%llu", &v);
	return v;
}

/* One task's schedstat, stat, wchan, stack and syscall as task/<tid>/ shows them. */
static void check_task(const struct mach_machine *m, const struct mach_process *p, const struct mach_thread *t,
		       mms_check_fn check)
{
	char path[96], *f[5];
	static const char *const names[5] = { "schedstat", "stat", "wchan", "stack", "syscall" };
	unsigned long long run = 0, ticks;
	size_t len;
	bool running = t->state == MACH_TASK_RUNNING;

	for (int i = 0; i < 5; i++) {
		snprintf(path, sizeof(path), "/proc/%d/task/%d/%s", (int)p->tgid, (int)t->tid, names[i]);
		f[i] = render(m, path, &len);
	}
	if (!f[0] || !f[1] || !f[2] || !f[3] || !f[4]) {
		check(MMS_WAITS, 0, "tid %d: a file does not render", (int)t->tid);
		goto out;
	}
	sscanf(f[0], "%llu", &run);
	ticks = stat_field(f[1], 14) + stat_field(f[1], 15);
	check(MMS_SCHED, ticks * 10000000ull <= run && run < (ticks + 2) * 10000000ull,
	      "tid %d: run time %llu ns, utime + stime %llu ticks", (int)t->tid, run, ticks);
	/* the stack's first line is "[<0>] NAME+0x...": wchan is NAME */
	check(MMS_WAITS, running ? !strcmp(f[2], "0") :
		      t->state == MACH_TASK_ZOMBIE || (!strncmp(f[3], "[<0>] ", 6) &&
		      !strncmp(f[3] + 6, f[2], strlen(f[2])) && f[3][6 + strlen(f[2])] == '+'),
	      "tid %d (%c): wchan \"%s\", stack \"%.40s\"", (int)t->tid, (char)stat_field(f[1], 3), f[2], f[3]);
	check(MMS_WAITS, !strcmp(f[4], "running\n") == running && stat_field(f[1], 35) == !running,
	      "tid %d (%c): syscall \"%.30s\", stat field 35 %llu", (int)t->tid, (char)stat_field(f[1], 3), f[4],
	      stat_field(f[1], 35));
out:
	for (int i = 0; i < 5; i++)
		free(f[i]);
}

/* Every process appears once, under a thread of its parent; nothing else appears. */
static void check_children(const struct mach_machine *m, mms_check_fn check)
{
	size_t listed = 0, want = 0;

	for (size_t i = 0; i < m->nprocs; i++) {
		const struct mach_process *p = &m->procs[i];

		want += p->ppid > 0 && mach_find_process(m, p->ppid);
		for (unsigned int j = 0; j < p->nthreads; j++)
			for (unsigned int k = 0; k < p->threads[j].nchildren; k++) {
				const struct mach_process *c = mach_find_process(m, p->threads[j].children[k]);

				listed++;
				check(MMS_CHILDREN, c && c->ppid == p->tgid, "tid %d lists %d, whose parent is %d",
				      (int)p->threads[j].tid, (int)p->threads[j].children[k], c ? (int)c->ppid : -1);
			}
	}
	check(MMS_CHILDREN, listed == want, "%zu children listed, %zu processes have a parent", listed, want);
}

void mms_check_machine(const struct mach_machine *m, bool memory, mms_check_fn check)
{
	for (size_t i = 0; i < m->nprocs; i++) {
		const struct mach_process *p = &m->procs[i];

		if (memory && p->mm)
			check_smaps(m, p, check);
		for (unsigned int j = 0; j < p->nthreads; j++)
			check_task(m, p, &p->threads[j], check);
	}
	check_children(m, check);
}
