// SPDX-License-Identifier: MIT
/*
 * supervise.c - answering the command's syscalls about the served machine
 * (supervise.h).
 *
 * A notification is answered in three steps: read what the call points to
 * in the caller's memory (a CPU mask, a scheduling parameter), run the
 * control call on the model under its write lock, write what the call
 * returns through a pointer (a mask, struct sysinfo, struct utsname) and
 * reply.  The caller's memory is touched only while its notification is
 * still valid (the kernel says so), so a caller killed meanwhile is never
 * confused with a new process of the same pid.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <pthread.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "../src/util/readfile.h"
#include "supervise.h"
#include "uprocfs/control.h"
#include "uprocfs/load.h"

/* libseccomp's argument macros leave the second datum to its zero default (clang warns) */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

#define MASK_MAX 1024 /* bytes of CPU mask read from a caller: 8192 CPUs */

struct fake_pidfd {
	dev_t dev;
	ino_t ino;
	pid_t pid;
};

struct supervisor {
	int fd;
	struct sup_opts o;
	pthread_t thread;
	volatile int stop;
	unsigned long answered, passed;
	pthread_mutex_t pidfds_lock;
	struct fake_pidfd *pidfds;
	size_t npidfds, cap;
};

/* One notification being answered. */
struct call {
	struct supervisor *sv;
	const struct seccomp_notif *req;
	struct mach_caller who;
	int rc;                      /* 0 or -errno for the caller */
	int64_t val;                 /* the syscall's return value on success */
	bool pass;                   /* send it on to the kernel */
	unsigned char in[MASK_MAX];  /* what the call pointed to, read before */
	size_t inlen;
	unsigned char out[MASK_MAX]; /* what it returns through a pointer, written after */
	size_t outlen;
	uint64_t out_addr;
};

/* ------------------------------------------------------------------ */
/* The filter (the command's side)                                      */

static const int watched_by_pid[] = {
	SCMP_SYS(kill), SCMP_SYS(tkill), SCMP_SYS(tgkill), SCMP_SYS(rt_sigqueueinfo),
	SCMP_SYS(rt_tgsigqueueinfo), SCMP_SYS(pidfd_open), SCMP_SYS(sched_getaffinity),
	SCMP_SYS(sched_setaffinity), SCMP_SYS(sched_getscheduler), SCMP_SYS(sched_getparam),
	SCMP_SYS(sched_setscheduler), SCMP_SYS(sched_setparam), SCMP_SYS(getpgid), SCMP_SYS(getsid),
	SCMP_SYS(prlimit64),
};
/* pid in the second argument: (which, who) */
static const int watched_by_who[] = {
	SCMP_SYS(getpriority), SCMP_SYS(setpriority), SCMP_SYS(ioprio_get), SCMP_SYS(ioprio_set),
};
static const int watched_always[] = { SCMP_SYS(pidfd_send_signal), SCMP_SYS(sysinfo), SCMP_SYS(uname) };

int sup_install(pid_t first_real, int *listener, char *err, size_t errlen)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
	int rc = ctx ? 0 : -ENOMEM;

	/* no_new_privs would break setuid programs in the command: root may filter without it */
	if (!rc)
		rc = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_NNP, 0);
	for (size_t i = 0; !rc && i < sizeof(watched_by_pid) / sizeof(int); i++) {
		/* a pid below the run's (0 too: the handler sends it on), or a group -pgrp of one */
		rc = seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, watched_by_pid[i], 1,
				      SCMP_A0_32(SCMP_CMP_LT, (uint32_t)first_real));
		if (!rc && watched_by_pid[i] == SCMP_SYS(kill))
			rc = seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, watched_by_pid[i], 1,
					      SCMP_A0_32(SCMP_CMP_GT, (uint32_t)-first_real));
	}
	for (size_t i = 0; !rc && i < sizeof(watched_by_who) / sizeof(int); i++)
		rc = seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, watched_by_who[i], 1,
				      SCMP_A1_32(SCMP_CMP_LT, (uint32_t)first_real));
	for (size_t i = 0; !rc && i < sizeof(watched_always) / sizeof(int); i++)
		rc = seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, watched_always[i], 0);
	if (!rc)
		rc = seccomp_load(ctx);
	if (!rc) {
		*listener = seccomp_notify_fd(ctx);
		if (*listener < 0)
			rc = *listener;
	}
	if (rc)
		snprintf(err, errlen, "seccomp user notification: %s", strerror(-rc));
	if (ctx)
		seccomp_release(ctx);
	return rc;
}

