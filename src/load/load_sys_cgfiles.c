// SPDX-License-Identifier: MIT
/*
 * load_sys_cgfiles.c - a cgroup's controller files: cpu, memory, io, pids
 * and pressure (kernel/sched/core.c, kernel/cgroup/rstat.c, mm/
 * memcontrol.c, block/blk-cgroup.c, kernel/cgroup/pids.c, psi_show).
 *
 * What the model derives is checked against it: a group's CPU time is its
 * tasks' (as /proc/<pid>/stat said) plus what tasks that are gone left,
 * which is what the file says beyond them (it cannot be less: else the
 * tasks moved, -EAGAIN); the root's is the CPUs' (ld_cpu_fit_cgroup);
 * pids.current counts the tasks; the root's pressure is /proc/pressure's
 * and its io.stat the disks' counters.  The rest is kept as read.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load_sys.h"
#include "load_sys_cg.h"

static int moved(struct lex *lx, const char *what)
{
	snprintf(lx->err, lx->errlen, "%s: %s moved since /proc was read", lx->path, what);
	return -EAGAIN;
}

static int labelled(struct lex *lx, const char *label, uint64_t *v)
{
	int rc;

	lex_ctx(lx, label);
	if ((rc = lex_expect(lx, label)) || (rc = lex_expect(lx, " ")) || (rc = lex_u64(lx, v)))
		return rc;
	return lex_eol(lx);
}

/*
 * The time gone tasks left: what the file says beyond the live tasks' @live
 * ns, for a printed @usec: the least that prints so.  -1 when the live
 * tasks already print more.
 */
static int64_t gone(uint64_t usec, uint64_t live)
{
	uint64_t lo = usec * 1000;

	if (live > lo + 999)
		return -1;
	return live >= lo ? 0 : (int64_t)(lo - live);
}

static int cpu_stat_child(struct lex *lx, struct mach_machine *m, uint32_t g, const uint64_t v[4])
{
	struct mach_cg_state *st = m->cgroups[g].st;
	uint64_t user, sys, nice, total;
	int64_t gu, gs, gn;

	mach_cg_task_time(m, g, &user, &sys, &nice);
	gu = gone(v[1], user);
	gs = gone(v[2], sys);
	gn = gone(v[3], nice);
	if (gu < 0 || gs < 0 || gn < 0)
		return moved(lx, "the group's tasks' time");
	st->gone_user_ns = (uint64_t)gu;
	st->gone_system_ns = (uint64_t)gs;
	st->gone_nice_ns = (uint64_t)gn;
	/* usage sums the two before dividing: give the parts what their remainders need */
	total = user + sys + (uint64_t)gu + (uint64_t)gs;
	if (total / 1000 < v[0]) {
		uint64_t need = v[0] * 1000 - total;
		uint64_t room_u = v[1] * 1000 + 999 - (user + (uint64_t)gu);
		uint64_t add_u = need < room_u ? need : room_u;

		st->gone_user_ns += add_u;
		st->gone_system_ns += need - add_u;
	}
	total = user + sys + st->gone_user_ns + st->gone_system_ns;
	if (total / 1000 != v[0] || (sys + st->gone_system_ns) / 1000 != v[2])
		return moved(lx, "the group's tasks' time");
	return 0;
}

static int cpu_stat_file(struct lex *lx, struct mach_machine *m, uint32_t g)
{
	static const char *const labels[] = { "usage_usec", "user_usec", "system_usec", "nice_usec", "nr_periods",
					      "nr_throttled", "throttled_usec", "nr_bursts", "burst_usec" };
	struct mach_cg_state *st = m->cgroups[g].st;
	uint64_t v[9] = { 0 };
	unsigned int n = mach_cg_has_css(m, g, MACH_SS_CPU) ? 9 : 4;
	int rc;

	for (unsigned int i = 0; i < n; i++)
		if ((rc = labelled(lx, labels[i], &v[i])))
			return rc;
	if ((rc = lex_expect_eof(lx)))
		return rc;
	if (n == 9) {
		st->nr_periods = v[4];
		st->nr_throttled = v[5];
		st->throttled_ns = v[6] * 1000;
		st->nr_bursts = v[7];
		st->burst_ns = v[8] * 1000;
	}
	if (m->cgroups[g].parent == MACH_NONE)
		return ld_cpu_fit_cgroup(m, v[0], v[1], v[2], v[3]) ? moved(lx, "the CPUs' time") : 0;
	return cpu_stat_child(lx, m, g, v);
}

