// SPDX-License-Identifier: MIT
/*
 * files_progs.c - what each program of the catalog holds open, beyond its
 * standard descriptors: an event loop's epoll, eventfd, signalfd and
 * timerfd; listening and connected sockets; log and data files; the pipes
 * a parent shares with its children; locks on pid files and databases.
 *
 * Modelled on what such processes show on a Debian 12 server: systemd
 * services keep everything O_CLOEXEC, event loops register their sockets
 * edge-triggered, forked workers inherit their master's listening sockets
 * (one inode in every holder), PostgreSQL backends keep many relation files
 * open and hold the postmaster's death pipe, bash keeps its terminal at fd
 * 255, make hands its jobserver pipe down to the compilers.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "files_int.h"
#include "plan.h"

#define CX true /* O_CLOEXEC */

/* The next inode of this process's own pipes and sockets. */
static uint64_t own(struct fdgen *x)
{
	return fx_ino(x->me->tgid, x->slot++);
}

/* Inode @k of the pipes and sockets @pid made to hand to its children. */
static uint64_t shared(pid_t pid, unsigned int k)
{
	return fx_ino(pid, SY_SLOT_SHARED + k);
}

/*
 * The sd-event loop of a systemd daemon: epoll over its sockets (D-Bus,
 * notify, varlink: the network's, at fds from 3), a signalfd, timers and
 * an inotify watching @paths.  Returns the epoll fd.
 */
static int sd_event(struct fdgen *x, const char *const *paths, unsigned int npaths)
{
	struct mach_fd *ep = fx_anon(x, -1, MACH_FDT_EPOLL, 0, CX);
	int epfd = ep ? ep->fd : -1;

	fx_anon(x, -1, MACH_FDT_SIGNALFD, FL_NB, CX);
	fx_anon(x, -1, MACH_FDT_TIMERFD, FL_NB, CX);
	fx_anon(x, -1, MACH_FDT_TIMERFD, FL_NB, CX);
	if (npaths)
		fx_watch(x, fx_anon(x, -1, MACH_FDT_INOTIFY, FL_NB, CX), paths, npaths);
	fx_epoll_all(x, epfd, 3);
	return epfd;
}

/* A pid file held with flock(LOCK_EX), as cron and atd keep theirs. */
static void locked_file(struct fdgen *x, const char *path, int mnt, unsigned int dev_minor, enum mach_lock_class kind)
{
	struct mach_fd *f = fx_path(x, -1, path, FL_RDWR, CX, mnt, 0);

	if (!f)
		return;
	if (mach_fd_add_lock(f, &(struct mach_file_lock){ .id = 1, .cls = kind, .type = MACH_LOCK_WRITE,
							  .pid = kind == MACH_LOCK_OFDLCK ? -1 : x->me->tgid,
							  .has_inode = true,
							  .dev_major = mnt == MNT_ROOT ? SY_ROOT_DEV_MAJOR : 0,
							  .dev_minor = mnt == MNT_ROOT ? SY_ROOT_DEV_MINOR : dev_minor,
							  .ino = f->ino, .end = MACH_LOCK_EOF, .fd = f->fd }))
		x->err = -ENOMEM;
}

static void prog_systemd(struct fdgen *x, bool user)
{
	static const char *const units[] = { "/etc/systemd/system", "/run/systemd/system", "/usr/lib/systemd/system" };
	const struct sy_ids *ids = x->s->ids;
	unsigned int pidfds = 0;

	if (!user)
		fx_path(x, -1, "/dev/kmsg", FL_WR, CX, MNT_DEV, 11);
	sd_event(x, units, user ? 1 : 3);
	fx_path(x, -1, "/proc/1/mountinfo", FL_RD, CX, MNT_PROC, 0);
	/* systemd keeps a pidfd on each service's main process */
	for (size_t i = 0; !user && i < x->s->n && pidfds < 12; i++)
		if (ids[i].ppid == x->me->tgid && ids[i].session == ids[i].tgid) {
			fx_pidfd(x, -1, ids[i].tgid);
			pidfds++;
		}
}

