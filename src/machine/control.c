// SPDX-License-Identifier: MIT
/*
 * control.c - signals, nice, affinity, scheduling and I/O priority of a
 * machine's tasks, with the kernel's rules (kernel/signal.c
 * check_kill_permission and the default actions, kernel/sys.c
 * set_one_prio, kernel/sched/syscalls.c, block/ioprio.c) and their effects
 * on the model.  The simulator is told when a task stops, continues or
 * goes, so it stops scheduling it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "uprocfs/control.h"
#include "uprocfs/sim.h"

#define NSIG_MAX 64
#define SIG_KILL 9
#define SIG_CONT 18
#define SIG_STOP 19
#define SIG_TSTP 20
#define SIG_TTIN 21
#define SIG_TTOU 22

#define PRIO_PROCESS_ 0
#define PRIO_PGRP_ 1
#define PRIO_USER_ 2

#define IOPRIO_WHO_PROCESS_ 1
#define IOPRIO_WHO_PGRP_ 2
#define IOPRIO_WHO_USER_ 3

static uint64_t sigbit(int sig)
{
	return 1ull << (sig - 1);
}

static bool has_cap(const struct mach_caller *who, int cap)
{
	return (who->cap_eff >> cap) & 1;
}

/* The process at @pid, mutable (the model is ours under the write lock); its index in *@idx. */
static struct mach_process *find_proc(struct mach_machine *m, pid_t pid, size_t *idx)
{
	const struct mach_process *p = mach_find_process(m, pid);

	if (p && idx)
		*idx = (size_t)(p - m->procs);
	return (struct mach_process *)p;
}

/* The thread @tid anywhere, and its process. */
static struct mach_thread *find_thread(struct mach_machine *m, pid_t tid, struct mach_process **proc)
{
	const struct mach_process *p = NULL;
	const struct mach_thread *t = mach_find_any_thread(m, tid, &p);

	*proc = (struct mach_process *)p;
	return (struct mach_thread *)t;
}

/* kill_ok_by_cred: the caller's real or effective uid is the target's real or saved uid. */
static bool may_signal(const struct mach_caller *who, const struct mach_process *p, int sig)
{
	const struct mach_thread *t = &p->threads[0];
	const uint32_t *uid = mach_thread_cred(t)->uid;

	if (has_cap(who, MACH_CAP_KILL))
		return true;
	if (t->kthread)
		return false;
	if (who->euid == uid[2] || who->euid == uid[0] || who->ruid == uid[2] || who->ruid == uid[0])
		return true;
	/* SIGCONT goes to any process of the caller's own session */
	return sig == SIG_CONT && who->session && who->session == p->session;
}

static void set_group_state(struct mach_process *p, enum mach_task_state st)
{
	for (unsigned int i = 0; i < p->nthreads; i++)
		p->threads[i].state = st;
}

/* A signal's default action. */
enum sig_action { ACT_TERM, ACT_IGNORE, ACT_STOP, ACT_CONT };

static enum sig_action default_action(int sig)
{
	switch (sig) {
	case 17: /* SIGCHLD */
	case 23: /* SIGURG */
	case 28: /* SIGWINCH */
		return ACT_IGNORE;
	case SIG_CONT:
		return ACT_CONT;
	case SIG_STOP:
	case SIG_TSTP:
	case SIG_TTIN:
	case SIG_TTOU:
		return ACT_STOP;
	default:
		return ACT_TERM;
	}
}

/*
 * A caught signal: what a handler of that signal typically does.  Services
 * catch TERM, INT and QUIT to shut down cleanly (they end); HUP, USR1, USR2
 * and the rest reload or report (nothing the files show).
 */
static bool handler_ends_process(int sig)
{
	return sig == 15 || sig == 2 || sig == 3;
}

/* Children of a process that ends go to init, as the kernel reparents them without a subreaper. */
/* Take @child off the children lists of @parent's threads (task/<tid>/children). */
static void children_remove(struct mach_machine *m, pid_t parent, pid_t child)
{
	struct mach_process *pp = find_proc(m, parent, NULL);

	for (unsigned int i = 0; pp && i < pp->nthreads; i++) {
		struct mach_thread *t = &pp->threads[i];

		for (unsigned int k = 0; k < t->nchildren; k++)
			if (t->children[k] == child) {
				memmove(&t->children[k], &t->children[k + 1], (t->nchildren - k - 1) * sizeof(pid_t));
				t->nchildren--;
				return;
			}
	}
}