static int cpu_file(struct lex *lx, struct mach_machine *m, uint32_t g, const char *file)
{
	struct mach_cg_state *st = m->cgroups[g].st;
	uint64_t v, period;
	int64_t nice;
	int rc;

	if (!strcmp(file, "cpu.stat"))
		return cpu_stat_file(lx, m, g);
	if (!strcmp(file, "cpu.stat.local")) {
		if (lex_eof(lx))
			return 0;
		if ((rc = labelled(lx, "throttled_usec", &v)) || (rc = lex_expect_eof(lx)))
			return rc;
		st->local_throttled_ns = v * 1000;
		return 0;
	}
	if (!strcmp(file, "cpu.max")) {
		if (lex_accept(lx, "max"))
			v = UINT64_MAX;
		else if ((rc = lex_u64_max(lx, &v, INT64_MAX)))
			return rc;
		if ((rc = lex_expect(lx, " ")) || (rc = ld_sys_u64_line(lx, &period, INT64_MAX)))
			return rc;
		st->quota_us = v == UINT64_MAX ? MACH_CG_RUNTIME_INF : (int64_t)v;
		st->period_us = period;
		return 0;
	}
	if (!strcmp(file, "cpu.weight")) {
		if ((rc = ld_sys_u64_line(lx, &v, 10000)))
			return rc;
		/* sched_weight_from_cgroup, unless what it holds prints so already (a nice level's) */
		if (mach_cg_weight(st->shares) != v)
			st->shares = (unsigned long)((v * 1024 + 50) / 100);
		return 0;
	}
	if (!strcmp(file, "cpu.weight.nice")) {
		if ((rc = ld_sys_s64_line(lx, &nice, -20, 19)))
			return rc;
		if (mach_cg_weight_nice(st->shares) != nice)
			st->shares = mach_cg_nice_shares((int)nice);
		return 0;
	}
	return -ENOENT;
}

/* ------------------------------------------------------------------ */
/* memory                                                               */

/* A byte count that must be whole pages. */
static int pages_of(struct lex *lx, uint64_t bytes, uint64_t *pages)
{
	if (bytes % MACH_PAGE_SIZE)
		return lex_fail(lx, "%llu bytes is not a whole number of pages", (unsigned long long)bytes);
	*pages = bytes / MACH_PAGE_SIZE;
	return 0;
}

static int bytes_line(struct lex *lx, uint64_t *pages, bool max_ok)
{
	uint64_t v;
	int rc = max_ok ? ld_sys_max_line(lx, &v, UINT64_MAX, UINT64_MAX - 1) : ld_sys_u64_line(lx, &v, UINT64_MAX);

	if (rc)
		return rc;
	if (v == UINT64_MAX) {
		*pages = MACH_CG_PAGE_COUNTER_MAX;
		return 0;
	}
	return pages_of(lx, v, pages);
}

/* One memory.stat item's printed value into its unit. */
static int memstat_value(struct lex *lx, enum mach_memcg_item i, uint64_t v, uint64_t *out)
{
	switch (mach_memcg_item_unit(i)) {
	case MACH_MEMCG_PAGES:
		return pages_of(lx, v, out);
	case MACH_MEMCG_KB:
		if (v % 1024)
			return lex_fail(lx, "%s: %llu is not whole KiB", mach_memcg_item_name(i), (unsigned long long)v);
		*out = v / 1024;
		return 0;
	default:
		*out = v;
		return 0;
	}
}

static int sum_line(struct lex *lx, const char *name, uint64_t want)
{
	uint64_t v;
	int rc = labelled(lx, name, &v);

	if (!rc && v != want)
		return lex_fail(lx, "%s %llu is not the sum of its parts (%llu)", name, (unsigned long long)v,
				(unsigned long long)want);
	return rc;
}

