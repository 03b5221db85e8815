// SPDX-License-Identifier: MIT
/*
 * ns_cgroups.c - where each planned process sits in the cgroup v2 tree,
 * laid out as systemd lays it out, and the tree itself.
 *
 * Kernel threads stay in the root; systemd is in /init.scope; each service
 * gets system.slice/<unit>.service (templates and gettys a slice of their
 * own); an ssh login its user's session scope under user.slice, the user's
 * manager user@UID.service/init.scope; containerd's shims stay in
 * containerd.service, the containers get docker-<id>.scope, and pods
 * kubepods.slice/<qos>/pod<uid>/cri-containerd-<id>.scope.  Everything else
 * is where its parent is.  The workload -- services, containers, pods --
 * sits `depth` levels deep: slices are taken away or nested (systemd's
 * "a-b.slice" inside "a.slice") to put it there.  Every group's
 * subtree_control is what systemd and the kubelet enable, and a task's
 * css per controller follows from it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ns_int.h"

#define SS(x) (1u << MACH_SS_##x)
/* the controllers the 6.18 build registers (sys_kernel.c's /proc/cgroups: no rdma, no misc) */
#define SS_ALL (SS(CPUSET) | SS(CPU) | SS(IO) | SS(MEMORY) | SS(HUGETLB) | SS(PIDS))
#define SS_SLICE (SS(CPU) | SS(IO) | SS(MEMORY) | SS(PIDS))

/* The units of the boot daemons (natural places, whatever the depth). */
static const char *daemon_unit(unsigned int prog)
{
	switch (prog) {
	case P_JOURNALD: return "system.slice/systemd-journald.service";
	case P_UDEVD: return "system.slice/systemd-udevd.service";
	case P_NETWORKD: return "system.slice/systemd-networkd.service";
	case P_RESOLVED: return "system.slice/systemd-resolved.service";
	case P_TIMESYNCD: return "system.slice/systemd-timesyncd.service";
	case P_LOGIND: return "system.slice/systemd-logind.service";
	case P_DBUS: return "system.slice/dbus.service";
	case P_RSYSLOGD: return "system.slice/rsyslog.service";
	case P_CRON: return "system.slice/cron.service";
	case P_ATD: return "system.slice/atd.service";
	case P_SSHD: return "system.slice/ssh.service";
	case P_AGETTY: return "system.slice/system-getty.slice/getty@tty1.service";
	case P_AGETTY_SERIAL: return "system.slice/system-serial\\x2dgetty.slice/serial-getty@ttyS0.service";
	case P_IRQBALANCE: return "system.slice/irqbalance.service";
	case P_MULTIPATHD: return "system.slice/multipathd.service";
	case P_POLKITD: return "system.slice/polkit.service";
	case P_CONTAINERD: return "system.slice/containerd.service";
	case P_DOCKERD: return "system.slice/docker.service";
	case P_UNATTENDED: return "system.slice/unattended-upgrades.service";
	case P_DNSMASQ: return "system.slice/dnsmasq.service";
	default: return NULL;
	}
}

/* A workload service's family (its slices' names) and unit. */
static void service_unit(unsigned int prog, const char **family, const char **unit)
{
	static const struct { unsigned int prog; const char *family, *unit; } units[] = {
		{ P_NGINX, "nginx", "nginx.service" },
		{ P_POSTMASTER, "postgresql", "postgresql@15-main.service" },
		{ P_REDIS, "redis", "redis-server.service" },
		{ P_JAVA, "jenkins", "jenkins.service" },
		{ P_NODE, "node", "node-app.service" },
		{ P_GUNICORN, "gunicorn", "gunicorn.service" },
		{ P_PHPFPM, "php", "php8.2-fpm.service" },
		{ P_MEMCACHED, "memcached", "memcached.service" },
		{ P_CELERY, "celery", "celery.service" },
		{ P_PYTHON, "app", "app-worker.service" },
	};

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (units[i].prog == prog) {
			*family = units[i].family;
			*unit = units[i].unit;
			return;
		}
	*family = "run";
	*unit = "run-job.service";
}

/* Words for the slices that nest a unit deeper than systemd would by default. */
static const char *const pad_words[] = { "prod", "web", "blue", "east", "a", "b", "c", "d",
					 "e", "f", "g", "h", "i", "j", "k", "l" };

