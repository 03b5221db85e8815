// SPDX-License-Identifier: MIT
/*
 * pid_assemble_misc.c - a process's fd/ and fdinfo/ entries, cwd, root,
 * exe, io, limits, oom files, audit ids, autogroup, personality and timer
 * slack: checked against each other and against status, stat and meminfo,
 * then built into the process (after its threads and mm, pid_assemble.c).
 *
 * What the kernel keeps once per process (the file table, limits, oom
 * adjustment, the mm's exe) must read the same in every thread's files; a
 * thread that shows another file table than its group's is a process the
 * model cannot hold (-ENOTSUP).  /proc/<pid>/io is the exited threads'
 * counters plus every live thread's, so what it shows beyond the threads'
 * own files is what the exited ones left.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "load_int.h"

/* What the assembly of this block works on. */
struct misc_ctx {
	const struct mach_loader *ld;
	struct ld_pid *lp;
	struct mach_process *out;
	const struct ld_msg *ms;
};

/* The records of thread @tid: task/<tid>/, or for the leader /proc/<pid>/ when it has no task/ copy. */
static struct ld_misc *task_misc(struct ld_pid *lp, pid_t tid)
{
	for (size_t i = 0; i < lp->ntasks; i++)
		if (lp->tasks[i].tid == tid)
			return &lp->tasks[i].misc;
	return tid == lp->tgid ? &lp->whole.misc : NULL;
}

/* Every directory's records, /proc/<pid>/ first: @fn on each until it fails. */
static int each_misc(struct misc_ctx *c, int (*fn)(struct misc_ctx *c, struct ld_misc *m))
{
	int rc = fn(c, &c->lp->whole.misc);

	for (size_t i = 0; !rc && i < c->lp->ntasks; i++)
		rc = fn(c, &c->lp->tasks[i].misc);
	return rc;
}

/* ------------------------------------------------------------------ */
/* The file table                                                       */

static int fd_cmp(const void *a, const void *b)
{
	uint32_t x = ((const struct ld_fd *)a)->fd, y = ((const struct ld_fd *)b)->fd;

	return (x > y) - (x < y);
}

/* Whether an fdinfo of type @info fits a link saying @link (its name's type for anon inodes). */
static bool type_fits(const struct mach_fd *link, enum mach_fd_type info)
{
	enum mach_fd_type named;

	switch (link->kind) {
	case MACH_FD_ANON:
		named = mach_anon_fd_type(link->name);
		/* an epoll or inotify instance watching nothing prints nothing */
		return info == named || (info == MACH_FDT_NONE && (named == MACH_FDT_EPOLL || named == MACH_FDT_INOTIFY));
	case MACH_FD_SOCKET:
		return info == MACH_FDT_NONE || info == MACH_FDT_UNIX;
	case MACH_FD_PATH:
		return info == MACH_FDT_NONE || info == MACH_FDT_PTMX || info == MACH_FDT_FUSE;
	case MACH_FD_UNKNOWN:
		return true;
	default:
		return info == MACH_FDT_NONE;
	}
}

/* One fd from its two records: what the link says, then what fdinfo says. */
static int build_fd(struct misc_ctx *c, struct ld_fd *r, struct mach_fd *f)
{
	bool pseudo = r->link.kind == MACH_FD_PIPE || r->link.kind == MACH_FD_SOCKET || r->link.kind == MACH_FD_PSEUDO;

	if (r->link_path && r->info_path) {
		if (pseudo && r->link.ino != r->info.ino)
			return ld_disagree_u(c->ms, r->info_path, r->ino_line, r->link_path, 1, "the inode",
					     r->info.ino, r->link.ino);
		if (!type_fits(&r->link, r->info.type))
			return ld_say(c->ms, -EINVAL, "%s:1: lines of another kind of file than %s says", r->info_path,
				      r->link_path);
	}
	*f = r->info;
	memset(&r->info, 0, sizeof(r->info));
	f->fd = (int)r->fd;
	f->kind = r->link.kind;
	f->name = r->link.name;
	f->deleted = r->link.deleted;
	r->link.name = NULL;
	if (!r->info_path) {
		f->ino = r->link.ino;
		f->type = r->link.kind == MACH_FD_ANON ? mach_anon_fd_type(f->name) : MACH_FDT_NONE;
	} else if (r->link.kind == MACH_FD_ANON) {
		f->type = mach_anon_fd_type(f->name);
	}
	if (f->kind == MACH_FD_SOCKET)
		f->sock_family = f->type == MACH_FDT_UNIX ? AF_UNIX : 0;
	return 0;
}

