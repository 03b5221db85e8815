// SPDX-License-Identifier: MIT
/*
 * pid_ns.c - the records of a task's cgroup, cpuset, mounts, mountinfo,
 * mountstats and ns/ files, and the checks they must pass before the
 * machine's tables take them (ns_intern.c).
 *
 * The kernel derives these files from shared objects (an nsproxy, a
 * css_set, a mount namespace), so what one task's files say must agree:
 * the leader's /proc/<pid>/X and task/<pid>/X are one task's, mounts and
 * mountstats list the mounts of mountinfo, cpuset names a group of the
 * cgroup file's cpuset hierarchy (on v2, one at or above the task's own),
 * and a task shows a file as absent exactly when the kernel would: a
 * zombie has no nsproxy, so no mount files and no ns/ links but pid and
 * user; pid_for_children is missing while its namespace has no init yet.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "load_int.h"
#include "ns_intern.h"

#define PF_EXITING 0x00000004u

void ld_nsrec_free(struct ld_nsrec *r)
{
	if (!r)
		return;
	ld_cgroup_free(r->cgroup);
	ld_bytes_free(r->cpuset);
	ld_mountinfo_free(r->mountinfo);
	ld_mountlist_free(r->mounts);
	ld_mountlist_free(r->mountstats);
	for (int t = 0; t < MACH_NR_NS; t++)
		free(r->ino_path[t]);
	free(r);
}

static struct ld_nsrec *nsrec_of(struct ld_task *t)
{
	if (!t->nsr)
		t->nsr = calloc(1, sizeof(*t->nsr));
	return t->nsr;
}

/* A record of type @T with its path: calloc'd into @slot, its path set; NULL on ENOMEM. */
#define NEW_REC(slot, path) \
	((slot) = calloc(1, sizeof(*(slot))), (slot) && ((slot)->path = strdup(path)) ? (slot) : NULL)

int ld_nsrec_parse(struct ld_task *t, enum mach_ld_kind kind, const char *path, struct lex *lx)
{
	struct ld_nsrec *r = nsrec_of(t);
	enum mach_ns_type type;

	if (!r)
		return -ENOMEM;
	switch (kind) {
	case MACH_LD_PID_CGROUP:
		return NEW_REC(r->cgroup, path) ? ld_parse_cgroup(lx, r->cgroup) : -ENOMEM;
	case MACH_LD_PID_CPUSET:
		return NEW_REC(r->cpuset, path) ? ld_parse_cpuset(lx, r->cpuset) : -ENOMEM;
	case MACH_LD_PID_MOUNTINFO:
		return NEW_REC(r->mountinfo, path) ? ld_parse_mountinfo(lx, r->mountinfo) : -ENOMEM;
	case MACH_LD_PID_MOUNTS:
		return NEW_REC(r->mounts, path) ? ld_parse_mounts(lx, r->mounts) : -ENOMEM;
	case MACH_LD_PID_MOUNTSTATS:
		return NEW_REC(r->mountstats, path) ? ld_parse_mountstats(lx, r->mountstats) : -ENOMEM;
	default:
		type = (enum mach_ns_type)(kind - MACH_LD_PID_NS_NET);
		if (!mach_ld_kind_ns(kind))
			return lex_fail(lx, "file kind %d is not a namespace or mount file", (int)kind);
		r->ino_path[type] = strdup(path);
		return r->ino_path[type] ? ld_parse_ns_link(lx, type, &r->ino[type]) : -ENOMEM;
	}
}

#define SWAP(a, b)                              \
	do {                                    \
		__typeof__(a) swap_tmp__ = (a); \
		(a) = (b);                      \
		(b) = swap_tmp__;               \
	} while (0)

