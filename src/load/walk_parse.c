// SPDX-License-Identifier: MIT
/*
 * walk_parse.c - a process's files, read (walk_pid.c), into its records:
 * each parsed once.  The net/ files of a task whose namespace the walk
 * built before from the same bytes are not parsed (walk_net.c); a copy of
 * the mm's files (every thread's smaps, maps, statm, cmdline) or of the
 * leader's namespace files (/proc/<pid>/X beside task/<pid>/X) with the
 * bytes of the copy parsed before it is not parsed again: the assembly
 * takes the first and would only find the others equal.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../util/vec.h"
#include "load_int.h"
#include "walk_pid.h"

/*
 * The net/ files of each task of @a, grouped (slot->net), each group
 * matched against the namespaces the walk built before.  The leader's
 * two directories are read file by file in turn, the other tasks' one
 * after the other.  0 or -ENOMEM.
 */
int ld_walk_net_groups(const struct walk *w, struct attempt *a, struct netgroup **gs, size_t *ng)
{
	int g0 = -1, gl = -1, cur = -1;
	size_t cap = 0;

	*gs = NULL;
	*ng = 0;
	for (size_t i = 0; i < a->n; i++) {
		struct slot *x = &a->s[i];
		bool net = mach_ld_kind_net(x->f->kind);
		int *g = !x->tid ? &g0 : x->tid == a->pid ? &gl : &cur;
		struct netgroup *G;

		x->net = -1;
		if (!net && x->f->kind != MACH_LD_PID_NS_NET)
			continue;
		if (*g < 0 || (*gs)[*g].tid != x->tid) {
			if (!(G = VEC_PUSH(*gs, *ng, cap)))
				return -ENOMEM;
			*G = (struct netgroup){ .tid = x->tid, .usable = true };
			*g = (int)*ng - 1;
		}
		G = &(*gs)[x->net = *g];
		if (!usable(w, x))
			G->usable &= !net;
		else if (!net)
			G->r.ino = ld_walk_net_ino(slot_text(w, x), x->len);
		else if (G->r.n < LD_NR_NET) {
			G->r.kind[G->r.n] = (unsigned char)(x->f->kind - MACH_LD_PID_NET_FIRST);
			G->r.text[G->r.n] = slot_text(w, x);
			G->r.len[G->r.n++] = x->len;
		}
	}
	for (size_t k = 0; k < *ng; k++)
		(*gs)[k].known = (*gs)[k].usable ? ld_walk_net_known(w, &(*gs)[k].r) : 0;
	return 0;
}

/* A known group's net files take the namespace built from their twins' (ld_task.net_ref). */
static int net_refs(const struct netgroup *gs, size_t ng, struct ld_pid *lp)
{
	for (size_t k = 0; k < ng; k++) {
		struct ld_task *t = gs[k].tid ? ld_pid_task(lp, gs[k].tid) : &lp->whole;

		if (!t)
			return -ENOMEM;
		if (gs[k].known)
			t->net_ref = gs[k].known;
	}
	return 0;
}

/* After a build: the namespace each parsed group showed, for the tasks to come. */
int ld_walk_net_groups_learn(struct walk *w, const struct attempt *a, const struct netgroup *gs, size_t ng)
{
	const struct mach_process *p = mach_find_process(w->ld->m, a->pid);
	int rc = 0;

	for (size_t k = 0; p && k < ng && !rc; k++) {
		bool kept = gs[k].usable && gs[k].r.n && !gs[k].known;

		for (size_t i = 0; kept && i < a->n; i++)
			kept = a->s[i].net != (int)k || !a->s[i].why;
		for (unsigned int t = 0; kept && t < p->nthreads; t++)
			if (p->threads[t].tid == (gs[k].tid ? gs[k].tid : a->pid))
				rc = ld_walk_net_learn(w, &gs[k].r, p->threads[t].netns);
	}
	return rc;
}