static int memory_stat(struct lex *lx, struct mach_machine *m, struct mach_cg_state *st)
{
	uint64_t s[MACH_NR_MEMCG_ITEMS] = { 0 }, v;
	bool hugetlb = false;
	int rc;

	for (int i = 0; i < MACH_NR_MEMCG_ITEMS; i++) {
		const char *name = mach_memcg_item_name((enum mach_memcg_item)i);

		if (i == MACH_MEMCG_HUGETLB && !(hugetlb = lex_accept(lx, "hugetlb ")))
			continue;
		if (i == MACH_MEMCG_PSWPIN &&
		    ((rc = sum_line(lx, "pgscan", s[MACH_MEMCG_PGSCAN_KSWAPD] + s[MACH_MEMCG_PGSCAN_DIRECT] +
						       s[MACH_MEMCG_PGSCAN_PROACTIVE] + s[MACH_MEMCG_PGSCAN_KHUGEPAGED])) ||
		     (rc = sum_line(lx, "pgsteal", s[MACH_MEMCG_PGSTEAL_KSWAPD] + s[MACH_MEMCG_PGSTEAL_DIRECT] +
							s[MACH_MEMCG_PGSTEAL_PROACTIVE] +
							s[MACH_MEMCG_PGSTEAL_KHUGEPAGED]))))
			return rc;
		if (i == MACH_MEMCG_HUGETLB)
			rc = lex_u64(lx, &v) ? -EINVAL : lex_eol(lx);
		else
			rc = labelled(lx, name, &v);
		if (rc || (rc = memstat_value(lx, (enum mach_memcg_item)i, v, &s[i])))
			return rc;
		if (i == MACH_MEMCG_SLAB_UNRECLAIMABLE &&
		    (rc = sum_line(lx, "slab", s[MACH_MEMCG_SLAB_RECLAIMABLE] + s[MACH_MEMCG_SLAB_UNRECLAIMABLE])))
			return rc;
	}
	if ((rc = lex_expect_eof(lx)))
		return rc;
	m->sysfs.cg_hugetlb_accounting = hugetlb;
	return mach_cg_memstat_set(st, s);
}

static int memory_file(struct lex *lx, struct mach_machine *m, struct mach_cg_state *st, const char *file)
{
	static const char *const limits[] = { "memory.min", "memory.low", "memory.high", "memory.max", "memory.swap.max" };
	uint64_t *limit_of[] = { &st->mem_min, &st->mem_low, &st->mem_high, &st->mem_max, &st->swap_max };
	int rc;

	if (!strcmp(file, "memory.current"))
		return bytes_line(lx, &st->mem_usage, false);
	if (!strcmp(file, "memory.swap.current"))
		return bytes_line(lx, &st->swap_usage, false);
	for (int i = 0; i < 5; i++)
		if (!strcmp(file, limits[i]))
			return bytes_line(lx, limit_of[i], true);
	if (!strcmp(file, "memory.stat"))
		return memory_stat(lx, m, st);
	if (strcmp(file, "memory.events"))
		return -ENOENT;
	for (int e = 0; e < MACH_NR_MEMCG_EVENTS; e++) {
		uint64_t v;

		if ((rc = labelled(lx, mach_memcg_event_name((enum mach_memcg_event)e), &v)) ||
		    (rc = mach_cg_set_mem_event(st, (enum mach_memcg_event)e, v)))
			return rc;
	}
	return lex_expect_eof(lx);
}

/* ------------------------------------------------------------------ */
/* io, pids, pressure                                                   */

static int io_line(struct lex *lx, struct mach_cg_io *io)
{
	uint64_t major, minor;
	int rc;

	memset(io, 0, sizeof(*io));
	if ((rc = lex_u64_max(lx, &major, 4095)) || (rc = lex_expect(lx, ":")) ||
	    (rc = lex_u64_max(lx, &minor, (1u << 20) - 1)) || (rc = lex_expect(lx, " ")))
		return rc;
	io->major = (uint32_t)major;
	io->minor = (uint32_t)minor;
	if (lex_accept(lx, "\n"))
		return 0;
	if ((rc = lex_expect(lx, "rbytes=")) || (rc = lex_u64(lx, &io->rbytes)) || (rc = lex_expect(lx, " wbytes=")) ||
	    (rc = lex_u64(lx, &io->wbytes)) || (rc = lex_expect(lx, " rios=")) || (rc = lex_u64(lx, &io->rios)) ||
	    (rc = lex_expect(lx, " wios=")) || (rc = lex_u64(lx, &io->wios)) || (rc = lex_expect(lx, " dbytes=")) ||
	    (rc = lex_u64(lx, &io->dbytes)) || (rc = lex_expect(lx, " dios=")) || (rc = lex_u64(lx, &io->dios)))
		return rc;
	if (!io->rbytes && !io->wbytes && !io->rios && !io->wios)
		return lex_fail(lx, "counters printed for a device that moved nothing");
	return lex_eol(lx);
}

