// SPDX-License-Identifier: MIT
/*
 * test_synth.c - the synthetic machine generator (src/machine/synth.c).
 *
 * Option parsing and its messages; determinism (two builds render the same
 * bytes in every file); and, over many seeds and shapes, the invariants
 * the kernel's own accounting keeps: a well-formed process tree, unique
 * tids, VMAs laid out as the kernel lays them out with the mm counters it
 * derives from them, task times that fit in their lifetimes and in the
 * CPUs' totals, the global counters agreeing with the tasks (procs_running,
 * nr_threads, AnonPages, pgfault) and with each other (meminfo vs vmstat),
 * and every file of every process rendering without error.
 *
 * Property checks count violations over all machines and report one ok()
 * per property, with the first few violations as diagnostics.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_vmas.h"
#include "irq_sums.h"
#include "sysctl_checks.h"
#include "spec.h"
#include "synth_mmsched.h"
#include "tap.h"
#include "uprocfs/procfs.h"
#include "uprocfs/sim.h"

#define EPOCH_NOW 1798761600ull
#define INITIAL_JIFFIES 4294892296ull
#define PF_KTHREAD 0x00200000u
#define PID_MAX 4194304

/* ------------------------------------------------------------------ */
/* Property bookkeeping                                                 */

enum prop {
	P_BUILD, P_SORTED, P_TIDS, P_TREE, P_KTHREADS, P_ZOMBIES, P_CMDLINE, P_VMAS, P_LAYOUT,
	P_COUNTERS, P_TIMES, P_TASK_CPU, P_CPU_TIMES, P_STATES, P_MASKS, P_IDS, P_SIGNALS,
	P_MEMINFO, P_VMSTAT, P_LOAD, P_PSI, P_IRQS, P_SYSCTL, P_SCHEDSTAT, P_RENDER,
	P_MMS, /* synth_mmsched.c's properties follow */
	NR_PROPS = P_MMS + MMS_NR
};

static const char *const prop_names[NR_PROPS] = {
	[P_BUILD] = "machines build",
	[P_SORTED] = "procs sorted by tgid, unique, nprocs == tasks",
	[P_TIDS] = "tids unique machine-wide, threads[0].tid == tgid, all below pid_max",
	[P_TREE] = "ppid exists (0 only for pids 1 and 2), parents start first, pgrp/session exist",
	[P_KTHREADS] = "kernel threads: child of kthreadd, no mm, PF_KTHREAD, umask 0022, low pids",
	[P_ZOMBIES] = "zombies: no mm, no umask, one thread; only zombies and kthreads lack an mm",
	[P_CMDLINE] = "cmdline and environ: NUL-separated, trailing NUL, lengths match arg/env areas",
	[P_VMAS] = "VMAs sorted, non-overlapping, page aligned, [vsyscall] last",
	[P_LAYOUT] = "layout fields inside their mappings (code, data, brk, stack, args, env)",
	[P_COUNTERS] = "mm counters as the kernel derives them from the VMAs",
	[P_TIMES] = "start times in (0, uptime], threads after their leader, times within lifetimes",
	[P_TASK_CPU] = "group times = sums over threads; task sums within the CPUs' user+nice / system",
	[P_CPU_TIMES] = "per-CPU times add up to about the uptime; idle_ns and btime agree",
	[P_STATES] = "procs_running/blocked, nr_running, nr_threads, last_pid, processes",
	[P_MASKS] = "CPU and node masks sized nr_cpu_ids / max_numnodes, processor allowed",
	[P_IDS] = "credentials, namespaces ids, caps, priorities as the kernel prints them",
	[P_SIGNALS] = "signals and exit codes (kthreads ignore all, stopped exit_code 19)",
	[P_MEMINFO] = "meminfo relationships",
	[P_VMSTAT] = "vmstat agrees with meminfo and the tasks' faults",
	[P_LOAD] = "load averages and context switches",
	[P_PSI] = "pressure: io/memory/cpu present, irq absent, totals within uptime",
	[P_IRQS] = "irqs ascending below nr_irqs, all per CPU; stat's intr and softirq = interrupts' and softirqs' sums",
	[P_SYSCTL] = "/proc/sys: the 6.18 keys and modes, per interface, agreeing with meminfo and the CPUs",
	[P_SCHEDSTAT] = "schedstat: domains nest, spans hold their CPU, timestamp in jiffies",
	[P_RENDER] = "every global, process and task file renders; exe links name the executable",
	/* [P_MMS + k]: mms_prop_names[k] */
};

static unsigned long fails[NR_PROPS];
static unsigned long checks[NR_PROPS];
static struct tap_props props = { prop_names, fails, checks, "" };

/* The name of property @p. */
static const char *prop_name(int p)
{
	return p >= P_MMS ? mms_prop_names[p - P_MMS] : prop_names[p];
}

