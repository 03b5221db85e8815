// SPDX-License-Identifier: MIT
/*
 * swaps.c - /proc/swaps.
 *
 * Mirrors mm/swapfile.c swap_start/next and swap_show of Linux 6.18: a
 * header record, then one per swap area in swap type order.  The path is
 * escaped as seq_file_path escapes it (space, tab, newline and backslash as
 * octal) and padded to 40 columns by "%*s" with at least one space; a file
 * prints "file\t" where a device prints "partition"; sizes in KiB get a second
 * tab when below 10000000.
 */
#include <string.h>

#include "render.h"

#define SWAP_ESC " \t\n\\"

static void *swap_at(struct seq_file *m, loff_t pos)
{
	const struct pfs_ctx *c = m->private;

	if (pos == 0)
		return SEQ_START_TOKEN;
	if (pos < 0 || (size_t)pos > c->mach->sys.nswaps)
		return NULL;
	return (void *)&c->mach->sys.swaps[pos - 1];
}

static void *swap_start(struct seq_file *m, loff_t *pos)
{
	return swap_at(m, *pos);
}

static void *swap_next(struct seq_file *m, void *v, loff_t *pos)
{
	(void)v;
	++*pos;
	return swap_at(m, *pos);
}

/* The length seq_file_path reports: every escaped byte becomes four. */
static size_t escaped_len(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += strchr(SWAP_ESC, *s) ? 4 : 1;
	return n;
}

static int swap_show(struct seq_file *m, void *v)
{
	const struct mach_swap *si = v;
	unsigned long long bytes, inuse;
	size_t len;

	if (v == SEQ_START_TOKEN) {
		seq_puts(m, "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n");
		return 0;
	}
	bytes = si->pages * (MACH_PAGE_SIZE / 1024);
	inuse = si->inuse_pages * (MACH_PAGE_SIZE / 1024);
	seq_escape(m, si->path, SWAP_ESC);
	len = escaped_len(si->path);
	seq_printf(m, "%*s%s\t%llu\t%s%llu\t%s%d\n", len < 40 ? (int)(40 - len) : 1, " ",
		   si->is_file ? "file\t" : "partition", bytes, bytes < 10000000 ? "\t" : "", inuse,
		   inuse < 10000000 ? "\t" : "", si->prio);
	return 0;
}

const struct seq_operations pfs_swaps_ops = {
	.start = swap_start,
	.next = swap_next,
	.stop = pfs_seq_stop_nothing,
	.show = swap_show,
};