/*
 * Append the first @n bytes of @piece (all of it for SIZE_MAX, and never
 * past its NUL) at @at of @buf (@size bytes), keeping it terminated, as
 * snprintf would: the length the text would have, whether or not it fit.
 * The plan names up to a million groups; snprintf was two thirds of it.
 */
static size_t path_cat(char *buf, size_t size, size_t at, const char *piece, size_t n)
{
	n = n == SIZE_MAX ? strlen(piece) : strnlen(piece, n);
	if (at < size) {
		size_t room = size - 1 - at, k = n < room ? n : room;

		memcpy(buf + at, piece, k);
		buf[at + k] = '\0';
	}
	return at + n;
}

/*
 * Put @leaf @depth levels deep into @buf, under @depth - 1 slices: the
 * first of the natural @slices always, then as many of the deepest others
 * as fit (a pod keeps its pod slice); when more are needed, slices nested
 * systemd's way under the last one: "<last>-<family>.slice",
 * "<last>-<family>-<word>.slice", ...  Depth 0 is the root: "".
 */
static void fit_depth(char *buf, size_t size, const char *const *slices, unsigned int nslices,
		      const char *family, const char *leaf, unsigned int depth)
{
	unsigned int n = depth ? (depth - 1 < nslices ? depth - 1 : nslices) : 0;
	size_t at = 0, sl;
	char stem[512];

	buf[0] = '\0';
	if (!depth)
		return;
	for (unsigned int k = 0; k < n && at < size; k++)
		at = path_cat(buf, size, path_cat(buf, size, at, slices[k ? nslices - (n - k) : 0], SIZE_MAX), "/", 1);
	/* more levels than natural slices: nest under the last one */
	sl = path_cat(stem, sizeof(stem), 0, slices[nslices - 1], SIZE_MAX) - 6; /* without ".slice" */
	for (unsigned int k = n; k + 1 < depth && at < size && sl < sizeof(stem); k++) {
		sl = path_cat(stem, sizeof(stem), path_cat(stem, sizeof(stem), sl, "-", 1),
			      k == n ? family : pad_words[(k - n - 1) % 16], SIZE_MAX);
		at = path_cat(buf, size, path_cat(buf, size, at, stem, sl), ".slice/", 7);
	}
	path_cat(buf, size, at, leaf, SIZE_MAX);
}

/* The NULL-ended @pieces one after another into @buf (a group's name: they always fit its 128 bytes). */
static void join_name(char buf[128], const char *const *pieces)
{
	size_t at = 0;

	buf[0] = '\0';
	while (*pieces)
		at = path_cat(buf, 128, at, *pieces++, SIZE_MAX);
}

/* A pod's container: its QoS class's slices, `depth` deep when that is 3 or more (natural: 4). */
static void pod_path(const struct synth *s, size_t idx, size_t shim, char *buf, size_t size)
{
	char uid[37], pod[128], qos[128], leaf[128], id[65];
	unsigned int depth = s->o->depth >= 3 ? s->o->depth : 4;
	const char *slices[3] = { "kubepods.slice", qos, pod };
	const char *cls = (shim >> 1) & 1 ? "burstable" : "besteffort";

	ns_pod_uid(s, shim, '_', uid); /* the kubelet names its slice with '_' for '-' */
	sy_container_id(s, idx, id);
	join_name(leaf, (const char *const[]){ "cri-containerd-", id, ".scope", NULL });
	if (depth == 3) {
		join_name(pod, (const char *const[]){ "kubepods-pod", uid, ".slice", NULL }); /* Guaranteed */
		slices[1] = pod;
		fit_depth(buf, size, slices, 2, "pod", leaf, depth);
		return;
	}
	join_name(qos, (const char *const[]){ "kubepods-", cls, ".slice", NULL });
	join_name(pod, (const char *const[]){ "kubepods-", cls, "-pod", uid, ".slice", NULL });
	fit_depth(buf, size, slices, 3, "c", leaf, depth);
}

