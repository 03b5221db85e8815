// SPDX-License-Identifier: MIT
/*
 * pid_records_misc.c - the records of a task's fd/ and fdinfo/ entries, its
 * cwd, root and exe links and the small files of fs/proc/base.c: each file
 * parsed aside, then put in its slot, so a file that does not parse leaves
 * the slot as it was.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../util/vec.h"
#include "load_int.h"

bool ld_misc_kind(enum mach_ld_kind kind)
{
	return kind >= MACH_LD_PID_FD && kind <= MACH_LD_PID_TIMERSLACK_NS;
}

static void link_free(struct ld_link *l)
{
	if (l) {
		free(l->path);
		free(l->target);
		free(l);
	}
}

static void rec_free(void *rec);

static void fd_rec_clear(struct ld_fd *r)
{
	free(r->link_path);
	free(r->info_path);
	mach_fd_clear(&r->link);
	mach_fd_clear(&r->info);
}

void ld_misc_clear(struct ld_misc *m)
{
	for (size_t i = 0; i < m->fds.n; i++)
		fd_rec_clear(&m->fds.v[i]);
	free(m->fds.v);
	for (int i = 0; i < 3; i++)
		link_free(m->link[i]);
	for (int i = 0; i < LD_NR_NUMS; i++)
		rec_free(m->num[i]);
	rec_free(m->io);
	rec_free(m->limits);
	rec_free(m->autogroup);
	memset(m, 0, sizeof(*m));
}

/* The record of fd @fd, created if needed; NULL on ENOMEM. */
static struct ld_fd *fd_rec(struct ld_fds *fds, uint32_t fd)
{
	struct ld_fd *r;

	for (size_t i = 0; i < fds->n; i++)
		if (fds->v[i].fd == fd)
			return &fds->v[i];
	r = VEC_PUSH(fds->v, fds->n, fds->cap);
	if (r) {
		memset(r, 0, sizeof(*r));
		r->fd = fd;
	}
	return r;
}

int ld_misc_listing(struct ld_misc *m, enum mach_ld_kind kind, const uint32_t *insts, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!fd_rec(&m->fds, insts[i]))
			return -ENOMEM;
	if (kind == MACH_LD_PID_FD)
		m->fds.listed_fd = true;
	else
		m->fds.listed_info = true;
	return 0;
}

/* fd/<n> or fdinfo/<n> into the fd's record. */
static int fd_file(struct ld_misc *m, enum mach_ld_kind kind, uint32_t inst, struct lex *lx, const char *path)
{
	struct mach_fd fresh = { .fd = (int)inst };
	unsigned int ino_line = 0;
	struct ld_fd *r;
	char *name;
	int rc;

	if (inst > INT32_MAX)
		return lex_fail(lx, "fd %u beyond int", inst);
	rc = kind == MACH_LD_PID_FD ? ld_parse_fd_link(lx, &fresh) : ld_parse_fdinfo(lx, &fresh, &ino_line);
	name = rc ? NULL : strdup(path);
	r = name ? fd_rec(&m->fds, inst) : NULL;
	if (!r) {
		free(name);
		mach_fd_clear(&fresh);
		return rc ? rc : -ENOMEM;
	}
	if (kind == MACH_LD_PID_FD) {
		mach_fd_clear(&r->link);
		free(r->link_path);
		r->link = fresh;
		r->link_path = name;
	} else {
		mach_fd_clear(&r->info);
		free(r->info_path);
		r->info = fresh;
		r->info_path = name;
		r->ino_line = ino_line;
	}
	return 0;
}

/* A freshly allocated record of @size, whose first member is its path: NULL on ENOMEM. */
static void *new_rec(size_t size, const char *path)
{
	char **rec = calloc(1, size);

	if (rec && !(*rec = strdup(path))) {
		free(rec);
		rec = NULL;
	}
	return rec;
}

/* Free a record of this block but a link (whose target it owns too). */
static void rec_free(void *rec)
{
	if (rec)
		free(*(char **)rec);
	free(rec);
}

/* The number file kind @kind is. */
static enum ld_num num_of(enum mach_ld_kind kind)
{
	switch (kind) {
	case MACH_LD_PID_OOM_SCORE: return LD_NUM_OOM_SCORE;
	case MACH_LD_PID_OOM_SCORE_ADJ: return LD_NUM_OOM_SCORE_ADJ;
	case MACH_LD_PID_OOM_ADJ: return LD_NUM_OOM_ADJ;
	case MACH_LD_PID_LOGINUID: return LD_NUM_LOGINUID;
	case MACH_LD_PID_SESSIONID: return LD_NUM_SESSIONID;
	case MACH_LD_PID_PERSONALITY: return LD_NUM_PERSONALITY;
	default: return LD_NUM_TIMERSLACK;
	}
}

/* Parse a one-record file (a link, io, limits, autogroup, a number) into its slot. */
static int single_file(struct ld_misc *m, enum mach_ld_kind kind, struct lex *lx, const char *path)
{
	void **slot;
	void *rec;
	int rc;

	switch (kind) {
	case MACH_LD_PID_CWD:
	case MACH_LD_PID_ROOT:
	case MACH_LD_PID_EXE:
		rec = new_rec(sizeof(struct ld_link), path);
		rc = rec ? ld_parse_path_link(lx, rec) : -ENOMEM;
		if (rc) {
			link_free(rec);
			return rc;
		}
		link_free(m->link[kind - MACH_LD_PID_CWD]);
		m->link[kind - MACH_LD_PID_CWD] = rec;
		return 0;
	case MACH_LD_PID_IO:
		slot = (void **)&m->io;
		rec = new_rec(sizeof(*m->io), path);
		rc = rec ? ld_parse_io(lx, rec) : -ENOMEM;
		break;
	case MACH_LD_PID_LIMITS:
		slot = (void **)&m->limits;
		rec = new_rec(sizeof(*m->limits), path);
		rc = rec ? ld_parse_limits(lx, rec) : -ENOMEM;
		break;
	case MACH_LD_PID_AUTOGROUP:
		slot = (void **)&m->autogroup;
		rec = new_rec(sizeof(*m->autogroup), path);
		rc = rec ? ld_parse_autogroup(lx, rec) : -ENOMEM;
		break;
	default:
		slot = (void **)&m->num[num_of(kind)];
		rec = new_rec(sizeof(struct ld_numfile), path);
		rc = rec ? ld_parse_num(lx, num_of(kind), rec) : -ENOMEM;
		break;
	}
	if (rc) {
		rec_free(rec);
		return rc;
	}
	rec_free(*slot);
	*slot = rec;
	return 0;
}

int ld_misc_file(struct ld_misc *m, enum mach_ld_kind kind, uint32_t inst, const char *path, const char *text,
		 size_t len, char *err, size_t errlen)
{
	struct lex lx;

	lex_init(&lx, path, text, len, err, errlen);
	if (mach_ld_kind_coll(kind))
		return fd_file(m, kind, inst, &lx, path);
	return single_file(m, kind, &lx, path);
}