/* Append @child to the children list of @parent's leader, as a reaper adopts (list_move_tail). */
static void children_append(struct mach_machine *m, pid_t parent, pid_t child)
{
	struct mach_process *pp = find_proc(m, parent, NULL);
	struct mach_thread *t = pp && pp->nthreads ? &pp->threads[0] : NULL;
	pid_t *more;

	if (!t || !(more = realloc(t->children, (t->nchildren + 1) * sizeof(pid_t))))
		return; /* out of memory: the list misses one child, nothing else breaks */
	t->children = more;
	t->children[t->nchildren++] = child;
}

/* The dead process's children go to init, at the end of its list. */
static void reparent_children(struct mach_machine *m, pid_t dead)
{
	for (size_t i = 0; i < m->nprocs; i++)
		if (m->procs[i].ppid == dead) {
			m->procs[i].ppid = 1;
			children_append(m, 1, m->procs[i].tgid);
		}
}

/* The parent takes the child's times into its cumulative ones, as wait() does. */
static void account_to_parent(struct mach_machine *m, const struct mach_process *child)
{
	struct mach_process *parent = find_proc(m, child->ppid, NULL);

	if (!parent)
		return;
	parent->cutime_ns += child->group_utime_ns + child->cutime_ns;
	parent->cstime_ns += child->group_stime_ns + child->cstime_ns;
	parent->cminflt += child->dead_minflt + child->cminflt;
	parent->cmajflt += child->dead_majflt + child->cmajflt;
	for (unsigned int i = 0; i < child->nthreads; i++) {
		parent->cminflt += child->threads[i].minflt;
		parent->cmajflt += child->threads[i].majflt;
	}
}

/* Remove process @idx from the machine: the simulator forgets it first, then the array closes up. */
static void reap(struct mach_ctl *x, size_t idx)
{
	struct mach_machine *m = x->m;

	if (x->sim)
		mach_sim_process_removed(x->sim, idx);
	account_to_parent(m, &m->procs[idx]);
	mach_cg_charge_gone(m, &m->procs[idx]);
	children_remove(m, m->procs[idx].ppid, m->procs[idx].tgid);
	mach_process_clear(&m->procs[idx]);
	memmove(&m->procs[idx], &m->procs[idx + 1], (m->nprocs - idx - 1) * sizeof(*m->procs));
	m->nprocs--;
	if (m->nr_threads)
		m->nr_threads--;
}

/*
 * The process ends on signal @sig: its threads exit, its mm and files go,
 * the leader stays a zombie until its parent reaps it, which a running
 * parent does at once (shells and service managers wait for their children).
 */
static void exit_process(struct mach_ctl *x, size_t idx, int sig)
{
	struct mach_machine *m = x->m;
	struct mach_process *p = &m->procs[idx];
	const struct mach_process *parent = mach_find_process(m, p->ppid);
	bool parent_stopped = parent && parent->threads[0].state == MACH_TASK_STOPPED;

	reparent_children(m, p->tgid);
	if (!parent_stopped) {
		reap(x, idx);
		return;
	}
	if (x->sim)
		mach_sim_process_removed(x->sim, idx);
	for (unsigned int i = 1; i < p->nthreads; i++)
		mach_thread_clear(&p->threads[i]);
	p->nthreads = p->nthreads ? 1 : 0;
	p->nr_threads = 1;
	p->threads[0].state = MACH_TASK_ZOMBIE;
	p->threads[0].wchan_sym = 0;  /* exit_notify: nothing to wait in, an empty stack */
	p->threads[0].kstack = 0;
	p->threads[0].nchildren = 0;  /* reparented above */
	p->exit_code = sig;
	p->threads[0].exit_code = sig;
	mach_mm_free(p->mm);
	p->mm = NULL;
	mach_files_free(p->files);
	p->files = NULL;
}