/* Record one check of @p; on failure print the first few reasons. */
static void check(enum prop p, int cond, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void check(enum prop p, int cond, const char *fmt, ...)
{
	va_list ap;
	char msg[512];

	checks[p]++;
	if (cond)
		return;
	if (fails[p]++ < 5) {
		va_start(ap, fmt);
		vsnprintf(msg, sizeof(msg), fmt, ap);
		va_end(ap);
		diag("%s: %s: %s", prop_name(p), props.label, msg);
	}
}

/* synth_mmsched.c's checks, as properties of this test. */
static void mms_check(enum mms_prop p, int cond, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void mms_check(enum mms_prop p, int cond, const char *fmt, ...)
{
	va_list ap;
	char msg[512];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	check(P_MMS + p, cond, "%s", msg);
}

/* ------------------------------------------------------------------ */
/* Helpers                                                              */

static struct mach_machine *build(const char *spec, char *err, size_t errlen)
{
	struct mach_synth_opts o;
	struct mach_machine *m = NULL;

	mach_synth_defaults(&o);
	/* "": the defaults, as plain `synth` gives them */
	if (*spec && mach_synth_parse(&o, spec, err, errlen))
		return NULL;
	if (mach_synth_build(&o, &m, err, errlen))
		return NULL;
	return m;
}

struct buf {
	char *p;
	size_t len, cap;
};

static void buf_add(struct buf *b, const void *data, size_t len)
{
	if (b->len + len > b->cap) {
		size_t cap = b->cap ? b->cap : 1 << 16;

		while (cap < b->len + len)
			cap *= 2;
		b->p = realloc(b->p, cap);
		if (!b->p)
			abort();
		b->cap = cap;
	}
	memcpy(b->p + b->len, data, len);
	b->len += len;
}

/*
 * Render @path into @b (with a header line); -errno of resolve or render.
 * Symlinks (exe, ns/pid, self) are read with their readlink, as the
 * reader `ps` would see them.
 */
static int render_into(const struct mach_machine *m, const char *path, struct buf *b)
{
	struct pfs_node f;
	struct pfs_ctx ctx;
	char err[256], *text = NULL, link[4096];
	size_t len = 0;
	int rc;

	rc = pfs_resolve(m, path, &f, &ctx, err, sizeof(err));
	link[0] = '\0';
	if (!rc && f.entry->kind == PFS_LINK) {
		ctx.caller_pid = ctx.caller_tid = m->procs[m->nprocs - 1].tgid;
		rc = f.entry->readlink(&ctx, link, sizeof(link));
		/* kernel threads and zombies have no exe; zombies no namespaces but pid and user */
		if (rc == -ENOENT && !strcmp(f.entry->path, "exe") && !ctx.proc->mm)
			rc = 0;
		if (rc == -ENOENT && !mach_thread_has_nsproxy(ctx.thread))
			rc = 0;
		if (!rc) {
			len = strlen(link);
			text = malloc(len + 1);
			memcpy(text, link, len + 1);
		}
	} else if (!rc) {
		rc = pfs_render(&f, &ctx, &text, &len);
		/* a zombie's mount files: EINVAL at open, as the kernel's */
		if (rc == -EINVAL && rc == pfs_entry_absent_rc(f.entry) && !mach_thread_has_nsproxy(ctx.thread))
			rc = 0;
	}
	if (b) {
		buf_add(b, "\n=== ", 5);
		buf_add(b, path, strlen(path));
		buf_add(b, "\n", 1);
		if (text)
			buf_add(b, text, len);
	}
	free(text);
	return rc;
}

/*
 * Render every file uprocfs serves for @m: the global ones, then each
 * process's and each of its tasks'.  Counts failures in *@bad.
 */
struct render_all_arg {
	struct buf *b;
	unsigned long *bad;
};

static int render_one(void *arg, const struct pfs_node *n, const struct pfs_ctx *c)
{
	struct render_all_arg *a = arg;
	char path[4096] = "/proc/";

	(void)c;
	if (n->scope >= PFS_SCOPE_SYS)
		memcpy(path, "/sys/", 6);
	pfs_node_path(n, c, path + strlen(path), sizeof(path) - strlen(path));
	if (render_into(c->mach, path, a->b) && (*a->bad)++ < 5)
		diag("%s: %s fails", props.label, path);
	return 0;
}

static void render_all(const struct mach_machine *m, struct buf *b, unsigned long *bad)
{
	struct render_all_arg a = { .b = b, .bad = bad };

	pfs_for_each_file(m, PFS_EACH_ALL, render_one, &a);
}

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

static const struct mach_vma *vma_at(const struct mach_mm *mm, uint64_t addr)
{
	const struct mach_vma *vmas = test_vmas(mm);

	for (size_t i = 0; i < mm->nvmas; i++)
		if (addr >= vmas[i].start && addr < vmas[i].end)
			return &vmas[i];
	return NULL;
}

static bool bitmap_any(const struct mach_bitmap *b)
{
	for (unsigned int i = 0; i < b->nbits; i++)
		if (mach_bitmap_test(b, i))
			return true;
	return false;
}

static bool bitmap_subset(const struct mach_bitmap *a, const struct mach_bitmap *b)
{
	for (unsigned int i = 0; i < a->nbits; i++)
		if (mach_bitmap_test(a, i) && !mach_bitmap_test(b, i))
			return false;
	return true;
}

/* ------------------------------------------------------------------ */
/* Invariants                                                           */

static void check_mm(const struct mach_process *p)
{
	const struct mach_mm *mm = p->mm;
	const struct mach_vma *vmas = test_vmas(mm);
	uint64_t total = 0, exec = 0, data = 0, stack = 0, span, priv_w = 0, file = 0, shared = 0;
	const struct mach_vma *last = &vmas[mm->nvmas - 1], *v;
	int pid = (int)p->tgid;
	bool sorted = true;

	for (size_t i = 0; i < mm->nvmas; i++) {
		v = &vmas[i];
		uint64_t kb = (v->end - v->start) / 1024;

		if (v->start >= v->end || v->start % 4096 || v->end % 4096 ||
		    (i && v->start < vmas[i - 1].end))
			sorted = false;
		check(P_VMAS, (v->kind == MACH_VMA_FILE) == (v->name != NULL) || v->kind == MACH_VMA_ANON_NAMED ||
			      v->kind == MACH_VMA_ANON_SHMEM, "pid %d vma %zu: name vs kind", pid, i);
		check(P_VMAS, v->kind != MACH_VMA_VSYSCALL || i + 1 == mm->nvmas, "pid %d: vsyscall not last", pid);
		check(P_VMAS, v->kind == MACH_VMA_FILE ? v->dev_major || v->dev_minor : !v->dev_major && !v->inode,
		      "pid %d vma %zu: device", pid, i);
		if (v->kind == MACH_VMA_VSYSCALL)
			continue;
		total += kb;
		if (v->kind == MACH_VMA_STACK)
			stack += kb;
		else if ((v->flags & (MACH_VM_EXEC | MACH_VM_WRITE)) == MACH_VM_EXEC)
			exec += kb;
		else if ((v->flags & (MACH_VM_WRITE | MACH_VM_SHARED)) == MACH_VM_WRITE)
			data += kb;
		/* anonymous pages: written private pages, RELRO included (written, then made read-only) */
		if (!(v->flags & MACH_VM_SHARED))
			priv_w += kb;
		if (v->kind == MACH_VMA_FILE && !(v->flags & MACH_VM_SHARED))
			file += kb;
		if (v->flags & MACH_VM_SHARED)
			shared += kb;
		/* two adjacent anonymous VMAs with the same flags would be one VMA */
		if (i && v->kind == MACH_VMA_ANON && vmas[i - 1].kind == MACH_VMA_ANON)
			check(P_VMAS, vmas[i - 1].end != v->start || vmas[i - 1].flags != v->flags,
			      "pid %d: mergeable anon VMAs at %llx", pid, (unsigned long long)v->start);
	}
	check(P_VMAS, sorted, "pid %d: VMAs not sorted/aligned", pid);
	check(P_VMAS, last->kind == MACH_VMA_VSYSCALL && last->start == 0xffffffffff600000ull &&
		      last->end == 0xffffffffff601000ull && last->flags == MACH_VM_EXEC,
	      "pid %d: the gate VMA", pid);
	check(P_VMAS, mm->nvmas >= 6, "pid %d: too few VMAs", pid);

	/* layout */
	v = vma_at(mm, mm->start_code);
	check(P_LAYOUT, v && v->kind == MACH_VMA_FILE && (v->flags & MACH_VM_EXEC) && mm->end_code > mm->start_code &&
		      vma_at(mm, mm->end_code - 1) == v, "pid %d: code not in the exe's r-xp", pid);
	if (v) {
		const struct mach_vma *d0 = vma_at(mm, mm->start_data), *d1 = vma_at(mm, mm->end_data - 1);

		check(P_LAYOUT, d0 && d1 && d0->name && d1->name && !strcmp(d0->name, v->name) &&
			      !strcmp(d1->name, v->name) && (d1->flags & MACH_VM_WRITE) &&
			      mm->end_data > mm->start_data && d0->start > v->start,
		      "pid %d: data not in the exe's data segment", pid);
	}
	v = vma_at(mm, mm->start_brk);
	check(P_LAYOUT, !v || (v->kind == MACH_VMA_HEAP && v->start == mm->start_brk),
	      "pid %d: start_brk not at [heap]", pid);
	for (size_t i = 0; i < mm->nvmas; i++)
		if (vmas[i].kind == MACH_VMA_HEAP)
			check(P_LAYOUT, vmas[i].start == mm->start_brk, "pid %d: [heap] not at start_brk", pid);
	v = vma_at(mm, mm->start_stack);
	check(P_LAYOUT, v && v->kind == MACH_VMA_STACK, "pid %d: start_stack not in [stack]", pid);
	check(P_LAYOUT, v && mm->start_stack < mm->arg_start && mm->arg_start < mm->arg_end &&
		      mm->arg_end == mm->env_start && mm->env_start < mm->env_end && mm->env_end < v->end,
	      "pid %d: argv/env area", pid);
	check(P_CMDLINE, mm->cmdline && mm->cmdline_len > 1 && !mm->cmdline[mm->cmdline_len - 1] &&
		       mm->cmdline[0] && mm->arg_end - mm->arg_start == mm->cmdline_len,
	      "pid %d: cmdline", pid);
	check(P_CMDLINE, mm->environ && mm->environ_len > 1 && !mm->environ[mm->environ_len - 1] &&
		       strchr(mm->environ, '=') && mm->env_end - mm->env_start == mm->environ_len,
	      "pid %d: environ", pid);

	/* counters (docs/procfs-facts.md section 2, Details, and 3.2) */
	span = ((mm->end_code + 4095) & ~4095ull) - (mm->start_code & ~4095ull);
	check(P_COUNTERS, mm->vm_size == total, "pid %d: VmSize %llu vs %llu", pid,
	      (unsigned long long)mm->vm_size, (unsigned long long)total);
	check(P_COUNTERS, mm->vm_stk == stack && mm->vm_data == data, "pid %d: VmStk/VmData", pid);
	check(P_COUNTERS, mm->vm_exe == (span / 1024 < exec ? span / 1024 : exec) && mm->vm_lib == exec - mm->vm_exe,
	      "pid %d: VmExe/VmLib", pid);
	check(P_COUNTERS, mm->statm_text == span / 4096, "pid %d: statm text", pid);
	check(P_COUNTERS, mm->vm_rss == mm->rss_anon + mm->rss_file + mm->rss_shmem && mm->vm_hwm >= mm->vm_rss &&
		      mm->vm_peak >= mm->vm_size && mm->vm_rss <= mm->vm_size,
	      "pid %d: VmRSS/HWM/Peak", pid);
	check(P_COUNTERS, mm->stat_rss <= mm->vm_rss / 4 && mm->stat_rss + mm->vm_rss / 4 / 32 + 1 >= mm->vm_rss / 4,
	      "pid %d: stat rss %llu vs VmRSS %llu kB", pid, (unsigned long long)mm->stat_rss,
	      (unsigned long long)mm->vm_rss);
	check(P_COUNTERS, mm->vm_rss % 4 == 0 && mm->rss_anon % 4 == 0 && mm->vm_hwm % 4 == 0 &&
		      mm->vm_peak % 4 == 0 && mm->vm_pte % 4 == 0 && mm->vm_pte > 0,
	      "pid %d: kB values are whole pages", pid);
	check(P_COUNTERS, mm->rss_anon <= priv_w && mm->rss_file <= file + shared && mm->rss_shmem <= shared,
	      "pid %d: resident beyond mapped", pid);
	check(P_COUNTERS, mm->vm_lck <= mm->vm_size && mm->vm_swap <= mm->vm_size && mm->thp_enabled &&
		      mm->untag_mask == ~0ull, "pid %d: lck/swap/thp", pid);
}

static void check_machine(const struct mach_machine *m, const struct mach_synth_opts *o, bool render)
{
	size_t ntids = 0, k = 0;
	pid_t *tids, maxtid = 0;
	uint64_t usum = 0, ssum = 0, cpu_user = 0, cpu_sys = 0, idle = 0, csw = 0, anon = 0, minflt = 0, majflt = 0;
	unsigned int nrun = 0, nblk = 0;
	double up = (double)m->uptime_ns;

	/* processes: order, tids */
	check(P_SORTED, m->nprocs == o->tasks, "nprocs %zu, tasks %u", m->nprocs, o->tasks);
	for (size_t i = 0; i < m->nprocs; i++) {
		check(P_SORTED, !i || m->procs[i].tgid > m->procs[i - 1].tgid, "procs[%zu] out of order", i);
		ntids += m->procs[i].nthreads;
	}
	tids = malloc(ntids * sizeof(*tids));
	for (size_t i = 0; i < m->nprocs; i++) {
		const struct mach_process *p = &m->procs[i];

		check(P_TIDS, p->nthreads >= 1 && p->threads[0].tid == p->tgid, "pid %d: leader", (int)p->tgid);
		for (unsigned int j = 0; j < p->nthreads; j++) {
			tids[k++] = p->threads[j].tid;
			if (p->threads[j].tid > maxtid)
				maxtid = p->threads[j].tid;
			check(P_TIDS, p->threads[j].tid > 0 && p->threads[j].tid < PID_MAX, "tid %d", (int)p->threads[j].tid);
		}
	}
	qsort(tids, ntids, sizeof(*tids), cmp_pid);
	for (size_t i = 1; i < ntids; i++)
		check(P_TIDS, tids[i] != tids[i - 1], "tid %d twice", (int)tids[i]);
	free(tids);

	check(P_STATES, m->nr_threads == ntids && ntids == (size_t)o->tasks + o->threads,
	      "nr_threads %u, tids %zu, tasks+threads %u", m->nr_threads, ntids, o->tasks + o->threads);
	check(P_STATES, m->last_pid >= maxtid && m->processes >= (uint64_t)m->last_pid && m->last_pid < PID_MAX,
	      "last_pid %d, max tid %d, processes %llu", (int)m->last_pid, (int)maxtid,
	      (unsigned long long)m->processes);

	for (size_t i = 0; i < m->nprocs; i++) {
		const struct mach_process *p = &m->procs[i], *pp = mach_find_process(m, p->ppid);
		const struct mach_thread *t0 = &p->threads[0];
		int pid = (int)p->tgid;
		bool kthread = t0->kthread;

		/* tree */
		if (pid <= 2)
			check(P_TREE, p->ppid == 0, "pid %d: ppid %d", pid, (int)p->ppid);
		else
			check(P_TREE, pp && pp->threads[0].start_time_ns <= t0->start_time_ns && p->ppid < pid,
			      "pid %d: parent %d", pid, (int)p->ppid);
		check(P_TREE, kthread ? p->pgrp == 0 && p->session == 0 :
			      mach_find_process(m, p->pgrp) && mach_find_process(m, p->session),
		      "pid %d: pgrp %d session %d", pid, (int)p->pgrp, (int)p->session);
		check(P_TREE, p->tpgid == -1 || mach_find_process(m, p->tpgid), "pid %d: tpgid", pid);
		/* systemd is pid 1, and otherwise only a user's manager (systemd --user) */
		check(P_TREE, (pid == 1) == !strcmp(t0->comm, "systemd") || mach_thread_cred(t0)->uid[0] >= 1000,
		      "pid %d: %s", pid, t0->comm);
		check(P_TREE, pid != 2 || (kthread && !strcmp(t0->comm, "kthreadd") && p->exit_signal == 0),
		      "pid 2 is kthreadd");

		/* kernel threads */
		if (kthread) {
			check(P_KTHREADS, !p->mm && (pid == 2 || p->ppid == 2) && (t0->pf_flags & PF_KTHREAD) &&
					  t0->umask == 022 && p->nthreads == 1,
			      "pid %d (%s)", pid, t0->comm);
			check(P_SIGNALS, p->sig_ignored == ~0ull && p->sig_caught == 0 &&
					 p->exit_signal == (pid == 2 ? 0 : 17),
			      "kthread %d signals", pid);
		} else {
			check(P_KTHREADS, !(t0->pf_flags & PF_KTHREAD) && p->ppid != 2, "pid %d: user task", pid);
			check(P_SIGNALS, p->exit_signal == 17, "pid %d exit_signal", pid);
		}

		/* zombies and mms */
		if (t0->state == MACH_TASK_ZOMBIE)
			check(P_ZOMBIES, !p->mm && t0->umask == -1 && p->nthreads == 1 && !p->files,
			      "zombie %d", pid);
		else
			check(P_ZOMBIES, kthread == !p->mm && t0->umask >= 0, "pid %d: mm %p", pid, (void *)p->mm);
		if (p->mm)
			check_mm(p);

		/* times */
		uint64_t gu = 0, gs = 0;
		for (unsigned int j = 0; j < p->nthreads; j++) {
			const struct mach_thread *t = &p->threads[j];

			check(P_TIMES, t->start_time_ns > 0 && t->start_time_ns <= m->uptime_ns &&
					t->start_time_ns >= t0->start_time_ns,
			      "tid %d: start %llu", (int)t->tid, (unsigned long long)t->start_time_ns);
			check(P_TIMES, t->utime_ns + t->stime_ns <= m->uptime_ns - t->start_time_ns,
			      "tid %d: cpu time beyond its lifetime", (int)t->tid);
			gu += t->utime_ns;
			gs += t->stime_ns;
			csw += t->nvcsw + t->nivcsw;
			minflt += t->minflt;
			majflt += t->majflt;
			nrun += t->state == MACH_TASK_RUNNING;
			nblk += t->state == MACH_TASK_DISK_SLEEP;
			check(P_STATES, (t->wchan_sym != 0) == (t->state != MACH_TASK_RUNNING &&
							       t->state != MACH_TASK_ZOMBIE),
			      "tid %d: a wait channel exactly when it waits", (int)t->tid);
			check(P_STATES, j == 0 || t->state == t0->state || t->state == MACH_TASK_SLEEPING ||
					t->state == MACH_TASK_RUNNING, "tid %d: state", (int)t->tid);

			/* masks */
			check(P_MASKS, t->cpus_allowed.nbits == m->nr_cpu_ids && t->mems_allowed.nbits == m->max_numnodes &&
					bitmap_any(&t->cpus_allowed) && mach_bitmap_test(&t->mems_allowed, 0) &&
					t->processor >= 0 && (unsigned int)t->processor < m->ncpus &&
					mach_bitmap_test(&t->cpus_allowed, (unsigned int)t->processor),
			      "tid %d: masks", (int)t->tid);

			/* ids */
			/* a container's tasks have a second level: their ids inside it (test_synth_ns checks them) */
			check(P_IDS, (t->ns_levels == 1 || t->ns_levels == 2) &&
					mach_thread_ns_ids(t, MACH_NSID_PID)[0] == t->tid &&
					mach_thread_ns_ids(t, MACH_NSID_TGID)[0] == p->tgid &&
					mach_thread_ns_ids(t, MACH_NSID_PGID)[0] == p->pgrp &&
					mach_thread_ns_ids(t, MACH_NSID_SID)[0] == p->session,
			      "tid %d: ns ids", (int)t->tid);
			check(P_IDS, mach_thread_cred(t)->uid[0] == mach_thread_cred(t0)->uid[0] && mach_thread_cred(t)->uid[1] == mach_thread_cred(t)->uid[0] && mach_thread_cred(t)->gid[0] == mach_thread_cred(t0)->gid[0] &&
					(mach_thread_cred(t)->uid[0] ? mach_thread_cred(t)->cap_prm == 0 && mach_thread_cred(t)->cap_eff == 0 : mach_thread_cred(t)->cap_prm != 0) &&
					mach_thread_cred(t)->cap_bnd != 0 && mach_thread_cred(t)->cap_amb == 0 && t->kthread == kthread,
			      "tid %d: credentials", (int)t->tid);
			check(P_IDS, t->policy ? t->priority == -1 - (int)t->rt_priority && t->rt_priority >= 1 &&
						       t->rt_priority <= 99 :
						 t->priority == 20 + t->nice && t->rt_priority == 0,
			      "tid %d: priority %d policy %u", (int)t->tid, t->priority, t->policy);
			check(P_IDS, t->comm[0] && strlen(t->comm) < (kthread ? 64u : 16u), "tid %d: comm", (int)t->tid);
			for (unsigned int g = 1; g < mach_thread_cred(t)->ngroups; g++)
				check(P_IDS, mach_thread_cred(t)->groups[g] > mach_thread_cred(t)->groups[g - 1], "tid %d: groups sorted", (int)t->tid);
			check(P_SIGNALS, t->state != MACH_TASK_STOPPED || (t->exit_code == 19 && p->exit_code == 19),
			      "stopped %d exit_code", (int)t->tid);
		}
		check(P_TASK_CPU, gu == p->group_utime_ns && gs == p->group_stime_ns, "pid %d: group times", pid);
		usum += gu + p->cutime_ns;
		ssum += gs + p->cstime_ns;
		minflt += p->dead_minflt + p->cminflt;
		majflt += p->dead_majflt + p->cmajflt;
		if (p->mm)
			anon += p->mm->rss_anon;
		check(P_IDS, p->rlim[MACH_RLIMIT_RSS].cur == UINT64_MAX && p->rlim[MACH_RLIMIT_SIGPENDING].cur > 0 &&
			      (!p->files || p->files->max_fds % 64 == 0),
		      "pid %d: limits", pid);
	}

	/* CPUs */
	check(P_CPU_TIMES, m->nr_cpu_ids == o->cpus && m->ncpus == o->cpus && m->max_numnodes == 1024,
	      "cpu counts");
	for (unsigned int c = 0; c < m->ncpus; c++) {
		const uint64_t *t = m->cpus[c].time_ns;
		uint64_t sum = 0;

		for (int i = 0; i < MACH_NR_CPUTIME; i++)
			sum += i == MACH_CPU_GUEST || i == MACH_CPU_GUEST_NICE ? 0 : t[i];
		check(P_CPU_TIMES, m->cpus[c].id == c && m->cpus[c].online, "cpu %u id", c);
		check(P_CPU_TIMES, sum <= m->uptime_ns && (double)sum >= 0.99 * up,
		      "cpu %u: times sum %llu, uptime %llu", c, (unsigned long long)sum,
		      (unsigned long long)m->uptime_ns);
		cpu_user += t[MACH_CPU_USER] + t[MACH_CPU_NICE];
		cpu_sys += t[MACH_CPU_SYSTEM];
		idle += t[MACH_CPU_IDLE];
	}
	check(P_CPU_TIMES, idle == m->idle_ns, "idle_ns");
	check(P_CPU_TIMES, m->btime == EPOCH_NOW - m->uptime_ns / 1000000000ull &&
			   m->uptime_ns >= 7200ull * 1000000000ull && m->uptime_ns <= 31ull * 86400 * 1000000000ull,
	      "btime %llu uptime %llu", (unsigned long long)m->btime, (unsigned long long)m->uptime_ns);
	check(P_TASK_CPU, usum <= cpu_user && ssum <= cpu_sys,
	      "tasks user %llu > cpus %llu or system %llu > %llu", (unsigned long long)usum,
	      (unsigned long long)cpu_user, (unsigned long long)ssum, (unsigned long long)cpu_sys);

	/* states */
	check(P_STATES, m->procs_running == nrun && m->nr_running == nrun && m->procs_blocked == nblk && nrun >= 1,
	      "running %u/%u (%u R threads), blocked %u (%u D threads)", m->procs_running, m->nr_running, nrun,
	      m->procs_blocked, nblk);
	check(P_LOAD, m->ctxt >= csw, "ctxt %llu < switches %llu", (unsigned long long)m->ctxt,
	      (unsigned long long)csw);
	for (int i = 0; i < 3; i++)
		check(P_LOAD, m->avenrun[i] <= 2048ul * (4ul * m->ncpus + m->procs_blocked + 8), "avenrun[%d] %lu", i,
		      m->avenrun[i]);
	check(P_LOAD, m->schedstat_timestamp == INITIAL_JIFFIES + m->uptime_ns / 4000000, "schedstat timestamp");

	/* meminfo */
	const uint64_t *mi = m->meminfo;
#define MI(x) mi[MACH_MEMINFO_##x]
	check(P_MEMINFO, MI(MEMFREE) <= MI(MEMAVAILABLE) && MI(MEMAVAILABLE) <= MI(MEMTOTAL) && MI(MEMFREE) > 0,
	      "free %llu avail %llu total %llu", (unsigned long long)MI(MEMFREE), (unsigned long long)MI(MEMAVAILABLE),
	      (unsigned long long)MI(MEMTOTAL));
	check(P_MEMINFO, MI(ACTIVE) == MI(ACTIVE_ANON) + MI(ACTIVE_FILE) &&
			 MI(INACTIVE) == MI(INACTIVE_ANON) + MI(INACTIVE_FILE), "Active/Inactive sums");
	check(P_MEMINFO, MI(SLAB) == MI(SRECLAIMABLE) + MI(SUNRECLAIM) && MI(KRECLAIMABLE) >= MI(SRECLAIMABLE),
	      "Slab");
	check(P_MEMINFO, MI(ANONPAGES) == anon, "AnonPages %llu vs tasks %llu", (unsigned long long)MI(ANONPAGES),
	      (unsigned long long)anon);
	check(P_MEMINFO, MI(VMALLOCTOTAL) == 34359738367ull && MI(HUGEPAGESIZE) == 2048 &&
			 MI(DIRECTMAP4K) + MI(DIRECTMAP2M) >= MI(MEMTOTAL) && MI(DIRECTMAP2M) % 2048 == 0,
	      "fixed lines, direct map");
	check(P_MEMINFO, MI(COMMITLIMIT) == MI(MEMTOTAL) / 4 * 50 / 100 * 4 + MI(SWAPTOTAL) &&
			 MI(SWAPFREE) <= MI(SWAPTOTAL) && MI(MAPPED) <= MI(CACHED) && MI(SHMEM) <= MI(CACHED) &&
			 MI(MLOCKED) <= MI(UNEVICTABLE) && MI(KERNELSTACK) >= 16 * ntids,
	      "commit, swap, cache");
	check(P_MEMINFO, MI(MEMFREE) + MI(CACHED) + MI(BUFFERS) + MI(ANONPAGES) + MI(SLAB) + MI(KERNELSTACK) +
				 MI(PAGETABLES) <= MI(MEMTOTAL), "usage exceeds MemTotal");
	for (unsigned int i = 0; i < m->profile.nmeminfo; i++) {
		unsigned int id = m->profile.meminfo_order[i];

		if (id < MACH_NR_MEMINFO && mach_meminfo_formats[id].kb)
			check(P_MEMINFO, mi[id] % 4 == 0 || id == MACH_MEMINFO_VMALLOCTOTAL, "%s not whole pages",
			      mach_meminfo_formats[id].label);
	}

	/* vmstat */
	const uint64_t *vm = m->vmstat;
#define VM(x) vm[MACH_VMSTAT_##x]
	check(P_VMSTAT, VM(NR_FREE_PAGES) == MI(MEMFREE) / 4 && VM(NR_ACTIVE_ANON) == MI(ACTIVE_ANON) / 4 &&
			VM(NR_INACTIVE_ANON) == MI(INACTIVE_ANON) / 4 && VM(NR_ACTIVE_FILE) == MI(ACTIVE_FILE) / 4 &&
			VM(NR_INACTIVE_FILE) == MI(INACTIVE_FILE) / 4 && VM(NR_UNEVICTABLE) == MI(UNEVICTABLE) / 4,
	      "LRU pages");
	check(P_VMSTAT, VM(NR_ANON_PAGES) == MI(ANONPAGES) / 4 && VM(NR_MAPPED) == MI(MAPPED) / 4 &&
			VM(NR_SHMEM) == MI(SHMEM) / 4 && VM(NR_DIRTY) == MI(DIRTY) / 4 &&
			VM(NR_WRITEBACK) == MI(WRITEBACK) / 4 && VM(NR_MLOCK) == MI(MLOCKED) / 4,
	      "page counts");
	check(P_VMSTAT, VM(NR_SLAB_RECLAIMABLE) == MI(SRECLAIMABLE) / 4 &&
			VM(NR_SLAB_UNRECLAIMABLE) == MI(SUNRECLAIM) / 4 && VM(NR_KERNEL_STACK) == MI(KERNELSTACK) &&
			VM(NR_PAGE_TABLE_PAGES) == MI(PAGETABLES) / 4 && VM(NR_SWAPCACHED) == MI(SWAPCACHED) / 4 &&
			VM(NR_ANON_TRANSPARENT_HUGEPAGES) == MI(ANONHUGEPAGES) / 2048 &&
			VM(NR_ZONE_WRITE_PENDING) == VM(NR_DIRTY) + VM(NR_WRITEBACK),
	      "slab, stacks, page tables");
	check(P_VMSTAT, VM(PGFAULT) >= minflt && VM(PGMAJFAULT) >= majflt && VM(PGFREE) >= VM(PGALLOC_NORMAL) &&
			VM(NR_WRITTEN) <= VM(NR_DIRTIED) && VM(NUMA_HIT) >= VM(NUMA_LOCAL),
	      "pgfault %llu < %llu or pgmajfault %llu < %llu", (unsigned long long)VM(PGFAULT),
	      (unsigned long long)minflt, (unsigned long long)VM(PGMAJFAULT), (unsigned long long)majflt);

	/* pressure */
	for (int r = 0; r < MACH_NR_PSI_RES; r++) {
		const struct mach_pressure *ps = &m->pressure[r];

		if (r == MACH_PSI_IRQ) {
			check(P_PSI, !ps->present, "pressure/irq present");
			continue;
		}
		check(P_PSI, ps->present && ps->has_some && ps->has_full, "pressure %d lines", r);
		check(P_PSI, ps->some.total_us <= m->uptime_ns / 1000 && ps->full.total_us <= ps->some.total_us,
		      "pressure %d totals", r);
		for (int w = 0; w < 3; w++)
			check(P_PSI, ps->some.avg[w] <= 100 * 2048ul && ps->full.avg[w] <= 100 * 2048ul &&
					     (r != MACH_PSI_CPU || ps->full.avg[w] == 0),
			      "pressure %d avg %d", r, w);
	}
	check(P_PSI, m->pressure[MACH_PSI_CPU].full.total_us == 0, "cpu full total");

	/* irqs: every count per CPU, so /proc/stat and /proc/interrupts sum the same counters */
	check(P_IRQS, m->nr_irqs >= 256 && m->nirqs > 0 && m->irq_detail && m->softirq_detail && !m->intr_arch_extra,
	      "nr_irqs %u, details", m->nr_irqs);
	for (unsigned int i = 0; i < m->nirqs; i++) {
		const struct mach_irq *q = &m->irqs[i];

		check(P_IRQS, q->irq < m->nr_irqs && (!i || q->irq > m->irqs[i - 1].irq) && !q->total && q->per_cpu &&
				      q->chip && q->actions,
		      "irq[%u] = %u", i, q->irq);
	}
	for (int i = 0; i < MACH_NR_SOFTIRQS; i++)
		check(P_IRQS, !m->softirq[i], "softirq %d not attributed to a CPU", i);
	{
		char why[256];

		check(P_IRQS, !irq_sums_check(m, why, sizeof(why)), "%s", why);
	}

	{
		char why[256];

		check(P_SYSCTL, !sysctl_check(m, why, sizeof(why)), "%s", why);
	}

	/* schedstat */
	for (unsigned int c = 0; c < m->ncpus; c++) {
		const struct mach_cpu_schedstat *ss = &m->cpus[c].sched;

		check(P_SCHEDSTAT, ss->pcount <= ss->sched_count && ss->sched_goidle <= ss->sched_count &&
					   ss->ttwu_local <= ss->ttwu_count && ss->rq_cpu_time <= m->uptime_ns,
		      "cpu %u counts", c);
		check(P_SCHEDSTAT, m->ncpus == 1 ? ss->ndomains == 0 : ss->ndomains >= 1, "cpu %u domains", c);
		if (m->ncpus >= 2 && m->ncpus % 2 == 0)
			check(P_SCHEDSTAT, ss->ndomains && ss->domains[0].level == MACH_SD_SMT, "cpu %u: SMT first", c);
		for (unsigned int d = 0; d < ss->ndomains; d++) {
			const struct mach_sched_domain *sd = &ss->domains[d];

			check(P_SCHEDSTAT, sd->span.nbits == m->nr_cpu_ids && mach_bitmap_test(&sd->span, c) &&
						   (d == 0 || (bitmap_subset(&ss->domains[d - 1].span, &sd->span) &&
							       sd->level >= ss->domains[d - 1].level)),
			      "cpu %u domain %u", c, d);
			for (int it = 0; it < MACH_NR_IDLE_TYPES; it++)
				check(P_SCHEDSTAT, sd->lb[it][MACH_LB_BALANCED] + sd->lb[it][MACH_LB_FAILED] <=
							   sd->lb[it][MACH_LB_COUNT],
				      "cpu %u domain %u lb", c, d);
		}
	}

	if (render) {
		unsigned long bad = 0;

		render_all(m, NULL, &bad);
		check(P_RENDER, bad == 0, "%lu files failed", bad);
		/* /proc/<pid>/exe resolves through the mapping holding start_code */
		for (size_t i = 0; i < m->nprocs; i++) {
			const struct mach_process *p = &m->procs[i];
			struct pfs_node f;
			struct pfs_ctx ctx;
			char path[64], err[128], link[512];

			if (!p->mm)
				continue;
			snprintf(path, sizeof(path), "/proc/%d/exe", (int)p->tgid);
			check(P_RENDER, !pfs_resolve(m, path, &f, &ctx, err, sizeof(err)) &&
						!f.entry->readlink(&ctx, link, sizeof(link)) && link[0] == '/' &&
						!strstr(link, ".so"),
			      "%s", path);
		}
	}
}

/* ------------------------------------------------------------------ */
/* Tests                                                                */

static void test_defaults(void)
{
	struct mach_synth_opts o;

	mach_synth_defaults(&o);
	ok(o.cpus == 8 && o.tasks == 200 && o.threads == 50 && o.seed == 1 && o.depth == 2 && o.load == 0.5 &&
		   o.io == 0.05 && o.mem == 0.02,
	   "defaults: 8 CPUs, 200 tasks, 50 threads, seed 1, depth 2, load 0.5, io 0.05, mem 0.02");
}

/* Field by field: the struct has padding that memcmp would read. */
static bool same_opts(const struct mach_synth_opts *a, const struct mach_synth_opts *b)
{
	return a->cpus == b->cpus && a->tasks == b->tasks && a->threads == b->threads && a->seed == b->seed &&
	       a->depth == b->depth && a->load == b->load && a->io == b->io && a->mem == b->mem;
}

static void expect_parse_error(const char *spec, const char *want)
{
	struct mach_synth_opts o, before;
	char err[256] = "";
	int rc;

	mach_synth_defaults(&o);
	before = o;
	rc = mach_synth_parse(&o, spec, err, sizeof(err));
	if (!ok(rc == -EINVAL && strstr(err, want) && same_opts(&o, &before),
		"parse \"%s\" fails naming it", spec))
		diag("rc %d, message: %s", rc, err);
}

static void test_parse(void)
{
	struct mach_synth_opts o;
	char err[256];

	expect_parse_error("cpu=4",
			   "synth: unknown key \"cpu\" (known: cpus, tasks, threads, seed, depth, load, io, mem, kernel, vmas, mounts, fds)");
	expect_parse_error("cpus=abc", "synth: cpus=\"abc\": expected an integer from 1 to 8192");
	expect_parse_error("cpus=0", "synth: cpus=\"0\": expected an integer from 1 to 8192");
	expect_parse_error("cpus=8193", "cpus=\"8193\": expected an integer from 1 to 8192");
	expect_parse_error("cpus=", "cpus=\"\": expected an integer");
	expect_parse_error("cpus=4x", "cpus=\"4x\"");
	expect_parse_error("cpus=+4", "cpus=\"+4\"");
	expect_parse_error("cpus= 4", "cpus=\" 4\"");
	expect_parse_error("cpus=-1", "cpus=\"-1\"");
	expect_parse_error("tasks=2000001", "tasks=\"2000001\": expected an integer from 1 to 2000000");
	expect_parse_error("tasks=0", "tasks=\"0\"");
	expect_parse_error("threads=4000001", "threads=\"4000001\": expected an integer from 0 to 4000000");
	expect_parse_error("depth=17", "depth=\"17\": expected an integer from 0 to 16");
	expect_parse_error("seed=18446744073709551616",
			   "seed=\"18446744073709551616\": expected an integer from 0 to 18446744073709551615");
	expect_parse_error("seed=0x10", "seed=\"0x10\"");
	expect_parse_error("load=1.5", "synth: load=\"1.5\": expected a decimal from 0 to 1");
	expect_parse_error("load=2", "load=\"2\"");
	expect_parse_error("load=-0.1", "load=\"-0.1\"");
	expect_parse_error("io=0.5.1", "io=\"0.5.1\"");
	expect_parse_error("mem=.", "mem=\".\"");
	expect_parse_error("mem=", "mem=\"\": expected a decimal from 0 to 1");
	expect_parse_error("load=1.0001", "load=\"1.0001\"");
	expect_parse_error("cpus=4,", "trailing ','");
	expect_parse_error(",cpus=4", "empty option");
	expect_parse_error("cpus=4,,tasks=9", "empty option");
	expect_parse_error("cpus", "\"cpus\": expected key=value");
	expect_parse_error("cpus=4,bogus=1", "unknown key \"bogus\"");
	expect_parse_error("CPUS=4", "unknown key \"CPUS\"");

	mach_synth_defaults(&o);
	ok(mach_synth_parse(&o, "", err, sizeof(err)) == -EINVAL && strstr(err, "nothing after") && o.cpus == 8 &&
		   o.tasks == 200,
	   "an empty spec is refused and changes nothing");
	ok(mach_synth_parse(&o, "tasks=1000", err, sizeof(err)) == 0 && o.tasks == 1000 && o.threads == 250,
	   "threads follow tasks/4 when not given");
	ok(mach_synth_parse(&o, "threads=7,tasks=1000", err, sizeof(err)) == 0 && o.threads == 7,
	   "an explicit threads wins over tasks/4, in any order");
	ok(mach_synth_parse(&o, "cpus=2,cpus=3", err, sizeof(err)) == -EINVAL && strstr(err, "cpus given twice"),
	   "a repeated key is refused");
	ok(mach_synth_parse(&o, "seed=18446744073709551615,depth=0,load=0,io=1,mem=.25", err, sizeof(err)) == 0 &&
		   o.seed == UINT64_MAX && o.depth == 0 && o.load == 0 && o.io == 1 && o.mem == 0.25,
	   "extremes: seed 2^64-1, depth 0, load 0, io 1, mem .25");
	ok(mach_synth_parse(&o, "load=1.000,io=0.05,mem=0.123456789", err, sizeof(err)) == 0 && o.load == 1 &&
		   o.io == 0.05 && o.mem > 0.1234567 && o.mem < 0.1234568,
	   "decimals: 1.000, 0.05, 0.123456789");
	ok(mach_synth_parse(&o, "cpus=8192,tasks=2000000,threads=4000000,depth=16", err, sizeof(err)) == 0 &&
		   o.cpus == 8192 && o.tasks == 2000000 && o.threads == 4000000 && o.depth == 16,
	   "the upper bounds parse");

	struct mach_machine *m = NULL;
	int rc = mach_from_spec("synth:cpu=4", &m, err, sizeof(err));
	ok(rc == -EINVAL && !m && strstr(err, "unknown key \"cpu\""), "mach_from_spec passes the parse error on");
	rc = mach_synth_build(&o, &m, err, sizeof(err));
	if (!ok(rc == -EINVAL && !m && strstr(err, "pids a synthetic machine numbers"), "6 million tasks and threads do not fit below the synthetic pid limit"))
		diag("rc %d: %s", rc, err);
	mach_synth_defaults(&o);
	o.load = 2;
	ok(mach_synth_build(&o, &m, err, sizeof(err)) == -EINVAL && !m, "build rejects out-of-range options");
}

static void test_determinism(void)
{
	static const char *const specs[] = { "", "cpus=3,tasks=150,threads=90,seed=7,depth=4,load=0.9,io=0.3,mem=0.4" };
	char err[256];

	for (size_t i = 0; i < 2; i++) {
		struct mach_machine *a = build(specs[i], err, sizeof(err)), *b = build(specs[i], err, sizeof(err));
		struct buf ba = { 0 }, bb = { 0 };
		unsigned long bad = 0;

		props.label = specs[i];
		if (!a || !b) {
			ok(0, "synth:%s builds: %s", specs[i], err);
			mach_free(a);
			mach_free(b);
			continue;
		}
		render_all(a, &ba, &bad);
		render_all(b, &bb, &bad);
		is_bytes(ba.p, ba.len, bb.p, bb.len, "synth:%s twice renders the same bytes in all files (%zu bytes)",
			 specs[i], ba.len);
		ok(bad == 0, "synth:%s: every file renders", specs[i]);
		free(ba.p);
		free(bb.p);
		mach_free(a);
		mach_free(b);
	}
}

/* FNV-1a over what the files of @m render to: globals, and stat, status and maps of each process. */
static uint64_t render_hash(const struct mach_machine *m)
{
	static const char *const per_pid[] = { "stat", "status", "maps", "environ" };
	uint64_t h = 1469598103934665603ull;
	struct buf b = { 0 };
	char path[96];

	for (size_t f = 0; f < pfs_nentries; f++) {
		const struct pfs_entry *e = &pfs_entries[f];

		if (!(e->scopes & PFS_IN(PFS_SCOPE_GLOBAL)) || e->kind != PFS_FILE)
			continue;
		snprintf(path, sizeof(path), "/proc/%s", e->path);
		render_into(m, path, &b);
	}
	for (size_t i = 0; i < m->nprocs; i++) {
		for (size_t k = 0; k < 4; k++) {
			snprintf(path, sizeof(path), "/proc/%d/%s", (int)m->procs[i].tgid, per_pid[k]);
			render_into(m, path, &b);
		}
		if (b.len > (1u << 20) || i + 1 == m->nprocs) {
			for (size_t j = 0; j < b.len; j++)
				h = (h ^ (unsigned char)b.p[j]) * 1099511628211ull;
			b.len = 0;
		}
	}
	free(b.p);
	return h;
}

/* Large machines are built on several threads: the result must not depend on it. */
static void test_determinism_large(void)
{
	const char *spec = "cpus=32,tasks=25000,seed=11";
	char err[256];
	struct mach_machine *a = build(spec, err, sizeof(err)), *b = build(spec, err, sizeof(err));

	if (!ok(a && b, "synth:%s builds", spec) || !a || !b) {
		mach_free(a);
		mach_free(b);
		return;
	}
	is_u64(render_hash(a), render_hash(b), "synth:%s (built in parallel) twice renders the same bytes", spec);
	mach_free(a);
	mach_free(b);
}

static void test_seeds_differ(void)
{
	char err[256];
	struct mach_machine *a = build("seed=1", err, sizeof(err)), *b = build("seed=2", err, sizeof(err));
	struct buf sa = { 0 }, sb = { 0 }, pa = { 0 }, pb = { 0 };

	if (!a || !b) {
		ok(0, "seeds 1 and 2 build");
		mach_free(a);
		mach_free(b);
		return;
	}
	render_into(a, "/proc/stat", &sa);
	render_into(b, "/proc/stat", &sb);
	render_into(a, "/proc/1/maps", &pa);
	render_into(b, "/proc/1/maps", &pb);
	ok(sa.len != sb.len || memcmp(sa.p, sb.p, sa.len), "seeds 1 and 2: /proc/stat differs");
	ok(pa.len != pb.len || memcmp(pa.p, pb.p, pa.len), "seeds 1 and 2: /proc/1/maps differs");
	ok(a->uptime_ns != b->uptime_ns && a->last_pid != b->last_pid, "seeds 1 and 2: uptime and last_pid differ");
	free(sa.p);
	free(sb.p);
	free(pa.p);
	free(pb.p);
	mach_free(a);
	mach_free(b);
}

/* What a default machine shows: the live machine's kinds of tasks and rare mappings. */
static void test_contents(void)
{
	unsigned int with_z = 0, with_t = 0, with_d = 0, deleted = 0, devzero = 0, reader = 0, rt = 0, nice19 = 0;
	unsigned int mt_names = 0, pinned = 0, groups = 0, seccomp = 0;
	char err[256], spec[64];

	for (int seed = 1; seed <= 20; seed++) {
		struct mach_machine *m;
		bool z = false, t = false, d = false, del = false, dz = false;

		snprintf(spec, sizeof(spec), "seed=%d", seed);
		m = build(spec, err, sizeof(err));
		if (!m)
			continue;
		for (size_t i = 0; i < m->nprocs; i++) {
			const struct mach_process *p = &m->procs[i];

			z |= p->threads[0].state == MACH_TASK_ZOMBIE;
			t |= p->threads[0].state == MACH_TASK_STOPPED;
			d |= p->threads[0].state == MACH_TASK_DISK_SLEEP;
			reader += !strcmp(p->threads[0].comm, "ps") && p->threads[0].state == MACH_TASK_RUNNING &&
				  i + 1 == m->nprocs;
			for (unsigned int j = 0; j < p->nthreads; j++) {
				const struct mach_thread *th = &p->threads[j];

				rt += th->policy != 0 && !th->kthread;
				nice19 += th->nice == 19;
				mt_names += j && strcmp(th->comm, p->threads[0].comm);
				pinned += !th->kthread && p->mm && m->ncpus > 1 && th->cpus_allowed.words[0] &&
					  !(th->cpus_allowed.words[0] & (th->cpus_allowed.words[0] - 1));
				groups += mach_thread_cred(th)->ngroups > 0;
				seccomp += mach_thread_cred(th)->seccomp_mode == 2;
			}
			for (size_t v = 0; p->mm && v < p->mm->nvmas; v++) {
				const struct mach_vma *vma = &test_vmas(p->mm)[v];

				del |= vma->deleted;
				dz |= vma->name && !strcmp(vma->name, "/dev/zero") && vma->deleted &&
				      (vma->flags & MACH_VM_SHARED);
			}
		}
		with_z += z;
		with_t += t;
		with_d += d;
		deleted += del;
		devzero += dz;
		mach_free(m);
	}
	ok(with_z == 20 && with_t == 20 && with_d == 20, "every default machine has a zombie (%u/20), a stopped "
	   "task (%u/20) and one in disk sleep (%u/20)", with_z, with_t, with_d);
	ok(reader == 20, "the last process is `ps` reading /proc, running (%u/20)", reader);
	ok(deleted >= 5 && devzero >= 5, "deleted file mappings (%u/20 machines), /dev/zero (deleted) (%u/20)",
	   deleted, devzero);
	ok(rt > 0 && nice19 > 0 && mt_names > 0 && pinned > 0 && groups > 0 && seccomp > 0,
	   "RT user tasks %u, nice 19 %u, named threads %u, pinned %u, with groups %u, seccomp %u", rt, nice19,
	   mt_names, pinned, groups, seccomp);
}

/*
 * Credentials are interned: a process's threads share one, as do processes
 * of one program and session, and a write through mach_thread_cred_mut
 * gives the writer its own copy without touching the others'.
 */
static void test_shared_creds(void)
{
	char err[256];
	struct mach_machine *m = build("seed=4,tasks=1500,threads=300", err, sizeof(err));
	const struct mach_cred *seen[4096];
	size_t nseen = 0, threads = 0, apart = 0, unshared = 0;
	struct mach_thread *a = NULL, *b = NULL;

	if (!ok(m != NULL, "build seed=4,tasks=1500,threads=300: %s", m ? "ok" : err))
		return;
	for (size_t i = 0; i < m->nprocs; i++) {
		struct mach_process *p = &m->procs[i];

		for (unsigned int j = 0; j < p->nthreads; j++) {
			struct mach_thread *t = &p->threads[j];
			size_t k = 0;

			threads++;
			unshared += !t->cred_interned;
			apart += t->cred != p->threads[0].cred;
			while (k < nseen && seen[k] != t->cred)
				k++;
			if (k == nseen && nseen < sizeof(seen) / sizeof(seen[0]))
				seen[nseen++] = t->cred;
			/* two user processes of one uid: they share a cred */
			if (j == 0 && !t->kthread && mach_thread_cred(t)->uid[0] == 0 && !a)
				a = t;
			else if (j == 0 && !t->kthread && a && t->cred == a->cred && !b)
				b = t;
		}
	}
	ok(unshared == 0 && apart == 0, "every thread's credentials are interned (%zu not) and its leader's (%zu apart)",
	   unshared, apart);
	/* sessions (each login gives its processes an audit session id) keep it near one in eight */
	ok(nseen * 5 < threads, "%zu threads share %zu credentials", threads, nseen);
	if (ok(a && b, "two root processes share one cred")) {
		const struct mach_cred *before = b->cred;
		struct mach_cred *own = mach_thread_cred_mut(a);

		ok(own && own != before && !a->cred_interned && own->uid[0] == 0 && own->cap_eff == before->cap_eff &&
		   own->ngroups == before->ngroups &&
		   (!own->ngroups || (own->groups != before->groups &&
				      !memcmp(own->groups, before->groups, own->ngroups * sizeof(uint32_t)))),
		   "a write gets a copy of its own, groups included");
		if (own) {
			own->uid[0] = own->uid[1] = 4242;
			mach_cred_set_groups(own, (const uint32_t[]){ 7, 8 }, 2);
		}
		ok(b->cred == before && mach_thread_cred(b)->uid[0] == 0 && mach_thread_cred(a)->uid[0] == 4242 &&
		   mach_thread_cred(a)->ngroups == 2, "the other process keeps the shared one: uid %u, %u groups",
		   mach_thread_cred(b)->uid[0], mach_thread_cred(b)->ngroups);
	}
	mach_free(m);
}

/*
 * The memory and scheduling files as built, and again once the simulator
 * has run the machine for a few seconds: its tasks ran, waited on
 * runqueues and slept, and their files must still agree.
 */
static void check_after_sim(struct mach_machine *m, const struct mach_synth_opts *o)
{
	struct mach_sim_opts so;
	struct mach_sim *sim = NULL;
	char err[256];

	mms_check_machine(m, true, mms_check);
	mach_sim_defaults(&so);
	so.seed = o->seed;
	check(P_MMS + MMS_SCHED, mach_sim_create(m, &so, &sim, err, sizeof(err)) == 0, "simulator: %s", err);
	if (!sim)
		return;
	mach_sim_advance(sim, m->uptime_ns + 3000000000ull);
	mms_check_machine(m, false, mms_check);
	mach_sim_destroy(sim);
}

static void test_invariants(void)
{
	static const char *const shapes[] = {
		"cpus=64,tasks=2000", "cpus=1,tasks=40", "tasks=1", "tasks=2", "tasks=5,threads=20",
		"threads=0", "load=0,io=0,mem=0", "load=1,io=1,mem=1", "depth=0", "depth=16,tasks=400",
		"cpus=3,tasks=300,threads=900", "cpus=4096,tasks=3000", "cpus=8192,tasks=50",
		"cpus=96,tasks=5000,threads=20000,seed=99", "cpus=32,tasks=25000,seed=12",
	};
	char err[256], spec[64];
	int seeds = tap_seeds(50);

	for (int seed = 1; seed <= seeds + (int)(sizeof(shapes) / sizeof(shapes[0])); seed++) {
		struct mach_synth_opts o;
		struct mach_machine *m = NULL;

		mach_synth_defaults(&o);
		if (seed <= seeds)
			snprintf(spec, sizeof(spec), "seed=%d", seed);
		else
			snprintf(spec, sizeof(spec), "%s", shapes[seed - seeds - 1]);
		props.label = spec;
		check(P_BUILD, mach_synth_parse(&o, spec, err, sizeof(err)) == 0 &&
				       mach_synth_build(&o, &m, err, sizeof(err)) == 0,
		      "%s", err);
		if (!m)
			continue;
		/*
		 * Every file of the seeds and of the shapes up to 2,000 tasks.  A
		 * capped sweep (the sanitizer run) leaves the 2,000-task one's to
		 * the plain run: 11 s there, and its synth_roundtrip renders a
		 * 64-CPU, 700-task machine whole.  The 8,192-CPU one stays.
		 */
		check_machine(m, &o, seed <= seeds || o.tasks < 2000 || (o.tasks == 2000 && seeds >= 50));
		if (seed <= seeds)
			check_after_sim(m, &o);
		mach_free(m);
	}
	for (int p = 0; p < NR_PROPS; p++)
		ok(fails[p] == 0 && checks[p] > 0, "%s (%lu checks, %lu failed)", prop_name(p), checks[p], fails[p]);
}

int main(void)
{
	plan(0);
	test_defaults();
	test_parse();
	test_determinism();
	test_determinism_large();
	test_seeds_differ();
	test_contents();
	test_shared_creds();
	test_invariants();
	return tap_done();
}
