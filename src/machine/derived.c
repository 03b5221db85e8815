// SPDX-License-Identifier: MIT
/*
 * derived.c - values the kernel computes from others when a file is read,
 * and the fixed names of the limits and anon inodes: one definition for the
 * renderers that print them and the loader that checks them.
 */
#include <limits.h>
#include <string.h>

#include "uprocfs/machine.h"

static const struct {
	const char *name;
	const char *unit;
} rlimit_names[MACH_RLIM_NLIMITS] = {
	[MACH_RLIMIT_CPU] = { "Max cpu time", "seconds" },
	[MACH_RLIMIT_FSIZE] = { "Max file size", "bytes" },
	[MACH_RLIMIT_DATA] = { "Max data size", "bytes" },
	[MACH_RLIMIT_STACK] = { "Max stack size", "bytes" },
	[MACH_RLIMIT_CORE] = { "Max core file size", "bytes" },
	[MACH_RLIMIT_RSS] = { "Max resident set", "bytes" },
	[MACH_RLIMIT_NPROC] = { "Max processes", "processes" },
	[MACH_RLIMIT_NOFILE] = { "Max open files", "files" },
	[MACH_RLIMIT_MEMLOCK] = { "Max locked memory", "bytes" },
	[MACH_RLIMIT_AS] = { "Max address space", "bytes" },
	[MACH_RLIMIT_LOCKS] = { "Max file locks", "locks" },
	[MACH_RLIMIT_SIGPENDING] = { "Max pending signals", "signals" },
	[MACH_RLIMIT_MSGQUEUE] = { "Max msgqueue size", "bytes" },
	[MACH_RLIMIT_NICE] = { "Max nice priority", NULL },
	[MACH_RLIMIT_RTPRIO] = { "Max realtime priority", NULL },
	[MACH_RLIMIT_RTTIME] = { "Max realtime timeout", "us" },
};

const char *mach_rlimit_name(enum mach_rlimit_id id)
{
	return (unsigned int)id < MACH_RLIM_NLIMITS ? rlimit_names[id].name : NULL;
}

const char *mach_rlimit_unit(enum mach_rlimit_id id)
{
	return (unsigned int)id < MACH_RLIM_NLIMITS ? rlimit_names[id].unit : NULL;
}

#define OOM_SCORE_ADJ_MIN (-1000)
#define OOM_SCORE_ADJ_MAX 1000
#define OOM_ADJUST_MAX 15
#define OOM_DISABLE (-17)

/* mm/oom_kill.c oom_badness: LLONG_MIN for what the OOM killer never picks. */
static long long oom_badness(const struct mach_process *p, unsigned long long totalpages)
{
	const struct mach_mm *mm = p->mm;
	long long points, adj = p->oom_score_adj;

	/* oom_unkillable_task: the global init and kernel threads; find_lock_task_mm: an mm */
	if (p->tgid == 1 || p->threads[0].kthread || !mm)
		return LLONG_MIN;
	if (adj == OOM_SCORE_ADJ_MIN || p->oom_skip)
		return LLONG_MIN;
	/* get_mm_rss (stat's rss), the swap entries, mm_pgtables_bytes in pages */
	points = (long long)(mm->stat_rss + mm->vm_swap / (MACH_PAGE_SIZE / 1024) +
			     mm->vm_pte * 1024 / MACH_PAGE_SIZE);
	adj *= (long long)(totalpages / 1000);
	return points + adj;
}

unsigned long long mach_oom_score(const struct mach_machine *m, const struct mach_process *p)
{
	/* totalram_pages() + total_swap_pages */
	unsigned long long totalpages = (m->meminfo[MACH_MEMINFO_MEMTOTAL] + m->meminfo[MACH_MEMINFO_SWAPTOTAL]) /
					(MACH_PAGE_SIZE / 1024);
	long long badness;

	if (!p->nthreads || !totalpages)
		return 0;
	badness = oom_badness(p, totalpages);
	if (badness == LLONG_MIN)
		return 0;
	/* proc_oom_score: scaled into 0..2000 */
	return (unsigned long long)((1000 + badness * 1000 / (long long)totalpages) * 2 / 3);
}

int mach_oom_adj(int oom_score_adj)
{
	int adj;

	if (oom_score_adj == OOM_SCORE_ADJ_MAX)
		return OOM_ADJUST_MAX;
	adj = oom_score_adj * -OOM_DISABLE / OOM_SCORE_ADJ_MAX;
	/* 942..999 scale to 16: the kernel keeps the legacy maximum */
	return adj > OOM_ADJUST_MAX ? OOM_ADJUST_MAX : adj;
}

/* task_io_accounting_add */
static void io_add(struct mach_taskio *to, const struct mach_taskio *from)
{
	to->rchar += from->rchar;
	to->wchar += from->wchar;
	to->syscr += from->syscr;
	to->syscw += from->syscw;
	to->read_bytes += from->read_bytes;
	to->write_bytes += from->write_bytes;
	to->cancelled_write_bytes += from->cancelled_write_bytes;
}

void mach_process_io(const struct mach_process *p, struct mach_taskio *acct)
{
	*acct = p->dead_io ? *p->dead_io : (struct mach_taskio){ 0 };
	for (unsigned int i = 0; i < p->nthreads; i++)
		io_add(acct, &p->threads[i].io);
}

static const struct {
	const char *name;
	enum mach_fd_type type;
} anon_types[] = {
	{ "[eventfd]", MACH_FDT_EVENTFD },   { "[eventpoll]", MACH_FDT_EPOLL },
	{ "inotify", MACH_FDT_INOTIFY },     { "[fanotify]", MACH_FDT_FANOTIFY },
	{ "[signalfd]", MACH_FDT_SIGNALFD }, { "[timerfd]", MACH_FDT_TIMERFD },
	{ "[pidfd]", MACH_FDT_PIDFD },       { "[userfaultfd]", MACH_FDT_USERFAULTFD },
};

enum mach_fd_type mach_anon_fd_type(const char *name)
{
	for (size_t i = 0; name && i < sizeof(anon_types) / sizeof(anon_types[0]); i++)
		if (!strcmp(name, anon_types[i].name))
			return anon_types[i].type;
	return MACH_FDT_NONE;
}

const char *mach_anon_fd_name(enum mach_fd_type type)
{
	for (size_t i = 0; i < sizeof(anon_types) / sizeof(anon_types[0]); i++)
		if (anon_types[i].type == type)
			return anon_types[i].name;
	return NULL;
}
