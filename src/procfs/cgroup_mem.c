// SPDX-License-Identifier: MIT
/*
 * cgroup_mem.c - a group's memory and io files (mm/memcontrol.c
 * memory_files, block/blk-cgroup.c blkcg_print_stat of Linux 6.18).
 *
 * memory.stat prints memory_stats[] in bytes (pages, KiB and bytes as each
 * is kept), "slab" as the sum of its two parts, then the reclaim sums
 * pgscan and pgsteal, then the events; hugetlb only where the hierarchy
 * accounts it.  io.stat prints a line per blkg, newest first: the device
 * and, when it moved any read or write, its six counters.  The root's come
 * from the disks' own counters (blkcg_fill_root_iostats): every disk, the
 * one registered last first.
 */
#include "render.h"

static const struct mach_cg_state *state(const struct pfs_ctx *c)
{
	return mach_cg_state_of(&c->mach->cgroups[pfs_cg_of(c)]);
}

static void put_bytes(struct seq_file *m, uint64_t pages)
{
	seq_put_decimal_ull(m, "", pages * MACH_PAGE_SIZE);
	seq_putc(m, '\n');
}

int pfs_show_cg_mem_current(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;

	(void)v;
	put_bytes(m, state(c)->mem_usage);
	return 0;
}

int pfs_show_cg_swap_current(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;

	(void)v;
	put_bytes(m, state(c)->swap_usage);
	return 0;
}

/* seq_puts_memcg_tunable: "max" at PAGE_COUNTER_MAX, else bytes. */
int pfs_show_cg_mem_limit(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	const struct mach_cg_state *st = state(c);
	uint64_t pages;

	(void)v;
	switch ((enum pfs_cg_limit)c->arg) {
	case PFS_CG_MEM_MIN: pages = st->mem_min; break;
	case PFS_CG_MEM_LOW: pages = st->mem_low; break;
	case PFS_CG_MEM_HIGH: pages = st->mem_high; break;
	case PFS_CG_MEM_MAX: pages = st->mem_max; break;
	default: pages = st->swap_max; break;
	}
	if (pages >= MACH_CG_PAGE_COUNTER_MAX)
		seq_puts(m, "max\n");
	else
		put_bytes(m, pages);
	return 0;
}

/* memcg_page_state_output: an item in bytes (or as a count). */
static uint64_t output(const struct mach_cg_state *st, enum mach_memcg_item i)
{
	uint64_t v = mach_cg_memstat(st, i);

	switch (mach_memcg_item_unit(i)) {
	case MACH_MEMCG_PAGES: return v * MACH_PAGE_SIZE;
	case MACH_MEMCG_KB: return v * 1024;
	default: return v;
	}
}

static void stat_line(struct seq_file *m, const char *name, uint64_t v)
{
	seq_puts(m, name);
	seq_put_decimal_ull(m, " ", v);
	seq_putc(m, '\n');
}

int pfs_show_cg_mem_stat(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	const struct mach_cg_state *st = state(c);
	uint64_t s[MACH_NR_MEMCG_ITEMS];

	(void)v;
	mach_cg_memstat_all(st, s);
	for (int i = 0; i < MACH_NR_MEMCG_ITEMS; i++) {
		if (i == MACH_MEMCG_HUGETLB && !c->mach->sysfs.cg_hugetlb_accounting)
			continue;
		if (i == MACH_MEMCG_PSWPIN) {
			/* the reclaim sums, between the states and the events */
			stat_line(m, "pgscan", s[MACH_MEMCG_PGSCAN_KSWAPD] + s[MACH_MEMCG_PGSCAN_DIRECT] +
						s[MACH_MEMCG_PGSCAN_PROACTIVE] + s[MACH_MEMCG_PGSCAN_KHUGEPAGED]);
			stat_line(m, "pgsteal", s[MACH_MEMCG_PGSTEAL_KSWAPD] + s[MACH_MEMCG_PGSTEAL_DIRECT] +
						 s[MACH_MEMCG_PGSTEAL_PROACTIVE] + s[MACH_MEMCG_PGSTEAL_KHUGEPAGED]);
		}
		stat_line(m, mach_memcg_item_name((enum mach_memcg_item)i), output(st, (enum mach_memcg_item)i));
		if (i == MACH_MEMCG_SLAB_UNRECLAIMABLE)
			stat_line(m, "slab", s[MACH_MEMCG_SLAB_RECLAIMABLE] + s[MACH_MEMCG_SLAB_UNRECLAIMABLE]);
	}
	return 0;
}

int pfs_show_cg_mem_events(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	const struct mach_cg_state *st = state(c);

	(void)v;
	for (int e = 0; e < MACH_NR_MEMCG_EVENTS; e++)
		stat_line(m, mach_memcg_event_name((enum mach_memcg_event)e), mach_cg_mem_event(st, (enum mach_memcg_event)e));
	return 0;
}

/* blkcg_print_one_stat */
static void io_line(struct seq_file *m, const struct mach_cg_io *io)
{
	seq_put_decimal_ull(m, "", io->major);
	seq_put_decimal_ull(m, ":", io->minor);
	seq_putc(m, ' ');
	if (io->rbytes || io->wbytes || io->rios || io->wios) {
		seq_put_decimal_ull(m, "rbytes=", io->rbytes);
		seq_put_decimal_ull(m, " wbytes=", io->wbytes);
		seq_put_decimal_ull(m, " rios=", io->rios);
		seq_put_decimal_ull(m, " wios=", io->wios);
		seq_put_decimal_ull(m, " dbytes=", io->dbytes);
		seq_put_decimal_ull(m, " dios=", io->dios);
	}
	seq_putc(m, '\n');
}

int pfs_show_cg_io_stat(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	const struct mach_sys *sys = &c->mach->sys;
	uint32_t g = pfs_cg_of(c);
	const struct mach_cg_state *st = state(c);

	(void)v;
	if (c->mach->cgroups[g].parent != MACH_NONE) {
		for (size_t i = 0; i < st->nio; i++)
			io_line(m, &st->io[i]);
		return 0;
	}
	for (size_t i = sys->nblk; i-- > 0;) {
		const struct mach_blkdev *b = &sys->blk[i];
		struct mach_cg_io io = {
			.major = b->major, .minor = b->minor,
			.rbytes = b->st.sectors[MACH_BLK_READ] << 9, .wbytes = b->st.sectors[MACH_BLK_WRITE] << 9,
			.rios = b->st.ios[MACH_BLK_READ], .wios = b->st.ios[MACH_BLK_WRITE],
			.dbytes = b->st.sectors[MACH_BLK_DISCARD] << 9, .dios = b->st.ios[MACH_BLK_DISCARD],
		};

		if (!b->partno)
			io_line(m, &io);
	}
	return 0;
}
