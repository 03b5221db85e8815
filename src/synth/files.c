// SPDX-License-Identifier: MIT
/*
 * files.c - the open files of a synthetic process: its fd table
 * (/proc/<pid>/fd, fdinfo, status FDSize) from the program it runs
 * (files_progs.c), and the kinds of files it may hold, each with what its
 * fdinfo shows.
 *
 * A table is drawn from the process's own stream (KEY_FILES), its program,
 * its pid and its parent's: a pipe shared with the parent, or a listening
 * socket inherited from it, has the inode the parent's table gives it, so
 * both ends agree without either table being built first.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "files_int.h"
#include "plan.h"

uint64_t fx_ino(pid_t pid, unsigned int slot)
{
	return sy_sock_inode(pid, slot);
}

/* Whether fd @fd is taken (beyond the bitmap: by a look through the table). */
static bool taken(const struct fdgen *x, int fd)
{
	if (fd < FX_USED_WORDS * 64)
		return x->used[fd / 64] >> (fd % 64) & 1;
	for (unsigned int i = 0; i < x->f->nfds; i++)
		if (x->f->fds[i].fd == fd)
			return true;
	return false;
}

/* The lowest free fd, as open() gives it. */
static int lowest_free(const struct fdgen *x)
{
	int fd = 0;

	while (fd < FX_USED_WORDS * 64 && x->used[fd / 64] == ~UINT64_C(0))
		fd += 64;
	while (taken(x, fd))
		fd++;
	return fd;
}

/* A free entry at the end of the table; NULL (x->err set) on ENOMEM. */
static struct mach_fd *grow(struct fdgen *x)
{
	if (x->f->nfds == x->cap) {
		unsigned int cap = x->cap ? x->cap * 2 : 16;
		struct mach_fd *n = realloc(x->f->fds, cap * sizeof(*n));

		if (!n) {
			x->err = -ENOMEM;
			return NULL;
		}
		x->f->fds = n;
		x->cap = cap;
	}
	return &x->f->fds[x->f->nfds++];
}

struct mach_fd *fx_add(struct fdgen *x, int fd, enum mach_fd_kind kind, unsigned int flags, bool cloexec)
{
	struct mach_fd *f = NULL;

	if (x->err)
		return NULL;
	/* dup2 onto a taken number: the old file goes */
	for (unsigned int i = 0; fd >= 0 && taken(x, fd) && i < x->f->nfds && !f; i++)
		if (x->f->fds[i].fd == fd) {
			f = &x->f->fds[i];
			mach_fd_clear(f);
		}
	if (fd < 0)
		fd = lowest_free(x);
	if (!f && !(f = grow(x)))
		return NULL;
	memset(f, 0, sizeof(*f));
	f->fd = fd;
	if (fd < FX_USED_WORDS * 64)
		x->used[fd / 64] |= UINT64_C(1) << (fd % 64);
	f->kind = kind;
	f->flags = flags;
	f->cloexec = cloexec;
	f->info_known = true;
	return f;
}

/* @s as @f's name, interned (a replay's: its own copy); sets x->err on ENOMEM. */
static void set_name(struct fdgen *x, struct mach_fd *f, const char *s)
{
	if (!f || x->nameless)
		return;
	/* a replay's table is freed on its own, after the builder's strings are gone */
	f->name = x->s->replay ? strdup(s) : sy_intern_str(x->s, s);
	if (!f->name)
		x->err = -ENOMEM;
	else
		f->name_interned = !x->s->replay;
}

struct mach_fd *fx_path(struct fdgen *x, int fd, const char *path, unsigned int flags, bool cloexec, int mnt,
			uint64_t ino)
{
	struct mach_fd *f = fx_add(x, fd, MACH_FD_PATH, flags, cloexec);

	if (!f)
		return NULL;
	set_name(x, f, path);
	/* /home is a mount of its own only on a machine with a data disk */
	f->mnt_id = mnt == MNT_HOME && !x->s->data_disk ? MNT_ROOT : mnt;
	f->ino = ino || x->nameless ? ino : sy_path_inode(path);
	return f;
}

