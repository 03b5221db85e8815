// SPDX-License-Identifier: MIT
/*
 * load_maps.c - parse /proc/<pid>/maps, as printed by fs/proc/task_mmu.c
 * show_map_vma() (Linux 6.18; procfs-facts.md sections 1.9, 1.10 and 5).
 *
 * "start-end perms offset major:minor inode " and, when the VMA has a name,
 * padding to column 73 and the name.  Fixed names ([heap], [vdso], ...) and
 * the anon names become kinds; anything else is a file path, which d_path
 * may have suffixed with " (deleted)" and seq_path escaped (only a newline,
 * as \012).  The padding is not kept: the renderer recomputes it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../util/vec.h"
#include "load_int.h"

void ld_maps_free(struct ld_maps *mp)
{
	if (!mp)
		return;
	for (size_t i = 0; i < mp->n; i++)
		free(mp->vmas[i].name);
	free(mp->vmas);
	free(mp->path);
	free(mp);
}

static char *dup_range(const char *s, size_t n)
{
	char *d = malloc(n + 1);

	if (d) {
		memcpy(d, s, n);
		d[n] = '\0';
	}
	return d;
}

/* A file path: strip " (deleted)", turn \012 back into a newline. */
static int file_name(struct mach_vma *v, const char *s, size_t n)
{
	static const char deleted[] = " (deleted)";
	const size_t dl = sizeof(deleted) - 1;
	size_t o = 0;

	if (n > dl && !memcmp(s + n - dl, deleted, dl)) {
		v->deleted = true;
		n -= dl;
	}
	v->name = malloc(n + 1);
	if (!v->name)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\\' && i + 4 <= n && !memcmp(s + i, "\\012", 4)) {
			v->name[o++] = '\n';
			i += 3;
		} else {
			v->name[o++] = s[i];
		}
	}
	v->name[o] = '\0';
	return 0;
}

static int classify(struct lex *lx, struct mach_vma *v, const char *s, size_t n)
{
	static const struct { const char *prefix; enum mach_vma_kind kind; } named[] = {
		{ "[anon:", MACH_VMA_ANON_NAMED },
		{ "[anon_shmem:", MACH_VMA_ANON_SHMEM },
	};

	if (memchr(s, '\0', n))
		return lex_fail(lx, "NUL byte in the mapping's name");
	for (int k = 0; k < MACH_NR_VMA_KINDS; k++) {
		const char *fixed = mach_vma_kind_name((enum mach_vma_kind)k);

		if (fixed && strlen(fixed) == n && !memcmp(fixed, s, n)) {
			v->kind = (enum mach_vma_kind)k;
			return 0;
		}
	}
	for (size_t k = 0; k < sizeof(named) / sizeof(named[0]); k++) {
		size_t pl = strlen(named[k].prefix);

		if (n > pl + 1 && !memcmp(s, named[k].prefix, pl) && s[n - 1] == ']') {
			v->kind = named[k].kind;
			v->name = dup_range(s + pl, n - pl - 1);
			return v->name ? 0 : -ENOMEM;
		}
	}
	v->kind = MACH_VMA_FILE;
	return file_name(v, s, n);
}

/* show_vma_header_prefix's seq_setwidth: a name is padded to this column, then one space */
#define MAPS_NAME_PAD 72

int ld_parse_map_line(struct lex *lx, struct mach_vma *v)
{
	const char *eol, *line = lx->p, *pad;
	uint64_t maj, min;
	size_t col;
	int rc;

	lex_ctx(lx, NULL);
	if ((rc = lex_hex_min(lx, &v->start, 8))) /* "%08lx-%08lx" */
		return rc;
	lex_ctx(lx, "start address");
	if ((rc = lex_expect(lx, "-")) || (rc = lex_hex_min(lx, &v->end, 8)))
		return rc;
	lex_ctx(lx, "end address");
	if ((rc = lex_expect(lx, " ")))
		return rc;
	if (lx->end - lx->p < 4 || (lx->p[0] != 'r' && lx->p[0] != '-') ||
	    (lx->p[1] != 'w' && lx->p[1] != '-') || (lx->p[2] != 'x' && lx->p[2] != '-') ||
	    (lx->p[3] != 's' && lx->p[3] != 'p'))
		return lex_expected(lx, "permissions like \"r-xp\"");
	v->flags = (lx->p[0] == 'r' ? MACH_VM_READ : 0) | (lx->p[1] == 'w' ? MACH_VM_WRITE : 0) |
		   (lx->p[2] == 'x' ? MACH_VM_EXEC : 0) | (lx->p[3] == 's' ? MACH_VM_MAYSHARE : 0);
	lx->p += 4;
	lex_ctx(lx, "permissions");
	if ((rc = lex_expect(lx, " ")) || (rc = lex_hex_min(lx, &v->offset, 8)))
		return rc;
	lex_ctx(lx, "offset");
	if ((rc = lex_expect(lx, " ")) || (rc = lex_hex_min(lx, &maj, 2)))
		return rc;
	lex_ctx(lx, "device major");
	if ((rc = lex_expect(lx, ":")) || (rc = lex_hex_min(lx, &min, 2)))
		return rc;
	if (maj > UINT32_MAX || min > UINT32_MAX)
		return lex_fail(lx, "device number too large");
	v->dev_major = (uint32_t)maj;
	v->dev_minor = (uint32_t)min;
	lex_ctx(lx, "device");
	if ((rc = lex_expect(lx, " ")) || (rc = lex_u64(lx, &v->inode)))
		return rc;
	/* The space after the inode is printed even when no name follows. */
	lex_ctx(lx, "inode");
	if ((rc = lex_expect(lx, " ")))
		return rc;
	pad = lx->p;
	col = (size_t)(pad - line);
	lex_skip_spaces(lx);
	eol = lex_line_end(lx);
	if (eol == lx->end)
		return lex_eol(lx);
	/* seq_pad: none without a name; with one, spaces to column 72 and one more */
	if (lx->p != pad && (eol == lx->p || (size_t)(lx->p - line) != (col < MAPS_NAME_PAD ? MAPS_NAME_PAD : col) + 1))
		return lex_fail_at(lx, pad, "%zu spaces before %s where the kernel pads to column %d", (size_t)(lx->p - pad),
				   eol == lx->p ? "the end of the line" : "the name", MAPS_NAME_PAD + 1);
	if (lx->p == pad && eol != lx->p)
		return lex_fail_at(lx, pad, "a name with no padding where the kernel pads to column %d",
				   MAPS_NAME_PAD + 1);
	if (eol == lx->p) {
		v->kind = MACH_VMA_ANON;
	} else {
		rc = classify(lx, v, lx->p, (size_t)(eol - lx->p));
		if (rc)
			return rc;
	}
	lx->p = eol + 1;
	return 0;
}

int ld_parse_maps(struct lex *lx, struct ld_maps *mp)
{
	size_t cap = 0;
	int rc;

	while (!lex_eof(lx)) {
		const char *line = lx->p;
		/* counted before it parses, so that ld_maps_free frees a failed line's name */
		struct mach_vma *v = VEC_PUSH(mp->vmas, mp->n, cap);

		if (!v)
			return -ENOMEM;
		rc = ld_parse_map_line(lx, v);
		if (rc)
			return rc;
		if (v->end <= v->start)
			return lex_fail_at(lx, line, "mapping ends before it starts");
		if (mp->n > 1 && v->start < mp->vmas[mp->n - 2].end)
			return lex_fail_at(lx, line, "mapping overlaps or precedes the one before");
	}
	return 0;
}
