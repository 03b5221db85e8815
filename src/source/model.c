// SPDX-License-Identifier: MIT
/*
 * model.c - a model machine as a source: synthetic or captured, moved by the
 * simulator as the served clock runs.
 *
 * Readers render under a read lock; the simulator advances under the write
 * lock, at most every ADVANCE_EVERY_NS, so a burst of reads costs one
 * advance.  A view keeps no pointer into the model between requests: enter()
 * finds its task again, since the simulator may have moved or ended it.
 *
 * The reader sees itself: its own pid directory is mirrored from a procfs of
 * its pid namespace, shown running, with its age on the served clock.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mirror.h"
#include "source_int.h"
#include "uprocfs/source.h"

/* A living model is brought up to date at most this often. */
#define ADVANCE_EVERY_NS 2000000ull

struct model_source {
	struct pfs_source base;
	struct mach_machine *mach;
	struct pfs_model_opts o;
	pthread_rwlock_t lock;        /* the model: readers render, advance writes */
	pthread_mutex_t advance_lock;
	uint64_t last_advance_ns;
	struct timespec created;      /* the mirrored readers' directory times */
};

static struct model_source *of(struct pfs_source *s)
{
	return (struct model_source *)s;
}

/* Whether @pid is one of the readers' own processes, mirrored rather than modelled. */
static bool mirrored(const struct model_source *ms, const struct pfs_reader *r, pid_t pid)
{
	if (ms->o.reader_proc_fd < 0)
		return false;
	if (ms->o.mirror_from)
		return pid >= ms->o.mirror_from;
	return r && r->pid > 0 && pid == r->pid;
}

static void model_advance(struct pfs_source *s)
{
	struct model_source *ms = of(s);
	uint64_t now;

	if (!ms->o.advance)
		return;
	now = src_boottime_ns();
	if (now - __atomic_load_n(&ms->last_advance_ns, __ATOMIC_RELAXED) < ADVANCE_EVERY_NS)
		return;
	if (pthread_mutex_trylock(&ms->advance_lock))
		return; /* someone else is catching up right now */
	pthread_rwlock_wrlock(&ms->lock);
	ms->o.advance(ms->o.advance_ctx, ms->mach, now);
	pthread_rwlock_unlock(&ms->lock);
	__atomic_store_n(&ms->last_advance_ns, now, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&ms->advance_lock);
}

static int model_exists(struct pfs_source *s, const struct pfs_reader *r, const struct pfs_node *n)
{
	struct model_source *ms = of(s);
	struct pfs_ctx c = { 0 };
	int rc;

	if (n->pid && mirrored(ms, r, n->pid))
		return src_mirror_exists(ms->o.reader_proc_fd, n);
	pthread_rwlock_rdlock(&ms->lock);
	rc = pfs_bind(ms->mach, n, &c);
	pthread_rwlock_unlock(&ms->lock);
	return rc;
}

static int model_task_attr(struct pfs_source *s, const struct pfs_reader *r, const struct pfs_node *n,
			   struct stat *st)
{
	struct model_source *ms = of(s);
	struct pfs_ctx c = { 0 };
	int rc;

	if (mirrored(ms, r, n->pid)) {
		struct stat real;
		char path[256];

		st->st_uid = r->uid;
		st->st_gid = r->gid;
		st->st_atim = st->st_mtim = st->st_ctim = ms->created;
		/* the kernel's mode and size: an fd link's open mode, fd/'s count */
		if (!pfs_node_path(n, NULL, path, sizeof(path)) &&
		    !fstatat(ms->o.reader_proc_fd, path, &real, AT_SYMLINK_NOFOLLOW)) {
			st->st_mode = real.st_mode;
			st->st_size = real.st_size;
		}
		return 0;
	}
	pthread_rwlock_rdlock(&ms->lock);
	rc = pfs_bind(ms->mach, n, &c);
	if (!rc) {
		src_task_owner(ms->mach, c.proc, c.thread, st);
		pfs_node_attr(n, &c, st);
	}
	pthread_rwlock_unlock(&ms->lock);
	return rc;
}

/* The model's pids above @after, ascending: a binary search, then the array in order. */
static size_t model_pids(const struct mach_machine *m, pid_t after, pid_t *ids, size_t max)
{
	size_t lo = 0, hi = m->nprocs, n = 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (m->procs[mid].tgid <= after)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i < m->nprocs && n < max; i++)
		ids[n++] = m->procs[i].tgid;
	return n;
}