struct mach_fd *fx_sock(struct fdgen *x, int fd, unsigned int family, unsigned int type, uint64_t ino,
			unsigned int flags, bool cloexec)
{
	struct mach_fd *f = fx_add(x, fd, MACH_FD_SOCKET, MACH_O_RDWR | flags, cloexec);

	if (!f)
		return NULL;
	f->mnt_id = MNT_SOCKFS;
	f->ino = ino;
	f->sock_family = family;
	f->sock_type = type;
	if (family == AF_UNIX)
		f->type = MACH_FDT_UNIX;
	return f;
}

struct mach_fd *fx_pipe(struct fdgen *x, int fd, uint64_t ino, bool write, unsigned int flags, bool cloexec)
{
	struct mach_fd *f = fx_add(x, fd, MACH_FD_PIPE, (write ? MACH_O_WRONLY : 0) | flags, cloexec);

	if (f) {
		f->mnt_id = MNT_PIPEFS;
		f->ino = ino;
	}
	return f;
}

/* What an anon inode file of @type shows in fdinfo, drawn from the table's stream. */
static void anon_state(struct fdgen *x, struct mach_fd *f)
{
	struct rng *r = &x->r;
	struct mach_fd_info *in = NULL;

	if (f->type == MACH_FDT_EVENTFD || f->type == MACH_FDT_SIGNALFD || f->type == MACH_FDT_TIMERFD ||
	    f->type == MACH_FDT_PIDFD) {
		if (!(in = mach_fd_info_mut(f))) {
			x->err = -ENOMEM;
			return;
		}
	}
	switch (f->type) {
	case MACH_FDT_EVENTFD:
		in->u.eventfd.count = rng_chance(r, 0.8) ? 0 : rng_range(r, 1, 8);
		in->u.eventfd.id = (int)rng_below(r, 4096);
		break;
	case MACH_FDT_SIGNALFD:
		/* SIGHUP, SIGINT, SIGTERM, SIGCHLD, SIGUSR1, SIGUSR2 */
		in->u.signalfd.sigmask = rng_chance(r, 0.5) ? 0x14003ull : 0x16a03ull;
		break;
	case MACH_FDT_TIMERFD:
		in->u.timerfd.clockid = rng_chance(r, 0.7) ? 1 : 0; /* CLOCK_MONOTONIC, CLOCK_REALTIME */
		in->u.timerfd.ticks = 0;
		in->u.timerfd.settime_flags = in->u.timerfd.clockid ? 01 : 03; /* TFD_TIMER_ABSTIME, CANCEL_ON_SET */
		if (rng_chance(r, 0.8)) {
			in->u.timerfd.value_sec = rng_below(r, 60);
			in->u.timerfd.value_nsec = rng_below(r, 1000000000u);
		}
		break;
	case MACH_FDT_PIDFD:
		/* the caller names the pid; pidfs gives each pid its own inode */
		in->u.pidfd.levels = 1;
		break;
	default:
		break;
	}
}

struct mach_fd *fx_anon(struct fdgen *x, int fd, enum mach_fd_type type, unsigned int flags, bool cloexec)
{
	/* inotify_init and userfaultfd open read-only; the others read and write */
	bool ro = type == MACH_FDT_INOTIFY || type == MACH_FDT_USERFAULTFD;
	struct mach_fd *f = fx_add(x, fd, MACH_FD_ANON, (ro ? 0 : MACH_O_RDWR) | flags, cloexec);

	if (!f)
		return NULL;
	set_name(x, f, mach_anon_fd_name(type));
	f->type = type;
	f->mnt_id = type == MACH_FDT_PIDFD ? MNT_PIDFS : MNT_ANON;
	f->ino = ANON_INODE_INO; /* every plain anon file shares anon_inode_inode */
	anon_state(x, f);
	return f;
}

void fx_watch(struct fdgen *x, struct mach_fd *f, const char *const *paths, unsigned int n)
{
	struct mach_fd_info *in;

	if (!f || x->err)
		return;
	if (!(in = mach_fd_info_mut(f)) || !(in->marks = calloc(n, sizeof(*in->marks)))) {
		x->err = -ENOMEM;
		return;
	}
	/* the group's marks list is newest first */
	for (unsigned int i = 0; i < n; i++) {
		struct mach_fsnotify_mark *k = &in->marks[i];
		uint64_t ino = sy_path_inode(paths[n - 1 - i]);
		uint32_t gen = (uint32_t)rng_next(&x->r);

		k->obj = MACH_MARK_INODE;
		k->wd = (int)(n - i);
		k->ino = ino;
		k->sdev = SDEV_ROOT;
		k->mask = 0xfc6; /* modify, attrib, moves, create, delete, delete/move self */
		/* ext4's FILEID_INO32_GEN handle: the inode and its generation, little-endian */
		k->has_fhandle = true;
		k->fh_type = 1;
		k->fh_bytes = 8;
		for (int b = 0; b < 4; b++) {
			k->fh[b] = (uint8_t)(ino >> (8 * b));
			k->fh[4 + b] = (uint8_t)(gen >> (8 * b));
		}
	}
	in->nitems = n;
}

