// SPDX-License-Identifier: MIT
/*
 * load_sys_cgroup.c - the files of /sys/fs/cgroup (cgroup v2): which group
 * a path names (made when it is new: an empty group no task names), its
 * core files, and the dispatch to the controllers' (load_sys_cgfiles.c).
 *
 * The machine's tasks and their groups come from /proc/<pid>/cgroup, read
 * before: cgroup.procs and cgroup.threads must list exactly the tasks the
 * model has there (else the tasks moved: -EAGAIN), and their order becomes
 * the tasks' cg_pos.  What follows from the tree (nr_descendants, populated,
 * the controllers' css counts) is parsed and left to verify.  On a hybrid
 * machine (v1 hierarchies beside v2) the v2 tree is at /sys/fs/cgroup/unified.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load_sys.h"
#include "load_sys_cg.h"

/* The live child @name[0..len) of @parent, made if the model has none. */
static uint32_t child_of(struct mach_machine *m, uint32_t parent, const char *name, size_t len)
{
	uint32_t c = mach_cg_child(m, parent, name, len);
	struct mach_cgroup *n;
	char *copy;

	if (c != MACH_NONE)
		return c;
	copy = strndup(name, len);
	n = copy ? realloc(m->cgroups, (m->ncgroups + 1) * sizeof(*n)) : NULL;
	if (!n) {
		free(copy);
		return MACH_NONE;
	}
	m->cgroups = n;
	n[m->ncgroups] = (struct mach_cgroup){ .root = m->cgroups[parent].root, .parent = parent, .name = copy };
	return (uint32_t)m->ncgroups++;
}

/* The group whose directory holds the file at @rel (below fs/cgroup), and the file's name. */
static int group_of(struct lex *lx, struct mach_machine *m, const char *rel, uint32_t *g, const char **file)
{
	uint32_t cur = mach_cg_v2_top(m);
	const char *p = rel;

	if (cur == MACH_NONE)
		return lex_fail(lx, "%s: the machine knows no cgroup v2 hierarchy (load /proc/<pid>/cgroup first)",
				lx->path);
	if (mach_cg_hybrid(m) && !(p = ld_sys_after(rel, "unified/"))) {
		snprintf(lx->err, lx->errlen, "%s: the v1 hierarchies are not loaded", lx->path);
		return -ENOENT;
	}
	for (const char *slash; (slash = strchr(p, '/')); p = slash + 1) {
		if (slash == p)
			return lex_fail(lx, "%s: an empty component", lx->path);
		if ((cur = child_of(m, cur, p, (size_t)(slash - p))) == MACH_NONE)
			return -ENOMEM;
	}
	if (!m->cgroups[cur].st && !(m->cgroups[cur].st = mach_cg_state_new()))
		return -ENOMEM;
	*g = cur;
	*file = p;
	return 0;
}

/* ------------------------------------------------------------------ */
/* cgroup.procs, cgroup.threads                                         */

static bool exiting(const struct mach_thread *t)
{
	return t->state == MACH_TASK_ZOMBIE || t->state == MACH_TASK_DEAD;
}

static bool proc_live(const struct mach_process *p)
{
	for (unsigned int i = 0; i < p->nthreads; i++)
		if (!exiting(&p->threads[i]))
			return true;
	return false;
}

/* The member @id of @g (a thread, or a process's leader), as the renderer lists them; NULL if none. */
static struct mach_thread *member(struct mach_machine *m, uint32_t g, pid_t id, bool threads)
{
	const struct mach_process *p;
	struct mach_thread *t = (struct mach_thread *)mach_find_any_thread(m, id, &p);

	if (!t || mach_thread_cg2(m, t) != g)
		return NULL;
	if (threads)
		return exiting(t) ? NULL : t;
	return p->tgid == id && proc_live(p) ? t : NULL;
}

static size_t count_members(const struct mach_machine *m, uint32_t g, bool threads)
{
	size_t n = 0;

	for (size_t i = 0; i < m->nprocs; i++) {
		const struct mach_process *p = &m->procs[i];

		for (unsigned int t = 0; t < (threads ? p->nthreads : (p->nthreads ? 1u : 0u)); t++)
			n += mach_thread_cg2(m, &p->threads[t]) == g &&
			     (threads ? !exiting(&p->threads[t]) : proc_live(p));
	}
	return n;
}