/* Where a process that does not simply stay in its parent's group goes; false: in its parent's. */
static bool own_path(const struct synth *s, size_t idx, int parent, char *buf, size_t size)
{
	const struct gen *g = &s->gen[idx];
	static const char *const sys[] = { "system.slice" };
	const char *family, *unit;

	if (g->kind == G_KTHREAD) {
		buf[0] = '\0';
		return true;
	}
	if (parent < 0) {
		snprintf(buf, size, "init.scope");
		return true;
	}
	if (parent == 0) {
		if (daemon_unit(g->prog)) {
			snprintf(buf, size, "%s", daemon_unit(g->prog));
		} else if (g->prog == P_SYSTEMD_USER) {
			snprintf(buf, size, "user.slice/user-%u.slice/user@%u.service/init.scope", g->uid, g->uid);
		} else if (g->prog == P_SHIM) {
			snprintf(buf, size, "system.slice/containerd.service");
		} else {
			service_unit(g->prog, &family, &unit);
			if (g->prog == P_POSTMASTER && s->o->depth < 3)
				unit = "postgresql.service";
			fit_depth(buf, size, sys, 1, family, unit, s->o->depth);
		}
		return true;
	}
	if (s->gen[parent].prog == P_SHIM && s->gen[parent].kind == G_USER) {
		char id[65], leaf[128];

		if ((size_t)parent + 1 < s->n && s->gen[parent + 1].prog == P_PAUSE) {
			pod_path(s, idx, (size_t)parent, buf, size);
		} else {
			sy_container_id(s, idx, id);
			join_name(leaf, (const char *const[]){ "docker-", id, ".scope", NULL });
			fit_depth(buf, size, sys, 1, "docker", leaf, s->o->depth >= 2 ? s->o->depth : 2);
		}
		return true;
	}
	if (g->prog == P_SSHD_PRIV) {
		/* pam_systemd: the login's session, numbered as its XDG_SESSION_ID (its terminal) */
		uint32_t n = idx + 1 < s->n && s->gen[idx + 1].prog == P_SSHD_USER ? s->gen[idx + 1].inst : 0;

		snprintf(buf, size, "user.slice/user-%u.slice/session-%u.scope", g->inst, n);
		return true;
	}
	return false;
}

/* The controllers a new group enables for its children, by what systemd names it. */
static uint32_t subtree_of(const char *name, size_t len)
{
	if (len >= 8 && !memcmp(name, "kubepods", 8))
		return SS_ALL;
	if (len >= 6 && !memcmp(name + len - 6, ".slice", 6))
		return SS_SLICE;
	if (len >= 5 && !memcmp(name, "user@", 5))
		return SS(MEMORY) | SS(PIDS);
	return 0;
}

static uint64_t cg_key(uint32_t parent, const char *name, size_t len)
{
	uint64_t h = 1469598103934665603ull ^ parent;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)name[i]) * 1099511628211ull;
	return h ^ (h >> 29);
}

/*
 * The slot of (@parent, @name), whose cg_key is @key, in the group hash:
 * where it is, or the empty one where it goes.  A slot holds the key's
 * high half beside the group, so a probe reads another group's record and
 * name only when the two keys agree: at a million tasks, 695,000 groups,
 * each probe that read them was two cache misses, and the probing was a
 * third of planning the namespaces.
 */
static size_t cg_slot(const struct synth *s, uint32_t parent, const char *name, size_t len, uint64_t key)
{
	const struct mach_machine *m = s->m;
	size_t mask = s->ns->cg_hash_cap - 1, i = key & mask;
	uint32_t tag = (uint32_t)(key >> 32);

	for (;; i = (i + 1) & mask) {
		uint64_t v = s->ns->cg_hash[i];
		const struct mach_cgroup *g;

		if (!v)
			return i;
		if ((uint32_t)(v >> 32) != tag)
			continue;
		g = &m->cgroups[(uint32_t)v - 1];
		if (g->parent == parent && strlen(g->name) == len && !memcmp(g->name, name, len))
			return i;
	}
}

/* Group @cg's slot entry for key @key: the key's high half, then the group + 1. */
static uint64_t cg_entry(uint32_t cg, uint64_t key)
{
	return (key & 0xffffffff00000000ull) | (cg + 1);
}

/* Room in the hash for one more group: twice the groups, filled again from them when it grows. */
static int cg_hash_reserve(struct synth *s)
{
	struct sy_ns_state *ns = s->ns;
	const struct mach_machine *m = s->m;
	uint64_t *old = ns->cg_hash;
	size_t ocap = ns->cg_hash_cap;

	if (ns->cg_hash_cap >= 2 * (m->ncgroups + 1))
		return 0;
	ns->cg_hash_cap = ocap ? 2 * ocap : 1024;
	ns->cg_hash = calloc(ns->cg_hash_cap, sizeof(*ns->cg_hash));
	if (!ns->cg_hash) {
		ns->cg_hash = old;
		ns->cg_hash_cap = ocap;
		return -ENOMEM;
	}
	free(old);
	for (uint32_t cg = 0; cg < m->ncgroups; cg++) {
		const struct mach_cgroup *g = &m->cgroups[cg];
		size_t len = strlen(g->name);
		uint64_t key = cg_key(g->parent, g->name, len);

		ns->cg_hash[cg_slot(s, g->parent, g->name, len, key)] = cg_entry(cg, key);
	}
	return 0;
}