static size_t model_list_ids(struct pfs_source *s, const struct pfs_reader *r, const struct pfs_node *dir,
			     pid_t after, pid_t *ids, size_t max)
{
	struct model_source *ms = of(s);
	size_t n = 0;

	if (dir->pid && mirrored(ms, r, dir->pid))
		return src_list_real_ids(ms->o.reader_proc_fd, dir, after, ids, max);
	pthread_rwlock_rdlock(&ms->lock);
	if (!dir->pid) {
		n = model_pids(ms->mach, after, ids, max);
	} else {
		const struct mach_process *p = mach_find_process(ms->mach, dir->pid);

		for (unsigned int i = 0; p && i < p->nthreads && n < max; i++)
			if (p->threads[i].tid > after)
				ids[n++] = p->threads[i].tid;
		src_sort_ids(ids, n);
	}
	pthread_rwlock_unlock(&ms->lock);
	if (dir->pid || ms->o.reader_proc_fd < 0)
		return n;
	if (ms->o.mirror_from) {
		/* the model's pids all lie below the mirrored range: the real ones follow them */
		pid_t from = after >= ms->o.mirror_from ? after : ms->o.mirror_from - 1;

		if (n < max)
			n += src_list_real_ids(ms->o.reader_proc_fd, dir, from, ids + n, max - n);
	} else if (r && r->pid > after) {
		n = src_merge_id(ids, n, max, r->pid); /* the reader, in its place among the model's */
	}
	return n;
}

/*
 * A mirrored process, as the served machine would show it.  A reader was
 * asleep in read() while we read its files; the kernel would show it
 * running, as it is when it reads.  Start times move to the served clock: as
 * old as it really is, counted back from the served uptime.  A process whose
 * parent is not mirrored (the run's command, child of the namespace's init)
 * hangs under the machine's login shell.
 */
static void adapt_mirrored(const struct model_source *ms, const struct pfs_reader *r, struct mach_machine *own)
{
	const struct mach_machine *served = ms->mach;

	for (size_t p = 0; p < own->nprocs; p++) {
		struct mach_process *proc = &own->procs[p];

		if (ms->o.mirror_from && proc->ppid < ms->o.mirror_from)
			proc->ppid = served->login_pid ? served->login_pid : 1;
		for (unsigned int i = 0; i < proc->nthreads; i++) {
			struct mach_thread *th = &proc->threads[i];

			if (r && r->pid == proc->tgid && th->tid == r->tid) {
				th->state = MACH_TASK_RUNNING;
			}
			if (own->uptime_ns >= th->start_time_ns) {
				uint64_t age = own->uptime_ns - th->start_time_ns;
				th->start_time_ns = served->uptime_ns > age ? served->uptime_ns - age : 0;
			}
		}
	}
}

/*
 * A reader runs on the served machine, under its login shell: its net/
 * shows that shell's network namespace (the host's), not the real one.
 * Timers keep the time they have left.
 */
static int adopt_served_net(const struct mach_machine *served, struct mach_machine *own)
{
	const struct mach_process *login = mach_find_process(served, served->login_pid);
	const struct mach_net *n = login ? mach_thread_net(served, &login->threads[0]) : NULL;

	if (!n && served->nnets)
		n = &served->nets[0];
	for (unsigned int i = 0; i < own->nnets; i++)
		mach_net_clear(&own->nets[i]);
	free(own->nets);
	own->nets = n ? calloc(1, sizeof(*own->nets)) : NULL;
	own->nnets = 0;
	if (n && (!own->nets || mach_net_copy(own->nets, n)))
		return -ENOMEM;
	own->nnets = n ? 1 : 0;
	for (size_t k = 0; n && k < own->nets[0].nsocks; k++)
		own->nets[0].socks[k].timer_expires += own->uptime_ns - served->uptime_ns;
	for (size_t p = 0; p < own->nprocs; p++)
		for (unsigned int i = 0; i < own->procs[p].nthreads; i++)
			own->procs[p].threads[i].netns = own->nnets;
	return 0;
}

/* The loader kinds of /proc/<pid>/net: a mirrored reader's come from the served machine. */
static mach_ld_set net_kinds(void)
{
	mach_ld_set mask = 0;

	for (int k = MACH_LD_PID_NET_FIRST; k <= MACH_LD_PID_NET_LAST; k++)
		mask |= PFS_NEEDS(k);
	return mask;
}

static int model_open(struct pfs_source *s, const struct pfs_reader *r, const struct pfs_node *n,
		      struct pfs_view *v, char *err, size_t errlen)
{
	struct model_source *ms = of(s);
	int rc;

	memset(v, 0, sizeof(*v));
	v->ctx.caller_pid = r ? r->pid : 0;
	v->ctx.caller_tid = r ? r->tid : 0;
	if (n->pid && mirrored(ms, r, n->pid)) {
		rc = mirror_load_task(ms->o.reader_proc_fd, n->pid, n->tid, node_needs(n) & ~net_kinds(), node_own(n),
				      node_inst(n), &v->own, err, errlen);
		if (rc)
			return rc == -ESRCH ? -ENOENT : rc;
		pthread_rwlock_rdlock(&ms->lock);
		adapt_mirrored(ms, r, v->own);
		rc = adopt_served_net(ms->mach, v->own);
		pthread_rwlock_unlock(&ms->lock);
		if (rc)
			return rc;
		rc = pfs_bind(v->own, n, &v->ctx);
		if (!rc)
			rc = pfs_access_check(n, r, &v->ctx);
		return rc;
	}
	pthread_rwlock_rdlock(&ms->lock);
	rc = pfs_bind(ms->mach, n, &v->ctx);
	if (!rc)
		rc = pfs_access_check(n, r, &v->ctx);
	pthread_rwlock_unlock(&ms->lock);
	return rc;
}