/* Whether cgroup.threads of @g was read in this session: its order is the tasks'. */
static bool threads_read(struct mach_loader *ld, uint32_t g, bool mark)
{
	struct ld_sys *s = ld_sys_of(ld);

	if (!s)
		return false;
	if (mark && g >= s->ncg_threads) {
		uint8_t *n = realloc(s->cg_threads, ld->m->ncgroups);

		if (!n)
			return false;
		memset(n + s->ncg_threads, 0, ld->m->ncgroups - s->ncg_threads);
		s->cg_threads = n;
		s->ncg_threads = ld->m->ncgroups;
	}
	if (g >= s->ncg_threads)
		return false;
	if (mark)
		s->cg_threads[g] = 1;
	return s->cg_threads[g];
}

static int tasks_moved(struct lex *lx)
{
	snprintf(lx->err, lx->errlen, "%s: the group's tasks moved since /proc was read", lx->path);
	return -EAGAIN;
}

static int tasks_file(struct lex *lx, struct mach_loader *ld, uint32_t g, bool threads)
{
	struct mach_machine *m = ld->m;
	bool ordered = !threads && threads_read(ld, g, false);
	uint32_t prev = 0;
	size_t n = 0;
	int rc;

	while (!lex_eof(lx)) {
		uint64_t id;
		struct mach_thread *t;

		if ((rc = lex_u64_max(lx, &id, 1u << 24)) || (rc = lex_eol(lx)))
			return rc;
		if (!(t = member(m, g, (pid_t)id, threads)))
			return tasks_moved(lx);
		if (ordered && t->cg_pos < prev)
			return tasks_moved(lx);
		/* a zombie leader of live threads is on its css_set's dying list: after the others */
		if (!ordered || exiting(t))
			t->cg_pos = ordered ? prev : (uint32_t)n;
		prev = t->cg_pos;
		n++;
	}
	if (n != count_members(m, g, threads))
		return tasks_moved(lx);
	if (threads)
		threads_read(ld, g, true);
	return 0;
}

/* ------------------------------------------------------------------ */
/* The other core files                                                 */

/* Controller names, space-separated, in subsystem order: an empty mask is an empty file. */
static int ss_mask(struct lex *lx, uint32_t *mask)
{
	*mask = 0;
	while (!lex_eof(lx)) {
		char name[32];
		int rc = ld_word(lx, name, sizeof(name), "a controller"), ss;

		if (rc)
			return rc;
		if ((ss = mach_cg_ss_by_name(name)) < 0 || *mask >> ss)
			return lex_fail(lx, "%s: not a controller in subsystem order", name);
		*mask |= 1u << ss;
		if (!lex_accept(lx, " "))
			return (rc = lex_eol(lx)) ? rc : lex_expect_eof(lx);
	}
	return 0;
}

static int controllers_file(struct lex *lx, struct mach_machine *m, uint32_t g)
{
	uint32_t mask;
	int rc = ss_mask(lx, &mask);

	if (rc)
		return rc;
	if (m->cgroups[g].parent != MACH_NONE) {
		m->cgroups[m->cgroups[g].parent].subtree_control = mask;
		return 0;
	}
	if (mask != mach_cg_controllers(m, g))
		return lex_fail(lx, "the root's controllers are not those /proc/cgroups binds to v2");
	return 0;
}

/* "name N\n" lines of cgroup.stat: the counts of live groups follow from the tree, the dying are kept. */
static int stat_file(struct lex *lx, struct mach_cg_state *st)
{
	bool dying = false;
	uint64_t v;
	int rc;

	if ((rc = lex_expect(lx, "nr_descendants ")) || (rc = lex_u64(lx, &v)) || (rc = lex_eol(lx)))
		return rc;
	while (!lex_eof(lx)) {
		char name[48];
		int ss = -1;

		if ((rc = ld_word(lx, name, sizeof(name), "a count")) || (rc = lex_expect(lx, " ")) ||
		    (rc = lex_u64_max(lx, &v, UINT32_MAX)) || (rc = lex_eol(lx)))
			return rc;
		if (!strcmp(name, "nr_dying_descendants") && !dying) {
			dying = true;
			st->nr_dying_descendants = (uint32_t)v;
		} else if (!strncmp(name, dying ? "nr_dying_subsys_" : "nr_subsys_", dying ? 16 : 10) &&
			   (ss = mach_cg_ss_by_name(name + (dying ? 16 : 10))) >= 0) {
			if (dying && (rc = mach_cg_set_dying_subsys(st, (enum mach_cg_ss)ss, (uint32_t)v)))
				return rc;
		} else {
			return lex_fail(lx, "%s: not a count of cgroup.stat here", name);
		}
	}
	return dying ? 0 : lex_expected(lx, "nr_dying_descendants");
}