static void prog_journald(struct fdgen *x)
{
	static const char *const dirs[] = { "/run/log/journal" };
	char path[96];

	snprintf(path, sizeof(path), "/var/log/journal/%016llx/system.journal",
		 (unsigned long long)(x->s->o->seed * 0x9e3779b97f4a7c15ull));
	fx_path(x, -1, "/dev/kmsg", FL_RD | FL_NB, CX, MNT_DEV, 11);
	sd_event(x, dirs, 1);
	fx_path(x, -1, path, FL_RDWR, CX, MNT_ROOT, 0);
}

static void prog_daemon_sd(struct fdgen *x)
{
	static const char *const etc[] = { "/etc/hosts", "/etc/resolv.conf" };
	unsigned int prog = x->g->prog;

	sd_event(x, etc, prog == P_RESOLVED ? 2 : 0);
	if (prog == P_LOGIND) {
		fx_path(x, -1, "/dev/tty0", FL_RDWR | FL_NB, CX, MNT_DEV, 20);
		fx_anon(x, -1, MACH_FDT_EVENTFD, FL_NB, CX);
	}
}

/* A job run under a shell: what its program reads and writes. */
static void prog_job(struct fdgen *x)
{
	static const char *const logs[] = { "/var/log/syslog" };
	struct mach_fd *f;

	switch (x->g->prog) {
	case P_VIM:
		fx_path(x, -1, "/home/project/.main.c.swp", FL_RDWR, CX, MNT_HOME, 0);
		break;
	case P_TOP:
		fx_path(x, -1, "/proc/stat", FL_RD, CX, MNT_PROC, 0);
		fx_path(x, -1, "/proc/meminfo", FL_RD, CX, MNT_PROC, 0);
		break;
	case P_LESS:
		fx_path(x, -1, "/dev/tty", FL_RD, false, MNT_DEV, 12);
		if ((f = fx_path(x, -1, "/var/log/syslog", FL_RD, false, MNT_ROOT, 0)))
			f->pos = (int64_t)rng_range(&x->r, 4096, 1 << 22);
		break;
	case P_TAIL:
		if ((f = fx_path(x, -1, "/var/log/syslog", FL_RD, false, MNT_ROOT, 0)))
			f->pos = (int64_t)rng_range(&x->r, 1 << 16, 1 << 24);
		fx_watch(x, fx_anon(x, -1, MACH_FDT_INOTIFY, 0, false), logs, 1);
		break;
	case P_RSYNC:
		fx_pipe(x, -1, shared(x->me->tgid, 0), false, 0, false);
		fx_pipe(x, -1, shared(x->me->tgid, 1), true, 0, false);
		fx_path(x, -1, "/srv/backup/data.tar", FL_RD, false, MNT_ROOT, 0);
		break;
	case P_XZ:
		fx_path(x, -1, "/srv/backup/data.tar", FL_RD, false, MNT_ROOT, 0);
		fx_path(x, -1, "/srv/backup/data.tar.xz", FL_WR, false, MNT_ROOT, 0);
		break;
	case P_PS:
		fx_path(x, -1, "/proc", FL_DIR, CX, MNT_PROC, 1);
		break;
	default:
		break;
	}
}

/* Build tools: make's jobserver pipe, handed down to what it runs. */
static void prog_build(struct fdgen *x)
{
	pid_t maker = x->g->prog == P_MAKE ? x->me->tgid : x->pg && x->pg->prog == P_MAKE ? x->me->ppid :
		      x->parent && x->parent->ppid > 0 ? x->parent->ppid : 0;

	if (!maker || (x->g->prog != P_MAKE && (!x->pg || (x->pg->prog != P_MAKE && x->pg->prog != P_SH))))
		return;
	fx_pipe(x, 3, shared(maker, 0), false, 0, false);
	fx_pipe(x, 4, shared(maker, 0), true, 0, false);
	if (x->g->prog == P_CC1) {
		fx_path(x, -1, "/home/project/src/parser.c", FL_RD, false, MNT_HOME, 0);
		fx_path(x, -1, "/tmp/ccQx3f2a.s", FL_WR, false, MNT_ROOT, 0);
	}
}

