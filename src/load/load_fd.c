// SPDX-License-Identifier: MIT
/*
 * load_fd.c - parse /proc/<pid>/fd/<n> link targets, the cwd, root and exe
 * links, and the fixed part of /proc/<pid>/fdinfo/<n> (fs/proc/fd.c
 * proc_fd_link and seq_show, fs/locks.c lock_get_status; Linux 6.18).
 *
 * A link target is a path (d_path, " (deleted)" when unlinked) or a pseudo
 * filesystem's name: "pipe:[INO]", "socket:[INO]", "anon_inode:NAME",
 * "NAME:[INO]" (nsfs).  A real path always starts with '/', so the forms
 * cannot be mistaken for each other.  fdinfo is four fixed lines, the
 * locks, then the file type's own lines (load_fdinfo.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "load_int.h"

#define DELETED " (deleted)"

/* A path and whether it ends in " (deleted)"; NULs cannot be in a target. */
static int parse_path(struct lex *lx, char **path, bool *deleted)
{
	size_t len = (size_t)(lx->end - lx->p), dl = sizeof(DELETED) - 1;

	if (!len || *lx->p != '/')
		return lex_expected(lx, "an absolute path");
	if (memchr(lx->p, '\0', len))
		return lex_fail(lx, "NUL byte in a link target");
	*deleted = len > dl && !memcmp(lx->end - dl, DELETED, dl);
	*path = strndup(lx->p, *deleted ? len - dl : len);
	if (!*path)
		return -ENOMEM;
	lx->p = lx->end;
	return 0;
}

int ld_parse_path_link(struct lex *lx, struct ld_link *l)
{
	lex_ctx(lx, NULL);
	return parse_path(lx, &l->target, &l->deleted);
}

/* "[INO]" to the end of the text. */
static int parse_bracket_ino(struct lex *lx, uint64_t *ino)
{
	int rc;

	if ((rc = lex_expect(lx, "[")) || (rc = lex_u64(lx, ino)) || (rc = lex_expect(lx, "]")))
		return rc;
	return lex_expect_eof(lx);
}

int ld_parse_fd_link(struct lex *lx, struct mach_fd *f)
{
	const char *colon;

	lex_ctx(lx, NULL);
	if (lex_peek(lx, '/')) {
		bool deleted = false;
		int rc;

		f->kind = MACH_FD_PATH;
		rc = parse_path(lx, &f->name, &deleted);
		f->deleted = deleted;
		return rc;
	}
	if (lex_accept(lx, "pipe:")) {
		f->kind = MACH_FD_PIPE;
		return parse_bracket_ino(lx, &f->ino);
	}
	if (lex_accept(lx, "socket:")) {
		f->kind = MACH_FD_SOCKET;
		return parse_bracket_ino(lx, &f->ino);
	}
	if (lex_accept(lx, "anon_inode:")) {
		size_t len = (size_t)(lx->end - lx->p);

		if (!len || memchr(lx->p, '\0', len) || memchr(lx->p, '\n', len))
			return lex_expected(lx, "an anon inode's name");
		f->kind = MACH_FD_ANON;
		f->name = strndup(lx->p, len);
		lx->p = lx->end;
		return f->name ? 0 : -ENOMEM;
	}
	colon = memchr(lx->p, ':', (size_t)(lx->end - lx->p));
	if (!colon || colon == lx->p || memchr(lx->p, '/', (size_t)(colon - lx->p)) ||
	    memchr(lx->p, '\n', (size_t)(colon - lx->p)) || memchr(lx->p, '\0', (size_t)(colon - lx->p)))
		return lex_expected(lx, "a path, pipe:[INO], socket:[INO], anon_inode:NAME or NAME:[INO]");
	f->kind = MACH_FD_PSEUDO;
	f->name = strndup(lx->p, (size_t)(colon - lx->p));
	if (!f->name)
		return -ENOMEM;
	lx->p = colon + 1;
	return parse_bracket_ino(lx, &f->ino);
}

/* "LABEL\tNUMBER\n" of the fixed lines, signed or not. */
static int fixed_line(struct lex *lx, const char *label, int64_t *sv, uint64_t *uv, int64_t min, int64_t max)
{
	const char *start;
	int rc;

	lex_ctx(lx, label);
	if ((rc = lex_expect(lx, label)) || (rc = lex_expect(lx, "\t")))
		return rc;
	start = lx->p;
	rc = sv ? lex_s64(lx, sv, min, max) : lex_u64(lx, uv);
	if (!rc)
		rc = lex_token_end(lx, start);
	return rc ? rc : lex_eol(lx);
}

/* The "flags:" line: octal with the leading 0 always printed. */
static int flags_line(struct lex *lx, struct mach_fd *f)
{
	uint64_t v;
	int rc;

	lex_ctx(lx, "flags:");
	if ((rc = lex_expect(lx, "flags:\t0")) || (rc = lex_oct(lx, &v)) || (rc = lex_eol(lx)))
		return rc;
	if (v > UINT32_MAX)
		return lex_fail(lx, "flags beyond 32 bits");
	f->cloexec = v & MACH_O_CLOEXEC;
	f->flags = (unsigned int)v & ~MACH_O_CLOEXEC;
	return 0;
}

/* One "lock:\t" line, numbered @id: lock_get_status of a lock held through this file. */
static int lock_line(struct lex *lx, struct mach_file_lock *l, unsigned int id)
{
	uint64_t n;
	int rc;

	lex_ctx(lx, "lock:");
	if ((rc = lex_expect(lx, "lock:\t")) || (rc = lex_u64(lx, &n)) || (rc = lex_expect(lx, ": ")))
		return rc;
	if (n != id)
		return lex_fail(lx, "lock number %llu where %u comes next", (unsigned long long)n, id);
	if ((rc = ld_parse_lock_status(lx, l)))
		return rc;
	l->id = id;
	if (!l->has_inode)
		return lex_fail(lx, "a lock of an open file without an inode");
	return 0;
}

int ld_parse_fdinfo(struct lex *lx, struct mach_fd *f, unsigned int *ino_line)
{
	int64_t mnt;
	int rc;

	if ((rc = fixed_line(lx, "pos:", &f->pos, NULL, INT64_MIN, INT64_MAX)) || (rc = flags_line(lx, f)) ||
	    (rc = fixed_line(lx, "mnt_id:", &mnt, NULL, INT32_MIN, INT32_MAX)))
		return rc;
	f->mnt_id = (int)mnt;
	*ino_line = lex_line_at(lx, lx->p);
	if ((rc = fixed_line(lx, "ino:", NULL, &f->ino, 0, 0)))
		return rc;
	while (lex_peek(lx, 'l') && lx->end - lx->p >= 6 && !memcmp(lx->p, "lock:\t", 6)) {
		struct mach_file_lock l = { .fd = f->fd };

		if ((rc = lock_line(lx, &l, mach_fd_info(f)->nlocks + 1)) || (rc = mach_fd_add_lock(f, &l)))
			return rc;
	}
	f->info_known = true;
	return ld_parse_fdinfo_tail(lx, f);
}
