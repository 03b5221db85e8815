// SPDX-License-Identifier: MIT
/*
 * pid_mmsched.c - the records of smaps, smaps_rollup, schedstat, wchan,
 * stack, syscall and children, and what they put into a process's threads.
 *
 * The leader's files in /proc/<pid>/ and in task/<pid>/ describe one task
 * and must agree.  A thread's wchan must be the first frame of its stack,
 * and name nothing while it runs; its syscall reads "running" exactly when
 * its state is R; its run time in schedstat is what its stat's utime and
 * stime add up to, within the ticks each lost to truncation; stat field 35
 * follows from the state.  A disagreement means the task moved between two
 * reads: -EINVAL, and the walk reads the process again.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load_mmsched.h"

/* ------------------------------------------------------------------ */
/* Records                                                              */

bool ld_mms_kind(enum mach_ld_kind kind)
{
	return kind >= MACH_LD_PID_SMAPS && kind <= MACH_LD_PID_CHILDREN;
}

static void rollup_free(struct ld_rollup *r) { if (r) { free(r->path); free(r); } }
static void sched_free(struct ld_sched *s) { if (s) { free(s->path); free(s); } }
static void syscall_free(struct ld_syscall *s) { if (s) { free(s->path); free(s); } }

static void wchan_free(struct ld_wchan *w)
{
	if (w) {
		free(w->name);
		free(w->path);
		free(w);
	}
}

static void children_free(struct ld_children *c)
{
	if (c) {
		free(c->pids);
		free(c->path);
		free(c);
	}
}

void ld_mms_free(struct ld_mmsched *mms)
{
	if (!mms)
		return;
	ld_smaps_free(mms->smaps);
	rollup_free(mms->rollup);
	sched_free(mms->sched);
	wchan_free(mms->wchan);
	ld_stack_free(mms->stack);
	syscall_free(mms->syscall);
	children_free(mms->children);
	free(mms);
}

#define MMS_NEW(mms, rec) (((mms)->rec = calloc(1, sizeof(*(mms)->rec))) ? &(mms)->rec->path : NULL)

int ld_mms_new(struct ld_mmsched **mms, enum mach_ld_kind kind, const char *path)
{
	char **name = NULL;

	if (!*mms && !(*mms = calloc(1, sizeof(**mms))))
		return -ENOMEM;
	switch (kind) {
	case MACH_LD_PID_SMAPS: name = MMS_NEW(*mms, smaps); break;
	case MACH_LD_PID_SMAPS_ROLLUP: name = MMS_NEW(*mms, rollup); break;
	case MACH_LD_PID_SCHEDSTAT: name = MMS_NEW(*mms, sched); break;
	case MACH_LD_PID_WCHAN: name = MMS_NEW(*mms, wchan); break;
	case MACH_LD_PID_STACK: name = MMS_NEW(*mms, stack); break;
	case MACH_LD_PID_SYSCALL: name = MMS_NEW(*mms, syscall); break;
	case MACH_LD_PID_CHILDREN: name = MMS_NEW(*mms, children); break;
	default: return -EINVAL;
	}
	if (!name || !(*name = strdup(path)))
		return -ENOMEM;
	return 0;
}

int ld_mms_parse(struct ld_mmsched *mms, enum mach_ld_kind kind, struct lex *lx)
{
	switch (kind) {
	case MACH_LD_PID_SMAPS: return ld_parse_smaps(lx, mms->smaps);
	case MACH_LD_PID_SMAPS_ROLLUP: return ld_parse_smaps_rollup(lx, mms->rollup);
	case MACH_LD_PID_SCHEDSTAT: return ld_parse_pid_schedstat(lx, mms->sched);
	case MACH_LD_PID_WCHAN: return ld_parse_wchan(lx, mms->wchan);
	case MACH_LD_PID_STACK: return ld_parse_stack(lx, mms->stack);
	case MACH_LD_PID_SYSCALL: return ld_parse_syscall(lx, mms->syscall);
	default: return ld_parse_children(lx, mms->children);
	}
}

#define MMS_SWAP(a, b, rec)                                   \
	do {                                                  \
		__typeof__((a)->rec) mms_tmp__ = (a)->rec;    \
		(a)->rec = (b)->rec;                          \
		(b)->rec = mms_tmp__;                         \
	} while (0)

