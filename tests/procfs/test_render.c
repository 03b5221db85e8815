// SPDX-License-Identifier: MIT
/*
 * test_render.c - renderers on a hand-built model against text the Linux
 * 6.18 reference VM printed, then the same model with altered values: the
 * text must follow the typed values (kB alignment as numbers widen, hex
 * widths, the two spaces after "cpu", masks, escaping, padding in maps).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "uprocfs/procfs.h"

static struct mach_machine *mach;
static struct mach_process *proc;

static void set_bits(struct mach_bitmap *b, unsigned int nbits, unsigned int first, unsigned int last)
{
	if (mach_bitmap_alloc(b, nbits))
		abort();
	for (unsigned int i = first; i <= last && i < nbits; i++)
		mach_bitmap_set(b, i);
}

static struct mach_vma vma(uint64_t start, uint64_t end, uint64_t flags, uint64_t off,
			   uint32_t maj, uint32_t min, uint64_t ino, enum mach_vma_kind kind,
			   const char *name)
{
	struct mach_vma v = { .start = start, .end = end, .flags = flags, .offset = off,
			      .dev_major = maj, .dev_minor = min, .inode = ino, .kind = kind };
	v.name = name ? strdup(name) : NULL;
	return v;
}

static void build_machine(void)
{
	struct mach_thread *t;
	struct mach_cred *cr;
	struct mach_mm *mm;

	mach = mach_new();
	mach->nr_cpu_ids = 2;
	mach->ncpus = 2;
	mach->cpus = calloc(2, sizeof(*mach->cpus));
	for (unsigned int i = 0; i < 2; i++) {
		mach->cpus[i].id = i;
		mach->cpus[i].online = true;
	}
	/* cpu0 429 ticks user + 0.6 tick, cpu1 976 + 0.6: the aggregate rounds up to 1406 */
	mach->cpus[0].time_ns[MACH_CPU_USER] = 4296000000ull;
	mach->cpus[1].time_ns[MACH_CPU_USER] = 9766000000ull;
	mach->cpus[0].time_ns[MACH_CPU_IDLE] = 97898ull * 10000000;
	mach->cpus[1].time_ns[MACH_CPU_IDLE] = 94426ull * 10000000;
	mach->nr_irqs = 40;
	mach->nirqs = 2;
	mach->irqs = calloc(2, sizeof(*mach->irqs));
	mach->irqs[0] = (struct mach_irq){ .irq = 1, .total = 9 };
	mach->irqs[1] = (struct mach_irq){ .irq = 37, .total = 36815 };
	mach->intr_arch_extra = 100;
	mach->ctxt = 329390;
	mach->btime = 1795984074;
	mach->processes = 6942;
	mach->procs_running = 2;
	mach->softirq[1] = 25908;
	mach->softirq[9] = 44416;
	mach->uptime_ns = 994690000000ull;
	mach->idle_ns = 1746950000000ull + 9999999;
	mach->avenrun[0] = 1577; /* 0.77: (1577 + 10) * 100 >> 11 = 77 */
	mach->avenrun[1] = 758;
	mach->avenrun[2] = 389;
	mach->nr_running = 2;
	mach->nr_threads = 78;
	mach->last_pid = 6415;
	mach->meminfo[MACH_MEMINFO_MEMTOTAL] = 24683620;
	mach->meminfo[MACH_MEMINFO_VMALLOCTOTAL] = 34359738367ull;
	mach->meminfo[MACH_MEMINFO_HUGEPAGESIZE] = 2048;
	mach->vmstat[MACH_VMSTAT_NR_FREE_PAGES] = 1099317;
	mach->pressure[MACH_PSI_CPU] = (struct mach_pressure){
		.present = true, .has_some = true, .has_full = true,
		.some = { .avg = { 2724, 1639, 2765 }, .total_us = 16358058 },
	};

	mach->nprocs = 1;
	mach->procs = calloc(1, sizeof(*mach->procs));
	proc = &mach->procs[0];
	proc->tgid = 6410;
	proc->ppid = 6408;
	proc->pgrp = 6408;
	proc->session = 1186;
	proc->tpgid = -1;
	proc->files = calloc(1, sizeof(*proc->files));
	proc->files->max_fds = 256;
	mach_process_rlim_mut(proc)[MACH_RLIMIT_SIGPENDING].cur = 96364;
	proc->exit_signal = 17;
	mach_process_rlim_mut(proc)[MACH_RLIMIT_RSS].cur = 18446744073709551615ull;
	proc->nthreads = proc->nr_threads = 1;
	proc->threads = t = calloc(1, sizeof(*t));
	t->tid = 6410;
	t->comm = "cat";
	t->state = MACH_TASK_RUNNING;
	t->umask = 022;
	mach_thread_ns_set(t, 1, (const pid_t[MACH_NR_NSIDS][MACH_NS_LEVELS_MAX]){ { 6410 }, { 6410 }, { 6408 }, { 1186 } });
	cr = mach_thread_cred_mut(t);
	cr->cap_prm = cr->cap_eff = cr->cap_bnd = 0x1fffeffffffull;
	cr->ssb = MACH_SSB_VULNERABLE;
	cr->sib = MACH_SIB_ALWAYS_ENABLED;
	set_bits(&t->cpus_allowed, 2, 0, 1);
	set_bits(&t->mems_allowed, 1024, 0, 0);
	t->pf_flags = 4194304;
	t->minflt = 101;
	t->priority = 20;
	t->start_time_ns = 99466ull * 10000000;
	proc->group_utime_ns = proc->group_stime_ns = 0;

	proc->mm = mm = calloc(1, sizeof(*mm));
	mm->vm_peak = mm->vm_size = 3060;
	mm->vm_hwm = mm->vm_rss = 1756;
	mm->stat_rss = 439;
	mm->rss_anon = 112;
	mm->rss_file = 1644;
	mm->vm_data = 360;
	mm->vm_stk = 132;
	mm->vm_exe = 20;
	mm->vm_lib = 1528;
	mm->vm_pte = 48;
	mm->thp_enabled = true;
	mm->untag_mask = ~0ull;
	mm->statm_text = 5;
	mm->start_code = 94278535892992ull;
	mm->end_code = 94278535912873ull;
	mm->start_stack = 140731184738624ull;
	mm->start_data = 94278535928880ull;
	mm->end_data = 94278535930496ull;
	mm->start_brk = 94278923350016ull;
	mm->arg_start = 140731184744902ull;
	mm->arg_end = mm->env_start = 140731184744922ull;
	mm->env_end = 140731184746475ull;
	mm->nvmas = 5;
	mm->vmas = calloc(5, sizeof(*mm->vmas));
	mm->vmas[0] = vma(0x55c01ceb1000, 0x55c01ceb3000, MACH_VM_READ, 0, 0xfe, 0, 247134,
			  MACH_VMA_FILE, "/usr/bin/cat");
	mm->vmas[1] = vma(0x55c04e564000, 0x55c04e585000, MACH_VM_READ | MACH_VM_WRITE, 0, 0, 0, 0,
			  MACH_VMA_HEAP, NULL);
	mm->vmas[2] = vma(0x7fe3960cc000, 0x7fe3960ee000, MACH_VM_READ | MACH_VM_WRITE, 0, 0, 0, 0,
			  MACH_VMA_ANON, NULL);
	mm->vmas[3] = vma(0x7fe396334000, 0x7fe39633b000, MACH_VM_READ | MACH_VM_MAYSHARE, 0x1000,
			  0xfe, 0, 332280, MACH_VMA_FILE, "/tmp/we ird\nna\\me");
	mm->vmas[3].deleted = true;
	mm->vmas[4] = vma(0xffffffffff600000ull, 0xffffffffff601000ull, MACH_VM_EXEC, 0, 0, 0, 0,
			  MACH_VMA_VSYSCALL, NULL);
	static const char cmdline[] = "cat\0/proc/self/cmdline";
	mm->cmdline = malloc(sizeof(cmdline));
	memcpy(mm->cmdline, cmdline, sizeof(cmdline));
	mm->cmdline_len = sizeof(cmdline);
}