/* Deliver @sig to process @idx as the kernel would; the caller checked permission. */
static void deliver(struct mach_ctl *x, size_t idx, int sig)
{
	struct mach_process *p = &x->m->procs[idx];
	struct mach_thread *leader = &p->threads[0];
	enum sig_action act = default_action(sig);
	bool stopped = leader->state == MACH_TASK_STOPPED || leader->state == MACH_TASK_TRACED;

	if (!sig || leader->kthread || leader->state == MACH_TASK_ZOMBIE || p->tgid == 1)
		return; /* kthreads and init take no signal they do not handle; zombies none at all */
	if (act == ACT_CONT || sig == SIG_KILL) {
		if (stopped) {
			set_group_state(p, MACH_TASK_SLEEPING);
			p->sig_shared_pending &= ~(sigbit(SIG_STOP) | sigbit(SIG_TSTP) | sigbit(SIG_TTIN) | sigbit(SIG_TTOU));
			if (x->sim)
				mach_sim_process_changed(x->sim, idx);
		}
		if (sig == SIG_KILL) {
			exit_process(x, idx, sig);
			return;
		}
		/* a TERM that waited for the stop to end is acted on now */
		if (stopped && (p->sig_shared_pending & sigbit(15)) && !(p->sig_ignored & sigbit(15))) {
			p->sig_shared_pending &= ~sigbit(15);
			exit_process(x, idx, 15);
		}
		return;
	}
	if (sig != SIG_STOP && (p->sig_ignored & sigbit(sig)))
		return;
	if (sig != SIG_STOP && (leader->sig_blocked & sigbit(sig))) {
		p->sig_shared_pending |= sigbit(sig);
		return;
	}
	if (sig != SIG_STOP && (p->sig_caught & sigbit(sig))) {
		if (!handler_ends_process(sig))
			return;
		act = ACT_TERM;
	}
	switch (act) {
	case ACT_STOP:
		if (!stopped) {
			set_group_state(p, MACH_TASK_STOPPED);
			if (x->sim)
				mach_sim_process_changed(x->sim, idx);
		}
		return;
	case ACT_TERM:
		if (stopped) {
			p->sig_shared_pending |= sigbit(sig); /* taken when it continues */
			return;
		}
		exit_process(x, idx, sig);
		return;
	default:
		return;
	}
}

int mach_ctl_kill(struct mach_ctl *x, const struct mach_caller *who, pid_t pid, int sig)
{
	struct mach_machine *m = x->m;
	bool found = false, permitted = false;

	if (sig < 0 || sig > NSIG_MAX)
		return -EINVAL;
	if (pid > 0) {
		size_t idx;
		struct mach_process *p = find_proc(m, pid, &idx);

		if (!p) {
			/* a thread id names its process too (kill delivers to the group) */
			struct mach_thread *t = find_thread(m, pid, &p);

			if (!t)
				return -ESRCH;
			idx = (size_t)(p - m->procs);
		}
		if (!may_signal(who, p, sig))
			return -EPERM;
		deliver(x, idx, sig);
		return 0;
	}
	if (pid >= -1)
		return -EINVAL; /* 0 and -1 name the caller's group and everyone: not ours */
	/* a process group: every member the caller may signal; EPERM only if none */
	for (size_t i = 0; i < m->nprocs; i++) {
		if (m->procs[i].pgrp != -pid)
			continue;
		size_t before = m->nprocs;

		found = true;
		if (!may_signal(who, &m->procs[i], sig))
			continue;
		permitted = true;
		deliver(x, i, sig);
		if (m->nprocs < before)
			i--; /* it was reaped: the next process moved into its place */
	}
	return !found ? -ESRCH : permitted ? 0 : -EPERM;
}