static int int_max_line(struct lex *lx, int *out)
{
	uint64_t v;
	int rc = ld_sys_max_line(lx, &v, MACH_CG_INT_MAX, MACH_CG_INT_MAX - 1);

	if (!rc)
		*out = (int)v;
	return rc;
}

static int flag_line(struct lex *lx, bool *out, bool invert)
{
	uint64_t v;
	int rc = ld_sys_u64_line(lx, &v, 1);

	if (!rc)
		*out = invert ? !v : v;
	return rc;
}

static int type_file(struct lex *lx, struct mach_cg_state *st)
{
	static const char *const names[] = { "domain\n", "domain threaded\n", "domain invalid\n", "threaded\n" };

	for (unsigned int i = 0; i < 4; i++)
		if (lex_accept(lx, names[i])) {
			st->type = (enum mach_cg_type)i;
			return lex_expect_eof(lx);
		}
	return lex_expected(lx, "domain, domain threaded, domain invalid or threaded");
}

static int core_file(struct lex *lx, struct mach_loader *ld, uint32_t g, const char *file)
{
	struct mach_cg_state *st = ld->m->cgroups[g].st;
	uint64_t v;
	int rc;

	if (!strcmp(file, "cgroup.procs") || !strcmp(file, "cgroup.threads"))
		return tasks_file(lx, ld, g, file[7] == 't');
	if (!strcmp(file, "cgroup.controllers"))
		return controllers_file(lx, ld->m, g);
	if (!strcmp(file, "cgroup.subtree_control"))
		return ss_mask(lx, &ld->m->cgroups[g].subtree_control);
	if (!strcmp(file, "cgroup.type"))
		return type_file(lx, st);
	if (!strcmp(file, "cgroup.stat"))
		return stat_file(lx, st);
	if (!strcmp(file, "cgroup.max.depth"))
		return int_max_line(lx, &st->max_depth);
	if (!strcmp(file, "cgroup.max.descendants"))
		return int_max_line(lx, &st->max_descendants);
	if (!strcmp(file, "cgroup.freeze"))
		return flag_line(lx, &st->freeze, false);
	if (!strcmp(file, "cgroup.pressure"))
		return flag_line(lx, &st->psi_off, true);
	if (!strcmp(file, "cgroup.stat.local")) {
		if ((rc = lex_expect(lx, "frozen_usec ")) || (rc = ld_sys_u64_line(lx, &v, UINT64_MAX)))
			return rc;
		st->frozen_usec = v;
		return 0;
	}
	if (!strcmp(file, "cgroup.events")) {
		/* populated and frozen follow from the tasks and the freeze flags */
		if ((rc = lex_expect(lx, "populated ")) || (rc = lex_u64_max(lx, &v, 1)) || (rc = lex_eol(lx)) ||
		    (rc = lex_expect(lx, "frozen ")) || (rc = lex_u64_max(lx, &v, 1)) || (rc = lex_eol(lx)))
			return rc;
		return lex_expect_eof(lx);
	}
	return -ENOENT;
}

int ld_parse_sys_cgroup(struct lex *lx, struct mach_loader *ld, const char *path)
{
	const char *rel = ld_sys_after(path, "/sys/") ? path + 5 : path, *file = NULL;
	uint32_t g = MACH_NONE;
	int rc;

	if (!(rel = ld_sys_after(rel, "fs/cgroup/"))) {
		snprintf(lx->err, lx->errlen, "%s: not under /sys/fs/cgroup", path);
		return -ENOENT;
	}
	if ((rc = group_of(lx, ld->m, rel, &g, &file)))
		return rc;
	rc = core_file(lx, ld, g, file);
	if (rc == -ENOENT)
		rc = ld_cg_controller_file(lx, ld, g, file);
	if (rc == -ENOENT)
		snprintf(lx->err, lx->errlen, "%s: not a cgroup file the loader parses", path);
	return rc;
}
