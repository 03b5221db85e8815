// SPDX-License-Identifier: MIT
/*
 * load_mounts.c - /proc/<pid>/mountinfo, mounts and mountstats
 * (fs/proc_namespace.c show_mountinfo, show_vfsmnt, show_vfsstat), Linux
 * 6.18.
 *
 * Fields are separated by single spaces; the kernel escapes space, tab,
 * newline and backslash (and '#' in device names and types) as \ooo, so a
 * field never holds a raw space, and each is unescaped here.  mountinfo is
 * what the model's mount table is built from: the mount's own options
 * ("rw,nosuid,relatime"), the propagation fields, and the superblock's
 * ("rw,sync,size=4k": read-only bit, superblock flags, then the
 * filesystem's own options, kept as printed).  mounts and mountstats are
 * kept as lines for the assembly to check against it; mountstats alone
 * tells a mount without a device name ("no device") from one named "none".
 * NFS statistics after the type are refused: the model holds none.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "load_int.h"

void ld_mountinfo_free(struct ld_mountinfo *mi)
{
	if (!mi)
		return;
	for (size_t i = 0; i < mi->n; i++)
		mach_mount_clear(&mi->m[i]);
	free(mi->m);
	free(mi->path);
	free(mi);
}

void ld_mountlist_free(struct ld_mountlist *ml)
{
	if (!ml)
		return;
	for (size_t i = 0; i < ml->n; i++) {
		free(ml->l[i].source);
		free(ml->l[i].point);
		free(ml->l[i].fstype);
		free(ml->l[i].opts);
	}
	free(ml->l);
	free(ml->path);
	free(ml);
}

static int oct(char c)
{
	return c >= '0' && c <= '7' ? c - '0' : -1;
}

/* What the kernel escapes as \ooo: in paths (seq_path, seq_dentry), and in device names and types (mangle). */
#define ESC_PATH " \t\n\\"
#define ESC_DEV " \t\n\\#"

/*
 * The field at the cursor up to a space or the line's end, \ooo unescaped,
 * into *@out.  The kernel escapes exactly the characters of @esc: one of
 * them raw, or an escape of any other, is text it never prints.
 */
static int field(struct lex *lx, const char *what, const char *esc, char **out)
{
	const char *end = lex_line_end(lx), *sp = memchr(lx->p, ' ', (size_t)(end - lx->p));
	const char *fend = sp ? sp : end;
	char *s, *d;

	if (fend == lx->p)
		return lex_expected(lx, what);
	s = d = malloc((size_t)(fend - lx->p) + 1);
	if (!s)
		return -ENOMEM;
	for (const char *p = lx->p; p < fend; p++) {
		if (*p == '\\') {
			if (fend - p < 4 || oct(p[1]) < 0 || oct(p[1]) > 3 || oct(p[2]) < 0 || oct(p[3]) < 0) {
				free(s);
				return lex_fail_at(lx, p, "a backslash that is not an octal escape in %s", what);
			}
			*d = (char)(oct(p[1]) * 64 + oct(p[2]) * 8 + oct(p[3]));
			if (!*d || !strchr(esc, *d)) {
				free(s);
				return lex_fail_at(lx, p, "an escape of a character the kernel prints as itself in %s",
						   what);
			}
			d++;
			p += 3;
		} else if (*p == '\0') {
			free(s);
			return lex_fail_at(lx, p, "a NUL byte in %s", what);
		} else if (strchr(esc, *p)) {
			free(s);
			return lex_fail_at(lx, p, "a raw character in %s that the kernel escapes as \\%03o", what,
					   (unsigned char)*p);
		} else {
			*d++ = *p;
		}
	}
	*d = '\0';
	*out = s;
	lx->p = fend;
	return 0;
}

/* The raw field at the cursor (no unescaping), up to a space or the line's end. */
static int raw_field(struct lex *lx, const char *what, char **out)
{
	const char *end = lex_line_end(lx), *sp = memchr(lx->p, ' ', (size_t)(end - lx->p));
	const char *fend = sp ? sp : end;

	if (fend == lx->p)
		return lex_expected(lx, what);
	*out = strndup(lx->p, (size_t)(fend - lx->p));
	if (!*out)
		return -ENOMEM;
	lx->p = fend;
	return 0;
}