static char *render(const char *path, size_t *len)
{
	struct pfs_node f;
	struct pfs_ctx ctx;
	char err[256], *text;

	if (pfs_resolve(mach, path, &f, &ctx, err, sizeof(err))) {
		diag("%s", err);
		return NULL;
	}
	if (pfs_render(&f, &ctx, &text, len))
		return NULL;
	return text;
}

static void expect(const char *path, const char *want, size_t want_len, const char *what)
{
	size_t len = 0;
	char *got = render(path, &len);

	is_bytes(got ? got : "", got ? len : 0, want, want_len, "%s: %s", path, what);
	free(got);
}

#define EXPECT(path, lit, what) expect(path, lit, sizeof(lit) - 1, what)

static const char status_618[] =
	"Name:\tcat\nUmask:\t0022\nState:\tR (running)\nTgid:\t6410\nNgid:\t0\nPid:\t6410\n"
	"PPid:\t6408\nTracerPid:\t0\nUid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\nFDSize:\t256\n"
	"Groups:\t \nNStgid:\t6410\nNSpid:\t6410\nNSpgid:\t6408\nNSsid:\t1186\nKthread:\t0\n"
	"VmPeak:\t    3060 kB\nVmSize:\t    3060 kB\nVmLck:\t       0 kB\nVmPin:\t       0 kB\n"
	"VmHWM:\t    1756 kB\nVmRSS:\t    1756 kB\nRssAnon:\t     112 kB\nRssFile:\t    1644 kB\n"
	"RssShmem:\t       0 kB\nVmData:\t     360 kB\nVmStk:\t     132 kB\nVmExe:\t      20 kB\n"
	"VmLib:\t    1528 kB\nVmPTE:\t      48 kB\nVmSwap:\t       0 kB\nHugetlbPages:\t       0 kB\n"
	"CoreDumping:\t0\nTHP_enabled:\t1\nuntag_mask:\t0xffffffffffffffff\nThreads:\t1\n"
	"SigQ:\t0/96364\nSigPnd:\t0000000000000000\nShdPnd:\t0000000000000000\n"
	"SigBlk:\t0000000000000000\nSigIgn:\t0000000000000000\nSigCgt:\t0000000000000000\n"
	"CapInh:\t0000000000000000\nCapPrm:\t000001fffeffffff\nCapEff:\t000001fffeffffff\n"
	"CapBnd:\t000001fffeffffff\nCapAmb:\t0000000000000000\nNoNewPrivs:\t0\nSeccomp:\t0\n"
	"Seccomp_filters:\t0\nSpeculation_Store_Bypass:\tvulnerable\n"
	"SpeculationIndirectBranch:\talways enabled\nCpus_allowed:\t3\nCpus_allowed_list:\t0-1\n"
	"Mems_allowed:\t00000000,00000000,00000000,00000000,00000000,00000000,00000000,00000000,"
	"00000000,00000000,00000000,00000000,00000000,00000000,00000000,00000000,00000000,"
	"00000000,00000000,00000000,00000000,00000000,00000000,00000000,00000000,00000000,"
	"00000000,00000000,00000000,00000000,00000000,00000001\nMems_allowed_list:\t0\n"
	"voluntary_ctxt_switches:\t0\nnonvoluntary_ctxt_switches:\t0\n";

