// SPDX-License-Identifier: MIT
/*
 * plan_workloads.c - what runs after boot: ssh logins with their jobs,
 * services with worker pools, cron jobs, containers and pods, and the
 * reader of /proc.
 *
 * Each workload is a small subtree drawn by weight until the task count is
 * reached, so any count gives a plausible mix; dense hosts are mostly pods.
 */
#include <string.h>

#include "plan.h"

/* Login users are uid 1000 and up: how many depends on the machine's size. */
static uint32_t pick_user(struct synth *s)
{
	return UID_FIRST_USER + (uint32_t)rng_below(&s->rng, s->nusers);
}

/* The processes in a job under a shell: `depth` levels below it. */
static int plan_job(struct synth *s, int shell, uint32_t uid)
{
	static const unsigned int middles[] = { P_MAKE, P_BASH, P_SH, P_PYTHON };
	static const unsigned int leaves[] = { P_VIM, P_TOP, P_LESS, P_TAIL, P_SLEEP, P_PYTHON,
					       P_SSH, P_RSYNC, P_VIM, P_SLEEP };
	struct rng *r = &s->rng;
	int leader = NONE, parent = shell;
	unsigned int last = 0;

	for (unsigned int level = 1; level < s->o->depth; level++) {
		last = middles[rng_below(r, 4)];
		parent = sy_plan_user(s, last, parent, leader == NONE ? PG_GROUP : PG_INHERIT, uid,
				   (uint32_t)rng_below(r, 3));
		if (parent == NONE)
			return leader;
		if (leader == NONE)
			leader = parent;
	}
	if (last == P_MAKE) {
		int sh = sy_plan_user(s, P_SH, parent, PG_INHERIT, uid, 1);

		if (sh != NONE)
			sy_plan_user(s, P_CC1, sh, PG_INHERIT, uid, 0);
		return leader;
	}
	parent = sy_plan_user(s, leaves[rng_below(r, 10)], parent, leader == NONE ? PG_GROUP : PG_INHERIT,
			   uid, (uint32_t)rng_below(r, 3));
	return leader == NONE ? parent : leader;
}

/* An ssh login: sshd-session [priv] -> sshd-session user@pts/N -> -bash -> jobs. */
static void wl_ssh(struct synth *s)
{
	struct rng *r = &s->rng;
	uint32_t uid = pick_user(s), pts;
	int priv, sess, bash, fg, job;
	size_t njobs;

	if (!s->user_seen[uid - UID_FIRST_USER]) {
		int sd = sy_plan_user(s, P_SYSTEMD_USER, 0, PG_SESSION, uid, 0);

		s->user_seen[uid - UID_FIRST_USER] = 1;
		if (sd != NONE)
			sy_plan_user(s, P_SD_PAM, sd, PG_INHERIT, uid, 0);
	}
	priv = sy_plan_user(s, P_SSHD_PRIV, s->sshd >= 0 ? s->sshd : 0, PG_SESSION, UID_ROOT, uid);
	if (priv == NONE)
		return;
	pts = s->next_pts++;
	sess = sy_plan_user(s, P_SSHD_USER, priv, PG_INHERIT, uid, pts);
	if (sess == NONE)
		return;
	bash = sy_plan_user(s, P_BASH_LOGIN, sess, PG_SESSION, uid, pts);
	if (bash == NONE)
		return;
	s->m->procs[bash].tty_nr = encode_dev(PTS_MAJOR, pts);
	sy_plan_env(s, bash, ENV_LOGIN);
	s->last_bash = bash;
	fg = bash;
	njobs = s->o->depth ? rng_range(r, 0, 2) + 1 : 0;
	for (size_t j = 0; j < njobs; j++) {
		job = plan_job(s, bash, uid);
		if (job != NONE && j + 1 == njobs && rng_chance(r, 0.6))
			fg = job;
	}
	/* every process on the terminal sees the same foreground group */
	for (size_t i = (size_t)bash; i < s->n; i++)
		s->m->procs[i].tpgid = fg;
}

/* A master and its forked workers. */
static void wl_pool(struct synth *s, unsigned int master, uint32_t muid, unsigned int worker,
		    uint32_t wuid, size_t nworkers)
{
	int m = sy_plan_user(s, master, 0, PG_SESSION, muid, 0);

	for (size_t i = 0; m != NONE && i < nworkers; i++)
		if (sy_plan_user(s, worker, m, PG_INHERIT, wuid, (uint32_t)i) == NONE)
			break;
}