/* /dev/pts/N (devpts numbers its inodes N + 3) or /dev/ttyN for a terminal's device number. */
static void tty_path(int tty_nr, char *buf, size_t size, int *mnt, uint64_t *ino)
{
	unsigned int major = ((unsigned int)tty_nr >> 8) & 0xfff;
	unsigned int minor = ((unsigned int)tty_nr & 0xff) | (((unsigned int)tty_nr >> 12) & 0xfff00);

	if (major >= PTS_MAJOR && major < PTS_MAJOR + 8) {
		unsigned int n = minor + (major - PTS_MAJOR) * 256;

		snprintf(buf, size, "/dev/pts/%u", n);
		*mnt = MNT_DEVPTS;
		*ino = n + 3;
	} else if (major == 4 && minor >= 64) {
		snprintf(buf, size, "/dev/ttyS%u", minor - 64);
		*mnt = MNT_DEV;
		*ino = 80 + minor;
	} else {
		snprintf(buf, size, "/dev/tty%u", minor);
		*mnt = MNT_DEV;
		*ino = 20 + minor;
	}
}

void fx_stdio(struct fdgen *x)
{
	char tty[32];
	int mnt;
	uint64_t ino;

	if (x->me->tty_nr) {
		tty_path(x->me->tty_nr, tty, sizeof(tty), &mnt, &ino);
		for (int fd = 0; fd < 3; fd++)
			fx_path(x, fd, tty, FL_RDWR, false, mnt, ino);
		return;
	}
	fx_path(x, 0, "/dev/null", FL_RD, false, MNT_DEV, 4);
	if (sy_net_service_root(x->s, x->g->eroot) && x->g->env == ENV_SERVICE) {
		/* a service and what it forked: stdout and stderr are its one stream socket to journald */
		uint64_t ino = sy_net_stdout_inode(x->s->ids[x->g->eroot].tgid);

		fx_sock(x, 1, AF_UNIX, SOCK_STREAM, ino, 0, false);
		fx_sock(x, 2, AF_UNIX, SOCK_STREAM, ino, 0, false);
	} else {
		fx_path(x, 1, "/dev/null", FL_WR, false, MNT_DEV, 4);
		fx_path(x, 2, "/dev/null", FL_WR, false, MNT_DEV, 4);
	}
}

void fx_ptmx(struct fdgen *x, struct mach_fd *f, int index)
{
	struct mach_fd_info *in = f ? mach_fd_info_mut(f) : NULL;

	if (!in) {
		if (f)
			x->err = -ENOMEM;
		return;
	}
	f->type = MACH_FDT_PTMX;
	in->u.ptmx.index = index;
}

void fx_pidfd(struct fdgen *x, int fd, pid_t pid)
{
	struct mach_fd *f = fx_anon(x, fd, MACH_FDT_PIDFD, 0, true);

	if (f && f->info) {
		/* pidfs numbers a pid's inode as pids are made: a little above the pid for an unwrapped counter */
		f->info->u.pidfd.nspid[0] = pid;
		f->ino = 2 + (uint64_t)(uint32_t)pid;
	}
}

/* What epoll_ctl takes: not a regular file or directory (EPERM), devices and the rest. */
static bool pollable(const struct mach_fd *t)
{
	return t->kind != MACH_FD_PATH || t->mnt_id == MNT_DEV || t->mnt_id == MNT_DEVPTS;
}

