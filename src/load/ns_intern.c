// SPDX-License-Identifier: MIT
/*
 * ns_intern.c - a process's checked namespace, control group and mount
 * records entered into the machine's tables (mach_ns.h).
 *
 * Tasks share what the kernel shares: a group is found by its path in its
 * hierarchy (created, parents first, when new), a css_set, a mount table
 * and a namespace set by their contents.  A mount table is keyed by its
 * namespace's inode too, so two namespaces that happen to look alike stay
 * two.  A thread's mountinfo without a mountstats beside it (task/<tid>/
 * has none) cannot tell "none" from no device name: when it otherwise
 * matches its leader's table, it is that table.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ns_intern.h"

#define PF_EXITING 0x00000004u

static bool str_eq(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

bool nsi_mount_eq(const struct mach_mount *a, const struct mach_mount *b)
{
	return a->id == b->id && a->parent == b->parent && a->major == b->major && a->minor == b->minor &&
	       a->mnt_flags == b->mnt_flags && a->sb_flags == b->sb_flags && a->shared == b->shared &&
	       a->master == b->master && a->propagate_from == b->propagate_from &&
	       a->unbindable == b->unbindable && str_eq(a->root, b->root) && str_eq(a->point, b->point) &&
	       str_eq(a->fstype, b->fstype) && str_eq(a->source, b->source) && str_eq(a->fs_opts, b->fs_opts);
}

const char *nsi_mounts_opts(const struct mach_mount *m, char *buf, size_t size)
{
	static const struct { unsigned int bit; const char *s; } sb[] = {
		{ MACH_SB_SYNC, ",sync" }, { MACH_SB_DIRSYNC, ",dirsync" }, { MACH_SB_MAND, ",mand" },
		{ MACH_SB_LAZYTIME, ",lazytime" },
	}, mnt[] = {
		{ MACH_MNT_NOSUID, ",nosuid" }, { MACH_MNT_NODEV, ",nodev" }, { MACH_MNT_NOEXEC, ",noexec" },
		{ MACH_MNT_NOATIME, ",noatime" }, { MACH_MNT_NODIRATIME, ",nodiratime" },
		{ MACH_MNT_RELATIME, ",relatime" }, { MACH_MNT_NOSYMFOLLOW, ",nosymfollow" },
		{ MACH_MNT_IDMAPPED, ",idmapped" },
	};
	size_t at = (size_t)snprintf(buf, size, "%s",
				     (m->mnt_flags & MACH_MNT_RDONLY) || (m->sb_flags & MACH_SB_RDONLY) ? "ro" : "rw");

	for (size_t i = 0; i < sizeof(sb) / sizeof(sb[0]) && at < size; i++)
		if (m->sb_flags & sb[i].bit)
			at += (size_t)snprintf(buf + at, size - at, "%s", sb[i].s);
	for (size_t i = 0; i < sizeof(mnt) / sizeof(mnt[0]) && at < size; i++)
		if (m->mnt_flags & mnt[i].bit)
			at += (size_t)snprintf(buf + at, size - at, "%s", mnt[i].s);
	if (m->fs_opts && at < size)
		snprintf(buf + at, size - at, ",%s", m->fs_opts);
	return buf;
}

/* ------------------------------------------------------------------ */
/* Control groups                                                       */

/* Append one zeroed element to the array *@arr of *@n: its address, or NULL on ENOMEM. */
static void *append(void *arr, size_t *n, size_t elem, void **out)
{
	char *a = realloc(arr, (*n + 1) * elem);

	if (!a)
		return NULL;
	memset(a + *n * elem, 0, elem);
	*out = a;
	return a + (*n)++ * elem;
}

static uint32_t new_group(struct mach_machine *m, uint32_t root, uint32_t parent, const char *name, size_t len,
			  bool dead)
{
	void *arr;
	char *copy = strndup(name, len);
	struct mach_cgroup *g = copy ? append(m->cgroups, &m->ncgroups, sizeof(*g), &arr) : NULL;

	if (!g) {
		free(copy);
		return MACH_NONE;
	}
	m->cgroups = arr;
	*g = (struct mach_cgroup){ .root = root, .parent = parent, .name = copy, .dead = dead };
	return (uint32_t)(m->ncgroups - 1);
}