/* A pool size drawn from [@lo, @hi], one more per @per_tasks tasks, at most @cap. */
static size_t scaled(struct synth *s, size_t lo, size_t hi, size_t per_tasks, size_t cap)
{
	size_t n = rng_range(&s->rng, lo, hi) + s->o->tasks / per_tasks;

	return n > cap ? cap : n;
}

/* The postmaster, its five auxiliary processes, and a backend per client. */
static void wl_postgres(struct synth *s)
{
	int pm = sy_plan_user(s, P_POSTMASTER, 0, PG_SESSION, UID_POSTGRES, 0);
	size_t backends = scaled(s, 1, 8, 50000, 40);

	for (uint32_t i = 0; pm != NONE && i < 5; i++)
		sy_plan_user(s, P_PG_AUX, pm, PG_INHERIT, UID_POSTGRES, i);
	for (size_t i = 0; pm != NONE && i < backends; i++)
		sy_plan_user(s, P_PG_BACKEND, pm, PG_INHERIT, UID_POSTGRES, (uint32_t)rng_below(&s->rng, 3));
}

/* A cron job: cron -> cron -> sh -c -> the job. */
static void wl_cronjob(struct synth *s)
{
	static const unsigned int jobs[] = { P_PYTHON, P_RSYNC, P_XZ, P_SLEEP };
	uint32_t uid = rng_chance(&s->rng, 0.5) ? UID_ROOT : pick_user(s);
	int child, sh;

	if (s->cron < 0) {
		sy_plan_user(s, P_PYTHON, 0, PG_SESSION, UID_APP, 1);
		return;
	}
	child = sy_plan_user(s, P_CRON_CHILD, s->cron, PG_SESSION, UID_ROOT, 0);
	sh = child != NONE ? sy_plan_user(s, P_SH, child, PG_INHERIT, uid, 0) : NONE;
	sy_plan_env(s, sh, ENV_CRON);
	if (sh != NONE)
		sy_plan_user(s, jobs[rng_below(&s->rng, 4)], sh, PG_INHERIT, uid, 1);
}

/* A container: containerd-shim (reparented to init) -> the containerized service. */
static void wl_container(struct synth *s)
{
	static const unsigned int apps[] = { P_NGINX, P_PYTHON, P_NODE, P_REDIS, P_SLEEP, P_JAVA };
	int shim = sy_plan_user(s, P_SHIM, 0, PG_SESSION, UID_ROOT, 0), app;
	unsigned int prog = apps[rng_below(&s->rng, 6)];

	if (shim == NONE)
		return;
	app = sy_plan_user(s, prog, shim, PG_SESSION, prog == P_NGINX ? UID_ROOT : UID_APP, 1);
	sy_plan_env(s, app, ENV_CONTAINER);
	if (app != NONE && prog == P_NGINX)
		for (size_t i = 0; i < 2; i++)
			sy_plan_user(s, P_NGINX_WORKER, app, PG_INHERIT, UID_WWW, (uint32_t)i);
}

/*
 * A Kubernetes pod: its shim, the pod's /pause sandbox and one container.
 * Dense hosts (hundreds of thousands of tasks) are mostly these.
 */
static void wl_pod(struct synth *s)
{
	/* most cluster workloads are static Go binaries */
	static const unsigned int apps[] = { P_COREDNS, P_EXPORTER, P_COREDNS, P_EXPORTER, P_COREDNS,
					     P_EXPORTER, P_SLEEP, P_PYTHON, P_NGINX, P_NODE, P_REDIS };
	int shim = sy_plan_user(s, P_SHIM, 0, PG_SESSION, UID_ROOT, 0), pause, app;
	unsigned int prog = apps[rng_below(&s->rng, sizeof(apps) / sizeof(apps[0]))];

	if (shim == NONE)
		return;
	pause = sy_plan_user(s, P_PAUSE, shim, PG_SESSION, UID_NOBODY, 0);
	sy_plan_env(s, pause, ENV_CONTAINER);
	app = sy_plan_user(s, prog, shim, PG_SESSION, prog == P_NGINX ? UID_ROOT : UID_APP, 0);
	sy_plan_env(s, app, ENV_CONTAINER);
	if (app != NONE && prog == P_NGINX)
		sy_plan_user(s, P_NGINX_WORKER, app, PG_INHERIT, UID_WWW, 0);
}

enum workload {
	W_SSH, W_NGINX, W_POSTGRES, W_REDIS, W_JAVA, W_NODE, W_GUNICORN, W_PHPFPM, W_CRONJOB,
	W_CONTAINER, W_MEMCACHED, W_CELERY, W_PYTHON, W_POD, NR_WORKLOADS
};