/*
 * The files of a process's mm, which every thread's directory shows: a
 * copy with the bytes of the one parsed before it says nothing more, and is
 * not parsed again (the assembly takes the first and compares the rest).
 */
#define MM_KINDS 5

static int mm_kind(enum mach_ld_kind kind)
{
	switch (kind) {
	case MACH_LD_PID_SMAPS: return 0;
	case MACH_LD_PID_SMAPS_ROLLUP: return 1;
	case MACH_LD_PID_MAPS: return 2;
	case MACH_LD_PID_STATM: return 3;
	case MACH_LD_PID_CMDLINE: return 4;
	default: return -1;
	}
}

/* Whether slot @x has the bytes of slot @y. */
static bool same_bytes(const struct walk *w, const struct slot *x, const struct slot *y)
{
	return x->len == y->len && (slot_text(w, x) == slot_text(w, y) ||
				    !memcmp(slot_text(w, x), slot_text(w, y), x->len));
}

/*
 * Parse @a's usable files into @lp, but for net files whose namespace the
 * walk knows (@gs) and copies of the mm's files parsed already.  On a final
 * build a file that does not parse is left out with its error, and its
 * copies with it; otherwise its error is returned (the live kernel reads
 * the process again).
 */
/*
 * The slot parsed before @a's slot @i with its bytes, if there is one it
 * stands for: the last copy of the mm's file of its kind (@parsed, which
 * notes @i when it is the first of its bytes), or, for the leader's
 * /proc/<pid>/X right after its task/<pid>/X, that one.  NULL: parse it.
 */
static const struct slot *parsed_copy(const struct walk *w, const struct attempt *a, size_t i, long *parsed)
{
	const struct slot *x = &a->s[i], *prev = i ? &a->s[i - 1] : NULL;
	int mk = mm_kind(x->f->kind);

	if (mk >= 0) {
		if (parsed[mk] >= 0 && same_bytes(w, x, &a->s[parsed[mk]]))
			return &a->s[parsed[mk]];
		parsed[mk] = (long)i;
		return NULL;
	}
	if (!x->tid && prev && ld_kind_nsrec(x->f->kind) && !mach_ld_kind_ns(x->f->kind) && prev->f == x->f &&
	    prev->tid == a->pid && usable(w, prev) && same_bytes(w, x, prev))
		return prev;
	return NULL;
}

int ld_walk_parse_slots(struct walk *w, struct attempt *a, struct ld_pid *lp, bool final, const struct netgroup *gs,
			size_t ng)
{
	long parsed[MM_KINDS] = { -1, -1, -1, -1, -1 };
	int rc = net_refs(gs, ng, lp);

	for (size_t i = 0; i < a->nl && !rc; i++) {
		const struct listing *l = &a->l[i];
		struct ld_task *t = l->tid ? ld_pid_task(lp, l->tid) : &lp->whole;

		if (!l->rc)
			rc = t ? ld_misc_listing(&t->misc, l->f->kind, l->insts, l->n) : -ENOMEM;
	}
	for (size_t i = 0; i < a->n && !rc; i++) {
		struct slot *x = &a->s[i];
		const struct slot *first;
		char path[4200];

		if (absent(w, x)) {
			rc = ld_pid_absent(lp, x->f->kind, x->tid);
			continue;
		}
		if (!usable(w, x) || (x->net >= 0 && gs[x->net].known && mach_ld_kind_net(x->f->kind)))
			continue;
		if ((first = parsed_copy(w, a, i, parsed))) {
			/* the parsed copy's fate is this one's */
			if (first->why && !(x->why = strdup(first->why)))
				rc = -ENOMEM;
			continue;
		}
		ld_walk_path(w, x->rel, path, sizeof(path));
		rc = ld_pid_file(lp, x->f->kind, x->tid, x->inst, path, slot_text(w, x), x->len,
				 w->err, w->errlen);
		if (rc == -EINVAL && final) {
			x->why = strdup(w->err);
			rc = x->why ? 0 : -ENOMEM;
		}
	}
	return rc;
}