/* Shells: a login shell keeps its terminal at 255, a script its script file. */
static void prog_shell(struct fdgen *x)
{
	if (x->g->prog == P_BASH_LOGIN && x->me->tty_nr) {
		struct mach_fd *t = &x->f->fds[0];

		fx_path(x, 255, t->name, t->flags, CX, t->mnt_id, t->ino);
	} else if (x->g->prog == P_BASH) {
		fx_path(x, 255, "/home/project/deploy.sh", FL_RD, CX, MNT_HOME, 0);
	} else if (x->g->prog == P_SH && x->pg && x->pg->prog == P_CRON_CHILD) {
		/* cron collects a job's output through a pipe */
		fx_pipe(x, 1, shared(x->me->ppid, 0), true, 0, false);
		fx_pipe(x, 2, shared(x->me->ppid, 0), true, 0, false);
	}
	prog_build(x);
}

/* sshd and its sessions: the listener, the connection, the pty master and the pipe between the two. */
static void prog_ssh(struct fdgen *x)
{
	struct mach_fd *f;
	unsigned int pts = x->g->inst;

	switch (x->g->prog) {
	case P_SSHD_PRIV:
		fx_pipe(x, -1, shared(x->me->tgid, 1), false, 0, CX);
		break;
	case P_SSHD_USER:
		fx_pipe(x, -1, shared(x->me->ppid, 1), true, 0, CX);
		f = fx_path(x, -1, "/dev/ptmx", FL_RDWR | FL_NB, CX, MNT_DEV, 86);
		fx_ptmx(x, f, (int)pts);
		break;
	default:
		break;
	}
}

/* PostgreSQL: the postmaster's listeners and death pipe, its children's relation files. */
static void prog_postgres(struct fdgen *x)
{
	pid_t pm = x->g->prog == P_POSTMASTER ? x->me->tgid : x->me->ppid;
	int epfd;

	fx_pipe(x, -1, shared(pm, 3), false, FL_NB, CX);
	if (x->g->prog == P_POSTMASTER) {
		fx_pipe(x, -1, shared(pm, 3), true, FL_NB, CX);
		return;
	}
	epfd = fx_anon(x, -1, MACH_FDT_EPOLL, 0, CX) ? x->f->fds[x->f->nfds - 1].fd : -1;
	fx_epoll_all(x, epfd, 3);
	/* a backend has touched many relations: base/<db>/<relfilenode> */
	for (unsigned int i = 0, n = x->g->prog == P_PG_BACKEND ? (unsigned int)rng_range(&x->r, 40, 110) : 3; i < n; i++) {
		char path[80];

		snprintf(path, sizeof(path), "/var/lib/postgresql/15/main/base/16384/%u", 16385 + 7 * i +
			 (unsigned int)rng_below(&x->r, 7));
		fx_path(x, -1, path, FL_RDWR, CX, MNT_ROOT, 0);
	}
}