/* "rw" or "ro", then flags from @names in their order: *@flags gets @ro_bit and the flags' bits. */
static int opts(struct lex *lx, const char *const *names, const unsigned int *bits, size_t n,
		unsigned int ro_bit, unsigned int *flags)
{
	size_t next = 0;

	if (lex_accept(lx, "ro"))
		*flags |= ro_bit;
	else if (!lex_accept(lx, "rw"))
		return lex_expected(lx, "\"rw\" or \"ro\"");
	while (next < n && lex_peek(lx, ',')) {
		size_t k;

		for (k = next; k < n; k++) {
			size_t len = strlen(names[k]);

			if ((size_t)(lx->end - lx->p) > len && !memcmp(lx->p + 1, names[k], len) &&
			    (lx->p + 1 + len == lx->end || lx->p[1 + len] == ',' || lx->p[1 + len] == ' ' ||
			     lx->p[1 + len] == '\n'))
				break;
		}
		if (k == n)
			break;
		lx->p += 1 + strlen(names[k]);
		*flags |= bits[k];
		next = k + 1;
	}
	return 0;
}

static int mnt_opts(struct lex *lx, unsigned int *flags)
{
	static const char *const names[] = { "nosuid", "nodev", "noexec", "noatime", "nodiratime",
					     "relatime", "nosymfollow", "idmapped" };
	static const unsigned int bits[] = { MACH_MNT_NOSUID, MACH_MNT_NODEV, MACH_MNT_NOEXEC,
					     MACH_MNT_NOATIME, MACH_MNT_NODIRATIME, MACH_MNT_RELATIME,
					     MACH_MNT_NOSYMFOLLOW, MACH_MNT_IDMAPPED };
	int rc = opts(lx, names, bits, 8, MACH_MNT_RDONLY, flags);

	if (!rc && !lex_peek(lx, ' '))
		return lex_expected(lx, "a mount option of show_mnt_opts, in its order");
	return rc;
}

static int sb_opts(struct lex *lx, struct mach_mount *m)
{
	static const char *const names[] = { "sync", "dirsync", "mand", "lazytime" };
	static const unsigned int bits[] = { MACH_SB_SYNC, MACH_SB_DIRSYNC, MACH_SB_MAND, MACH_SB_LAZYTIME };
	const char *end;
	int rc = opts(lx, names, bits, 4, MACH_SB_RDONLY, &m->sb_flags);

	if (rc)
		return rc;
	end = lex_line_end(lx);
	if (lx->p == end)
		return 0;
	if (*lx->p != ',' || end - lx->p < 2)
		return lex_expected(lx, "\",OPTION\" of the filesystem");
	m->fs_opts = strndup(lx->p + 1, (size_t)(end - lx->p - 1));
	if (!m->fs_opts)
		return -ENOMEM;
	lx->p = end;
	return 0;
}

static int tag(struct lex *lx, const char *name, int *v)
{
	int64_t n;
	int rc;

	if (!lex_accept(lx, name))
		return 1;
	if ((rc = lex_s64(lx, &n, 1, INT_MAX)) || (rc = lex_token_end(lx, lx->p)))
		return rc < 0 ? rc : -EINVAL;
	*v = (int)n;
	return 0;
}

/* " shared:N", " master:N", " propagate_from:N", " unbindable", then " - ". */
static int optional_fields(struct lex *lx, struct mach_mount *m)
{
	while (lex_accept(lx, " ")) {
		int rc;

		if (lex_accept(lx, "- "))
			return 0;
		if ((rc = tag(lx, "shared:", &m->shared)) <= 0 || (rc = tag(lx, "master:", &m->master)) <= 0 ||
		    (rc = tag(lx, "propagate_from:", &m->propagate_from)) <= 0) {
			if (rc)
				return rc;
			continue;
		}
		if (!lex_accept(lx, "unbindable"))
			return lex_expected(lx, "an optional field (shared:N, master:N, propagate_from:N, "
					    "unbindable) or \"-\"");
		m->unbindable = true;
	}
	return lex_expected(lx, "\" - \" before the filesystem type");
}