static int model_enter(struct pfs_source *s, const struct pfs_node *n, struct pfs_view *v)
{
	struct model_source *ms = of(s);

	if (v->own)
		return 0; /* a mirror's own machine does not move */
	pthread_rwlock_rdlock(&ms->lock);
	if (pfs_bind(ms->mach, n, &v->ctx)) {
		pthread_rwlock_unlock(&ms->lock);
		return -ESRCH;
	}
	v->entered = true;
	return 0;
}

static void model_leave(struct pfs_source *s, struct pfs_view *v)
{
	if (v->entered) {
		v->entered = false;
		pthread_rwlock_unlock(&of(s)->lock);
	}
}

static void model_close(struct pfs_source *s, struct pfs_view *v)
{
	(void)s;
	mach_free(v->own);
	v->own = NULL;
}

static void model_destroy(struct pfs_source *s)
{
	struct model_source *ms = of(s);

	pthread_rwlock_destroy(&ms->lock);
	pthread_mutex_destroy(&ms->advance_lock);
	free(ms);
}

static int model_control(struct pfs_source *s, int (*fn)(void *arg, struct mach_machine *m), void *arg)
{
	struct model_source *ms = of(s);
	int rc;

	pthread_rwlock_wrlock(&ms->lock);
	rc = fn(arg, ms->mach);
	pthread_rwlock_unlock(&ms->lock);
	return rc;
}

static pid_t model_tgid_of(struct pfs_source *s, const struct pfs_reader *r, pid_t tid)
{
	struct model_source *ms = of(s);
	const struct mach_process *p = NULL;
	pid_t tgid = 0, ns_tid;

	if (mirrored(ms, r, tid))
		return mirror_translate_tid(ms->o.reader_proc_fd, tid, &tgid, &ns_tid) ? 0 : tgid;
	pthread_rwlock_rdlock(&ms->lock);
	if (mach_find_any_thread(ms->mach, tid, &p))
		tgid = p->tgid;
	pthread_rwlock_unlock(&ms->lock);
	return tgid;
}

static const struct pfs_source_ops model_ops = {
	.advance = model_advance,
	.exists = model_exists,
	.task_attr = model_task_attr,
	.list_ids = model_list_ids,
	.open = model_open,
	.enter = model_enter,
	.leave = model_leave,
	.close = model_close,
	.control = model_control,
	.tgid_of = model_tgid_of,
	.destroy = model_destroy,
};

int pfs_model_source_read(struct pfs_source *s, int (*fn)(void *arg, const struct mach_machine *m), void *arg)
{
	struct model_source *ms = of(s);
	int rc;

	if (!s || s->ops != &model_ops)
		return -EINVAL;
	/*
	 * Up to now, then read under the advance lock as well: requests that
	 * come meanwhile find it taken and read the machine as it is (at most
	 * as old as this read) instead of queueing for the write lock.
	 */
	pthread_mutex_lock(&ms->advance_lock);
	if (ms->o.advance) {
		uint64_t now = src_boottime_ns();

		pthread_rwlock_wrlock(&ms->lock);
		ms->o.advance(ms->o.advance_ctx, ms->mach, now);
		pthread_rwlock_unlock(&ms->lock);
		__atomic_store_n(&ms->last_advance_ns, now, __ATOMIC_RELAXED);
	}
	pthread_rwlock_rdlock(&ms->lock);
	rc = fn(arg, ms->mach);
	pthread_rwlock_unlock(&ms->lock);
	pthread_mutex_unlock(&ms->advance_lock);
	return rc;
}

int pfs_model_source_new(struct mach_machine *m, const struct pfs_model_opts *o, struct pfs_source **out)
{
	struct model_source *ms = calloc(1, sizeof(*ms));

	if (!ms)
		return -ENOMEM;
	ms->base.ops = &model_ops;
	ms->base.stable = true;
	if (o && o->reader_proc_fd >= 0)
		ms->base.volatile_from = o->mirror_from;
	ms->mach = m;
	if (o)
		ms->o = *o;
	else
		ms->o.reader_proc_fd = -1;
	pthread_rwlock_init(&ms->lock, NULL);
	pthread_mutex_init(&ms->advance_lock, NULL);
	clock_gettime(CLOCK_REALTIME, &ms->created);
	*out = &ms->base;
	return 0;
}

