// SPDX-License-Identifier: MIT
/*
 * ns_plan.c - the namespaces of a synthetic machine, planned with its
 * process tree: who shares the host's, which services and containers have
 * their own, the pids inside containers, and the mount tables.
 *
 * Everything runs in the initial namespaces but for: kdevtmpfs, alone in a
 * mount namespace with devtmpfs (as on the reference VM); the services
 * systemd gives PrivateTmp= (udevd, networkd, resolved, timesyncd, logind),
 * each in a mount namespace of its own; and containers: a docker
 * container gets new net, uts, ipc, pid, mount and cgroup namespaces; a
 * pod's containers share the sandbox's (its /pause) net, uts and ipc and
 * have their own pid, mount and cgroup ones.  A container's first process
 * is pid 1 inside; the others count up in fork order, threads after their
 * leader.  Namespace inodes, mount ids and anonymous device numbers are
 * handed out in plan order, as the kernel hands them out in creation
 * order.  The draws come from a stream of their own, so the rest of the
 * machine is as it was without them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ns_int.h"
#include "uprocfs/seq_num.h"

#define KEY_NS 8ull                 /* the namespace plan's stream */
#define HOST_FIRST_FREE_ID 80       /* mount ids after the host's boot mounts and its snaps (64..) */
#define HOST_FIRST_FREE_MINOR 40u   /* anonymous devices after the host's boot superblocks */

int ns_grow(void **arr, size_t *cap, size_t need, size_t elem)
{
	size_t ncap = *cap ? *cap : 8;
	char *a;

	if (need <= *cap)
		return 0;
	while (ncap < need)
		ncap *= 2;
	a = realloc(*arr, ncap * elem);
	if (!a)
		return -ENOMEM;
	memset(a + *cap * elem, 0, (ncap - *cap) * elem);
	*arr = a;
	*cap = ncap;
	return 0;
}

void ns_fit(void **arr, size_t *cap, size_t n, size_t elem)
{
	void *a;

	if (n && n < *cap && (a = realloc(*arr, n * elem))) {
		*arr = a;
		*cap = n;
	}
}

void sy_container_id(const struct synth *s, size_t idx, char out[65])
{
	struct rng r;

	rng_init(&r, s->o->seed, KEY_CONTAINER + idx);
	rng_next(&r); /* the pod uid's draws, when @idx is a shim */
	rng_next(&r);
	for (int k = 0; k < 4; k++)
		seq_hex_fill(out + 16 * k, rng_next(&r), 16);
	out[64] = '\0';
}

void ns_pod_uid(const struct synth *s, size_t shim, char sep, char out[37])
{
	struct rng r;
	uint64_t a, b;

	rng_init(&r, s->o->seed, KEY_CONTAINER + shim);
	a = rng_next(&r);
	b = rng_next(&r);
	/* a version 4 UUID: 8-4-4-4-12 digits, the third group starting "4", the fourth 8..b */
	seq_hex_fill(out, a >> 32, 8);
	out[8] = sep;
	seq_hex_fill(out + 9, a >> 16, 4);
	out[13] = sep;
	out[14] = '4';
	seq_hex_fill(out + 15, a, 3);
	out[18] = sep;
	seq_hex_fill(out + 19, 0x8000 | ((b >> 48) & 0x3fff), 4);
	out[23] = sep;
	seq_hex_fill(out + 24, b, 12);
	out[36] = '\0';
}

/* Reserve mount table @kind of @owner: its ids and anonymous devices; its index, MACH_NONE on ENOMEM. */
static uint32_t reserve_table(struct synth *s, enum sy_mnt_kind kind, uint32_t owner, uint32_t ns_ino,
			      unsigned int minors)
{
	struct mach_machine *m = s->m;
	struct sy_ns_state *ns = s->ns;
	size_t n = m->nmnt_tables;

	if (ns_grow((void **)&m->mnt_tables, &ns->tbl_cap, n + 1, sizeof(*m->mnt_tables)) ||
	    ns_grow((void **)&ns->mplan, &ns->mplan_cap, n + 1, sizeof(*ns->mplan)))
		return MACH_NONE;
	ns->mplan[n] = (struct sy_mnt_plan){ .kind = (uint8_t)kind, .owner = owner, .first_id = ns->next_mnt_id,
					     .first_minor = ns->next_minor };
	if (kind == MP_DEVTMPFS)
		ns->mplan[n].first_id = 7; /* made before any other namespace */
	else
		ns->next_mnt_id += (int)ns_mnt_count(s, kind);
	ns->next_minor += minors;
	m->mnt_tables[n].ns_ino = ns_ino;
	m->nmnt_tables = n + 1;
	return (uint32_t)n;
}