static int mountinfo_line(struct lex *lx, struct mach_mount *m)
{
	int64_t v;
	uint64_t u;
	int rc;

	lex_ctx(lx, "the mount id");
	if ((rc = lex_s64(lx, &v, INT_MIN, INT_MAX)))
		return rc;
	m->id = (int)v;
	lex_ctx(lx, "the parent id");
	if ((rc = lex_expect(lx, " ")) || (rc = lex_s64(lx, &v, INT_MIN, INT_MAX)))
		return rc;
	m->parent = (int)v;
	lex_ctx(lx, "the device");
	if ((rc = lex_expect(lx, " ")) || (rc = lex_u64_max(lx, &u, UINT32_MAX)))
		return rc;
	m->major = (uint32_t)u;
	if ((rc = lex_expect(lx, ":")) || (rc = lex_u64_max(lx, &u, UINT32_MAX)))
		return rc;
	m->minor = (uint32_t)u;
	lex_ctx(lx, NULL);
	if ((rc = lex_expect(lx, " ")) || (rc = field(lx, "the mount's root", ESC_PATH, &m->root)) ||
	    (rc = lex_expect(lx, " ")) || (rc = field(lx, "the mount point", ESC_PATH, &m->point)) ||
	    (rc = lex_expect(lx, " ")) || (rc = mnt_opts(lx, &m->mnt_flags)) ||
	    (rc = optional_fields(lx, m)) || (rc = field(lx, "the filesystem type", ESC_DEV, &m->fstype)) ||
	    (rc = lex_expect(lx, " ")) || (rc = field(lx, "the source", ESC_DEV, &m->source)) ||
	    (rc = lex_expect(lx, " ")) || (rc = sb_opts(lx, m)))
		return rc;
	return lex_eol(lx);
}

int ld_parse_mountinfo(struct lex *lx, struct ld_mountinfo *mi)
{
	size_t cap = 0;

	while (!lex_eof(lx)) {
		int rc;

		if (mi->n == cap) {
			struct mach_mount *n = realloc(mi->m, (cap = cap ? 2 * cap : 32) * sizeof(*n));

			if (!n)
				return -ENOMEM;
			mi->m = n;
		}
		memset(&mi->m[mi->n], 0, sizeof(mi->m[0]));
		rc = mountinfo_line(lx, &mi->m[mi->n++]);
		if (rc)
			return rc;
	}
	return 0;
}

/* Room for one more line of @ml: the new line, zeroed, numbered; NULL on ENOMEM. */
static struct ld_mnt_line *list_add(struct ld_mountlist *ml, size_t *cap, const struct lex *lx)
{
	struct ld_mnt_line *l;

	if (ml->n == *cap) {
		l = realloc(ml->l, (*cap = *cap ? 2 * *cap : 32) * sizeof(*l));
		if (!l)
			return NULL;
		ml->l = l;
	}
	l = &ml->l[ml->n++];
	memset(l, 0, sizeof(*l));
	l->line = lex_line_at(lx, lx->p);
	return l;
}

int ld_parse_mounts(struct lex *lx, struct ld_mountlist *ml)
{
	size_t cap = 0;

	lex_ctx(lx, NULL);
	while (!lex_eof(lx)) {
		struct ld_mnt_line *l = list_add(ml, &cap, lx);
		int rc;

		if (!l)
			return -ENOMEM;
		if ((rc = field(lx, "the source", ESC_DEV, &l->source)) || (rc = lex_expect(lx, " ")) ||
		    (rc = field(lx, "the mount point", ESC_PATH, &l->point)) || (rc = lex_expect(lx, " ")) ||
		    (rc = field(lx, "the filesystem type", ESC_DEV, &l->fstype)) || (rc = lex_expect(lx, " ")) ||
		    (rc = raw_field(lx, "the options", &l->opts)) || (rc = lex_expect(lx, " 0 0")) ||
		    (rc = lex_eol(lx)))
			return rc;
	}
	return 0;
}

int ld_parse_mountstats(struct lex *lx, struct ld_mountlist *ml)
{
	size_t cap = 0;

	lex_ctx(lx, NULL);
	while (!lex_eof(lx)) {
		struct ld_mnt_line *l = list_add(ml, &cap, lx);
		int rc = 0;

		if (!l)
			return -ENOMEM;
		if (lex_accept(lx, "device "))
			rc = field(lx, "the device", ESC_DEV, &l->source);
		else if (!lex_accept(lx, "no device"))
			return lex_expected(lx, "\"device NAME\" or \"no device\"");
		if (rc || (rc = lex_expect(lx, " mounted on ")) || (rc = field(lx, "the mount point", ESC_PATH, &l->point)) ||
		    (rc = lex_expect(lx, " with fstype ")) || (rc = field(lx, "the filesystem type", ESC_DEV, &l->fstype)))
			return rc;
		if (lex_peek(lx, ' '))
			return lex_fail(lx, "statistics after the type (NFS): the model holds none");
		if ((rc = lex_eol(lx)))
			return rc;
	}
	return 0;
}