/* A thread's fd/ must show its group's table: the same fds and targets. */
static int same_table(struct misc_ctx *c, struct ld_misc *m)
{
	const struct ld_fds *w = &c->lp->whole.misc.fds, *t = &m->fds;

	if (m == &c->lp->whole.misc || !t->listed_fd || !w->listed_fd)
		return 0;
	for (size_t i = 0; i < t->n; i++) {
		const struct ld_fd *a = &t->v[i], *b = NULL;

		for (size_t k = 0; k < w->n && !b; k++)
			if (w->v[k].fd == a->fd)
				b = &w->v[k];
		if (!b || (a->link_path && b->link_path &&
			   (a->link.kind != b->link.kind || a->link.ino != b->link.ino || a->link.deleted != b->link.deleted ||
			    strcmp(a->link.name ? a->link.name : "", b->link.name ? b->link.name : ""))))
			return ld_say(c->ms, -ENOTSUP, "%s: fd %u differs from the group's table (a thread with "
				      "its own files_struct); machine.h has one per process",
				      a->link_path ? a->link_path : "task/", a->fd);
	}
	return t->n == w->n ? 0
			    : ld_say(c->ms, -ENOTSUP, "a thread of %d lists %zu fds, its group %zu (its own files_struct?)",
				     (int)c->lp->tgid, t->n, w->n);
}

/* The status that gave FDSize (the first read, as the assembly takes it), or NULL. */
static const struct ld_status *fdsize_status(const struct ld_pid *lp)
{
	if (lp->whole.status)
		return lp->whole.status;
	for (size_t i = 0; i < lp->ntasks; i++)
		if (lp->tasks[i].status)
			return lp->tasks[i].status;
	return NULL;
}

/*
 * Without a status the table's size is unknown and shows nowhere but
 * there: the kernel's smallest that holds the fds (a power of two, at least
 * BITS_PER_LONG).
 */
static int files_without_status(struct misc_ctx *c, const struct ld_fds *w)
{
	unsigned int max = 64;

	if (fdsize_status(c->lp) || c->out->files)
		return 0;
	for (size_t i = 0; i < w->n; i++)
		while (w->v[i].fd >= max && max < (1u << 30))
			max <<= 1;
	c->out->files = mach_files_new();
	if (!c->out->files)
		return -ENOMEM;
	c->out->files->max_fds = max;
	return 0;
}

