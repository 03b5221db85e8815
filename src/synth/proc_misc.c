// SPDX-License-Identifier: MIT
/*
 * proc_misc.c - the rest of what fs/proc/base.c shows of a synthetic
 * process: resource limits, cwd and root, exe, the OOM adjustment, audit
 * login ids, the autogroup, personality and timer slack, and I/O counters
 * in step with each thread's CPU time.
 *
 * Drawn like everything else from the process's own stream (KEY_IO) and
 * the plan: its program, its account, its session.  Limits are what a
 * Debian 12 systemd host gives (DefaultLimitNOFILE=1024:524288, core
 * 0:infinity, stack 8 MiB soft), with the units that raise or lower them;
 * RLIMIT_NPROC and RLIMIT_SIGPENDING follow RAM (max_threads / 2) and are
 * set with meminfo (synth.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"
#include "synth_int.h"

#define INF MACH_RLIM_INFINITY
#define UNSET 4294967295u      /* AUDIT_UID_UNSET, AUDIT_SID_UNSET */
#define SLACK_DEFAULT 50000u

/* What every task starts with (init_task's INIT_RLIMITS, as systemd leaves them for services). */
static void default_limits(struct mach_rlimit *r, bool kthread)
{
	static const struct mach_rlimit dflt[MACH_RLIM_NLIMITS] = {
		[MACH_RLIMIT_CPU] = { INF, INF },        [MACH_RLIMIT_FSIZE] = { INF, INF },
		[MACH_RLIMIT_DATA] = { INF, INF },       [MACH_RLIMIT_STACK] = { 8388608, INF },
		[MACH_RLIMIT_CORE] = { 0, INF },         [MACH_RLIMIT_RSS] = { INF, INF },
		[MACH_RLIMIT_NOFILE] = { 1024, 524288 }, [MACH_RLIMIT_MEMLOCK] = { 8388608, 8388608 },
		[MACH_RLIMIT_AS] = { INF, INF },         [MACH_RLIMIT_LOCKS] = { INF, INF },
		[MACH_RLIMIT_MSGQUEUE] = { 819200, 819200 }, [MACH_RLIMIT_RTTIME] = { INF, INF },
	};

	memcpy(r, dflt, sizeof(dflt));
	if (kthread)
		r[MACH_RLIMIT_NOFILE] = (struct mach_rlimit){ 1024, 4096 }; /* INR_OPEN_CUR, INR_OPEN_MAX */
}

/* What units and programs change: LimitNOFILE=, what daemons raise themselves. */
static void prog_limits(struct mach_rlimit *r, unsigned int prog)
{
	switch (prog) {
	case P_SYSTEMD:
		r[MACH_RLIMIT_NOFILE] = (struct mach_rlimit){ 1073741816, 1073741816 }; /* fs.nr_open */
		break;
	case P_CONTAINERD: case P_DOCKERD: case P_SHIM: case P_PAUSE: case P_COREDNS: case P_EXPORTER:
		r[MACH_RLIMIT_NOFILE] = (struct mach_rlimit){ 1048576, 1048576 }; /* LimitNOFILE=infinity */
		r[MACH_RLIMIT_CORE] = (struct mach_rlimit){ INF, INF };
		break;
	case P_REDIS:
		r[MACH_RLIMIT_NOFILE] = (struct mach_rlimit){ 10032, 524288 }; /* maxclients + 32 */
		break;
	case P_NGINX: case P_NGINX_WORKER:
		r[MACH_RLIMIT_NOFILE] = (struct mach_rlimit){ 8192, 524288 }; /* worker_rlimit_nofile */
		break;
	case P_JAVA:
		r[MACH_RLIMIT_NOFILE] = (struct mach_rlimit){ 524288, 524288 }; /* the JVM raises soft to hard */
		break;
	case P_POSTMASTER: case P_PG_AUX: case P_PG_BACKEND:
		r[MACH_RLIMIT_CORE] = (struct mach_rlimit){ INF, INF };
		break;
	case P_MEMCACHED:
		r[MACH_RLIMIT_MEMLOCK] = (struct mach_rlimit){ INF, INF };
		break;
	default:
		break;
	}
}