static void test_reference_text(void)
{
	EXPECT("/proc/6410/status", status_618, "the reference VM's status of cat, byte for byte");
	EXPECT("6410/stat",
	       "6410 (cat) R 6408 6408 1186 0 -1 4194304 101 0 0 0 0 0 0 0 20 0 1 0 99466 3133440 439 "
	       "18446744073709551615 94278535892992 94278535912873 140731184738624 0 0 0 0 0 0 0 0 0 "
	       "17 0 0 0 0 0 0 94278535928880 94278535930496 94278923350016 140731184744902 "
	       "140731184744922 140731184744922 140731184746475 0\n",
	       "stat of cat with all 52 fields");
	EXPECT("6410/statm", "765 439 411 5 0 123 0\n", "statm in pages");
	EXPECT("6410/comm", "cat\n", "comm");
	expect("6410/cmdline", "cat\0/proc/self/cmdline", 23, "cmdline with its NULs");
	EXPECT("6410/maps",
	       "55c01ceb1000-55c01ceb3000 r--p 00000000 fe:00 247134                     /usr/bin/cat\n"
	       "55c04e564000-55c04e585000 rw-p 00000000 00:00 0                          [heap]\n"
	       "7fe3960cc000-7fe3960ee000 rw-p 00000000 00:00 0 \n"
	       "7fe396334000-7fe39633b000 r--s 00001000 fe:00 332280                     "
	       "/tmp/we ird\\012na\\me (deleted)\n"
	       "ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0                  [vsyscall]\n",
	       "maps: names at column 73, trailing space when unnamed, newline as \\012");
	EXPECT("/proc/loadavg", "0.77 0.37 0.19 2/78 6415\n", "loadavg rounds by FIXED_1/200");
	EXPECT("uptime", "994.69 1746.95\n", "uptime truncates hundredths");
	EXPECT("pressure/cpu",
	       "some avg10=1.33 avg60=0.80 avg300=1.35 total=16358058\n"
	       "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n",
	       "pressure truncates with no rounding term");
}