/* A master and its forked workers: the workers inherit the listeners (one inode in all). */
static void prog_web(struct fdgen *x)
{
	unsigned int prog = x->g->prog;
	bool worker = prog == P_NGINX_WORKER || prog == P_GUNICORN_WORKER || prog == P_PHPFPM_WORKER ||
		      (prog == P_CELERY && x->pg && x->pg->prog == P_CELERY);
	int epfd;

	if (prog == P_NGINX || prog == P_NGINX_WORKER) {
		fx_path(x, -1, "/var/log/nginx/access.log", FL_APPEND, false, MNT_ROOT, 0);
		fx_path(x, -1, "/var/log/nginx/error.log", FL_APPEND, false, MNT_ROOT, 0);
	}
	if (prog == P_GUNICORN_WORKER) {
		/* the heartbeat: an unlinked temporary file */
		struct mach_fd *f = fx_path(x, -1, "/tmp/wgunicorn-3x9e_k1q", FL_RDWR, CX, MNT_ROOT, 0);

		if (f)
			f->deleted = true;
	}
	if (!worker) {
		fx_pipe(x, -1, own(x), false, FL_NB, CX);
		fx_pipe(x, -1, fx_ino(x->me->tgid, x->slot - 1), true, FL_NB, CX);
		return;
	}
	epfd = fx_anon(x, -1, MACH_FDT_EPOLL, 0, CX) ? x->f->fds[x->f->nfds - 1].fd : -1;
	fx_anon(x, -1, MACH_FDT_EVENTFD, FL_NB, CX);
	fx_epoll_all(x, epfd, 3);
}

/* Event-loop servers and runtimes: epoll over their sockets, an eventfd, a wakeup pipe. */
static void prog_server(struct fdgen *x)
{
	int epfd = fx_anon(x, -1, MACH_FDT_EPOLL, 0, CX) ? x->f->fds[x->f->nfds - 1].fd : -1;

	fx_anon(x, -1, MACH_FDT_EVENTFD, FL_NB, CX);
	fx_pipe(x, -1, own(x), false, FL_NB, CX);
	fx_pipe(x, -1, fx_ino(x->me->tgid, x->slot - 1), true, FL_NB, CX);
	fx_epoll_all(x, epfd, 3);
}

/* The JVM: its runtime image and a long class path of jars: the process with hundreds of fds. */
static void prog_java(struct fdgen *x)
{
	unsigned int jars = (unsigned int)rng_range(&x->r, 150, 230);

	fx_path(x, -1, "/usr/lib/jvm/java-17-openjdk-amd64/lib/modules", FL_RD, CX, MNT_ROOT, 0);
	fx_path(x, -1, "/dev/random", FL_RD, CX, MNT_DEV, 8);
	fx_path(x, -1, "/dev/urandom", FL_RD, CX, MNT_DEV, 9);
	for (unsigned int i = 0; i < jars; i++) {
		char path[64];

		snprintf(path, sizeof(path), "/opt/app/lib/dep-%03u.jar", i);
		fx_path(x, -1, path, FL_RD, CX, MNT_ROOT, 0);
	}
	prog_server(x);
	fx_path(x, -1, "/var/log/app/app.log", FL_APPEND, CX, MNT_ROOT, 0);
}

/* Container plumbing: bolt databases under flock, the shim's stdio pipes to its container. */
static void prog_container(struct fdgen *x)
{
	switch (x->g->prog) {
	case P_CONTAINERD:
		locked_file(x, "/var/lib/containerd/io.containerd.metadata.v1.bolt/meta.db", MNT_ROOT, 0,
			    MACH_LOCK_FLOCK);
		prog_server(x);
		break;
	case P_DOCKERD:
		locked_file(x, "/var/lib/docker/volumes/metadata.db", MNT_ROOT, 0, MACH_LOCK_FLOCK);
		prog_server(x);
		break;
	case P_SHIM:
		fx_pipe(x, -1, shared(x->me->tgid, 0), false, FL_NB, CX);
		fx_pipe(x, -1, shared(x->me->tgid, 1), false, FL_NB, CX);
		prog_server(x);
		break;
	default:
		break;
	}
}