/* ------------------------------------------------------------------ */
/* The caller                                                           */

/* Its credentials, from its status in our procfs (it is a real process). */
static int caller_of(pid_t host_pid, struct mach_caller *who)
{
	struct mach_status_who w;
	char path[32], *text, err[128];
	size_t len;
	int rc;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)host_pid);
	rc = uf_read(AT_FDCWD, path, 0, 1u << 20, &text, &len);
	if (rc)
		return rc;
	rc = mach_status_who(path, text, len, &w, err, sizeof(err));
	free(text);
	if (rc)
		return rc;
	*who = (struct mach_caller){ .ruid = w.uid[0], .euid = w.uid[1], .suid = w.uid[2], .rgid = w.gid[0],
				     .egid = w.gid[1], .sgid = w.gid[2], .cap_eff = w.cap_eff };
	return 0;
}

static int peek(struct call *c, uint64_t addr, size_t len)
{
	struct iovec local = { c->in, len }, remote = { (void *)(uintptr_t)addr, len };

	if (len > sizeof(c->in))
		return -EINVAL;
	if (process_vm_readv(c->req->pid, &local, 1, &remote, 1, 0) != (ssize_t)len)
		return -EFAULT;
	c->inlen = len;
	return seccomp_notify_id_valid(c->sv->fd, c->req->id) ? -ESRCH : 0;
}

static int poke(struct call *c)
{
	struct iovec local = { c->out, c->outlen }, remote = { (void *)(uintptr_t)c->out_addr, c->outlen };

	if (seccomp_notify_id_valid(c->sv->fd, c->req->id))
		return -ESRCH;
	return process_vm_writev(c->req->pid, &local, 1, &remote, 1, 0) == (ssize_t)c->outlen ? 0 : -EFAULT;
}

/* ------------------------------------------------------------------ */
/* Answers, under the model's lock                                       */

static bool synthetic(const struct call *c, pid_t pid)
{
	return pid > 0 && pid < c->sv->o.first_real;
}

static int32_t arg32(const struct call *c, int i)
{
	return (int32_t)c->req->data.args[i];
}

/* kill(2) and the signal calls aimed at one process or a process group. */
static void answer_signal(struct call *c, struct mach_ctl *x)
{
	int nr = c->req->data.nr;
	pid_t a0 = arg32(c, 0);

	if (nr == SCMP_SYS(kill) || nr == SCMP_SYS(rt_sigqueueinfo)) {
		if (synthetic(c, a0) || (a0 < -1 && synthetic(c, -a0)))
			c->rc = mach_ctl_kill(x, &c->who, a0, arg32(c, 1));
		else
			c->pass = true; /* 0, -1, and the run's own processes: the kernel's */
	} else if (nr == SCMP_SYS(tkill)) {
		if (synthetic(c, a0))
			c->rc = mach_ctl_tgkill(x, &c->who, 0, a0, arg32(c, 1));
		else
			c->pass = true;
	} else if (synthetic(c, a0)) { /* tgkill, rt_tgsigqueueinfo */
		c->rc = mach_ctl_tgkill(x, &c->who, a0, arg32(c, 1), arg32(c, 2));
	} else {
		c->pass = true;
	}
}

/* getpriority/setpriority/ioprio_get/ioprio_set: (which, who): who 0 is the caller. */
static void answer_priority(struct call *c, struct mach_ctl *x)
{
	int nr = c->req->data.nr, which = arg32(c, 0), who = arg32(c, 1), v = 0;

	if (who == 0) {
		c->pass = true;
		return;
	}
	if (nr == SCMP_SYS(getpriority)) {
		c->rc = mach_ctl_getpriority(x, which, who, &v);
		c->val = v;
	} else if (nr == SCMP_SYS(setpriority)) {
		c->rc = mach_ctl_setpriority(x, &c->who, which, who, arg32(c, 2));
	} else if (nr == SCMP_SYS(ioprio_get)) {
		c->rc = mach_ctl_ioprio_get(x, which, who, &v);
		c->val = v;
	} else {
		c->rc = mach_ctl_ioprio_set(x, &c->who, which, who, arg32(c, 2));
	}
	/* a user's tasks: the machine knows only its own; let the kernel answer for none */
	if (c->rc == -ESRCH && (which == 2 || (nr == SCMP_SYS(ioprio_get) && which == 3)))
		c->pass = true;
}