int mach_ctl_tgkill(struct mach_ctl *x, const struct mach_caller *who, pid_t tgid, pid_t tid, int sig)
{
	struct mach_process *p;
	struct mach_thread *t;

	if (sig < 0 || sig > NSIG_MAX || tid <= 0)
		return -EINVAL;
	t = find_thread(x->m, tid, &p);
	if (!t || (tgid > 0 && p->tgid != tgid))
		return -ESRCH;
	if (!may_signal(who, p, sig))
		return -EPERM;
	/* a thread-directed fatal or stop signal still acts on the whole group */
	deliver(x, (size_t)(p - x->m->procs), sig);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Priorities                                                           */

/* Does @p match the (@which, @who_id) of getpriority/setpriority/ioprio (thread @t)? */
static bool prio_match(const struct mach_process *p, const struct mach_thread *t, int which, int who_id)
{
	switch (which) {
	case PRIO_PROCESS_:
		return t->tid == who_id;
	case PRIO_PGRP_:
		return p->pgrp == who_id && t == &p->threads[0];
	case PRIO_USER_:
		return !t->kthread && mach_thread_cred(t)->uid[0] == (uid_t)who_id;
	default:
		return false;
	}
}

int mach_ctl_getpriority(struct mach_ctl *x, int which, int who_id, int *ret)
{
	struct mach_machine *m = x->m;
	int best = -1;

	if (which < PRIO_PROCESS_ || which > PRIO_USER_)
		return -EINVAL;
	for (size_t i = 0; i < m->nprocs; i++)
		for (unsigned int k = 0; k < m->procs[i].nthreads; k++) {
			const struct mach_thread *t = &m->procs[i].threads[k];

			if (prio_match(&m->procs[i], t, which, who_id) && 20 - t->nice > best)
				best = 20 - t->nice;
		}
	if (best < 0)
		return -ESRCH;
	*ret = best;
	return 0;
}

/* set_one_prio's permission: the caller owns the task, and may raise its priority only with CAP_SYS_NICE. */
static int may_set_prio(const struct mach_caller *who, const struct mach_thread *t, int nice)
{
	const uint32_t *uid = mach_thread_cred(t)->uid;

	if (!has_cap(who, MACH_CAP_SYS_NICE) && uid[0] != who->euid && uid[1] != who->euid)
		return -EPERM;
	if (nice < t->nice && !has_cap(who, MACH_CAP_SYS_NICE))
		return -EACCES;
	return 0;
}

int mach_ctl_setpriority(struct mach_ctl *x, const struct mach_caller *who, int which, int who_id, int nice)
{
	struct mach_machine *m = x->m;
	int err = -ESRCH;

	if (which < PRIO_PROCESS_ || which > PRIO_USER_)
		return -EINVAL;
	nice = nice < -20 ? -20 : nice > 19 ? 19 : nice;
	for (size_t i = 0; i < m->nprocs; i++)
		for (unsigned int k = 0; k < m->procs[i].nthreads; k++) {
			struct mach_thread *t = &m->procs[i].threads[k];
			int rc;

			if (!prio_match(&m->procs[i], t, which, who_id))
				continue;
			rc = may_set_prio(who, t, nice);
			if (rc) {
				err = rc;
				continue;
			}
			/* a normal task's priority field is 20 + nice (stat field 18) */
			t->nice = nice;
			if (t->policy == 0 || t->policy == 3 || t->policy == 5)
				t->priority = 20 + nice;
			err = err == -ESRCH ? 0 : err;
		}
	return err;
}

/* ------------------------------------------------------------------ */
/* Affinity and scheduling                                              */

/* The mask bytes sched_getaffinity copies: nr_cpu_ids rounded up to whole longs. */
static size_t mask_bytes(const struct mach_machine *m)
{
	return (m->nr_cpu_ids + 63) / 64 * 8;
}

static int put_mask(const struct mach_machine *m, const struct mach_bitmap *allowed, unsigned char *mask,
		    size_t size, size_t *copied)
{
	size_t need = mask_bytes(m);

	if (size < need || size & 7)
		return -EINVAL;
	memset(mask, 0, size);
	for (unsigned int c = 0; c < m->ncpus; c++) {
		unsigned int id = m->cpus[c].id;

		if (m->cpus[c].online && (!allowed || mach_bitmap_test(allowed, id)))
			mask[id / 8] |= (unsigned char)(1u << (id % 8));
	}
	*copied = need;
	return 0;
}

int mach_ctl_getaffinity(struct mach_ctl *x, pid_t tid, unsigned char *mask, size_t size, size_t *copied)
{
	struct mach_process *p;
	struct mach_thread *t = find_thread(x->m, tid, &p);

	if (!t)
		return -ESRCH;
	return put_mask(x->m, &t->cpus_allowed, mask, size, copied);
}

int mach_ctl_online_mask(struct mach_ctl *x, unsigned char *mask, size_t size, size_t *copied)
{
	return put_mask(x->m, NULL, mask, size, copied);
}

/* check_same_owner or CAP_SYS_NICE, as sched_setaffinity and sched_setscheduler require. */
static bool same_owner(const struct mach_caller *who, const struct mach_thread *t)
{
	const uint32_t *uid = mach_thread_cred(t)->uid;

	return has_cap(who, MACH_CAP_SYS_NICE) || (!t->kthread && (who->euid == uid[1] || who->euid == uid[0]));
}

int mach_ctl_setaffinity(struct mach_ctl *x, const struct mach_caller *who, pid_t tid, const unsigned char *mask,
			 size_t size)
{
	struct mach_machine *m = x->m;
	struct mach_process *p;
	struct mach_thread *t = find_thread(m, tid, &p);
	bool any = false;

	if (!t)
		return -ESRCH;
	if (!same_owner(who, t))
		return -EPERM;
	for (unsigned int c = 0; c < m->ncpus; c++) {
		unsigned int id = m->cpus[c].id;

		any |= m->cpus[c].online && id / 8 < size && (mask[id / 8] >> (id % 8) & 1);
	}
	if (!any)
		return -EINVAL;
	if (mach_bitmap_own(&t->cpus_allowed))
		return -ENOMEM;
	memset(t->cpus_allowed.words, 0, (t->cpus_allowed.nbits + 63) / 64 * 8);
	for (unsigned int id = 0; id < t->cpus_allowed.nbits && id / 8 < size; id++)
		if (mask[id / 8] >> (id % 8) & 1)
			mach_bitmap_set(&t->cpus_allowed, id);
	if (!mach_bitmap_test(&t->cpus_allowed, (unsigned int)t->processor))
		for (unsigned int c = 0; c < m->ncpus; c++)
			if (m->cpus[c].online && mach_bitmap_test(&t->cpus_allowed, m->cpus[c].id)) {
				t->processor = (int)m->cpus[c].id; /* migrated off a CPU it may not use */
				break;
			}
	if (x->sim)
		mach_sim_process_changed(x->sim, (size_t)(p - m->procs));
	return 0;
}

int mach_ctl_getscheduler(struct mach_ctl *x, pid_t tid, int *policy)
{
	struct mach_process *p;
	struct mach_thread *t = find_thread(x->m, tid, &p);

	if (!t)
		return -ESRCH;
	*policy = (int)t->policy;
	return 0;
}

int mach_ctl_getparam(struct mach_ctl *x, pid_t tid, int *prio)
{
	struct mach_process *p;
	struct mach_thread *t = find_thread(x->m, tid, &p);

	if (!t)
		return -ESRCH;
	*prio = (int)t->rt_priority;
	return 0;
}

int mach_ctl_setscheduler(struct mach_ctl *x, const struct mach_caller *who, pid_t tid, int policy, int prio)
{
	struct mach_process *p;
	struct mach_thread *t = find_thread(x->m, tid, &p);
	bool rt;

	if (!t)
		return -ESRCH;
	if (policy < 0)
		policy = (int)t->policy;
	if (policy > 6 || policy == 4)
		return -EINVAL;
	rt = policy == 1 || policy == 2;
	if ((rt && (prio < 1 || prio > 99)) || (!rt && prio != 0))
		return -EINVAL;
	if (!same_owner(who, t) || (rt && !has_cap(who, MACH_CAP_SYS_NICE)))
		return -EPERM;
	t->policy = (unsigned int)policy;
	t->rt_priority = (unsigned int)prio;
	/* stat's priority: -1 - rt_priority for real-time tasks, 20 + nice otherwise */
	t->priority = rt ? -1 - prio : 20 + t->nice;
	return 0;
}

/* ------------------------------------------------------------------ */
/* I/O priority, groups and sessions                                    */

/* A task that never set one reports 0: class none, level 0 (`ionice` prints "none: prio 0"). */
static int effective_ioprio(const struct mach_thread *t)
{
	return mach_thread_rare(t)->ioprio;
}

int mach_ctl_ioprio_get(struct mach_ctl *x, int which, int who_id, int *ioprio)
{
	struct mach_machine *m = x->m;
	int best = -1;

	if (which < IOPRIO_WHO_PROCESS_ || which > IOPRIO_WHO_USER_)
		return -EINVAL;
	for (size_t i = 0; i < m->nprocs; i++)
		for (unsigned int k = 0; k < m->procs[i].nthreads; k++) {
			const struct mach_thread *t = &m->procs[i].threads[k];

			if (prio_match(&m->procs[i], t, which - 1, who_id) && effective_ioprio(t) > best)
				best = effective_ioprio(t);
		}
	if (best < 0)
		return -ESRCH;
	*ioprio = best;
	return 0;
}

int mach_ctl_ioprio_set(struct mach_ctl *x, const struct mach_caller *who, int which, int who_id, int ioprio)
{
	struct mach_machine *m = x->m;
	int class = ioprio >> 13, data = ioprio & 0x1fff, err = -ESRCH;

	if (which < IOPRIO_WHO_PROCESS_ || which > IOPRIO_WHO_USER_ || class > 3 || (class && data > 7))
		return -EINVAL;
	if (class == 1 && !has_cap(who, 21 /* CAP_SYS_ADMIN */) && !has_cap(who, MACH_CAP_SYS_NICE))
		return -EPERM; /* the real-time class */
	for (size_t i = 0; i < m->nprocs; i++)
		for (unsigned int k = 0; k < m->procs[i].nthreads; k++) {
			struct mach_thread *t = &m->procs[i].threads[k];
			struct mach_thread_rare r;

			if (!prio_match(&m->procs[i], t, which - 1, who_id))
				continue;
			if (!same_owner(who, t) && !has_cap(who, 21)) {
				err = -EPERM;
				continue;
			}
			r = *mach_thread_rare(t);
			r.ioprio = ioprio;
			if (mach_thread_rare_set(t, &r))
				return -ENOMEM;
			err = err == -ESRCH ? 0 : err;
		}
	return err;
}

int mach_ctl_getpgid(struct mach_ctl *x, pid_t pid, pid_t *pgid)
{
	struct mach_process *p;

	if (!find_thread(x->m, pid, &p))
		return -ESRCH;
	*pgid = p->pgrp;
	return 0;
}

int mach_ctl_getsid(struct mach_ctl *x, pid_t pid, pid_t *sid)
{
	struct mach_process *p;

	if (!find_thread(x->m, pid, &p))
		return -ESRCH;
	*sid = p->session;
	return 0;
}

/* check_prlimit_permission: the caller's real ids are every one of the target's. */
static bool may_prlimit(const struct mach_caller *who, const struct mach_thread *t)
{
	const struct mach_cred *cr = mach_thread_cred(t);

	return has_cap(who, MACH_CAP_SYS_RESOURCE) ||
	       (who->ruid == cr->uid[0] && who->ruid == cr->uid[1] && who->ruid == cr->uid[2] &&
		who->rgid == cr->gid[0] && who->rgid == cr->gid[1] && who->rgid == cr->gid[2]);
}

/* fs.nr_open as the machine's /proc/sys has it (the kernel's default without one). */
static uint64_t nr_open(const struct mach_machine *m)
{
	int64_t id = m->sysctl ? mach_sysctl_find(m->sysctl, "fs/nr_open") : -1;

	if (id >= 0 && m->sysctl->nodes[id].nvals == 1)
		return m->sysctl->nodes[id].vals[0];
	return 1024 * 1024;
}

int mach_ctl_prlimit(struct mach_ctl *x, const struct mach_caller *who, pid_t pid, unsigned int resource,
		     const struct mach_rlimit *new_lim, struct mach_rlimit *old)
{
	struct mach_process *p;
	struct mach_thread *t;
	const struct mach_rlimit *cur;

	/* in prlimit64's order: the task, the right to it, then do_prlimit's checks */
	t = find_thread(x->m, pid, &p);
	if (!t)
		return -ESRCH;
	if (!may_prlimit(who, t))
		return -EPERM;
	if (resource >= MACH_RLIM_NLIMITS)
		return -EINVAL;
	if (new_lim && new_lim->cur > new_lim->max)
		return -EINVAL;
	if (new_lim && resource == MACH_RLIMIT_NOFILE && new_lim->max > nr_open(x->m))
		return -EPERM;
	cur = &mach_process_rlim(p)[resource];
	if (new_lim && new_lim->max > cur->max && !has_cap(who, MACH_CAP_SYS_RESOURCE))
		return -EPERM;
	if (old)
		*old = *cur;
	if (new_lim) {
		/* a synthetic process shares its limits with its kind: this one gets its own */
		struct mach_rlimit *own = mach_process_rlim_mut(p);

		if (!own)
			return -ENOMEM;
		own[resource] = *new_lim;
	}
	return 0;
}

bool mach_ctl_exists(struct mach_ctl *x, pid_t pid)
{
	struct mach_process *p;

	return find_thread(x->m, pid, &p) != NULL;
}