void ld_mms_swap(struct ld_mmsched **a, struct ld_mmsched **b, enum mach_ld_kind kind)
{
	if (!*a) {
		/* a fresh container holds only this record: it moves whole */
		*a = *b;
		*b = NULL;
		return;
	}
	if (!*b)
		return;
	switch (kind) {
	case MACH_LD_PID_SMAPS: MMS_SWAP(*a, *b, smaps); break;
	case MACH_LD_PID_SMAPS_ROLLUP: MMS_SWAP(*a, *b, rollup); break;
	case MACH_LD_PID_SCHEDSTAT: MMS_SWAP(*a, *b, sched); break;
	case MACH_LD_PID_WCHAN: MMS_SWAP(*a, *b, wchan); break;
	case MACH_LD_PID_STACK: MMS_SWAP(*a, *b, stack); break;
	case MACH_LD_PID_SYSCALL: MMS_SWAP(*a, *b, syscall); break;
	default: MMS_SWAP(*a, *b, children); break;
	}
}

/* ------------------------------------------------------------------ */
/* Threads                                                              */

/* The task/<tid>/ records of @tid, or NULL. */
static struct ld_task *task_of(struct ld_pid *lp, pid_t tid)
{
	for (size_t i = 0; i < lp->ntasks; i++)
		if (lp->tasks[i].tid == tid)
			return &lp->tasks[i];
	return NULL;
}

static bool same_stack(const struct ld_stack *a, const struct ld_stack *b)
{
	if (a->n != b->n)
		return false;
	for (unsigned int i = 0; i < a->n; i++) {
		const struct ld_frame *x = &a->f[i], *y = &b->f[i];

		if (strcmp(x->name, y->name) || x->off != y->off || x->size != y->size ||
		    (!x->module != !y->module) || (x->module && strcmp(x->module, y->module)))
			return false;
	}
	return true;
}

static int differ(const struct ld_msg *ms, const char *a, const char *b)
{
	return ld_say(ms, -EINVAL, "%s and %s describe the same task but differ", a, b);
}

/* The leader's /proc/<pid>/X and task/<pid>/X: one task, the same text. */
static int same_task(const struct ld_msg *ms, const struct ld_mmsched *a, const struct ld_mmsched *b)
{
	if (a->sched && b->sched &&
	    (a->sched->run_ns != b->sched->run_ns || a->sched->wait_ns != b->sched->wait_ns ||
	     a->sched->pcount != b->sched->pcount))
		return differ(ms, a->sched->path, b->sched->path);
	if (a->wchan && b->wchan && (!a->wchan->name != !b->wchan->name ||
				    (a->wchan->name && strcmp(a->wchan->name, b->wchan->name))))
		return differ(ms, a->wchan->path, b->wchan->path);
	if (a->stack && b->stack && !same_stack(a->stack, b->stack))
		return differ(ms, a->stack->path, b->stack->path);
	if (a->syscall && b->syscall &&
	    (a->syscall->running != b->syscall->running ||
	     memcmp(&a->syscall->sc, &b->syscall->sc, sizeof(a->syscall->sc))))
		return differ(ms, a->syscall->path, b->syscall->path);
	return 0;
}

/* What one thread's records say, the leader's two sets merged. */
struct trecs {
	const struct ld_sched *sched;
	const struct ld_wchan *wchan;
	const struct ld_stack *stack;
	const struct ld_syscall *syscall;
	struct ld_children *children;
	const struct ld_stat *own;      /* its task/<tid>/stat */
};

static void take(struct trecs *r, struct ld_mmsched *x)
{
	if (!x)
		return;
	if (!r->sched)
		r->sched = x->sched;
	if (!r->wchan)
		r->wchan = x->wchan;
	if (!r->stack)
		r->stack = x->stack;
	if (!r->syscall)
		r->syscall = x->syscall;
	if (!r->children)
		r->children = x->children;
}

/* Run time against utime + stime: each tick count truncated, so up to two ticks below it. */
static int check_runtime(const struct ld_msg *ms, const struct trecs *r)
{
	uint64_t ticks;

	if (!r->sched || !r->own)
		return 0;
	ticks = r->own->f[LD_STAT_UTIME] + r->own->f[LD_STAT_STIME];
	if (ticks * MACH_NSEC_PER_TICK <= r->sched->run_ns &&
	    r->sched->run_ns < (ticks + 2) * MACH_NSEC_PER_TICK)
		return 0;
	return ld_say(ms, -EINVAL, "%s: run time %" PRIu64 " ns, but %s:%u has utime + stime = %" PRIu64
		      " ticks", r->sched->path, r->sched->run_ns, r->own->path, r->own->line[LD_STAT_UTIME],
		      ticks);
}