/* The sched_* calls on one thread. */
static void answer_sched(struct call *c, struct mach_ctl *x)
{
	int nr = c->req->data.nr, v = 0;
	pid_t pid = arg32(c, 0);
	size_t copied = 0;

	if (nr == SCMP_SYS(sched_getaffinity) && pid == 0 && !c->sv->o.real_affinity) {
		/* the caller's own: the machine's online CPUs, so nproc counts the machine's */
		c->rc = mach_ctl_online_mask(x, c->out, (size_t)c->req->data.args[1] > MASK_MAX ? MASK_MAX
				: (size_t)c->req->data.args[1], &copied);
		c->outlen = copied;
		c->out_addr = c->req->data.args[2];
		c->val = (int64_t)copied;
		return;
	}
	if (!synthetic(c, pid)) {
		c->pass = true;
		return;
	}
	if (nr == SCMP_SYS(sched_getaffinity)) {
		size_t len = (size_t)c->req->data.args[1];

		c->rc = mach_ctl_getaffinity(x, pid, c->out, len > MASK_MAX ? MASK_MAX : len, &copied);
		c->outlen = copied;
		c->out_addr = c->req->data.args[2];
		c->val = (int64_t)copied;
	} else if (nr == SCMP_SYS(sched_setaffinity)) {
		c->rc = mach_ctl_setaffinity(x, &c->who, pid, c->in, c->inlen);
	} else if (nr == SCMP_SYS(sched_getscheduler)) {
		c->rc = mach_ctl_getscheduler(x, pid, &v);
		c->val = v;
	} else if (nr == SCMP_SYS(sched_getparam)) {
		c->rc = mach_ctl_getparam(x, pid, &v);
		memcpy(c->out, &v, sizeof(v));
		c->outlen = sizeof(v);
		c->out_addr = c->req->data.args[1];
	} else if (nr == SCMP_SYS(sched_setscheduler)) {
		memcpy(&v, c->in, sizeof(v));
		c->rc = mach_ctl_setscheduler(x, &c->who, pid, arg32(c, 1) & ~0x40000000, v);
	} else { /* sched_setparam */
		memcpy(&v, c->in, sizeof(v));
		c->rc = mach_ctl_setscheduler(x, &c->who, pid, -1, v);
	}
}

/* prlimit64(pid, resource, new, old): the new limit was read before; the old one goes back. */
static void answer_prlimit(struct call *c, struct mach_ctl *x)
{
	pid_t pid = arg32(c, 0);
	struct mach_rlimit nl, old;

	if (!synthetic(c, pid)) {
		c->pass = true; /* 0 (the caller) and the run's own processes */
		return;
	}
	if (c->req->data.args[2])
		memcpy(&nl, c->in, sizeof(nl)); /* struct rlimit64: two u64, cur then max */
	c->rc = mach_ctl_prlimit(x, &c->who, pid, (unsigned int)c->req->data.args[1],
				 c->req->data.args[2] ? &nl : NULL, c->req->data.args[3] ? &old : NULL);
	if (!c->rc && c->req->data.args[3]) {
		memcpy(c->out, &old, sizeof(old));
		c->outlen = sizeof(old);
		c->out_addr = c->req->data.args[3];
	}
}