/* Smaller daemons: pid files under flock, sockets, their logs. */
static void prog_small_daemon(struct fdgen *x)
{
	static const char *const polkit[] = { "/etc/polkit-1/rules.d", "/usr/share/polkit-1/rules.d" };

	switch (x->g->prog) {
	case P_CRON:
		locked_file(x, "/run/crond.pid", MNT_RUN, SY_RUN_DEV_MINOR, MACH_LOCK_FLOCK);
		break;
	case P_ATD:
		locked_file(x, "/run/atd.pid", MNT_RUN, SY_RUN_DEV_MINOR, MACH_LOCK_POSIX);
		break;
	case P_RSYSLOGD:
		fx_path(x, -1, "/proc/kmsg", FL_RD, CX, MNT_PROC, 0);
		fx_path(x, -1, "/var/log/syslog", FL_APPEND, CX, MNT_ROOT, 0);
		fx_path(x, -1, "/var/log/auth.log", FL_APPEND, CX, MNT_ROOT, 0);
		fx_path(x, -1, "/var/log/kern.log", FL_APPEND, CX, MNT_ROOT, 0);
		break;
	case P_DBUS:
		prog_server(x);
		break;
	case P_POLKITD:
		fx_anon(x, -1, MACH_FDT_EVENTFD, FL_NB, CX);
		fx_watch(x, fx_anon(x, -1, MACH_FDT_INOTIFY, FL_NB, CX), polkit, 2);
		break;
	case P_IRQBALANCE:
	case P_MULTIPATHD:
		fx_anon(x, -1, MACH_FDT_EVENTFD, FL_NB, CX);
		break;
	case P_CRON_CHILD:
		fx_pipe(x, -1, shared(x->me->tgid, 0), false, 0, CX);
		break;
	default:
		break;
	}
}

/* A tmux server: its socket, and a pty master per pane. */
static void prog_tmux(struct fdgen *x)
{
	unsigned int panes = (unsigned int)rng_range(&x->r, 1, 4);

	prog_server(x);
	for (unsigned int i = 0; i < panes; i++)
		fx_ptmx(x, fx_path(x, -1, "/dev/ptmx", FL_RDWR | FL_NB, CX, MNT_DEV, 86), (int)(x->g->inst + 1 + i));
}

/* 0, 1, 2 of a container's process: /dev/null in, the shim's pipes out. */
static void container_stdio(struct fdgen *x)
{
	fx_path(x, 0, "/dev/null", FL_RD, false, MNT_DEV, 4);
	fx_pipe(x, 1, shared(x->me->ppid, 0), true, 0, false);
	fx_pipe(x, 2, shared(x->me->ppid, 1), true, 0, false);
}

void sy_prog_files(struct fdgen *x)
{
	unsigned int prog = x->g->prog;

	if (x->pg && x->pg->prog == P_SHIM)
		container_stdio(x);
	else
		fx_stdio(x);
	fx_net_sockets(x);
	switch (prog) {
	case P_SYSTEMD:
	case P_SYSTEMD_USER:
		prog_systemd(x, prog == P_SYSTEMD_USER);
		break;
	case P_JOURNALD:
		prog_journald(x);
		break;
	case P_UDEVD: case P_NETWORKD: case P_RESOLVED: case P_TIMESYNCD: case P_LOGIND:
		prog_daemon_sd(x);
		break;
	case P_SSHD: case P_SSHD_PRIV: case P_SSHD_USER:
		prog_ssh(x);
		break;
	case P_BASH_LOGIN: case P_BASH: case P_SH: case P_MAKE: case P_CC1:
		prog_shell(x);
		break;
	case P_POSTMASTER: case P_PG_AUX: case P_PG_BACKEND:
		prog_postgres(x);
		break;
	case P_NGINX: case P_NGINX_WORKER: case P_GUNICORN: case P_GUNICORN_WORKER: case P_PHPFPM:
	case P_PHPFPM_WORKER: case P_CELERY:
		prog_web(x);
		break;
	case P_REDIS: case P_MEMCACHED:
		prog_server(x);
		break;
	case P_NODE: case P_PYTHON: case P_COREDNS: case P_EXPORTER:
		prog_server(x);
		break;
	case P_JAVA:
		prog_java(x);
		break;
	case P_CONTAINERD: case P_DOCKERD: case P_SHIM:
		prog_container(x);
		break;
	case P_TMUX:
		prog_tmux(x);
		break;
	default:
		prog_small_daemon(x);
		prog_job(x);
		break;
	}
}
