// SPDX-License-Identifier: MIT
/*
 * load_sys_tree.c - what the loaders of the objects' /sys trees (block
 * devices, cgroups) share: the paths of sysfs links, the forms of their
 * values, and a file parsed again at the session's end.
 *
 * A walk of /sys meets files in name order, so a device's own directory
 * may come before anything placed the disk under it (virtio1/vendor
 * before virtio1/block/vda/...): such a file is kept (ld_sys_defer) and
 * parsed again when the session finishes, when every disk's place is known.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load_sys.h"

int ld_sys_block_again(struct mach_loader *ld, const struct ld_sys_check *c, char *err, size_t errlen)
{
	struct lex lx;

	lex_init(&lx, c->path, c->text, c->len, err, errlen);
	return ld_parse_sys_block(&lx, ld, c->path);
}

/* ------------------------------------------------------------------ */
/* Paths                                                                */

const char *ld_sys_after(const char *path, const char *prefix)
{
	size_t n = strlen(prefix);

	return !strncmp(path, prefix, n) ? path + n : NULL;
}

int ld_sys_link_target(const char *link, const char *target, char *out, size_t size)
{
	size_t at;
	const char *t = target;

	/* the link's directory, then each component of the target */
	at = strrchr(link, '/') ? (size_t)(strrchr(link, '/') - link) : 0;
	if (at >= size)
		return -ENAMETOOLONG;
	memcpy(out, link, at);
	out[at] = '\0';
	while (*t) {
		const char *slash = strchr(t, '/');
		size_t len = slash ? (size_t)(slash - t) : strlen(t);

		if (len == 2 && !memcmp(t, "..", 2)) {
			if (!at)
				return -EINVAL; /* above /sys */
			while (at && out[at - 1] != '/')
				at--;
			at = at ? at - 1 : 0;
			out[at] = '\0';
		} else if (len && !(len == 1 && *t == '.')) {
			if (at + len + 2 >= size)
				return -ENAMETOOLONG;
			if (at)
				out[at++] = '/';
			memcpy(out + at, t, len);
			at += len;
			out[at] = '\0';
		}
		t += len + (slash != NULL);
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Values                                                               */

int ld_sys_u64_line(struct lex *lx, uint64_t *v, uint64_t max)
{
	int rc;

	lex_ctx(lx, NULL);
	if (lex_peek(lx, ' '))
		return lex_expected(lx, "a number");
	if ((rc = lex_u64_max(lx, v, max)) || (rc = lex_eol(lx)))
		return rc;
	return lex_expect_eof(lx);
}

int ld_sys_s64_line(struct lex *lx, int64_t *v, int64_t min, int64_t max)
{
	int rc;

	lex_ctx(lx, NULL);
	if (lex_peek(lx, ' '))
		return lex_expected(lx, "a number");
	if ((rc = lex_s64(lx, v, min, max)) || (rc = lex_eol(lx)))
		return rc;
	return lex_expect_eof(lx);
}

int ld_sys_max_line(struct lex *lx, uint64_t *v, uint64_t max_value, uint64_t limit)
{
	if (lex_accept(lx, "max\n")) {
		*v = max_value;
		return lex_expect_eof(lx);
	}
	return ld_sys_u64_line(lx, v, limit);
}

int ld_sys_string_line(struct lex *lx, char **out)
{
	const char *eol = lex_line_end(lx);
	char *s;

	if (eol == lx->end)
		return lex_expected(lx, "a line ending in a newline");
	s = strndup(lx->p, (size_t)(eol - lx->p));
	if (!s)
		return -ENOMEM;
	lx->p = eol + 1;
	if (!lex_eof(lx)) {
		free(s);
		return lex_expect_eof(lx);
	}
	free(*out);
	*out = s;
	return 0;
}