/* sysinfo(2) as the machine would fill it: memory in bytes, loads in 1/65536. */
static void answer_sysinfo(struct call *c, const struct mach_machine *m)
{
	struct sysinfo si;

	memset(&si, 0, sizeof(si));
	si.uptime = (long)(m->uptime_ns / 1000000000u);
	for (int i = 0; i < 3; i++)
		si.loads[i] = m->avenrun[i] << (SI_LOAD_SHIFT - MACH_FSHIFT);
	si.totalram = m->meminfo[MACH_MEMINFO_MEMTOTAL] * 1024;
	si.freeram = m->meminfo[MACH_MEMINFO_MEMFREE] * 1024;
	si.sharedram = m->meminfo[MACH_MEMINFO_SHMEM] * 1024;
	si.bufferram = m->meminfo[MACH_MEMINFO_BUFFERS] * 1024;
	si.totalswap = m->meminfo[MACH_MEMINFO_SWAPTOTAL] * 1024;
	si.freeswap = m->meminfo[MACH_MEMINFO_SWAPFREE] * 1024;
	si.procs = (unsigned short)(m->nr_threads > 65535 ? 65535 : m->nr_threads);
	si.mem_unit = 1;
	memcpy(c->out, &si, sizeof(si));
	c->outlen = sizeof(si);
	c->out_addr = c->req->data.args[0];
}

/* uname(2): the served kernel's release and version, the machine's host name. */
static void answer_uname(struct call *c, const struct mach_machine *m)
{
	struct utsname u;

	memset(&u, 0, sizeof(u));
	snprintf(u.sysname, sizeof(u.sysname), "Linux");
	snprintf(u.nodename, sizeof(u.nodename), "%s", m->hostname[0] ? m->hostname : "localhost");
	snprintf(u.release, sizeof(u.release), "%s", m->profile.kernel_release);
	snprintf(u.version, sizeof(u.version), "#1 SMP PREEMPT_DYNAMIC");
	snprintf(u.machine, sizeof(u.machine), "x86_64");
	snprintf(u.domainname, sizeof(u.domainname), "(none)");
	memcpy(c->out, &u, sizeof(u));
	c->outlen = sizeof(u);
	c->out_addr = c->req->data.args[0];
}