/* The group at @path (components joined by '/', "" for the root), made as needed; MACH_NONE on ENOMEM. */
static uint32_t group_at(struct synth *s, const char *path)
{
	struct mach_machine *m = s->m;
	uint32_t cur = 0;

	while (*path) {
		const char *slash = strchr(path, '/');
		size_t len = slash ? (size_t)(slash - path) : strlen(path), slot;
		uint64_t key = cg_key(cur, path, len);
		struct mach_cgroup *g;

		if (cg_hash_reserve(s))
			return MACH_NONE;
		slot = cg_slot(s, cur, path, len, key);
		if (!s->ns->cg_hash[slot]) {
			if (ns_grow((void **)&m->cgroups, &s->ns->cg_cap, m->ncgroups + 1, sizeof(*g)))
				return MACH_NONE;
			g = &m->cgroups[m->ncgroups];
			*g = (struct mach_cgroup){ .root = 0, .parent = cur, .name = strndup(path, len),
						   .id = s->ns->next_cg_id++, .subtree_control = subtree_of(path, len) };
			if (!g->name)
				return MACH_NONE;
			s->ns->cg_hash[slot] = cg_entry((uint32_t)m->ncgroups++, key);
		}
		cur = (uint32_t)s->ns->cg_hash[slot] - 1;
		path += len + (slash != NULL);
	}
	return cur;
}

/* The css_set of a task in group @cg: each controller's css where the parents enable it. */
static uint32_t css_set_of(struct synth *s, uint32_t cg)
{
	struct mach_machine *m = s->m;
	struct mach_css_set cs;

	if (s->ns->css_of_cg[cg] != MACH_NONE)
		return s->ns->css_of_cg[cg];
	memset(&cs, 0xff, sizeof(cs));
	cs.cg[0] = cg;
	for (unsigned int ss = 0; ss < MACH_NR_SS; ss++) {
		uint32_t g = cg;

		while (m->cgroups[g].parent != MACH_NONE &&
		       !(m->cgroups[m->cgroups[g].parent].subtree_control & (1u << ss)))
			g = m->cgroups[g].parent;
		cs.css[ss] = g;
	}
	if (ns_grow((void **)&m->css_sets, &s->ns->css_cap, m->ncss_sets + 1, sizeof(cs)))
		return MACH_NONE;
	m->css_sets[m->ncss_sets] = cs;
	return s->ns->css_of_cg[cg] = (uint32_t)m->ncss_sets++;
}

int ns_cgroups_init(struct synth *s)
{
	struct mach_machine *m = s->m;

	m->cg_roots = calloc(1, sizeof(*m->cg_roots));
	if (!m->cg_roots || ns_grow((void **)&m->cgroups, &s->ns->cg_cap, 1, sizeof(*m->cgroups)))
		return -ENOMEM;
	m->ncg_roots = 1;
	m->cg_roots[0] = (struct mach_cg_root){ .id = 0, .top = 0 };
	m->cgroups[0] = (struct mach_cgroup){ .parent = MACH_NONE, .name = strdup(""), .id = 1,
					      .subtree_control = SS_ALL };
	m->ncgroups = 1;
	s->ns->next_cg_id = 2;
	return m->cgroups[0].name ? 0 : -ENOMEM;
}

int ns_place(struct synth *s, size_t idx, int parent)
{
	char path[1024];
	uint32_t cg;

	if (!own_path(s, idx, parent, path, sizeof(path))) {
		s->gen[idx].css_set = s->gen[parent].css_set;
		return 0;
	}
	cg = group_at(s, path);
	if (cg == MACH_NONE ||
	    ns_grow((void **)&s->ns->css_of_cg, &s->ns->css_of_cap, s->m->ncgroups, sizeof(uint32_t)))
		return -ENOMEM;
	while (s->ns->css_of_len < s->m->ncgroups)
		s->ns->css_of_cg[s->ns->css_of_len++] = MACH_NONE; /* no css_set yet */
	s->gen[idx].css_set = css_set_of(s, cg);
	return s->gen[idx].css_set == MACH_NONE ? -ENOMEM : 0;
}