/* The group's table: /proc/<pid>/fd and fdinfo, within FDSize. */
static int build_files(struct misc_ctx *c)
{
	struct ld_fds *w = &c->lp->whole.misc.fds;
	struct mach_files *files;
	int rc = each_misc(c, same_table);

	if (rc || !w->n)
		return rc;
	if ((rc = files_without_status(c, w)))
		return rc;
	files = c->out->files;
	if (!files) {
		ld_blame_add(c->ms, fdsize_status(c->lp)->path);
		ld_blame_add(c->ms, w->v[0].link_path ? w->v[0].link_path : w->v[0].info_path);
		return ld_say(c->ms, -EINVAL, "%s: open files of a task with FDSize 0 (no file table)",
			      w->v[0].link_path ? w->v[0].link_path : w->v[0].info_path ? w->v[0].info_path : "fd/");
	}
	if (w->n)
		qsort(w->v, w->n, sizeof(w->v[0]), fd_cmp);
	files->fds = calloc(w->n, sizeof(*files->fds));
	if (!files->fds)
		return -ENOMEM;
	for (size_t i = 0; i < w->n; i++) {
		struct ld_fd *r = &w->v[i];

		if (r->fd >= files->max_fds) {
			ld_blame_add(c->ms, fdsize_status(c->lp) ? fdsize_status(c->lp)->path : NULL);
			ld_blame_add(c->ms, r->link_path ? r->link_path : r->info_path);
			return ld_say(c->ms, -EINVAL, "%s: fd %u beyond FDSize %u", r->link_path ? r->link_path : "fd/",
				      r->fd, files->max_fds);
		}
		/* both directories listed: an fd in one but not the other was opened or closed between */
		if (w->listed_fd && w->listed_info && (!r->link_path) != (!r->info_path)) {
			ld_blame_add(c->ms, r->link_path ? r->link_path : r->info_path);
			return ld_say(c->ms, -EINVAL, "%s: fd %u of %d: in one of fd/ and fdinfo/ only",
				      r->link_path ? r->link_path : r->info_path, r->fd, (int)c->lp->tgid);
		}
		if ((rc = build_fd(c, r, &files->fds[i])))
			return rc;
		files->nfds++;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* cwd, root, exe                                                       */

static bool link_equal(const struct ld_link *a, const struct ld_link *b)
{
	return (!a) == (!b) && (!a || (a->deleted == b->deleted && !strcmp(a->target, b->target)));
}

/* An fs_struct from cwd and root links (@link[0], @link[1]); NULL (none) when neither was read. */
static int fs_from(struct ld_link *const link[2], struct mach_fs **out)
{
	struct mach_fs *fs;

	*out = NULL;
	if (!link[0] && !link[1])
		return 0;
	fs = calloc(1, sizeof(*fs));
	if (!fs)
		return -ENOMEM;
	for (int k = 0; k < 2; k++) {
		char **p = k ? &fs->root : &fs->cwd;

		if (link[k] && !(*p = strdup(link[k]->target))) {
			mach_fs_free(fs);
			return -ENOMEM;
		}
		(k ? &fs->root_deleted : &fs->cwd_deleted)[0] = link[k] && link[k]->deleted;
	}
	*out = fs;
	return 0;
}

/* cwd and root: the group's from /proc/<pid>, a thread's own where it differs. */
static int build_fs(struct misc_ctx *c)
{
	struct ld_misc *w = &c->lp->whole.misc, *lt = task_misc(c->lp, c->lp->tgid);
	struct ld_link *group[2];
	int rc;

	for (int k = 0; k < 2; k++) {
		if (lt != w && w->link[k] && lt && lt->link[k] && !link_equal(w->link[k], lt->link[k]))
			return ld_disagree_str(c->ms, w->link[k]->path, 1, lt->link[k]->path, 1, "the link",
					       w->link[k]->target, lt->link[k]->target);
		/* each link the group's, or the leader's task/ copy where the group's was not read */
		group[k] = w->link[k] ? w->link[k] : lt ? lt->link[k] : NULL;
	}
	if ((rc = fs_from(group, &c->out->fs)))
		return rc;
	for (unsigned int i = 1; i < c->out->nthreads; i++) {
		struct ld_misc *t = task_misc(c->lp, c->out->threads[i].tid);

		if (!t || (link_equal(t->link[0], group[0]) && link_equal(t->link[1], group[1])))
			continue;
		if ((rc = fs_from(t->link, &c->out->threads[i].fs)))
			return rc;
	}
	return 0;
}

/* exe: the mm's, the same in every thread's directory. */
static int check_exe(struct misc_ctx *c, struct ld_misc *m)
{
	struct ld_link *e = m->link[2];
	struct mach_mm *mm = c->out->mm;

	if (!e)
		return 0;
	if (!mm)
		return ld_say(c->ms, -EINVAL, "%s: an exe of a task without an mm", e->path);
	if (!mm->exe) {
		mm->exe = strdup(e->target);
		mm->exe_deleted = e->deleted;
		return mm->exe ? 0 : -ENOMEM;
	}
	if (strcmp(mm->exe, e->target) || mm->exe_deleted != e->deleted)
		return ld_say(c->ms, -EINVAL, "%s: exe differs between the threads of one mm", e->path);
	return 0;
}

/* ------------------------------------------------------------------ */
/* io                                                                   */

/* @w minus @t, field by field; false when a field of @t is larger. */
static bool io_sub(struct mach_taskio *w, const struct mach_taskio *t)
{
	uint64_t *a = &w->rchar;
	const uint64_t *b = &t->rchar;

	for (int i = 0; i < 7; i++) {
		if (a[i] < b[i])
			return false;
		a[i] -= b[i];
	}
	return true;
}

/*
 * Each thread's own counters from task/<tid>/io; the group's file adds
 * what exited threads did (dead_io).  Without the leader's own file the
 * leader is given what the group shows beyond the others.
 */
static int build_io(struct misc_ctx *c)
{
	const struct ld_io *whole = c->lp->whole.misc.io;
	struct mach_process *p = c->out;
	bool lead_own = false;
	struct mach_taskio rest;

	for (unsigned int i = 0; i < p->nthreads; i++) {
		struct ld_misc *t = task_misc(c->lp, p->threads[i].tid);

		/* no task/<pid>/ copy: the group's file is not the leader's own */
		if (!t || !t->io || (i == 0 && t == &c->lp->whole.misc))
			continue;
		p->threads[i].io = t->io->io;
		lead_own |= i == 0;
	}
	if (!whole)
		return 0;
	rest = whole->io;
	for (unsigned int i = 0; i < p->nthreads; i++)
		if (!io_sub(&rest, &p->threads[i].io))
			return ld_say(c->ms, -EINVAL, "%s:1: the group's counters are below the sum of its threads'",
				      whole->path);
	if (lead_own) {
		if (!p->dead_io && !(p->dead_io = malloc(sizeof(*p->dead_io))))
			return -ENOMEM;
		*p->dead_io = rest;
	} else
		p->threads[0].io = rest;
	return 0;
}

/* ------------------------------------------------------------------ */
/* limits, oom, autogroup, the per-thread numbers                       */

/* The first record of a per-process file; the others must agree with it. */
static int check_limits(struct misc_ctx *c, struct ld_misc *m)
{
	const struct ld_limits *l = m->limits, *first = c->lp->whole.misc.limits;

	if (!l)
		return 0;
	if (!first)
		first = l;
	if (memcmp(l->rlim, first->rlim, sizeof(l->rlim)))
		return ld_say(c->ms, -EINVAL, "%s: limits differ from %s, but a process has one set", l->path,
			      first->path);
	return 0;
}

/* limits: one set per process; stat's rsslim and status's SigQ limit are two of them. */
static int build_limits(struct misc_ctx *c)
{
	const struct ld_limits *l = c->lp->whole.misc.limits;
	const struct ld_status *status = c->lp->whole.status;
	const struct ld_stat *stat = c->lp->whole.stat;
	struct mach_process *p = c->out;
	struct mach_rlimit *own;
	int rc = each_misc(c, check_limits);

	/* the process's values came from the first stat and status, the group's or else a thread's */
	for (size_t i = 0; i < c->lp->ntasks; i++) {
		l = l ? l : c->lp->tasks[i].misc.limits;
		status = status ? status : c->lp->tasks[i].status;
		stat = stat ? stat : c->lp->tasks[i].stat;
	}
	if (rc || !l)
		return rc;
	if (!(own = mach_process_rlim_mut(p)))
		return -ENOMEM;
	if (stat && l->rlim[MACH_RLIMIT_RSS].cur != own[MACH_RLIMIT_RSS].cur)
		return ld_disagree_u(c->ms, l->path, 1 + MACH_RLIMIT_RSS + 1, stat->path, 1,
				     "RLIMIT_RSS", l->rlim[MACH_RLIMIT_RSS].cur, own[MACH_RLIMIT_RSS].cur);
	if (status && l->rlim[MACH_RLIMIT_SIGPENDING].cur != own[MACH_RLIMIT_SIGPENDING].cur)
		return ld_disagree_u(c->ms, l->path, 1 + MACH_RLIMIT_SIGPENDING + 1, status->path, 1,
				     "RLIMIT_SIGPENDING", l->rlim[MACH_RLIMIT_SIGPENDING].cur,
				     own[MACH_RLIMIT_SIGPENDING].cur);
	memcpy(own, l->rlim, sizeof(l->rlim));
	return 0;
}

/* A number file that is the group's: every directory's reads the same. */
static const struct ld_numfile *group_num(struct misc_ctx *c, enum ld_num which, int *rc)
{
	const struct ld_numfile *first = c->lp->whole.misc.num[which];

	*rc = 0;
	for (size_t i = 0; i < c->lp->ntasks; i++) {
		const struct ld_numfile *n = c->lp->tasks[i].misc.num[which];

		if (!n)
			continue;
		if (!first)
			first = n;
		else if (n->v != first->v)
			*rc = ld_disagree_s(c->ms, n->path, 1, first->path, 1, "the value", n->v, first->v);
	}
	return first;
}

/*
 * A tree with oom_adj but no oom_score_adj: the model holds only the latter,
 * so take the oom_score_adj nearest to what writing that oom_adj stores
 * (oom_adj_write) among those that print it back; an oom_adj no
 * oom_score_adj prints (the scale skips some) is refused, not rounded.
 */
static int oom_score_adj_from_oom_adj(struct misc_ctx *c, const struct ld_numfile *oadj)
{
	int written = oadj->v == 15 ? 1000 : (int)oadj->v * 1000 / 17, best = 0, x;
	bool found = false;

	for (x = -1000; x <= 1000; x++)
		if (mach_oom_adj(x) == oadj->v && (!found || abs(x - written) < abs(best - written))) {
			best = x;
			found = true;
		}
	if (!found)
		return ld_say(c->ms, -EINVAL, "%s:1: oom_adj %" PRId64 " is printed for no oom_score_adj", oadj->path,
			      oadj->v);
	c->out->oom_score_adj = best;
	return 0;
}

/*
 * oom_score_adj is the group's; oom_adj and oom_score follow from it.  A
 * score of 0 where the counters give more is a task the OOM killer skips
 * (MMF_OOM_SKIP, a vfork child): the model keeps that, not the number.
 */
static int build_oom(struct misc_ctx *c)
{
	const struct ld_numfile *adj, *oadj, *score;
	struct mach_process *p = c->out;
	uint64_t want;
	int rc;

	adj = group_num(c, LD_NUM_OOM_SCORE_ADJ, &rc);
	if (!rc)
		oadj = group_num(c, LD_NUM_OOM_ADJ, &rc);
	if (!rc)
		score = group_num(c, LD_NUM_OOM_SCORE, &rc);
	if (rc)
		return rc;
	if (!adj)
		return oadj ? oom_score_adj_from_oom_adj(c, oadj) : 0;
	p->oom_score_adj = (int)adj->v;
	if (oadj && oadj->v != mach_oom_adj(p->oom_score_adj))
		return ld_disagree_s(c->ms, oadj->path, 1, adj->path, 1, "oom_adj", oadj->v, mach_oom_adj(p->oom_score_adj));
	if (!score || !c->ld->m->meminfo[MACH_MEMINFO_MEMTOTAL])
		return 0; /* without meminfo's RAM the score cannot be checked */
	want = mach_oom_score(c->ld->m, p);
	if (score->u == want)
		return 0;
	if (score->u == 0) {
		p->oom_skip = true;
		return 0;
	}
	return ld_say(c->ms, -EINVAL, "%s:1: oom_score %" PRIu64 ", but rss, swap and page tables with oom_score_adj %d "
		      "against MemTotal+SwapTotal give %" PRIu64, score->path, score->u, p->oom_score_adj, want);
}

/* loginuid, sessionid, personality: each thread's own; a thread not read gets the leader's. */
static int build_thread_nums(struct misc_ctx *c)
{
	static const enum ld_num nums[] = { LD_NUM_LOGINUID, LD_NUM_SESSIONID, LD_NUM_PERSONALITY, LD_NUM_TIMERSLACK };
	struct mach_process *p = c->out;
	struct ld_misc *w = &c->lp->whole.misc;

	for (unsigned int i = 0; i < p->nthreads; i++) {
		struct mach_thread *t = &p->threads[i];
		struct ld_misc *m = task_misc(c->lp, t->tid);
		uint64_t v[4] = { 4294967295u, 4294967295u, 0, 50000 };
		const struct mach_cred *lead = mach_thread_cred(&p->threads[0]);
		struct mach_cred *cr;

		for (int k = 0; k < 4; k++) {
			const struct ld_numfile *n = m ? m->num[nums[k]] : NULL;

			if (i == 0 && w->num[nums[k]] && n && n->u != w->num[nums[k]]->u)
				return ld_disagree_u(c->ms, n->path, 1, w->num[nums[k]]->path, 1, "the value", n->u,
						     w->num[nums[k]]->u);
			if (!n && i == 0)
				n = w->num[nums[k]];
			if (n)
				v[k] = n->u;
			else if (i)
				v[k] = k == 0 ? lead->loginuid : k == 1 ? lead->sessionid :
				       k == 2 ? lead->personality : p->threads[0].timer_slack_ns;
		}
		if (!(cr = mach_thread_cred_mut(t)))
			return -ENOMEM;
		cr->loginuid = (uint32_t)v[0];
		cr->sessionid = (uint32_t)v[1];
		cr->personality = (uint32_t)v[2];
		t->timer_slack_ns = v[3];
	}
	return 0;
}

static int build_autogroup(struct misc_ctx *c)
{
	const struct ld_autogroup *a = c->lp->whole.misc.autogroup;

	if (a) {
		c->out->autogroup_id = a->id;
		c->out->autogroup_nice = a->nice;
	}
	return 0;
}

static int check_exes(struct misc_ctx *c)
{
	return each_misc(c, check_exe);
}

int ld_assemble_misc(const struct mach_loader *ld, struct ld_pid *lp, struct mach_process *out,
		     const struct ld_msg *ms)
{
	static int (*const steps[])(struct misc_ctx *c) = {
		build_files, build_fs, check_exes, build_io, build_limits, build_oom, build_thread_nums,
		build_autogroup,
	};
	struct misc_ctx c = { .ld = ld, .lp = lp, .out = out, .ms = ms };
	int rc = 0;

	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]) && !rc; i++)
		rc = steps[i](&c);
	return rc;
}
