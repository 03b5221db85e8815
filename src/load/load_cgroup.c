// SPDX-License-Identifier: MIT
/*
 * load_cgroup.c - /proc/<pid>/cgroup (kernel/cgroup/cgroup.c
 * proc_cgroup_show), /proc/<pid>/cpuset (kernel/cgroup/cpuset.c
 * proc_cpuset_show) and the ns/ links (fs/nsfs.c ns_get_name), Linux 6.18.
 *
 * A cgroup line is "ID:CONTROLLERS:PATH": the v1 controllers by their
 * legacy names and name=NAME, nothing for the v2 hierarchy (ID 0), whose
 * path may end in " (deleted)".  Paths are printed raw: everything up to
 * the newline is the path, so a group name holding a newline cannot be
 * told from two lines and is refused by the line structure.  A link is
 * "TYPE:[INODE]" with the type named as the kernel names it.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "load_int.h"

#define DELETED " (deleted)"

void ld_cgroup_free(struct ld_cgroup *cg)
{
	if (!cg)
		return;
	for (size_t i = 0; i < cg->n; i++) {
		free(cg->l[i].name);
		free(cg->l[i].path);
	}
	free(cg->l);
	free(cg->path);
	free(cg);
}

/* "cpu,cpuacct", "name=systemd", "pids,name=x" up to the next ':'. */
static int parse_controllers(struct lex *lx, struct ld_cg_line *l)
{
	const char *end = lex_line_end(lx);
	const char *colon = memchr(lx->p, ':', (size_t)(end - lx->p));

	if (!colon)
		return lex_expected(lx, "\"CONTROLLERS:PATH\" after the hierarchy id");
	while (lx->p < colon) {
		const char *comma = memchr(lx->p, ',', (size_t)(colon - lx->p));
		const char *tok = lx->p, *tend = comma ? comma : colon;
		size_t len = (size_t)(tend - tok);
		unsigned int ss;

		if (len > 5 && !memcmp(tok, "name=", 5) && !l->name && !comma) {
			l->name = strndup(tok + 5, len - 5);
			if (!l->name)
				return -ENOMEM;
		} else {
			for (ss = 0; ss < MACH_NR_SS; ss++) {
				const char *n = mach_cg_ss_name((enum mach_cg_ss)ss, true);

				if (strlen(n) == len && !memcmp(n, tok, len))
					break;
			}
			if (ss == MACH_NR_SS || (l->ss_mask >> ss) || l->name)
				return lex_fail_at(lx, tok, "\"%.*s\" is not a v1 controller in subsystem order, "
						   "or name=NAME last", (int)len, tok);
			l->ss_mask |= 1u << ss;
		}
		lx->p = comma ? comma + 1 : colon;
		if (comma && comma + 1 == colon)
			return lex_fail_at(lx, comma, "an empty controller name");
	}
	lx->p = colon + 1;
	return 0;
}

/* The path: '/' and raw components up to the newline, " (deleted)" taken off a v2 one. */
static int parse_path(struct lex *lx, struct ld_cg_line *l)
{
	const char *end = lex_line_end(lx), *start = lx->p;
	size_t len = (size_t)(end - start), dl = sizeof(DELETED) - 1;

	if (!len || *start != '/')
		return lex_expected(lx, "a path starting with '/'");
	if (l->id == 0 && len > dl && !memcmp(end - dl, DELETED, dl)) {
		l->deleted = true;
		len -= dl;
	}
	for (size_t i = 1; i < len; i++)
		if ((start[i] == '/' && start[i - 1] == '/') || (start[i] == '/' && i + 1 == len))
			return lex_fail_at(lx, start, "an empty component in the path");
	if (memchr(start, '\0', len))
		return lex_fail_at(lx, start, "a NUL byte in the path");
	l->path = strndup(start, len);
	if (!l->path)
		return -ENOMEM;
	lx->p = end;
	return lex_eol(lx);
}

int ld_parse_cgroup(struct lex *lx, struct ld_cgroup *cg)
{
	size_t cap = 0;

	while (!lex_eof(lx)) {
		struct ld_cg_line *l;
		int64_t id;
		int rc;

		if (cg->n == cap) {
			struct ld_cg_line *n = realloc(cg->l, (cap = cap ? 2 * cap : 16) * sizeof(*n));

			if (!n)
				return -ENOMEM;
			cg->l = n;
		}
		l = &cg->l[cg->n++];
		memset(l, 0, sizeof(*l));
		l->line = lex_line_at(lx, lx->p);
		lex_ctx(lx, "the hierarchy id");
		if ((rc = lex_s64(lx, &id, 0, INT_MAX)) || (rc = lex_expect(lx, ":")))
			return rc;
		l->id = (int)id;
		lex_ctx(lx, NULL);
		if ((rc = parse_controllers(lx, l)))
			return rc;
		if ((l->id == 0) != (!l->ss_mask && !l->name))
			return lex_fail_line(lx, l->line, "hierarchy %d %s controllers", l->id,
					     l->id ? "has no" : "(v2) names");
		for (size_t i = 0; i + 1 < cg->n; i++)
			if (cg->l[i].id == l->id)
				return lex_fail_line(lx, l->line, "hierarchy %d listed twice", l->id);
		if (cg->n > MACH_CG_ROOTS_MAX)
			return lex_fail_line(lx, l->line, "more than %d hierarchies", MACH_CG_ROOTS_MAX);
		if ((rc = parse_path(lx, l)))
			return rc;
	}
	return 0;
}

int ld_parse_cpuset(struct lex *lx, struct ld_bytes *b)
{
	const char *end = lex_line_end(lx);
	size_t len = (size_t)(end - lx->p);

	lex_ctx(lx, NULL);
	if (!len || *lx->p != '/')
		return lex_expected(lx, "a path starting with '/'");
	if (memchr(lx->p, '\0', len))
		return lex_fail(lx, "a NUL byte in the path");
	b->buf = strndup(lx->p, len);
	if (!b->buf)
		return -ENOMEM;
	b->len = len;
	lx->p = end;
	if (lex_eol(lx))
		return -EINVAL;
	return lex_expect_eof(lx);
}

int ld_parse_ns_link(struct lex *lx, enum mach_ns_type t, uint32_t *ino)
{
	const char *name = mach_ns_type_name(t);
	uint64_t v;
	int rc;

	lex_ctx(lx, NULL);
	if (!lex_accept(lx, name) || !lex_accept(lx, ":["))
		return lex_fail(lx, "expected \"%s:[INODE]\"", name);
	if ((rc = lex_u64_max(lx, &v, UINT32_MAX)) || (rc = lex_expect(lx, "]")))
		return rc;
	if (!v)
		return lex_fail(lx, "namespace inode 0");
	*ino = (uint32_t)v;
	return lex_expect_eof(lx);
}