static const unsigned int workload_weight[NR_WORKLOADS] = {
	[W_SSH] = 30, [W_NGINX] = 5, [W_POSTGRES] = 4, [W_REDIS] = 4, [W_JAVA] = 3, [W_NODE] = 5,
	[W_GUNICORN] = 4, [W_PHPFPM] = 3, [W_CRONJOB] = 6, [W_CONTAINER] = 5, [W_MEMCACHED] = 3,
	[W_CELERY] = 3, [W_PYTHON] = 8, [W_POD] = 1,
};

/* A workload by weight; the denser the host, the more of it is pods. */
static enum workload pick_workload(struct synth *s)
{
	unsigned int total = 0, pick, weight[NR_WORKLOADS];

	memcpy(weight, workload_weight, sizeof(weight));
	weight[W_POD] += s->o->tasks / 2000 < 500 ? s->o->tasks / 2000 : 500;
	for (unsigned int i = 0; i < NR_WORKLOADS; i++)
		total += weight[i];
	pick = (unsigned int)rng_below(&s->rng, total);
	for (unsigned int i = 0; i < NR_WORKLOADS; i++) {
		if (pick < weight[i])
			return (enum workload)i;
		pick -= weight[i];
	}
	return W_SSH;
}

/* Always adds a process, so the caller's fill loop ends. */
void sy_plan_workload(struct synth *s)
{
	struct rng *r = &s->rng;
	size_t before = s->n;

	/* spread the late kworkers evenly over the user processes */
	if (s->late_kworkers && rng_below(r, s->limit - s->n + 1) < s->late_kworkers * 6) {
		sy_plan_late_kworker(s);
		return;
	}
	switch (pick_workload(s)) {
	case W_SSH:
		wl_ssh(s);
		break;
	case W_NGINX:
		wl_pool(s, P_NGINX, UID_ROOT, P_NGINX_WORKER, UID_WWW,
			s->o->cpus < 16 ? s->o->cpus : 16);
		break;
	case W_POSTGRES:
		wl_postgres(s);
		break;
	case W_REDIS:
		sy_plan_user(s, P_REDIS, 0, PG_SESSION, UID_REDIS, 0);
		break;
	case W_JAVA:
		sy_plan_user(s, P_JAVA, 0, PG_SESSION, UID_APP, 0);
		break;
	case W_NODE:
		sy_plan_user(s, P_NODE, 0, PG_SESSION, UID_APP, (uint32_t)rng_below(r, 2));
		break;
	case W_GUNICORN:
		wl_pool(s, P_GUNICORN, UID_APP, P_GUNICORN_WORKER, UID_APP,
			2 * (size_t)(s->o->cpus < 8 ? s->o->cpus : 8) + 1);
		break;
	case W_PHPFPM:
		wl_pool(s, P_PHPFPM, UID_ROOT, P_PHPFPM_WORKER, UID_WWW, scaled(s, 2, 5, 50000, 20));
		break;
	case W_CRONJOB:
		wl_cronjob(s);
		break;
	case W_CONTAINER:
		wl_container(s);
		break;
	case W_MEMCACHED:
		sy_plan_user(s, P_MEMCACHED, 0, PG_SESSION, UID_MEMCACHE, 0);
		break;
	case W_CELERY:
		wl_pool(s, P_CELERY, UID_APP, P_CELERY, UID_APP, rng_range(r, 2, 8));
		break;
	case W_PYTHON:
		sy_plan_user(s, P_PYTHON, 0, PG_SESSION, UID_APP, (uint32_t)rng_below(r, 3));
		break;
	case W_POD:
		wl_pod(s);
		break;
	case NR_WORKLOADS:
		break;
	}
	if (s->n == before) /* cannot happen while there is room; never loop forever */
		sy_plan_user(s, P_SLEEP, 0, PG_SESSION, UID_ROOT, 0);
}

/*
 * The reader stands for whoever reads this /proc: `ps -ef` in the
 * foreground of the last login shell, running.
 */
void sy_plan_reader(struct synth *s)
{
	struct mach_process *procs = s->m->procs;
	int bash = s->last_bash, ps;

	if (bash < 0) {
		sy_plan_user(s, P_SLEEP, 0, PG_SESSION, UID_ROOT, 1);
		return;
	}
	ps = sy_plan_user(s, P_PS, bash, PG_GROUP, s->gen[bash].uid, 0);
	if (ps == NONE)
		return;
	s->gen[ps].flags |= GF_READER;
	s->gen[ps].state = MACH_TASK_RUNNING;
	for (size_t i = (size_t)bash; i < s->n; i++)
		if (procs[i].session == procs[bash].session)
			procs[i].tpgid = ps;
}