/* The root's: each disk, the last registered first, from its own counters. */
static bool root_io_line(const struct mach_sys *sys, size_t *at, const struct mach_cg_io *io)
{
	while (*at > 0) {
		const struct mach_blkdev *b = &sys->blk[--*at];

		if (b->partno)
			continue;
		return b->major == io->major && b->minor == io->minor && (b->st.sectors[0] << 9) == io->rbytes &&
		       (b->st.sectors[1] << 9) == io->wbytes && b->st.ios[0] == io->rios && b->st.ios[1] == io->wios &&
		       (b->st.sectors[2] << 9) == io->dbytes && b->st.ios[2] == io->dios;
	}
	return false;
}

static int io_stat(struct lex *lx, struct mach_machine *m, uint32_t g)
{
	struct mach_cg_state *st = m->cgroups[g].st;
	bool root = m->cgroups[g].parent == MACH_NONE;
	struct mach_cg_io *list = NULL;
	size_t n = 0, at = m->sys.nblk;
	int rc = 0;

	while (!lex_eof(lx) && !rc) {
		struct mach_cg_io io, *grown;

		if ((rc = io_line(lx, &io)))
			break;
		if (root && !root_io_line(&m->sys, &at, &io)) {
			rc = moved(lx, "the disks' counters");
		} else if (!root && (grown = realloc(list, (n + 1) * sizeof(*list)))) {
			list = grown;
			list[n++] = io;
		} else if (!root) {
			rc = -ENOMEM;
		}
	}
	if (rc) {
		free(list);
		return rc;
	}
	free(st->io);
	st->io = list;
	st->nio = n;
	return 0;
}

static int pressure_file(struct lex *lx, struct mach_machine *m, uint32_t g, enum mach_psi_res res)
{
	struct mach_cg_state *st = m->cgroups[g].st;
	struct mach_pressure p;
	int rc = ld_parse_psi(lx, &p);

	if (rc)
		return rc;
	if (m->cgroups[g].parent == MACH_NONE) {
		/* the root's PSI group is the system's: /proc/pressure printed it */
		const struct mach_pressure *sys = &m->pressure[res];

		if (memcmp(&p.some, &sys->some, sizeof(p.some)) || memcmp(&p.full, &sys->full, sizeof(p.full)) ||
		    p.has_some != sys->has_some || p.has_full != sys->has_full)
			return moved(lx, "the pressure");
		return 0;
	}
	if (!st->pressure && !(st->pressure = calloc(MACH_NR_PSI_RES, sizeof(*st->pressure))))
		return -ENOMEM;
	st->pressure[res] = p;
	return 0;
}

int ld_cg_controller_file(struct lex *lx, struct mach_loader *ld, uint32_t g, const char *file)
{
	static const char *const psi[MACH_NR_PSI_RES] = {
		[MACH_PSI_IO] = "io.pressure", [MACH_PSI_MEM] = "memory.pressure",
		[MACH_PSI_CPU] = "cpu.pressure", [MACH_PSI_IRQ] = "irq.pressure",
	};
	struct mach_machine *m = ld->m;
	uint64_t v;
	int rc;

	for (int r = 0; r < MACH_NR_PSI_RES; r++)
		if (!strcmp(file, psi[r]))
			return pressure_file(lx, m, g, (enum mach_psi_res)r);
	if (!strncmp(file, "cpu.", 4))
		return cpu_file(lx, m, g, file);
	if (!strncmp(file, "memory.", 7))
		return memory_file(lx, m, m->cgroups[g].st, file);
	if (!strcmp(file, "io.stat"))
		return io_stat(lx, m, g);
	if (!strcmp(file, "pids.current")) {
		if ((rc = ld_sys_u64_line(lx, &v, UINT64_MAX)))
			return rc;
		return v == mach_cg_nr_tasks(m, g) ? 0 : moved(lx, "the group's tasks");
	}
	if (!strcmp(file, "pids.max")) {
		if ((rc = ld_sys_max_line(lx, &v, (uint64_t)MACH_CG_PIDS_MAX, (uint64_t)MACH_CG_PIDS_MAX - 1)))
			return rc;
		m->cgroups[g].st->pids_max = (int64_t)v;
		return 0;
	}
	return -ENOENT;
}