void fx_epoll_all(struct fdgen *x, int epfd, int from)
{
	struct mach_fd *ep = NULL;
	struct mach_fd_info *in;
	unsigned int n = 0;

	if (x->err)
		return;
	for (unsigned int i = 0; i < x->f->nfds; i++) {
		n += x->f->fds[i].fd >= from && x->f->fds[i].fd != epfd && pollable(&x->f->fds[i]);
		if (x->f->fds[i].fd == epfd)
			ep = &x->f->fds[i];
	}
	if (!ep || ep->type != MACH_FDT_EPOLL)
		return;
	if (!(in = mach_fd_info_mut(ep)) || !(in->epoll = calloc(n ? n : 1, sizeof(*in->epoll)))) {
		x->err = -ENOMEM;
		return;
	}
	for (unsigned int i = 0; i < x->f->nfds; i++) {
		const struct mach_fd *t = &x->f->fds[i];
		struct mach_epoll_item *e;

		if (t->fd < from || t->fd == epfd || !pollable(t))
			continue;
		e = &in->epoll[in->nitems++];
		e->tfd = t->fd;
		/* EPOLLIN, edge-triggered for sockets of event loops */
		e->events = t->kind == MACH_FD_SOCKET ? 0x80000019u : 0x19u;
		e->data = (uint64_t)t->fd;
		e->pos = t->pos;
		e->ino = t->ino;
		e->sdev = t->kind == MACH_FD_SOCKET ? SDEV_SOCKFS : t->kind == MACH_FD_PIPE ? SDEV_PIPEFS :
			  t->kind == MACH_FD_ANON ? SDEV_ANON : SDEV_ROOT;
	}
}

/* The smallest capacity the kernel's table grows to that holds fd @hi: 64, then 128 << k. */
static unsigned int table_size(int hi)
{
	unsigned int cap = 64;

	if (hi < 64)
		return cap;
	for (cap = 128; cap <= (unsigned int)hi; cap <<= 1)
		;
	return cap;
}

static int fd_order(const void *a, const void *b)
{
	int x = ((const struct mach_fd *)a)->fd, y = ((const struct mach_fd *)b)->fd;

	return (x > y) - (x < y);
}

int sy_plan_ids(struct synth *s)
{
	const struct mach_machine *m = s->m;

	if (!(s->ids = malloc((s->n ? s->n : 1) * sizeof(*s->ids))))
		return -ENOMEM;
	/* a table the maker makes is gone by the time the network asks where its sockets are */
	if (!s->o->store_fds && !(s->sock_fds = calloc(s->n ? s->n : 1, sizeof(*s->sock_fds))))
		return -ENOMEM;
	for (size_t i = 0; i < s->n; i++) {
		const struct mach_process *p = &m->procs[i];
		const struct mach_process *pp = p->ppid > 0 ? mach_find_process(m, p->ppid) : NULL;

		s->ids[i] = (struct sy_ids){ .tgid = p->tgid, .ppid = p->ppid, .session = p->session,
					     .tty_nr = p->tty_nr, .parent = pp ? (int32_t)(pp - m->procs) : -1 };
	}
	return 0;
}

/* Process @idx's table into the empty @f; @nameless: the measuring pass (struct fdgen). */
static int make_table(struct synth *s, size_t idx, struct mach_files *f, bool nameless)
{
	const struct gen *g = &s->gen[idx];
	struct fdgen x = { .s = s, .idx = idx, .me = &s->ids[idx], .g = g, .f = f, .slot = SY_SLOT_PIPE,
			   .nameless = nameless };

	if (x.me->parent >= 0) {
		x.parent = &s->ids[x.me->parent];
		x.pg = &s->gen[x.me->parent];
	}
	rng_init(&x.r, s->o->seed, KEY_FILES + idx);
	sy_prog_files(&x);
	if (x.err)
		return x.err;
	if (f->nfds)
		qsort(f->fds, f->nfds, sizeof(*f->fds), fd_order);
	if (f->nfds && f->nfds < x.cap && !nameless) {
		/* the table keeps what it holds, not what it grew by */
		struct mach_fd *fit = realloc(f->fds, f->nfds * sizeof(*fit));

		if (fit)
			f->fds = fit;
	}
	return 0;
}

int sy_make_files(struct synth *s, size_t idx, struct mach_files *f)
{
	return make_table(s, idx, f, false);
}

/* Whether an fd of @f holds a lock. */
static bool holds_locks(const struct mach_files *f)
{
	for (unsigned int i = 0; i < f->nfds; i++)
		if (mach_fd_info(&f->fds[i])->nlocks)
			return true;
	return false;
}