static uint32_t add_nsset(struct synth *s, const struct mach_nsset *set)
{
	struct mach_machine *m = s->m;

	if (ns_grow((void **)&m->nssets, &s->ns->nsset_cap, m->nnssets + 1, sizeof(*set)))
		return MACH_NONE;
	m->nssets[m->nnssets] = *set;
	return (uint32_t)m->nnssets++;
}

/* The host's namespaces (set 0) and mount table (0), kdevtmpfs's mount namespace (set 1). */
static int host_sets(struct synth *s)
{
	struct mach_nsset host = { .ino = { MACH_NS_INO_INIT_NET, MACH_NS_INO_INIT_UTS, MACH_NS_INO_INIT_IPC,
					    MACH_NS_INO_INIT_PID, MACH_NS_INO_INIT_PID, MACH_NS_INO_INIT_USER,
					    MACH_NS_INO_INIT_MNT, MACH_NS_INO_INIT_CGROUP, MACH_NS_INO_INIT_TIME,
					    MACH_NS_INO_INIT_TIME } };
	struct mach_nsset dev = host;

	host.mounts = reserve_table(s, MP_HOST, 0, MACH_NS_INO_INIT_MNT, 0);
	dev.ino[MACH_NS_MNT] = s->ns->next_ino++;
	dev.mounts = reserve_table(s, MP_DEVTMPFS, 0, dev.ino[MACH_NS_MNT], 0);
	if (host.mounts == MACH_NONE || dev.mounts == MACH_NONE || add_nsset(s, &host) == MACH_NONE ||
	    add_nsset(s, &dev) == MACH_NONE)
		return -ENOMEM;
	return 0;
}

static bool private_tmp(unsigned int prog)
{
	return prog == P_UDEVD || prog == P_NETWORKD || prog == P_RESOLVED || prog == P_TIMESYNCD || prog == P_LOGIND;
}

/* A service with PrivateTmp=: the host's namespaces but its own mount namespace. */
static uint32_t service_set(struct synth *s, size_t idx)
{
	struct mach_nsset set = s->m->nssets[0];
	unsigned int prog = s->gen[idx].prog;

	if (s->ns->service_nsset[prog])
		return s->ns->service_nsset[prog];
	set.ino[MACH_NS_MNT] = s->ns->next_ino++;
	set.mounts = reserve_table(s, MP_SERVICE, (uint32_t)idx, set.ino[MACH_NS_MNT], 0);
	if (set.mounts == MACH_NONE)
		return MACH_NONE;
	return s->ns->service_nsset[prog] = add_nsset(s, &set);
}

/*
 * A container's namespaces, at its first process @idx (a child of the shim
 * @shim): all new for a docker container or a pod's sandbox; a pod's other
 * containers join the sandbox's net, uts and ipc.
 */