/* The hierarchies of the machine, from the first cgroup file: 0 or -ENOMEM. */
static int make_roots(struct mach_machine *m, const struct ld_cgroup *cg)
{
	m->cg_roots = calloc(cg->n, sizeof(*m->cg_roots));
	if (!m->cg_roots)
		return -ENOMEM;
	m->ncg_roots = cg->n;
	for (size_t i = 0; i < cg->n; i++) {
		struct mach_cg_root *r = &m->cg_roots[i];

		r->id = cg->l[i].id;
		r->ss_mask = cg->l[i].ss_mask;
		if (cg->l[i].name && !(r->name = strdup(cg->l[i].name)))
			return -ENOMEM;
		r->top = new_group(m, (uint32_t)i, MACH_NONE, "", 0, false);
		if (r->top == MACH_NONE)
			return -ENOMEM;
	}
	return 0;
}

/* The group at @path of hierarchy @root, made (with its parents) if new; MACH_NONE on ENOMEM. */
static uint32_t group_at(struct mach_machine *m, uint32_t root, const char *path, bool dead)
{
	uint32_t cur = m->cg_roots[root].top;
	const char *p = path + 1;

	while (*p) {
		const char *slash = strchr(p, '/');
		size_t len = slash ? (size_t)(slash - p) : strlen(p);
		bool leaf_dead = dead && !slash;
		uint32_t next = MACH_NONE;

		for (size_t i = cur + 1; i < m->ncgroups; i++) {
			const struct mach_cgroup *g = &m->cgroups[i];

			if (g->parent == cur && g->dead == leaf_dead && strlen(g->name) == len &&
			    !memcmp(g->name, p, len)) {
				next = (uint32_t)i;
				break;
			}
		}
		if (next == MACH_NONE && (next = new_group(m, root, cur, p, len, leaf_dead)) == MACH_NONE)
			return MACH_NONE;
		cur = next;
		p += len + (slash != NULL);
	}
	return cur;
}

/* The hierarchy cpuset is bound to: its v1 one, else v2. */
static uint32_t cpuset_root(const struct mach_machine *m)
{
	for (size_t i = 0; i < m->ncg_roots; i++)
		if (m->cg_roots[i].ss_mask & (1u << MACH_SS_CPUSET))
			return (uint32_t)i;
	return mach_cg_dfl_root(m);
}