static void test_stat_file(void)
{
	size_t len;
	char *text = render("stat", &len);
	const char *want_head = "cpu  1406 0 0 192324 0 0 0 0 0 0\ncpu0 429 0 0 97898 0 0 0 0 0 0\n"
				"cpu1 976 0 0 94426 0 0 0 0 0 0\nintr 36924 0 9";

	if (!ok(text && len > strlen(want_head) && !memcmp(text, want_head, strlen(want_head)),
		"/proc/stat: two spaces after cpu; the aggregate (1406) exceeds 429+976") && text)
		diag_escaped("got:", text, 120);
	ok(text && strstr(text, " 36815 0 0\nctxt 329390\nbtime 1795984074\nprocesses 6942\n"
				"procs_running 2\nprocs_blocked 0\nsoftirq 70324 0 25908 0 0 0 0 0 0 0 44416\n"),
	   "/proc/stat: intr has nr_irqs counts, then the fixed lines");
	size_t counts = 0;
	if (text) {
		const char *line = strstr(text, "intr ");
		const char *end = strchr(line, '\n');
		for (const char *p = line; p < end; p++)
			counts += *p == ' ';
	}
	is_u64(counts, 1 + 40, "intr: the total then exactly nr_irqs numbers");
	free(text);
}

/* A thread's own name (63 bytes at most), none, and its namespace ids in one level and in two. */
static void test_thread_names_and_ids(struct mach_thread *t)
{
	char name[80];
	const char *before;
	size_t len;
	char *text;

	memset(name, 'n', sizeof(name));
	ok(mach_thread_set_comm(t, name, 63) == 0 && t->comm_owned && strlen(t->comm) == 63,
	   "a thread owns a copy of a 63-byte name");
	before = t->comm;
	ok(mach_thread_set_comm(t, name, 64) == -EINVAL && t->comm == before, "64 bytes are refused, the name kept");
	text = render("6410/stat", &len);
	ok(text && !strncmp(text, "6410 (nnnnnnnnnn", 16) && strstr(text, "nnn) R "), "stat shows the 63-byte name");
	free(text);
	ok(mach_thread_set_comm(t, NULL, 0) == 0 && !t->comm && !t->comm_owned, "the name dropped");
	text = render("6410/stat", &len);
	ok(text && !strncmp(text, "6410 () R ", 10), "a thread without a name: stat's parentheses hold nothing");
	free(text);
	text = render("6410/comm", &len);
	ok(text && len == 1 && text[0] == '\n', "and comm is an empty line");
	free(text);

	ok(mach_thread_ns_set(t, 2, (const pid_t[MACH_NR_NSIDS][MACH_NS_LEVELS_MAX]){
					    { 6410, 7 }, { 6410, 7 }, { 6408, 5 }, { 1186, 1 } }) == 0,
	   "two levels of namespace ids");
	text = render("6410/status", &len);
	ok(text && strstr(text, "\nNStgid:\t6410\t7\nNSpid:\t6410\t7\nNSpgid:\t6408\t5\nNSsid:\t1186\t1\n"),
	   "status lists both levels");
	free(text);
	ok(mach_thread_ns_set(t, 1, (const pid_t[MACH_NR_NSIDS][MACH_NS_LEVELS_MAX]){
					    { 6410 }, { 6410 }, { 6408 }, { 1186 } }) == 0 &&
		   mach_thread_ns_ids(t, MACH_NSID_SID)[0] == 1186,
	   "back to one level, kept in the thread");
	text = render("6410/status", &len);
	ok(text && strstr(text, "\nNStgid:\t6410\nNSpid:\t6410\nNSpgid:\t6408\nNSsid:\t1186\n"), "status lists one");
	free(text);
	ok(mach_thread_ns_set(t, MACH_NS_LEVELS_MAX + 1, NULL) == -EINVAL && t->ns_levels == 1,
	   "more levels than kept are refused");
}