/* @f's socket fds, in its order, into s->sock_fds[@idx] (nothing when it holds none): 0 or -ENOMEM. */
static int keep_sock_fds(struct synth *s, size_t idx, const struct mach_files *f)
{
	unsigned int n = 0, k = 0;

	for (unsigned int i = 0; i < f->nfds; i++)
		n += f->fds[i].kind == MACH_FD_SOCKET;
	if (!n)
		return 0;
	if (!(s->sock_fds[idx] = malloc((n + 1) * sizeof(**s->sock_fds))))
		return -ENOMEM;
	for (unsigned int i = 0; i < f->nfds; i++)
		if (f->fds[i].kind == MACH_FD_SOCKET)
			s->sock_fds[idx][k++] = (struct sy_sock_fd){ .ino = f->fds[i].ino, .fd = f->fds[i].fd };
	s->sock_fds[idx][k] = (struct sy_sock_fd){ 0 };
	return 0;
}

int sy_build_files(struct synth *s, size_t idx)
{
	struct mach_process *p = &s->m->procs[idx];
	const struct gen *g = &s->gen[idx];
	const struct gen *pg = s->ids[idx].parent >= 0 ? &s->gen[s->ids[idx].parent] : NULL;
	struct mach_files *f;
	unsigned int floor;
	int rc;

	if (g->state == MACH_TASK_ZOMBIE)
		return 0; /* exit_files: no table */
	p->files = f = mach_files_new();
	if (!f)
		return -ENOMEM;
	if (g->kind == G_KTHREAD) {
		f->max_fds = 64; /* init_files */
		return 0;
	}
	/* a table the maker makes again is measured without its names first */
	if ((rc = make_table(s, idx, f, sy_fds_made(s))))
		return rc;
	/* the catalog's size, or what fork copied from a shell holding fd 255 */
	floor = sy_progs[g->prog].fdsize;
	if (pg && pg->kind == G_USER && (pg->prog == P_BASH_LOGIN || pg->prog == P_BASH) && floor < 256)
		floor = 256;
	f->max_fds = table_size(f->nfds ? f->fds[f->nfds - 1].fd : 0);
	if (f->max_fds < floor)
		f->max_fds = floor;
	if (!sy_fds_made(s))
		return 0;
	if (holds_locks(f)) {
		/* a daemon locking its pid file keeps its table, named: /proc/locks lists what the tables hold */
		mach_files_drop_fds(f);
		f->nfds = 0;
		return make_table(s, idx, f, false);
	}
	if ((rc = keep_sock_fds(s, idx, f)))
		return rc;
	sy_maker_keep_files(s, idx, f);
	return 0;
}

struct mach_fd *sy_files_open_path(struct synth *s, struct mach_process *p, const char *path, bool on_run)
{
	struct mach_files *t = p->files;
	struct mach_fd *fds, *f;
	unsigned int at = 0;
	int fd = 0;

	/* a made table is the process's own from here: the lock's fd changes it */
	if (!t || mach_files_store(t))
		return NULL;
	for (unsigned int i = 0; i < t->nfds; i++)
		if (t->fds[i].kind == MACH_FD_PATH && t->fds[i].name && !strcmp(t->fds[i].name, path))
			return &t->fds[i];
	/* the lowest free number, as open() gives it; the table is sorted */
	for (at = 0; at < t->nfds && t->fds[at].fd <= fd; at++)
		if (t->fds[at].fd == fd)
			fd++;
	fds = realloc(t->fds, (t->nfds + 1) * sizeof(*fds));
	if (!fds)
		return NULL;
	t->fds = fds;
	memmove(&fds[at + 1], &fds[at], (t->nfds - at) * sizeof(*fds));
	t->nfds++;
	f = &fds[at];
	*f = (struct mach_fd){ .fd = fd, .kind = MACH_FD_PATH, .flags = FL_RDWR, .cloexec = true, .info_known = true,
			       .mnt_id = on_run ? MNT_RUN : MNT_ROOT, .ino = sy_path_inode(path) };
	if (!(f->name = sy_intern_str(s, path))) {
		memmove(&fds[at], &fds[at + 1], (t->nfds - at - 1) * sizeof(*fds));
		t->nfds--;
		return NULL;
	}
	f->name_interned = true;
	s->sum.fds++; /* fs/file-nr counts it */
	if (t->max_fds <= (unsigned int)fd)
		t->max_fds = table_size(fd);
	return f;
}