/* oom_score_adj as the units set it (OOMScoreAdjust=), kubelet's QoS for pods. */
static int prog_oom_adj(unsigned int prog, struct rng *r)
{
	switch (prog) {
	case P_UDEVD: case P_SSHD: return -1000;
	case P_DBUS: return -900;
	case P_JOURNALD: return -250;
	case P_CONTAINERD: return -999;
	case P_DOCKERD: return -500;
	case P_PAUSE: return -998;
	case P_COREDNS: case P_EXPORTER: return rng_chance(r, 0.5) ? -997 : (int)rng_range(r, 2, 999);
	case P_SYSTEMD_USER: case P_SD_PAM: return 100;
	default: return 0;
	}
}

/* Where a program runs from: its cwd (its root is / throughout). */
static const char *prog_cwd(unsigned int prog)
{
	switch (prog) {
	case P_POSTMASTER: case P_PG_AUX: case P_PG_BACKEND: return "/var/lib/postgresql/15/main";
	case P_REDIS: return "/var/lib/redis";
	case P_JAVA: case P_NODE: case P_PYTHON: case P_GUNICORN: case P_GUNICORN_WORKER: case P_CELERY:
		return "/opt/app";
	case P_BASH_LOGIN: case P_BASH: case P_SH: case P_MAKE: case P_CC1: case P_VIM: case P_TOP:
	case P_LESS: case P_TAIL: case P_SLEEP: case P_PS: case P_SSH: case P_RSYNC: case P_XZ: case P_TMUX:
		return NULL; /* the user's home */
	case P_SHIM: return "/run/containerd/io.containerd.runtime.v2.task/k8s.io";
	default: return "/";
	}
}

static int build_fs(struct synth *s, struct mach_process *p, const struct gen *g)
{
	const char *cwd = prog_cwd(g->prog);
	char home[80];

	p->fs = calloc(1, sizeof(*p->fs));
	if (!p->fs)
		return -ENOMEM;
	if (!cwd) {
		sy_user_home(home, sizeof(home), g->uid);
		cwd = home;
	}
	p->fs->interned = true;
	p->fs->cwd = sy_intern_str(s, cwd);
	p->fs->root = sy_intern_str(s, "/");
	return p->fs->cwd && p->fs->root ? 0 : -ENOMEM;
}

/* mm->exe_file: the file its code is mapped from (replaced on disk: " (deleted)"). */
static int build_exe(struct synth *s, struct mach_mm *mm)
{
	for (size_t i = 0; mm && i < mm->nvmas; i++) {
		const struct mach_vma *v = &mm->vmas[i];

		if (v->kind == MACH_VMA_FILE && v->start <= mm->start_code && mm->start_code < v->end) {
			mm->exe = sy_intern_str(s, v->name ? v->name : "");
			mm->strings_interned = true;
			mm->exe_deleted = v->deleted;
			return mm->exe ? 0 : -ENOMEM;
		}
	}
	return 0;
}

/*
 * The process that opened the audit session @idx belongs to (pam_loginuid:
 * sshd's [priv] process, cron's child for a job, systemd --user), found up
 * the plan's tree; -1 for a process outside any login.
 */
static int login_leader(const struct synth *s, size_t idx)
{
	for (int depth = 0; depth < 64; depth++) {
		const struct gen *g = &s->gen[idx];
		const struct mach_process *p = &s->m->procs[idx], *pp;

		if (g->prog == P_SSHD_PRIV || g->prog == P_CRON_CHILD || g->prog == P_SYSTEMD_USER)
			return (int)idx;
		if (g->env != ENV_LOGIN && g->env != ENV_CRON && g->prog != P_SSHD_USER && g->prog != P_SD_PAM)
			return -1;
		pp = p->ppid > 0 ? mach_find_process(s->m, p->ppid) : NULL;
		if (!pp)
			return -1;
		idx = (size_t)(pp - s->m->procs);
	}
	return -1;
}