/*
 * A thread's rare attributes: held only while one is not zero, given by a
 * copy or in place, and shown where the files show them.
 */
static void test_thread_rare(struct mach_thread *t)
{
	struct mach_thread_rare r = *mach_thread_rare(t);
	size_t len;
	char *text;

	ok(!t->rare && r.tracer_pid == 0 && r.ioprio == 0, "a thread with none holds no block, and reads zeros");
	r.tracer_pid = 4242;
	r.ioprio = 2 << 13 | 4;
	ok(mach_thread_rare_set(t, &r) == 0 && t->rare && mach_thread_rare(t)->tracer_pid == 4242,
	   "one set: the thread holds them");
	text = render("6410/status", &len);
	ok(text && strstr(text, "\nTracerPid:\t4242\n"), "status shows the tracer");
	free(text);
	t->rare->tracer_pid = 0;
	ok(mach_thread_rare_set(t, t->rare) == 0 && t->rare && mach_thread_rare(t)->ioprio == (2 << 13 | 4),
	   "set from its own block: kept while the I/O priority is not zero");
	r = *mach_thread_rare(t);
	r.ioprio = 0;
	ok(mach_thread_rare_set(t, &r) == 0 && !t->rare, "all zero again: the block goes");
	text = render("6410/status", &len);
	ok(text && strstr(text, "\nTracerPid:\t0\n"), "and status shows no tracer");
	free(text);
}