static uint32_t container_set(struct synth *s, size_t idx, size_t shim)
{
	struct sy_ns_state *ns = s->ns;
	struct mach_nsset set = s->m->nssets[0];
	bool pod = shim + 1 < s->n && s->gen[shim + 1].prog == P_PAUSE;
	bool joins = pod && idx != shim + 1;

	if (joins) {
		const struct mach_nsset *sb = &s->m->nssets[s->gen[shim + 1].nsset];

		set.ino[MACH_NS_NET] = sb->ino[MACH_NS_NET];
		set.ino[MACH_NS_UTS] = sb->ino[MACH_NS_UTS];
		set.ino[MACH_NS_IPC] = sb->ino[MACH_NS_IPC];
	} else {
		set.ino[MACH_NS_UTS] = ns->next_ino++;
		set.ino[MACH_NS_IPC] = ns->next_ino++;
	}
	set.ino[MACH_NS_MNT] = ns->next_ino++;
	set.ino[MACH_NS_PID] = set.ino[MACH_NS_PID_FOR_CHILDREN] = ns->next_ino++;
	if (!joins && ns->nnet_own < SY_NET_MAX_CONTAINERS) {
		set.ino[MACH_NS_NET] = ns->next_ino++;
		ns->nnet_own++;
	}
	set.ino[MACH_NS_CGROUP] = ns->next_ino++;
	set.mounts = reserve_table(s, pod ? MP_POD : MP_CONTAINER, (uint32_t)idx, set.ino[MACH_NS_MNT],
				   pod ? 10 : 9);
	return set.mounts == MACH_NONE ? MACH_NONE : add_nsset(s, &set);
}

/* The pid of @idx inside container @c, and of its group and session when they are inside too. */
static void container_pids(struct synth *s, size_t idx, int32_t c)
{
	const struct mach_process *p = &s->m->procs[idx];
	struct gen *g = &s->gen[idx];

	if (!s->ns->next_nspid[c])
		s->ns->next_nspid[c] = 1;
	g->ns_pid = s->ns->next_nspid[c];
	s->ns->next_nspid[c] += p->nthreads;
	/* until the pids are given, pgrp and session hold plan indices */
	g->ns_pgid = p->pgrp >= 0 && s->gen[p->pgrp].container == c ? s->gen[p->pgrp].ns_pid : 0;
	g->ns_sid = p->session >= 0 && s->gen[p->session].container == c ? s->gen[p->session].ns_pid : 0;
}

/* A user manager's /run/user/UID on the host, mounted when the user first logged in. */
static int run_user(struct synth *s, uint32_t uid)
{
	struct sy_ns_state *ns = s->ns;

	if (ns_grow((void **)&ns->run_users, &ns->run_cap, ns->nrun_users + 1, sizeof(*ns->run_users)))
		return -ENOMEM;
	ns->run_users[ns->nrun_users++] = (struct sy_run_user){ .uid = uid, .id = ns->next_mnt_id++,
								.minor = ns->next_minor++ };
	return 0;
}

/* Planned process @idx: its container, group, namespaces and pids. */
static int plan_one(struct synth *s, size_t idx)
{
	struct gen *g = &s->gen[idx];
	int parent = s->m->procs[idx].ppid; /* a plan index until the pids are given */
	bool shim_child = parent >= 0 && s->gen[parent].kind == G_USER && s->gen[parent].prog == P_SHIM;
	int rc;

	g->container = g->kind != G_USER ? NONE : shim_child ? (int32_t)idx :
		      parent >= 0 ? s->gen[parent].container : NONE;
	if ((rc = ns_place(s, idx, parent)))
		return rc;
	if (g->kind == G_KTHREAD)
		g->nsset = g->prog == K_KDEVTMPFS ? 1 : 0;
	else if (shim_child)
		g->nsset = container_set(s, idx, (size_t)parent);
	else if (parent == 0 && private_tmp(g->prog))
		g->nsset = service_set(s, idx);
	else
		g->nsset = parent >= 0 ? s->gen[parent].nsset : 0;
	if (g->nsset == MACH_NONE)
		return -ENOMEM;
	if (g->container != NONE)
		container_pids(s, idx, g->container);
	if (g->kind == G_USER && g->prog == P_SYSTEMD_USER)
		return run_user(s, g->uid);
	return 0;
}

