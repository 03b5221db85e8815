// SPDX-License-Identifier: MIT
/*
 * load_swaps.c - parse /proc/swaps (mm/swapfile.c swap_show; Linux 6.18).
 *
 * After the header, each line is the path with space, tab, newline and
 * backslash as octal escapes, padding, "partition" or "file\t", then the size
 * and the used space in KiB and the priority, separated by one tab or two
 * (two below 10000000).  Sizes are whole pages.  meminfo's SwapTotal is the
 * sum of the sizes, except while swapon or swapoff runs (one at a time, under
 * swapon_mutex): the area is listed but its pages are not in SwapTotal yet,
 * or no more.  When meminfo was read in the same session, they must agree
 * so.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../util/vec.h"
#include "load_int.h"

#define PAGE_KB (MACH_PAGE_SIZE / 1024u)

/* The escaped path up to the padding, unescaped into a new string. */
static int swap_path(struct lex *lx, char **out)
{
	const char *s = lx->p;
	char *path, *w;

	while (lx->p < lx->end && *lx->p != ' ' && *lx->p != '\n' && *lx->p != '\t')
		lx->p++;
	if (lx->p == s)
		return lex_expected(lx, "a path");
	path = w = malloc((size_t)(lx->p - s) + 1);
	if (!path)
		return -ENOMEM;
	for (const char *q = s; q < lx->p; q++) {
		if (*q == '\\' && lx->p - q >= 4 && q[1] >= '0' && q[1] <= '3' && q[2] >= '0' && q[2] <= '7' &&
		    q[3] >= '0' && q[3] <= '7') {
			*w++ = (char)((q[1] - '0') * 64 + (q[2] - '0') * 8 + (q[3] - '0'));
			q += 3;
		} else {
			*w++ = *q;
		}
	}
	*w = '\0';
	*out = path;
	return 0;
}

/* A size in KiB: whole pages. */
static int kib_pages(struct lex *lx, uint64_t *pages, const char *what)
{
	uint64_t kb;
	int rc;

	lex_ctx(lx, what);
	if ((rc = lex_u64(lx, &kb)))
		return rc;
	if (kb % PAGE_KB)
		return lex_fail(lx, "%s %llu KiB is not a whole number of pages", what, (unsigned long long)kb);
	*pages = kb / PAGE_KB;
	return 0;
}

static int swap_line(struct lex *lx, struct mach_swap *si)
{
	const char *path = lx->p;
	size_t len, pad;
	int64_t prio;
	int rc;

	if ((rc = swap_path(lx, &si->path)))
		return rc;
	si->blkdev = -1;
	/* "%*s" of " " to column 40, at least one */
	len = (size_t)(lx->p - path);
	pad = lex_skip_spaces(lx);
	if (pad != (len < 40 ? 40 - len : 1))
		return lex_fail(lx, "%zu spaces after a %zu-character path, where the kernel pads to column 40", pad,
				len);
	if (lex_accept(lx, "partition"))
		si->is_file = false;
	else if (lex_accept(lx, "file\t"))
		si->is_file = true;
	else
		return lex_expected(lx, "\"partition\" or \"file\"");
	/* a second tab after a size or use below 10000000 KiB */
	if ((rc = lex_expect(lx, "\t")) || (rc = kib_pages(lx, &si->pages, "Size")) || (rc = lex_expect(lx, "\t")) ||
	    (si->pages * PAGE_KB < 10000000 && (rc = lex_expect(lx, "\t"))))
		return rc;
	if ((rc = kib_pages(lx, &si->inuse_pages, "Used")) || (rc = lex_expect(lx, "\t")) ||
	    (si->inuse_pages * PAGE_KB < 10000000 && (rc = lex_expect(lx, "\t"))))
		return rc;
	lex_ctx(lx, "Priority");
	if ((rc = lex_s64(lx, &prio, INT32_MIN, INT32_MAX)) || (rc = lex_eol(lx)))
		return rc;
	si->prio = (int)prio;
	return 0;
}

/* SwapTotal (kB) is all the areas' @total, or all but the one being switched on or off. */
static bool swap_total_agrees(const struct mach_sys *s, uint64_t total, uint64_t swap_total)
{
	if (swap_total == total)
		return true;
	for (size_t i = 0; i < s->nswaps; i++)
		if (swap_total + s->swaps[i].pages * PAGE_KB == total)
			return true;
	return false;
}

int ld_parse_swaps(struct lex *lx, struct mach_loader *ld)
{
	struct mach_machine *m = ld->m;
	struct mach_sys next = { 0 };
	size_t cap = 0;
	uint64_t total = 0;
	int rc;

	lex_ctx(lx, NULL);
	if ((rc = lex_expect(lx, "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n")))
		return rc;
	while (!lex_eof(lx)) {
		struct mach_swap *si = VEC_PUSH(next.swaps, next.nswaps, cap);

		if (!si) {
			rc = -ENOMEM;
			break;
		}
		memset(si, 0, sizeof(*si));
		if ((rc = swap_line(lx, si)))
			break;
		total += si->pages * PAGE_KB;
	}
	if (!rc && ld_loaded(ld, MACH_LD_MEMINFO) && !swap_total_agrees(&next, total, m->meminfo[MACH_MEMINFO_SWAPTOTAL]))
		rc = lex_fail(lx, "the swap areas add up to %llu kB, but meminfo's SwapTotal is %llu kB",
			      (unsigned long long)total, (unsigned long long)m->meminfo[MACH_MEMINFO_SWAPTOTAL]);
	if (rc) {
		mach_sys_swaps_clear(&next);
		return rc;
	}
	mach_sys_swaps_clear(&m->sys);
	m->sys.swaps = next.swaps;
	m->sys.nswaps = next.nswaps;
	return 0;
}