int sy_build_proc_misc(struct synth *s, size_t idx)
{
	struct mach_process *p = &s->m->procs[idx];
	const struct gen *g = &s->gen[idx];
	bool kt = g->kind == G_KTHREAD;
	uint32_t loginuid = UNSET, sessionid = UNSET;
	struct mach_cred *from = NULL, *to = NULL; /* the last credentials completed, and their result */
	struct mach_rlimit lim[MACH_RLIM_NLIMITS];
	struct rng r;
	int rc;

	rng_init(&r, s->o->seed, KEY_IO + idx);
	/* a program's processes all have the same limits: a few dozen sets, interned */
	default_limits(lim, kt);
	if (!kt)
		prog_limits(lim, g->prog);
	if (!(p->rlim = (struct mach_rlimit *)sy_intern(s, lim, sizeof(lim))))
		return -ENOMEM;
	p->rlim_interned = true;
	if (kt) {
		/* kernel threads keep init's fs_struct and the root autogroup */
		p->fs = calloc(1, sizeof(*p->fs));
		if (!p->fs)
			return -ENOMEM;
		p->fs->interned = true;
		if (!(p->fs->cwd = sy_intern_str(s, "/")) || !(p->fs->root = sy_intern_str(s, "/")))
			return -ENOMEM;
	} else {
		p->oom_score_adj = prog_oom_adj(g->prog, &r);
		/* setsid() made a new autogroup: ids grow with time, as the session leaders' pids do */
		p->autogroup_id = p->session > 0 ? 1 + (uint64_t)p->session / 3 : 0;
		if (g->state != MACH_TASK_ZOMBIE && ((rc = build_fs(s, p, g)) || (rc = build_exe(s, p->mm))))
			return rc;
		int lead = login_leader(s, idx);

		if (lead >= 0) {
			const struct gen *lg = &s->gen[lead];

			/* [priv] runs as root for the user its instance names */
			loginuid = lg->prog == P_SSHD_PRIV ? lg->inst : lg->uid;
			/* session ids count logins: they grow with the leaders' pids */
			sessionid = 1 + (uint32_t)s->m->procs[lead].tgid / 7;
		}
	}
	for (unsigned int i = 0; i < p->nthreads; i++) {
		struct mach_thread *t = &p->threads[i];

		if (t->cred_interned && t->cred == from) {
			/* the same credentials as the thread before it had: the same result */
			t->cred = to;
		} else {
			struct mach_cred cr = *mach_thread_cred(t);

			from = t->cred_interned ? t->cred : NULL;
			cr.loginuid = loginuid;
			cr.sessionid = sessionid;
			if ((rc = sy_thread_cred(s, t, &cr)))
				return rc;
			to = t->cred;
		}
		/* RT tasks run without slack (__setscheduler_params) */
		t->timer_slack_ns = t->policy == 1 || t->policy == 2 ? 0 : SLACK_DEFAULT;
	}
	return 0;
}

/* One thread's I/O: calls in step with its CPU time, bytes per call by its program's habits. */
static void thread_io(struct rng *r, const struct mach_thread *t, bool busy, struct mach_taskio *io)
{
	double cpu_s = (double)(t->utime_ns + t->stime_ns) / 1e9;
	double rate = busy ? rng_logu(r, 200, 4000) : rng_logu(r, 500, 20000);

	io->syscr = (uint64_t)(cpu_s * rate) + rng_range(r, 8, 400);
	io->syscw = io->syscr / rng_range(r, 2, 12) + rng_below(r, 20);
	io->rchar = io->syscr * rng_range(r, 64, 6000);
	io->wchar = io->syscw * rng_range(r, 16, 2000);
	/* most reads hit the page cache; writes reach the disk in whole pages */
	io->read_bytes = (io->rchar / rng_range(r, 4, 400)) & ~(uint64_t)(MACH_PAGE_SIZE - 1);
	io->write_bytes = (io->wchar / rng_range(r, 1, 8)) & ~(uint64_t)(MACH_PAGE_SIZE - 1);
	io->cancelled_write_bytes = rng_chance(r, 0.1) ? io->write_bytes / 8 & ~(uint64_t)(MACH_PAGE_SIZE - 1) : 0;
}

int sy_build_task_io(struct synth *s)
{
	for (size_t i = 0; i < s->m->nprocs; i++) {
		struct mach_process *p = &s->m->procs[i];
		const struct gen *g = &s->gen[i];
		bool busy = sy_progs[g->prog].flags & PR_BUSY;
		struct rng r;

		if (g->kind == G_KTHREAD)
			continue; /* their I/O is accounted to the tasks they work for */
		rng_init(&r, s->o->seed, KEY_IO + 0x80000000ull + i);
		for (unsigned int j = 0; j < p->nthreads; j++)
			thread_io(&r, &p->threads[j], busy, &p->threads[j].io);
		/* threads that came and went left their counts with the group */
		if (sy_progs[g->prog].mt && rng_chance(&r, 0.5)) {
			if (!(p->dead_io = calloc(1, sizeof(*p->dead_io))))
				return -ENOMEM;
			thread_io(&r, &p->threads[0], busy, p->dead_io);
		}
	}
	return 0;
}