int sy_plan_ns(struct synth *s)
{
	struct rng r;
	int rc;

	s->ns = calloc(1, sizeof(*s->ns));
	if (!s->ns || !(s->ns->next_nspid = calloc(s->n ? s->n : 1, sizeof(uint32_t))))
		return -ENOMEM;
	rng_init(&r, s->o->seed, KEY_NS);
	/* the namespaces boot and systemd made before these */
	s->ns->next_ino = MACH_NS_INO_DYNAMIC + 20 + (uint32_t)rng_below(&r, 200);
	s->ns->next_mnt_id = HOST_FIRST_FREE_ID + (int)rng_below(&r, 300);
	s->ns->next_minor = HOST_FIRST_FREE_MINOR + (uint32_t)rng_below(&r, 20);
	if ((rc = ns_cgroups_init(s)) || (rc = host_sets(s)))
		return rc;
	for (size_t i = 0; i < s->n; i++)
		if ((rc = plan_one(s, i)))
			return rc;
	/* what found the groups and numbered the containers' pids is the plan's alone: 23 MB at a million tasks */
	free(s->ns->cg_hash);
	free(s->ns->css_of_cg);
	free(s->ns->next_nspid);
	s->ns->cg_hash = NULL;
	s->ns->css_of_cg = NULL;
	s->ns->next_nspid = NULL;
	s->ns->cg_hash_cap = s->ns->css_of_cap = s->ns->css_of_len = 0;
	/* the machine keeps these tables: a million tasks' doubling left up to half of each unused */
	ns_fit((void **)&s->m->mnt_tables, &s->ns->tbl_cap, s->m->nmnt_tables, sizeof(*s->m->mnt_tables));
	ns_fit((void **)&s->m->nssets, &s->ns->nsset_cap, s->m->nnssets, sizeof(*s->m->nssets));
	ns_fit((void **)&s->m->cgroups, &s->ns->cg_cap, s->m->ncgroups, sizeof(*s->m->cgroups));
	ns_fit((void **)&s->m->css_sets, &s->ns->css_cap, s->m->ncss_sets, sizeof(*s->m->css_sets));
	return 0;
}

int sy_thread_ns(const struct synth *s, size_t idx, const struct mach_process *p, struct mach_thread *t,
		 unsigned int j)
{
	const struct gen *g = &s->gen[idx];
	/* the initial namespace's ids are the global ones; a container's task has its own below them */
	pid_t ids[MACH_NR_NSIDS][MACH_NS_LEVELS_MAX] = {
		[MACH_NSID_TGID] = { p->tgid, (pid_t)g->ns_pid },
		[MACH_NSID_PID] = { t->tid, (pid_t)(g->ns_pid + j) },
		[MACH_NSID_PGID] = { p->pgrp, (pid_t)g->ns_pgid },
		[MACH_NSID_SID] = { p->session, (pid_t)g->ns_sid },
	};

	t->css_set = g->css_set;
	t->nsset = g->nsset;
	return mach_thread_ns_set(t, g->container == NONE ? 1 : 2, (const pid_t (*)[MACH_NS_LEVELS_MAX])ids);
}

void sy_root_dev(const struct synth *s, size_t idx, uint32_t *major, uint32_t *minor)
{
	const struct gen *g = &s->gen[idx];

	*major = SY_ROOT_DEV_MAJOR;
	*minor = SY_ROOT_DEV_MINOR;
	if (g->container != NONE) {
		/* its files come from its overlay root, the table's first anonymous device */
		*major = 0;
		*minor = s->ns->mplan[s->m->nssets[g->nsset].mounts].first_minor;
	}
}

int sy_build_mounts(struct synth *s)
{
	bool made;
	int rc = sy_maker_mounts_begin(s, &made);

	for (size_t i = 0; !rc && i < s->m->nmnt_tables; i++) {
		const struct sy_mnt_plan *mp = &s->ns->mplan[i];

		if (made && (mp->kind == MP_CONTAINER || mp->kind == MP_POD))
			sy_maker_keep_mounts(s, mp, ns_container_shim(s, mp->owner), &s->m->mnt_tables[i]);
		else
			rc = ns_fill_table(s, mp, &s->m->mnt_tables[i]);
	}
	return rc;
}

void sy_ns_free(struct synth *s)
{
	if (!s->ns)
		return;
	free(s->ns->css_of_cg);
	free(s->ns->cg_hash);
	free(s->ns->mplan);
	free(s->ns->run_users);
	free(s->ns->next_nspid);
	free(s->ns);
	s->ns = NULL;
}