static int enter_css_set(struct mach_machine *m, struct mach_thread *t, const struct nsi_view *v)
{
	struct mach_css_set cs;
	bool exiting = t->pf_flags & PF_EXITING;
	uint32_t root;
	void *arr;

	if (!m->ncg_roots && make_roots(m, v->cgroup))
		return -ENOMEM;
	memset(&cs, 0xff, sizeof(cs)); /* MACH_NONE everywhere */
	for (size_t i = 0; i < v->cgroup->n; i++) {
		const struct ld_cg_line *l = &v->cgroup->l[i];

		/* an exiting task's v1 groups are not shown: the model keeps it in the roots */
		cs.cg[i] = l->id && exiting ? m->cg_roots[i].top : group_at(m, (uint32_t)i, l->path, l->deleted);
		if (cs.cg[i] == MACH_NONE)
			return -ENOMEM;
	}
	root = cpuset_root(m);
	if (v->cpuset && root != MACH_NONE && (cs.css[MACH_SS_CPUSET] = group_at(m, root, v->cpuset->buf, false)) ==
							      MACH_NONE)
		return -ENOMEM;
	for (size_t i = 0; i < m->ncss_sets; i++)
		if (!memcmp(&m->css_sets[i], &cs, sizeof(cs))) {
			t->css_set = (uint32_t)i;
			return 0;
		}
	if (!append(m->css_sets, &m->ncss_sets, sizeof(cs), &arr))
		return -ENOMEM;
	m->css_sets = arr;
	m->css_sets[m->ncss_sets - 1] = cs;
	t->css_set = (uint32_t)(m->ncss_sets - 1);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Mount tables and namespace sets                                      */

static char *dup_or_null(const char *s, bool *fail)
{
	char *d = s ? strdup(s) : NULL;

	if (s && !d)
		*fail = true;
	return d;
}

/* @v's mountinfo as a table, "none" made no device name where mountstats says so. */
static int candidate(const struct nsi_view *v, struct mach_mnt_table *c)
{
	const struct ld_mountinfo *mi = v->mountinfo;
	bool fail = false;

	c->ns_ino = v->ino[MACH_NS_MNT];
	c->mounts = calloc(mi->n ? mi->n : 1, sizeof(*c->mounts));
	if (!c->mounts)
		return -ENOMEM;
	c->n = mi->n;
	for (size_t i = 0; i < mi->n; i++) {
		struct mach_mount *d = &c->mounts[i];
		const struct mach_mount *s = &mi->m[i];
		bool nodev = v->mountstats && !v->mountstats->l[i].source;

		*d = *s;
		d->root = dup_or_null(s->root, &fail);
		d->point = dup_or_null(s->point, &fail);
		d->fstype = dup_or_null(s->fstype, &fail);
		d->source = nodev ? NULL : dup_or_null(s->source, &fail);
		d->fs_opts = dup_or_null(s->fs_opts, &fail);
	}
	return fail ? -ENOMEM : 0;
}

/* @a and @b are the same table; with @none_wild a NULL source in @a matches "none" in @b. */
static bool table_eq(const struct mach_mnt_table *a, const struct mach_mnt_table *b, bool none_wild)
{
	if (a->n != b->n || a->ns_ino != b->ns_ino)
		return false;
	for (size_t i = 0; i < a->n; i++) {
		struct mach_mount x = a->mounts[i];

		if (none_wild && !x.source && b->mounts[i].source && !strcmp(b->mounts[i].source, "none"))
			x.source = b->mounts[i].source;
		if (!nsi_mount_eq(&x, &b->mounts[i]))
			return false;
	}
	return true;
}

static int enter_mounts(struct mach_machine *m, const struct nsi_view *v, uint32_t leader, uint32_t *out)
{
	struct mach_mnt_table c = { 0 };
	void *arr;
	int rc = candidate(v, &c);

	for (size_t i = 0; !rc && i < m->nmnt_tables; i++)
		if (table_eq(&m->mnt_tables[i], &c, false)) {
			*out = (uint32_t)i;
			mach_mnt_table_clear(&c);
			return 0;
		}
	if (!rc && leader < m->nmnt_tables && !v->mountstats && table_eq(&m->mnt_tables[leader], &c, true)) {
		*out = leader;
		mach_mnt_table_clear(&c);
		return 0;
	}
	if (!rc && !append(m->mnt_tables, &m->nmnt_tables, sizeof(c), &arr))
		rc = -ENOMEM;
	if (rc) {
		mach_mnt_table_clear(&c);
		return rc;
	}
	m->mnt_tables = arr;
	m->mnt_tables[m->nmnt_tables - 1] = c;
	*out = (uint32_t)(m->nmnt_tables - 1);
	return 0;
}

static int enter_nsset(struct mach_machine *m, const struct nsi_view *v, uint32_t table, uint32_t *out)
{
	struct mach_nsset ns;
	void *arr;

	memset(&ns, 0, sizeof(ns));
	memcpy(ns.ino, v->ino, sizeof(ns.ino));
	ns.mounts = table;
	for (size_t i = 0; i < m->nnssets; i++)
		if (!memcmp(&m->nssets[i], &ns, sizeof(ns))) {
			*out = (uint32_t)i;
			return 0;
		}
	if (!append(m->nssets, &m->nnssets, sizeof(ns), &arr))
		return -ENOMEM;
	m->nssets = arr;
	m->nssets[m->nnssets - 1] = ns;
	*out = (uint32_t)(m->nnssets - 1);
	return 0;
}

int nsi_enter(struct mach_machine *m, struct mach_process *out, const struct nsi_view *views)
{
	uint32_t leader = MACH_NONE;

	for (unsigned int i = 0; i < out->nthreads; i++) {
		struct mach_thread *t = &out->threads[i];
		const struct nsi_view *v = &views[i];
		uint32_t table = MACH_NONE;
		bool any_ns = v->mountinfo != NULL;
		int rc = 0;

		t->css_set = t->nsset = MACH_NONE;
		for (int k = 0; k < MACH_NR_NS; k++)
			any_ns |= v->ino[k] != 0;
		if (v->cgroup)
			rc = enter_css_set(m, t, v);
		if (!rc && v->mountinfo)
			rc = enter_mounts(m, v, leader, &table);
		if (i == 0)
			leader = table;
		if (!rc && any_ns)
			rc = enter_nsset(m, v, table, &t->nsset);
		if (rc)
			return rc;
	}
	return 0;
}