/* wchan, stack and syscall against the state. */
static int check_wait(const struct ld_msg *ms, const struct trecs *r, const struct mach_thread *t)
{
	bool running = t->state == MACH_TASK_RUNNING;

	if (r->wchan && r->wchan->name && running)
		return ld_say(ms, -EINVAL, "%s: waits in %s, but the task runs", r->wchan->path,
			      r->wchan->name);
	if (r->wchan && r->wchan->name && r->stack && r->stack->n &&
	    strcmp(r->stack->f[0].name, r->wchan->name))
		return ld_say(ms, -EINVAL, "%s: waits in %s, but %s:1 is in %s", r->wchan->path,
			      r->wchan->name, r->stack->path, r->stack->f[0].name);
	if (r->syscall && r->syscall->running != running)
		return ld_say(ms, -EINVAL, "%s: %s, but the state is %c", r->syscall->path,
			      r->syscall->running ? "running" : "in a syscall", mach_task_state_letter(t->state));
	return 0;
}

/* stat field 35: the task is not running, as the reader may know, and for a group only one of one. */
static int check_stat_wchan(const struct ld_msg *ms, const struct ld_stat *st, bool whole,
			    bool wchan_addr, const struct mach_process *p, const struct mach_thread *t)
{
	uint64_t want = !p->stat_hidden && (!whole || p->nr_threads < 2) && t->state != MACH_TASK_RUNNING;
	char what[64];

	/* before 4.4 an address: pid_assemble.c checks the group's against the leader's */
	if (!st || st->f[LD_STAT_WCHAN] == want || wchan_addr)
		return 0;
	return ld_say(ms, -EINVAL, "%s:%u: %s is %" PRIu64 ", but the state %c makes it %" PRIu64, st->path,
		      st->line[LD_STAT_WCHAN], ld_sf_what(LD_STAT_WCHAN, what), st->f[LD_STAT_WCHAN],
		      mach_task_state_letter(t->state), want);
}

/* The stack's functions and the stack into the machine's tables; wchan names its first frame. */
static int put_wait(struct mach_machine *m, const struct trecs *r, struct mach_thread *t)
{
	struct mach_kframe fr[64];
	unsigned int n = r->stack ? r->stack->n : 0;
	int rc;

	for (unsigned int i = 0; i < n; i++) {
		const struct ld_frame *f = &r->stack->f[i];

		fr[i].off = f->off;
		if ((rc = mach_ksym_intern(m, f->name, strlen(f->name), f->size, f->module, &fr[i].sym)))
			return rc;
	}
	if ((rc = mach_kstack_intern(m, fr, n, &t->kstack)))
		return rc;
	if (r->wchan && r->wchan->name) {
		if (n && !strcmp(r->stack->f[0].name, r->wchan->name))
			t->wchan_sym = fr[0].sym;
		else if ((rc = mach_ksym_intern(m, r->wchan->name, strlen(r->wchan->name), 0, NULL,
						&t->wchan_sym)))
			return rc;
	}
	if (r->syscall && !r->syscall->running)
		t->syscall = r->syscall->sc;
	return 0;
}

/* One thread: its records checked, then put into @t. */
static int one_thread(const struct ld_msg *ms, struct mach_machine *m, bool wchan_addr, struct ld_pid *lp,
		      struct mach_process *p, struct mach_thread *t)
{
	struct ld_task *own = task_of(lp, t->tid);
	bool leader = t->tid == lp->tgid;
	struct trecs r = { .own = own ? own->stat : NULL };
	int rc;

	if (leader && lp->whole.mms && own && own->mms && (rc = same_task(ms, lp->whole.mms, own->mms)))
		return rc;
	take(&r, own ? own->mms : NULL);
	if (leader)
		take(&r, lp->whole.mms);
	if ((rc = check_runtime(ms, &r)) || (rc = check_wait(ms, &r, t)) ||
	    (rc = check_stat_wchan(ms, r.own, false, wchan_addr, p, t)) ||
	    (leader && (rc = check_stat_wchan(ms, lp->whole.stat, true, wchan_addr, p, t))))
		return rc;
	if (r.sched) {
		t->sum_exec_runtime_ns = r.sched->run_ns;
		t->run_delay_ns = r.sched->wait_ns;
		t->pcount = r.sched->pcount;
	}
	if (r.children) {
		t->children = r.children->pids;
		t->nchildren = (unsigned int)r.children->n;
		r.children->pids = NULL;
		r.children->n = 0;
	}
	return put_wait(m, &r, t);
}

int ld_assemble_mmsched(const struct mach_loader *ld, struct ld_pid *lp, struct mach_process *out,
			bool wchan_addr, char *err, size_t errlen)
{
	struct ld_msg ms = { err, errlen, ld->blame };
	int rc = ld_assemble_smaps(&ms, ld, lp, out);

	for (unsigned int i = 0; !rc && i < out->nthreads; i++)
		rc = one_thread(&ms, ld->m, wchan_addr, lp, out, &out->threads[i]);
	return rc;
}