int ld_nsrec_swap(struct ld_task *ta, struct ld_task *tb, enum mach_ld_kind kind)
{
	struct ld_nsrec *a = nsrec_of(ta), *b = nsrec_of(tb);

	if (!a || !b)
		return -ENOMEM;
	a->absent &= ~MACH_LD_BIT(kind); /* read after all */
	switch (kind) {
	case MACH_LD_PID_CGROUP: SWAP(a->cgroup, b->cgroup); break;
	case MACH_LD_PID_CPUSET: SWAP(a->cpuset, b->cpuset); break;
	case MACH_LD_PID_MOUNTINFO: SWAP(a->mountinfo, b->mountinfo); break;
	case MACH_LD_PID_MOUNTS: SWAP(a->mounts, b->mounts); break;
	case MACH_LD_PID_MOUNTSTATS: SWAP(a->mountstats, b->mountstats); break;
	default:
		SWAP(a->ino[kind - MACH_LD_PID_NS_NET], b->ino[kind - MACH_LD_PID_NS_NET]);
		SWAP(a->ino_path[kind - MACH_LD_PID_NS_NET], b->ino_path[kind - MACH_LD_PID_NS_NET]);
		break;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* One thread's view: its records, the leader's two copies merged       */

static bool str_eq(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* The same hierarchies (ids, controllers, names), whatever the paths. */
static bool roots_eq(const struct ld_cgroup *a, const struct ld_cgroup *b)
{
	if (a->n != b->n)
		return false;
	for (size_t i = 0; i < a->n; i++)
		if (a->l[i].id != b->l[i].id || a->l[i].ss_mask != b->l[i].ss_mask ||
		    !str_eq(a->l[i].name, b->l[i].name))
			return false;
	return true;
}

static bool cgroup_eq(const struct ld_cgroup *a, const struct ld_cgroup *b)
{
	if (!roots_eq(a, b))
		return false;
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->l[i].path, b->l[i].path) || a->l[i].deleted != b->l[i].deleted)
			return false;
	return true;
}

static bool mountinfo_eq(const struct ld_mountinfo *a, const struct ld_mountinfo *b)
{
	if (a->n != b->n)
		return false;
	for (size_t i = 0; i < a->n; i++)
		if (!nsi_mount_eq(&a->m[i], &b->m[i]))
			return false;
	return true;
}

static bool list_eq(const struct ld_mountlist *a, const struct ld_mountlist *b)
{
	if (a->n != b->n)
		return false;
	for (size_t i = 0; i < a->n; i++)
		if (!str_eq(a->l[i].source, b->l[i].source) || strcmp(a->l[i].point, b->l[i].point) ||
		    strcmp(a->l[i].fstype, b->l[i].fstype) || !str_eq(a->l[i].opts, b->l[i].opts))
			return false;
	return true;
}

/* The leader's /proc/<pid>/X and task/<pid>/X: equal where both were read, merged into @v. */
static int merge_leader(const struct ld_msg *ms, const struct ld_nsrec *w, const struct ld_nsrec *l,
			struct nsi_view *v)
{
#define PICK(f, eq, what)                                                                          \
	do {                                                                                       \
		v->f = w && w->f ? w->f : l ? l->f : NULL;                                         \
		if (w && l && w->f && l->f && !eq(w->f, l->f))                                     \
			return ld_say(ms, -EINVAL, "%s and %s differ: one task, two %s", w->f->path, \
				      l->f->path, what);                                           \
	} while (0)

	PICK(cgroup, cgroup_eq, "cgroup files");
	PICK(mountinfo, mountinfo_eq, "mount tables");
	PICK(mounts, list_eq, "mounts files");
	v->cpuset = w && w->cpuset ? w->cpuset : l ? l->cpuset : NULL;
	if (w && l && w->cpuset && l->cpuset && strcmp(w->cpuset->buf, l->cpuset->buf))
		return ld_disagree_str(ms, w->cpuset->path, 1, l->cpuset->path, 1, "the cpuset",
				       w->cpuset->buf, l->cpuset->buf);
	v->mountstats = w ? w->mountstats : NULL;
	v->absent = (w ? w->absent : 0) | (l ? l->absent : 0);
	for (int t = 0; t < MACH_NR_NS; t++) {
		bool in_w = w && w->ino[t], in_l = l && l->ino[t];

		v->ino[t] = in_w ? w->ino[t] : in_l ? l->ino[t] : 0;
		v->ino_path[t] = in_w ? w->ino_path[t] : in_l ? l->ino_path[t] : NULL;
		if (in_w && in_l && w->ino[t] != l->ino[t])
			return ld_disagree_u(ms, w->ino_path[t], 1, l->ino_path[t], 1, "the namespace inode",
					     w->ino[t], l->ino[t]);
	}
	return 0;
#undef PICK
}

/* ------------------------------------------------------------------ */
/* Checks                                                               */

#define PF_EXITING_BIT 0x4u /* include/linux/sched.h: in do_exit */

static bool from_nsproxy(enum mach_ld_kind kind)
{
	return kind == MACH_LD_PID_MOUNTS || kind == MACH_LD_PID_MOUNTINFO || kind == MACH_LD_PID_MOUNTSTATS ||
	       (mach_ld_kind_ns(kind) && kind != MACH_LD_PID_NS_PID && kind != MACH_LD_PID_NS_USER);
}

/* What is absent is what the kernel has none of for this task, and nothing else. */
static int check_absent(const struct ld_msg *ms, const struct nsi_view *v, const struct mach_thread *t)
{
	bool zombie = !mach_thread_has_nsproxy(t);

	for (int k = MACH_LD_PID_CGROUP; ld_kind_nsrec((enum mach_ld_kind)k); k++) {
		bool absent = v->absent & MACH_LD_BIT(k);
		bool present = k == MACH_LD_PID_MOUNTINFO ? v->mountinfo != NULL :
			       k == MACH_LD_PID_MOUNTS ? v->mounts != NULL :
			       k == MACH_LD_PID_MOUNTSTATS ? v->mountstats != NULL :
			       mach_ld_kind_ns((enum mach_ld_kind)k) ? v->ino[k - MACH_LD_PID_NS_NET] != 0 : false;

		/*
		 * A task in do_exit (PF_EXITING) drops its namespaces before it
		 * becomes a zombie: real, but the model derives them from the state.
		 */
		if (absent && !(zombie && from_nsproxy((enum mach_ld_kind)k)) &&
		    k != MACH_LD_PID_NS_PID_FOR_CHILDREN && (t->pf_flags & PF_EXITING_BIT))
			return ld_say(ms, -ENOTSUP, "task %d is exiting (PF_EXITING) and has dropped its "
				      "namespaces, but is no zombie yet: the model ties them to the state",
				      (int)t->tid);
		if (absent && !(zombie && from_nsproxy((enum mach_ld_kind)k)) && k != MACH_LD_PID_NS_PID_FOR_CHILDREN)
			return ld_say(ms, -EINVAL, "task %d (state %c) has no %s, as only a zombie has none",
				      (int)t->tid, mach_task_state_letter(t->state),
				      k >= MACH_LD_PID_NS_NET ? mach_ns_entry_name((enum mach_ns_type)(k - MACH_LD_PID_NS_NET))
							      : "mount table");
		if (present && zombie && from_nsproxy((enum mach_ld_kind)k))
			return ld_say(ms, -EINVAL, "task %d is a zombie, but its %s could be read", (int)t->tid,
				      k >= MACH_LD_PID_NS_NET ? mach_ns_entry_name((enum mach_ns_type)(k - MACH_LD_PID_NS_NET))
							      : "mount files");
	}
	return 0;
}

/* The hierarchies a cgroup file lists, against those of @ref (another file, or the machine's). */
static int check_roots(const struct ld_msg *ms, const struct ld_cgroup *cg, const struct mach_machine *m)
{
	if (m->ncg_roots && m->ncg_roots != cg->n)
		return ld_say(ms, -EINVAL, "%s: %zu hierarchies, but the machine has %zu", cg->path, cg->n,
			      m->ncg_roots);
	for (size_t i = 0; i < m->ncg_roots; i++) {
		const struct mach_cg_root *r = &m->cg_roots[i];
		const struct ld_cg_line *l = &cg->l[i];

		if (r->id != l->id || r->ss_mask != l->ss_mask || !str_eq(r->name, l->name))
			return ld_say(ms, -EINVAL, "%s:%u: hierarchy %d is not the machine's %d there", cg->path,
				      l->line, l->id, r->id);
	}
	return 0;
}

/* Whether group path @a is @b or one of its ancestors. */
static bool path_at_or_above(const char *a, const char *b)
{
	size_t n = strlen(a);

	if (!strcmp(a, "/"))
		return true;
	return !strncmp(a, b, n) && (b[n] == '\0' || b[n] == '/');
}

/* cgroup and cpuset: v1 lines of an exiting task say "/", cpuset names the cpuset hierarchy's group. */
static int check_cgroup(const struct ld_msg *ms, const struct nsi_view *v, const struct mach_thread *t,
			const struct ld_cgroup *first)
{
	bool exiting = t->pf_flags & PF_EXITING;
	const struct ld_cg_line *cpuset_line = NULL, *dfl = NULL;

	if (!v->cgroup)
		return v->cpuset ? ld_say(ms, -EINVAL, "%s without the cgroup file: the hierarchies come from it",
					  v->cpuset->path) : 0;
	if (first && !roots_eq(first, v->cgroup))
		return ld_say(ms, -EINVAL, "%s and %s list different hierarchies", first->path, v->cgroup->path);
	for (size_t i = 0; i < v->cgroup->n; i++) {
		const struct ld_cg_line *l = &v->cgroup->l[i];

		if (l->id && exiting && strcmp(l->path, "/"))
			return ld_say(ms, -EINVAL, "%s:%u: an exiting task shows \"/\" on v1 hierarchies",
				      v->cgroup->path, l->line);
		if (l->ss_mask & (1u << MACH_SS_CPUSET))
			cpuset_line = l;
		if (!l->id)
			dfl = l;
	}
	if (!v->cpuset)
		return 0;
	if (cpuset_line && !exiting && strcmp(cpuset_line->path, v->cpuset->buf))
		return ld_disagree_str(ms, v->cpuset->path, 1, v->cgroup->path, cpuset_line->line,
				       "the cpuset group", v->cpuset->buf, cpuset_line->path);
	if (!cpuset_line && (!dfl || !path_at_or_above(v->cpuset->buf, dfl->path)))
		return ld_say(ms, -EINVAL, "%s: \"%s\" is not at or above the task's v2 group", v->cpuset->path,
			      v->cpuset->buf);
	return 0;
}

/* mounts and mountstats list the mounts of mountinfo, field for field. */
static int check_mount_lists(const struct ld_msg *ms, const struct nsi_view *v)
{
	const struct ld_mountlist *lists[2] = { v->mounts, v->mountstats };
	const struct ld_mountinfo *mi = v->mountinfo;

	for (int k = 0; k < 2; k++) {
		const struct ld_mountlist *ml = lists[k];

		if (!ml)
			continue;
		if (!mi)
			return ld_say(ms, -EINVAL, "%s without mountinfo: the mount table comes from it", ml->path);
		if (ml->n != mi->n)
			return ld_say(ms, -EINVAL, "%s lists %zu mounts, %s %zu", ml->path, ml->n, mi->path, mi->n);
		for (size_t i = 0; i < ml->n; i++) {
			const struct ld_mnt_line *l = &ml->l[i];
			const struct mach_mount *m = &mi->m[i];
			char opts[4096];

			if (strcmp(l->point, m->point) || strcmp(l->fstype, m->fstype) ||
			    (l->source && strcmp(l->source, m->source)) || (!l->source && strcmp(m->source, "none")))
				return ld_say(ms, -EINVAL, "%s:%u: mount %s (%s) is not line %zu of %s", ml->path,
					      l->line, l->point, l->fstype, i + 1, mi->path);
			if (k == 0 && strcmp(l->opts, nsi_mounts_opts(m, opts, sizeof(opts))))
				return ld_disagree_str(ms, ml->path, l->line, mi->path, (unsigned int)i + 1,
						       "the options", l->opts, opts);
		}
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* The process                                                          */

static struct ld_task *task_of(struct ld_pid *lp, pid_t tid)
{
	for (size_t i = 0; i < lp->ntasks; i++)
		if (lp->tasks[i].tid == tid)
			return &lp->tasks[i];
	return NULL;
}

int ld_ns_build(const struct ld_msg *ms, const struct mach_loader *ld, struct ld_pid *lp, struct mach_process *out)
{
	struct nsi_view *views = calloc(out->nthreads ? out->nthreads : 1, sizeof(*views));
	const struct ld_cgroup *first = NULL;
	int rc = 0;

	if (!views)
		return -ENOMEM;
	for (unsigned int i = 0; i < out->nthreads && !rc; i++) {
		const struct mach_thread *t = &out->threads[i];
		const struct ld_task *own = task_of(lp, t->tid);
		struct nsi_view *v = &views[i];

		if (i == 0)
			rc = merge_leader(ms, lp->whole.nsr, own ? own->nsr : NULL, v);
		else
			rc = merge_leader(ms, NULL, own ? own->nsr : NULL, v);
		if (!rc)
			rc = check_absent(ms, v, t);
		if (!rc && v->cgroup)
			rc = check_roots(ms, v->cgroup, ld->m);
		if (!rc)
			rc = check_cgroup(ms, v, t, first);
		if (!rc)
			rc = check_mount_lists(ms, v);
		if (!first && v->cgroup)
			first = v->cgroup;
	}
	/* every check passed: nothing below refuses the process but a lack of memory */
	if (!rc)
		rc = nsi_enter(ld->m, out, views);
	free(views);
	return rc;
}