static void test_altered_values(void)
{
	struct mach_thread *t = &proc->threads[0];
	size_t len;
	char *text;

	proc->mm->vm_rss = 123456789;
	proc->mm->stat_rss = 123456789 / 4;
	proc->mm->vm_swap = 99999999;
	mach_thread_cred_mut(t)->cap_amb = 0x1;
	t->sig_blocked = 1ull << 63 | 1ull << 8; /* signals 64 and 9 */
	t->umask = 0777;
	t->comm = "a\nb\\c\td e\"f";
	mach_cred_set_groups(mach_thread_cred_mut(t), (const uint32_t[]){ 4, 24, 27 }, 3);
	mach_bitmap_free(&t->cpus_allowed);
	set_bits(&t->cpus_allowed, 2, 1, 1);
	text = render("6410/status", &len);
	ok(text && strstr(text, "\nVmRSS:\t123456789 kB\n") && strstr(text, "\nVmSwap:\t99999999 kB\n"),
	   "kB values wider than 8 columns grow, exactly 8 are not padded");
	ok(text && strstr(text, "\nCapAmb:\t0000000000000001\n"), "caps keep 16 hex digits");
	ok(text && strstr(text, "\nSigBlk:\t8000000000000100\n"), "signal 64 is the top bit, signal 9 bit 8");
	ok(text && strstr(text, "\nUmask:\t0777\n"), "umask 0777 prints %%#04o");
	ok(text && !strncmp(text, "Name:\ta\\nb\\\\c\td e\"f\n", 20), "Name: escapes newline and backslash only");
	ok(text && strstr(text, "\nGroups:\t4 24 27 \n"), "groups keep their trailing space");
	ok(text && strstr(text, "\nCpus_allowed:\t2\nCpus_allowed_list:\t1\n"), "pinned to CPU 1");
	free(text);

	text = render("6410/stat", &len);
	if (!ok(text && !strncmp(text, "6410 (a\nb\\c\td e\"f) R ", strlen("6410 (a\nb\\c\td e\"f) R ")), "stat comm is raw") && text)
		diag_escaped("got:", text, len);
	ok(text && strstr(text, " 0 20 0 1 0 99466 3133440 30864197 "),
	   "stat rss in pages (123456789 kB / 4)");
	free(text);

	mach->cpus[1].online = false;
	mach->cpus[1].time_ns[MACH_CPU_USER] = 20000000000ull;
	text = render("stat", &len);
	ok(text && !strncmp(text, "cpu  2429 0 0 192324 0 0 0 0 0 0\ncpu0 429 0 0 97898 0 0 0 0 0 0\nintr", 68),
	   "an offline CPU counts in the aggregate but gets no line");
	free(text);
	mach->cpus[1].online = true;

	proc->stat_hidden = true;
	text = render("6410/stat", &len);
	ok(text && strstr(text, " 18446744073709551615 1 1 0 0 0 ") &&
	   strstr(text, " 17 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"),
	   "without ptrace access: startcode/endcode read 1, layout fields 0");
	free(text);
	proc->stat_hidden = false;

	struct mach_mm *mm = proc->mm;
	proc->mm = NULL;
	EXPECT("6410/statm", "0 0 0 0 0 0 0\n", "no mm: seven zeros");
	text = render("6410/status", &len);
	ok(text && !strstr(text, "VmRSS") && strstr(text, "Kthread:\t0\nThreads:\t1\n"),
	   "no mm: the Vm lines are left out");
	free(text);
	proc->mm = mm;

	mach->meminfo[MACH_MEMINFO_MEMTOTAL] = 7;
	text = render("meminfo", &len);
	ok(text && !strncmp(text, "MemTotal:              7 kB\nMemFree:               0 kB\n", 56),
	   "meminfo: label to column 16, value width 8");
	ok(text && strstr(text, "\nVmallocTotal:   34359738367 kB\n") &&
	   strstr(text, "\nHugePages_Total:       0\n") && strstr(text, "\nHugepagesize:       2048 kB\n"),
	   "meminfo: wide values grow; HugePages_* width 5 without kB");
	free(text);

	text = render("vmstat", &len);
	ok(text && !strncmp(text, "nr_free_pages 1099317\nnr_free_pages_blocks 0\n", 44), "vmstat lines");
	free(text);
	test_thread_names_and_ids(t);
	test_thread_rare(t);
}

static void test_resolve_errors(void)
{
	struct pfs_node f;
	struct pfs_ctx ctx;
	char err[256];

	ok(pfs_resolve(mach, "/proc/99/status", &f, &ctx, err, sizeof(err)) == -ENOENT &&
	   strstr(err, "no process 99"), "a missing pid is ENOENT naming it");
	ok(pfs_resolve(mach, "/proc/6410/no_such_file", &f, &ctx, err, sizeof(err)) == -ENOENT,
	   "a file outside the table is ENOENT");
	ok(pfs_resolve(mach, "/etc/passwd", &f, &ctx, err, sizeof(err)) == -ENOENT,
	   "a path outside /proc is ENOENT");
	ok(pfs_resolve(mach, "/proc/6410/task/6410/stat", &f, &ctx, err, sizeof(err)) == 0 && !ctx.whole,
	   "task/<tid> resolves to the thread view");
	ok(pfs_resolve(mach, "/proc/6410/task/7/stat", &f, &ctx, err, sizeof(err)) == -ENOENT,
	   "an unknown tid is ENOENT");
	mach->profile.has_schedstat = false;
	ok(pfs_resolve(mach, "/proc/schedstat", &f, &ctx, err, sizeof(err)) == -ENOENT,
	   "schedstat is absent when the profile has none");
	ok(pfs_resolve(mach, "/proc/pressure/irq", &f, &ctx, err, sizeof(err)) == -ENOENT,
	   "pressure/irq is absent unless present");
}

int main(void)
{
	plan(0);
	build_machine();
	test_reference_text();
	test_stat_file();
	test_altered_values();
	test_resolve_errors();
	mach_free(mach);
	return tap_done();
}