static int answer(void *arg, struct mach_machine *m)
{
	struct call *c = arg;
	struct mach_ctl x = { .m = m, .sim = c->sv->o.sim };
	int nr = c->req->data.nr;
	pid_t a0 = arg32(c, 0), v = 0;

	if (nr == SCMP_SYS(kill) || nr == SCMP_SYS(tkill) || nr == SCMP_SYS(tgkill) ||
	    nr == SCMP_SYS(rt_sigqueueinfo) || nr == SCMP_SYS(rt_tgsigqueueinfo))
		answer_signal(c, &x);
	else if (nr == SCMP_SYS(getpriority) || nr == SCMP_SYS(setpriority) || nr == SCMP_SYS(ioprio_get) ||
		 nr == SCMP_SYS(ioprio_set))
		answer_priority(c, &x);
	else if (nr == SCMP_SYS(sysinfo))
		answer_sysinfo(c, m);
	else if (nr == SCMP_SYS(uname))
		answer_uname(c, m);
	else if (nr == SCMP_SYS(getpgid) || nr == SCMP_SYS(getsid)) {
		if (!synthetic(c, a0)) {
			c->pass = true;
			return 0;
		}
		c->rc = nr == SCMP_SYS(getpgid) ? mach_ctl_getpgid(&x, a0, &v) : mach_ctl_getsid(&x, a0, &v);
		c->val = v;
	} else if (nr == SCMP_SYS(prlimit64)) {
		answer_prlimit(c, &x);
	} else if (nr == SCMP_SYS(pidfd_open)) {
		c->pass = !synthetic(c, a0);
		c->rc = c->pass || mach_ctl_exists(&x, a0) ? 0 : -ESRCH;
	} else {
		answer_sched(c, &x);
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* pidfds of synthetic tasks                                            */

/*
 * A synthetic task has no pidfd, so the caller gets a descriptor of ours (a
 * sealed, empty memfd) that stands for it: pidfd_send_signal on it is
 * recognised by its inode.  Waiting or polling on it does nothing.
 */
static int inject_pidfd(struct call *c, pid_t pid)
{
	struct seccomp_notif_addfd add = { .id = c->req->id, .flags = SECCOMP_ADDFD_FLAG_SEND,
					   .newfd_flags = O_CLOEXEC };
	struct supervisor *sv = c->sv;
	struct stat st;
	int fd = memfd_create("uprocfs-pidfd", MFD_CLOEXEC), rc;

	if (fd < 0 || fstat(fd, &st)) {
		rc = -errno;
		if (fd >= 0)
			close(fd);
		return rc;
	}
	pthread_mutex_lock(&sv->pidfds_lock);
	if (sv->npidfds == sv->cap) {
		size_t ncap = sv->cap ? sv->cap * 2 : 16;
		struct fake_pidfd *n = realloc(sv->pidfds, ncap * sizeof(*n));

		if (n) {
			sv->pidfds = n;
			sv->cap = ncap;
		}
	}
	if (sv->npidfds < sv->cap)
		sv->pidfds[sv->npidfds++] = (struct fake_pidfd){ st.st_dev, st.st_ino, pid };
	pthread_mutex_unlock(&sv->pidfds_lock);
	add.srcfd = (uint32_t)fd;
	rc = ioctl(sv->fd, SECCOMP_IOCTL_NOTIF_ADDFD, &add);
	close(fd);
	return rc < 0 ? -errno : 0; /* answered: the new descriptor is the call's return value */
}

/* The synthetic pid a caller's descriptor @fd stands for, or 0 if it is a real pidfd. */
static pid_t pidfd_target(struct supervisor *sv, pid_t caller, int fd)
{
	int pfd = (int)syscall(SYS_pidfd_open, caller, 0), copy;
	struct stat st;
	pid_t pid = 0;

	if (pfd < 0)
		return 0;
	copy = (int)syscall(SYS_pidfd_getfd, pfd, fd, 0);
	close(pfd);
	if (copy < 0)
		return 0;
	if (!fstat(copy, &st)) {
		pthread_mutex_lock(&sv->pidfds_lock);
		for (size_t i = 0; i < sv->npidfds; i++)
			if (sv->pidfds[i].dev == st.st_dev && sv->pidfds[i].ino == st.st_ino)
				pid = sv->pidfds[i].pid;
		pthread_mutex_unlock(&sv->pidfds_lock);
	}
	close(copy);
	return pid;
}

/* ------------------------------------------------------------------ */
/* The loop                                                             */

/* What the call needs from the caller before the model is asked: its rights, the memory it points to. */
static int prepare(struct call *c)
{
	int nr = c->req->data.nr;
	pid_t a0 = arg32(c, 0);

	if (nr == SCMP_SYS(sysinfo) || nr == SCMP_SYS(uname) || nr == SCMP_SYS(sched_getaffinity) ||
	    nr == SCMP_SYS(getpriority) || nr == SCMP_SYS(ioprio_get) || nr == SCMP_SYS(sched_getscheduler) ||
	    nr == SCMP_SYS(sched_getparam) || nr == SCMP_SYS(getpgid) || nr == SCMP_SYS(getsid) ||
	    nr == SCMP_SYS(pidfd_open))
		return 0; /* asking is free: no rights, nothing to read */
	if (caller_of(c->req->pid, &c->who))
		return -ESRCH; /* it is gone */
	if (!synthetic(c, a0))
		return 0;
	if (nr == SCMP_SYS(sched_setaffinity))
		return peek(c, c->req->data.args[2], (size_t)c->req->data.args[1] > MASK_MAX ? MASK_MAX
						      : (size_t)c->req->data.args[1]);
	if (nr == SCMP_SYS(sched_setscheduler))
		return peek(c, c->req->data.args[2], sizeof(int));
	if (nr == SCMP_SYS(sched_setparam))
		return peek(c, c->req->data.args[1], sizeof(int));
	if (nr == SCMP_SYS(prlimit64) && c->req->data.args[2])
		return peek(c, c->req->data.args[2], sizeof(struct mach_rlimit));
	return 0;
}

/* Fill @resp for @req; false when the reply went already (a pidfd handed over with ADDFD). */
/* Whether answered call @nr changed the model: signals but 0 (pidfd_send_signal comes as kill), and the set* calls. */
static bool changes_model(int nr, const struct call *c)
{
	if (nr == SCMP_SYS(kill) || nr == SCMP_SYS(tkill) || nr == SCMP_SYS(rt_sigqueueinfo))
		return arg32(c, 1) != 0;
	if (nr == SCMP_SYS(tgkill) || nr == SCMP_SYS(rt_tgsigqueueinfo))
		return arg32(c, 2) != 0;
	return nr == SCMP_SYS(setpriority) || nr == SCMP_SYS(ioprio_set) || nr == SCMP_SYS(sched_setaffinity) ||
	       nr == SCMP_SYS(sched_setscheduler) || nr == SCMP_SYS(sched_setparam);
}

static bool respond(struct supervisor *sv, const struct seccomp_notif *req, struct seccomp_notif_resp *resp)
{
	struct call c = { .sv = sv, .req = req };
	struct seccomp_notif as_kill;
	int rc;

	memset(resp, 0, sizeof(*resp));
	resp->id = req->id;
	if (req->data.nr == SCMP_SYS(pidfd_send_signal)) {
		pid_t target = pidfd_target(sv, req->pid, (int32_t)req->data.args[0]);

		if (!target) {
			resp->flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
			sv->passed++;
			return true;
		}
		/* as kill(2) of the task it stands for */
		as_kill = *req;
		as_kill.data.nr = SCMP_SYS(kill);
		as_kill.data.args[0] = (uint64_t)target;
		as_kill.data.args[1] = req->data.args[1];
		c.req = &as_kill;
	}
	rc = prepare(&c);
	if (!rc)
		rc = sv->o.src->ops->control(sv->o.src, answer, &c);
	if (!rc && !c.pass && !c.rc && sv->o.changed && changes_model(c.req->data.nr, &c))
		sv->o.changed(sv->o.changed_ctx);
	if (!rc && c.pass) {
		resp->flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
		sv->passed++;
		return true;
	}
	if (!rc)
		rc = c.rc;
	if (!rc && req->data.nr == SCMP_SYS(pidfd_open)) {
		rc = inject_pidfd(&c, arg32(&c, 0));
		if (!rc) {
			sv->answered++;
			return false; /* the ADDFD ioctl replied with the new descriptor */
		}
	}
	if (!rc && c.outlen)
		rc = poke(&c);
	resp->error = rc;
	resp->val = rc ? 0 : c.val;
	sv->answered++;
	return true;
}

static void *loop(void *arg)
{
	struct supervisor *sv = arg;
	struct seccomp_notif *req = NULL;
	struct seccomp_notif_resp *resp = NULL;

	if (seccomp_notify_alloc(&req, &resp))
		return NULL;
	while (!sv->stop) {
		struct pollfd p = { .fd = sv->fd, .events = POLLIN };
		int n = poll(&p, 1, 200);

		if (n < 0 && errno != EINTR)
			break;
		if (n <= 0)
			continue;
		if (p.revents & (POLLHUP | POLLERR | POLLNVAL))
			break; /* the command and everything it started are gone */
		memset(req, 0, sizeof(*req));
		if (seccomp_notify_receive(sv->fd, req))
			continue; /* the caller died before we read it */
		if (respond(sv, req, resp))
			seccomp_notify_respond(sv->fd, resp); /* a caller gone meanwhile: nothing to do */
	}
	seccomp_notify_free(req, resp);
	return NULL;
}

int sup_start(struct supervisor **out, int listener, const struct sup_opts *o)
{
	struct supervisor *sv = calloc(1, sizeof(*sv));

	if (!sv)
		return -ENOMEM;
	sv->fd = listener;
	sv->o = *o;
	pthread_mutex_init(&sv->pidfds_lock, NULL);
	if (pthread_create(&sv->thread, NULL, loop, sv)) {
		pthread_mutex_destroy(&sv->pidfds_lock);
		free(sv);
		return -EAGAIN;
	}
	*out = sv;
	return 0;
}

void sup_counts(const struct supervisor *sv, unsigned long *answered, unsigned long *passed)
{
	*answered = sv->answered;
	*passed = sv->passed;
}

void sup_stop(struct supervisor *sv)
{
	if (!sv)
		return;
	sv->stop = 1;
	pthread_join(sv->thread, NULL);
	close(sv->fd);
	pthread_mutex_destroy(&sv->pidfds_lock);
	free(sv->pidfds);
	free(sv);
}
