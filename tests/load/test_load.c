// SPDX-License-Identifier: MIT
/*
 * test_load.c - the /proc loader on fixed texts: typed values, every kind of
 * error with its path:line, the inverse conversions (loadavg, pressure,
 * /proc/stat's CPU remainders), the kernel profile, and the cross-file
 * checks.  test_load_live.c adds the live /proc, a captured tree and the
 * mutation test.
 *
 * The sample texts are byte for byte what Linux 6.18 printed on the
 * reference machine, with pids renamed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "test_load.h"
#include "uprocfs/load.h"
#include "uprocfs/machine.h"
#include "uprocfs/procfs.h"

int load_str(struct mach_loader *ld, const char *path, const char *text, char *err)
{
	err[0] = '\0';
	return pfs_load_text(ld, path, text, strlen(text), err, ERRLEN);
}

int load_set(struct mach_machine *m, const char *const *files, char *err)
{
	struct mach_loader *ld = mach_loader_new(m);
	int rc = ld ? 0 : -ENOMEM;

	for (size_t i = 0; files[i] && !rc; i += 2)
		rc = load_str(ld, files[i], files[i + 1], err);
	if (!rc)
		rc = mach_loader_finish(ld, err, ERRLEN);
	mach_loader_free(ld);
	return rc;
}

int roundtrip(const struct mach_machine *m, const char *path, const char *text, size_t len, int verbose)
{
	struct pfs_node f;
	struct pfs_ctx ctx;
	char err[ERRLEN], *out = NULL;
	size_t olen = 0;
	int same;

	if (pfs_resolve(m, path, &f, &ctx, err, sizeof(err)) || pfs_render(&f, &ctx, &out, &olen)) {
		if (verbose)
			diag("%s: cannot render: %s", path, err);
		return 0;
	}
	same = olen == len && !memcmp(out, text, len);
	if (!same && verbose) {
		size_t i = 0;

		while (i < len && i < olen && out[i] == text[i])
			i++;
		size_t from = i > 40 ? i - 40 : 0;

		diag("%s differs at byte %zu", path, i);
		diag_escaped("  loaded:  ", text + from, len - from > 100 ? 100 : len - from);
		diag_escaped("  rendered:", out + from, olen - from > 100 ? 100 : olen - from);
	}
	free(out);
	return same;
}

/* Every (path, text) of @files renders back from @m byte for byte. */
static void roundtrip_set(const struct mach_machine *m, const char *const *files, const char *what)
{
	unsigned int bad = 0, n = 0;

	for (size_t i = 0; files[i]; i += 2, n++)
		bad += !roundtrip(m, files[i], files[i + 1], strlen(files[i + 1]), 1);
	ok(bad == 0, "%s: the %u files render back byte for byte", what, n);
}

int err_is(const char *err, const char *prefix, const char *needle)
{
	int good = (!prefix || !strncmp(err, prefix, strlen(prefix))) &&
		   (!needle || strstr(err, needle));

	if (!good)
		diag("error was: %s", err);
	return good;
}

/* ------------------------------------------------------------------ */
/* Samples                                                              */

#define MEMS32 \
	"00000000,00000000,00000000,00000000,00000000,00000000,00000000,00000000," \
	"00000000,00000000,00000000,00000000,00000000,00000000,00000000,00000000," \
	"00000000,00000000,00000000,00000000,00000000,00000000,00000000,00000000," \
	"00000000,00000000,00000000,00000000,00000000,00000000,00000000,00000001"

#define STATUS_HEAD(name, state, pid, ppid) \
	"Name:\t" name "\n" \
	"Umask:\t0022\n" \
	"State:\t" state "\n" \
	"Tgid:\t" pid "\n" \
	"Ngid:\t0\n" \
	"Pid:\t" pid "\n" \
	"PPid:\t" ppid "\n" \
	"TracerPid:\t0\n" \
	"Uid:\t0\t0\t0\t0\n" \
	"Gid:\t0\t0\t0\t0\n"

#define STATUS_TAIL \
	"SigQ:\t0/96364\n" \
	"SigPnd:\t0000000000000000\n" \
	"ShdPnd:\t0000000000000000\n" \
	"SigBlk:\t0000000000000000\n" \
	"SigIgn:\t0000000000000000\n" \
	"SigCgt:\t0000000000000000\n" \
	"CapInh:\t0000000000000000\n" \
	"CapPrm:\t000001fffeffffff\n" \
	"CapEff:\t000001fffeffffff\n" \
	"CapBnd:\t000001fffeffffff\n" \
	"CapAmb:\t0000000000000000\n" \
	"NoNewPrivs:\t0\n" \
	"Seccomp:\t0\n" \
	"Seccomp_filters:\t0\n" \
	"Speculation_Store_Bypass:\tvulnerable\n" \
	"SpeculationIndirectBranch:\talways enabled\n" \
	"Cpus_allowed:\t3\n" \
	"Cpus_allowed_list:\t0-1\n" \
	"Mems_allowed:\t" MEMS32 "\n" \
	"Mems_allowed_list:\t0\n" \
	"voluntary_ctxt_switches:\t0\n" \
	"nonvoluntary_ctxt_switches:\t1\n"

#define CAT_VM(rss_line) \
	"VmPeak:\t    3060 kB\n" \
	"VmSize:\t    3060 kB\n" \
	"VmLck:\t       0 kB\n" \
	"VmPin:\t       0 kB\n" \
	"VmHWM:\t    1628 kB\n" \
	rss_line \
	"RssAnon:\t     112 kB\n" \
	"RssFile:\t    1516 kB\n" \
	"RssShmem:\t       0 kB\n" \
	"VmData:\t     360 kB\n" \
	"VmStk:\t     132 kB\n" \
	"VmExe:\t      20 kB\n" \
	"VmLib:\t    1528 kB\n" \
	"VmPTE:\t      52 kB\n" \
	"VmSwap:\t       0 kB\n" \
	"HugetlbPages:\t       0 kB\n" \
	"CoreDumping:\t0\n" \
	"THP_enabled:\t1\n" \
	"untag_mask:\t0xffffffffffffffff\n"

#define CAT_STATUS_RSS(rss_line) \
	STATUS_HEAD("cat", "R (running)", "42", "40") \
	"FDSize:\t256\n" \
	"Groups:\t4 24 27 100 \n" \
	"NStgid:\t42\n" \
	"NSpid:\t42\n" \
	"NSpgid:\t40\n" \
	"NSsid:\t30\n" \
	"Kthread:\t0\n" \
	CAT_VM(rss_line) \
	"Threads:\t1\n" \
	STATUS_TAIL

#define CAT_STATUS CAT_STATUS_RSS("VmRSS:\t    1628 kB\n")

static const char cat_stat[] =
	"42 (cat) R 40 40 30 0 -1 4194304 101 0 0 0 3 2 0 0 20 0 1 0 135186 3133440 407 "
	"18446744073709551615 94914293231616 94914293251497 140727622242976 0 0 0 0 0 0 0 0 0 "
	"17 0 0 0 0 0 0 94914293267504 94914293269120 94914740183040 140727622244803 "
	"140727622244826 140727622244826 140727622246379 0\n";
static const char cat_statm[] = "765 407 379 5 0 123 0\n";
static const char cat_maps[] =
	"56471a0ce000-56471a0d0000 r--p 00000000 fe:00 247134                     /usr/bin/cat\n"
	"56471a0d0000-56471a0d5000 r-xp 00002000 fe:00 247134                     /usr/bin/cat\n"
	"564756a77000-564756a98000 rw-p 00000000 00:00 0                          [heap]\n"
	"7f911e9c1000-7f911e9e3000 rw-p 00000000 00:00 0 \n"
	"7fc087ca6000-7fc087ca7000 rw-s 00000000 00:01 1025                       /dev/zero (deleted)\n"
	"7fc087ca7000-7fc087ca8000 r--p 00000000 fe:00 10953083                   /tmp/lt/gone (deleted)\n"
	"7fc087ca8000-7fc087ca9000 r--s 00000000 fe:00 10952822                   /tmp/lt/we ird\\012na\\me\n"
	"7fc087ca9000-7fc087caa000 rw-p 00000000 00:0e 2057                       anon_inode:[io_uring]\n"
	"7fc087caa000-7fc087cab000 rw-p 00000000 00:00 0                          [anon:tokio]\n"
	"7fc087cab000-7fc087caf000 r--p 00000000 00:00 0                          [vvar]\n"
	"7fc087caf000-7fc087cb1000 r--p 00000000 00:00 0                          [vvar_vclock]\n"
	"7fc087cb1000-7fc087cb3000 r-xp 00000000 00:00 0                          [vdso]\n"
	"7fff062f8000-7fff06319000 rw-p 00000000 00:00 0                          [stack]\n"
	"ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0                  [vsyscall]\n";
static const char cat_cmdline[] = "cat\0/proc/self/status\0";

#define CAT_FILES(status) \
	"42/status", status, "42/stat", cat_stat, "42/statm", cat_statm, "42/maps", cat_maps, \
	"42/comm", "cat\n"

static const char kthreadd_status[] =
	STATUS_HEAD("kthreadd", "S (sleeping)", "2", "0")
	"FDSize:\t64\n"
	"Groups:\t \n"
	"NStgid:\t2\n"
	"NSpid:\t2\n"
	"NSpgid:\t0\n"
	"NSsid:\t0\n"
	"Kthread:\t1\n"
	"Threads:\t1\n"
	"SigQ:\t0/96364\n"
	"SigPnd:\t0000000000000000\n"
	"ShdPnd:\t0000000000000000\n"
	"SigBlk:\t0000000000000000\n"
	"SigIgn:\tffffffffffffffff\n"
	"SigCgt:\t0000000000000000\n"
	"CapInh:\t0000000000000000\n"
	"CapPrm:\t000001ffffffffff\n"
	"CapEff:\t000001ffffffffff\n"
	"CapBnd:\t000001ffffffffff\n"
	"CapAmb:\t0000000000000000\n"
	"NoNewPrivs:\t0\n"
	"Seccomp:\t0\n"
	"Seccomp_filters:\t0\n"
	"Speculation_Store_Bypass:\tvulnerable\n"
	"SpeculationIndirectBranch:\talways enabled\n"
	"Cpus_allowed:\t3\n"
	"Cpus_allowed_list:\t0-1\n"
	"Mems_allowed:\t" MEMS32 "\n"
	"Mems_allowed_list:\t0\n"
	"voluntary_ctxt_switches:\t61\n"
	"nonvoluntary_ctxt_switches:\t0\n";
static const char kthreadd_stat[] =
	"2 (kthreadd) S 0 0 0 0 -1 2129984 0 0 0 0 0 0 0 0 20 0 1 0 19 0 0 18446744073709551615 "
	"0 0 0 0 0 0 0 2147483647 0 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n";

/* A zombie: no Umask (no fs_struct), no mm, its exit status in field 52. */
static const char zombie_status[] =
	"Name:\tedge\n"
	"State:\tZ (zombie)\n"
	"Tgid:\t77\n"
	"Ngid:\t0\n"
	"Pid:\t77\n"
	"PPid:\t76\n"
	"TracerPid:\t0\n"
	"Uid:\t0\t0\t0\t0\n"
	"Gid:\t0\t0\t0\t0\n"
	"FDSize:\t0\n"
	"Groups:\t \n"
	"NStgid:\t77\n"
	"NSpid:\t77\n"
	"NSpgid:\t70\n"
	"NSsid:\t60\n"
	"Kthread:\t0\n"
	"Threads:\t1\n"
	STATUS_TAIL;
static const char zombie_stat[] =
	"77 (edge) Z 76 70 60 0 -1 4227148 16 0 0 0 0 0 0 0 20 0 1 0 166642 0 0 "
	"18446744073709551615 0 0 0 0 0 0 0 0 0 1 0 0 17 1 0 0 0 0 0 0 0 0 0 0 0 0 768\n";

/* Name "a\nb\c<TAB>d e)(f": escaped in status, raw in stat and comm. */
static const char weird_status[] =
	STATUS_HEAD("a\\nb\\\\c\td e)(f", "S (sleeping)", "90", "1")
	"FDSize:\t64\n"
	"Groups:\t \n"
	"NStgid:\t90\t1\n"
	"NSpid:\t90\t1\n"
	"NSpgid:\t90\t1\n"
	"NSsid:\t90\t1\n"
	"Kthread:\t0\n"
	CAT_VM("VmRSS:\t    1628 kB\n")
	"Threads:\t1\n"
	STATUS_TAIL;
static const char weird_stat[] =
	"90 (a\nb\\c\td e)(f) S 1 90 90 0 -1 4194304 118 0 0 0 0 0 0 0 20 0 1 0 166640 3133440 "
	"407 18446744073709551615 94311150923776 94311150924805 140732016183744 0 0 0 0 0 0 1 0 "
	"0 17 0 0 0 0 0 0 94311150935504 94311150936192 94311326289920 140732016191955 "
	"140732016191968 140732016191968 140732016193521 0\n";

static void test_user_process(void)
{
	const char *const files[] = { CAT_FILES(CAT_STATUS), NULL };
	struct mach_machine *m = mach_new();
	struct mach_loader *ld = mach_loader_new(m);
	const struct mach_process *p;
	const struct mach_thread *t;
	char err[ERRLEN];
	int rc;

	rc = 0;
	for (size_t i = 0; files[i] && !rc; i += 2)
		rc = load_str(ld, files[i], files[i + 1], err);
	rc = rc ? rc : pfs_load_text(ld, "42/cmdline", cat_cmdline, sizeof(cat_cmdline) - 1, err,
				      ERRLEN);
	rc = rc ? rc : mach_loader_finish(ld, err, ERRLEN);
	mach_loader_free(ld);
	if (!ok(rc == 0, "a user process loads")) {
		diag("%s", err);
		mach_free(m);
		return;
	}
	p = mach_find_process(m, 42);
	ok(p && p->nthreads == 1 && p->mm, "one process, one thread, an mm");
	if (!p || !p->mm || !p->nthreads) {
		mach_free(m);
		return;
	}
	t = &p->threads[0];
	is_str(t->comm, "cat", "comm");
	is_i64(t->umask, 022, "Umask 0022");
	is_i64(t->state, MACH_TASK_RUNNING, "State R");
	is_i64(p->ppid, 40, "PPid");
	is_u64(p->files ? p->files->max_fds : 0, 256, "FDSize");
	ok(mach_thread_cred(t)->ngroups == 4 && mach_thread_cred(t)->groups[0] == 4 && mach_thread_cred(t)->groups[3] == 100, "Groups 4 24 27 100");
	ok(t->ns_levels == 1 && mach_thread_ns_ids(t, MACH_NSID_PGID)[0] == 40 &&
		   mach_thread_ns_ids(t, MACH_NSID_SID)[0] == 30, "NS lines");
	is_u64(p->mm->vm_peak, 3060, "VmPeak");
	is_u64(p->mm->vm_rss, 1628, "VmRSS");
	is_u64(p->mm->rss_file, 1516, "RssFile");
	is_u64(p->mm->vm_lib, 1528, "VmLib");
	ok(p->mm->thp_enabled && !p->mm->core_dumping, "THP_enabled 1, CoreDumping 0");
	is_u64(p->mm->untag_mask, UINT64_MAX, "untag_mask");
	ok(p->sigq_queued == 0 && p->rlim[MACH_RLIMIT_SIGPENDING].cur == 96364, "SigQ 0/96364");
	is_u64(mach_thread_cred(t)->cap_prm, 0x1fffeffffffull, "CapPrm");
	ok(mach_thread_cred(t)->ssb == MACH_SSB_VULNERABLE && mach_thread_cred(t)->sib == MACH_SIB_ALWAYS_ENABLED, "speculation");
	ok(mach_bitmap_test(&t->cpus_allowed, 0) && mach_bitmap_test(&t->cpus_allowed, 1),
	   "Cpus_allowed 3");
	is_u64(t->cpus_allowed.nbits, m->nr_cpu_ids, "Cpus_allowed is nr_cpu_ids wide");
	is_u64(m->max_numnodes, 1024, "32 groups of Mems_allowed: MAX_NUMNODES 1024");
	ok(mach_bitmap_test(&t->mems_allowed, 0) && !mach_bitmap_test(&t->mems_allowed, 1),
	   "Mems_allowed node 0");
	is_u64(t->nivcsw, 1, "nonvoluntary_ctxt_switches");
	is_u64(t->pf_flags, 4194304, "stat flags");
	is_u64(t->minflt, 101, "minflt");
	is_u64(t->utime_ns, 30000000, "utime 3 ticks");
	is_u64(p->group_stime_ns, 20000000, "group stime 2 ticks");
	is_u64(t->start_time_ns, 135186ull * 10000000, "starttime");
	is_i64(t->priority, 20, "priority");
	is_u64(p->rlim[MACH_RLIMIT_RSS].cur, UINT64_MAX, "rsslim unlimited");
	is_i64(p->tty_nr, 0, "tty_nr");
	is_i64(p->tpgid, -1, "tpgid -1");
	is_i64(p->exit_signal, 17, "exit_signal");
	is_u64(p->mm->start_code, 94914293231616ull, "startcode");
	is_u64(p->mm->env_end, 140727622246379ull, "env_end");
	ok(!p->stat_hidden, "not hidden");
	is_u64(p->mm->statm_text, 5, "statm text");
	is_bytes(p->mm->cmdline, p->mm->cmdline_len, cat_cmdline, sizeof(cat_cmdline) - 1,
		 "cmdline with its NULs");
	is_u64(p->mm->nvmas, 14, "14 mappings");
	if (p->mm->nvmas == 14) {
		const struct mach_vma *v = p->mm->vmas;

		ok(v[0].kind == MACH_VMA_FILE && !strcmp(v[0].name, "/usr/bin/cat") &&
		   v[0].flags == MACH_VM_READ && v[0].dev_major == 0xfe && v[0].inode == 247134,
		   "a file mapping");
		ok(v[1].offset == 0x2000 && v[1].flags == (MACH_VM_READ | MACH_VM_EXEC), "r-xp at 2000");
		ok(v[2].kind == MACH_VMA_HEAP && !v[2].name, "[heap]");
		ok(v[3].kind == MACH_VMA_ANON && !v[3].name, "unnamed: the line ends in \"0 \"");
		ok(v[4].kind == MACH_VMA_FILE && v[4].deleted && !strcmp(v[4].name, "/dev/zero") &&
		   (v[4].flags & MACH_VM_MAYSHARE), "/dev/zero (deleted), shared");
		ok(v[5].deleted && !strcmp(v[5].name, "/tmp/lt/gone"), "a deleted file");
		ok(!v[6].deleted && !strcmp(v[6].name, "/tmp/lt/we ird\nna\\me"),
		   "\\012 is a newline, other backslashes stay");
		ok(v[7].kind == MACH_VMA_FILE && !strcmp(v[7].name, "anon_inode:[io_uring]"),
		   "a path need not start with /");
		ok(v[8].kind == MACH_VMA_ANON_NAMED && !strcmp(v[8].name, "tokio"), "[anon:NAME]");
		ok(v[9].kind == MACH_VMA_VVAR && v[10].kind == MACH_VMA_VVAR_VCLOCK &&
		   v[11].kind == MACH_VMA_VDSO && v[12].kind == MACH_VMA_STACK &&
		   v[13].kind == MACH_VMA_VSYSCALL, "[vvar] [vvar_vclock] [vdso] [stack] [vsyscall]");
		ok(v[13].start == 0xffffffffff600000ull, "gate VMA address");
	}
	ok(m->profile.status_kthread && m->profile.status_untag_mask && m->profile.status_mems_allowed
	   && !m->profile.status_x86_features, "profile from the status lines");
	roundtrip_set(m, files, "the user process");
	ok(roundtrip(m, "42/cmdline", cat_cmdline, sizeof(cat_cmdline) - 1, 1), "cmdline renders back");
	mach_free(m);
}

static void test_padding(void)
{
	const char *const files[] = {
		CAT_FILES(CAT_STATUS_RSS("VmRSS:\t 0001628 kB\n")), NULL
	};
	struct mach_machine *m = mach_new();
	const struct mach_process *p;
	char err[ERRLEN];
	int rc = load_set(m, files, err);

	/*
	 * A padded or zero-prefixed value would load and then render otherwise:
	 * a text edited in storage is refused, never read by value.
	 */
	p = mach_find_process(m, 42);
	ok(rc == -EINVAL && !p && err_is(err, "42/status:23: ", "leading zero"),
	   "\"VmRSS:\\t 0001628 kB\" is refused (the kernel pads to 8, with no zero)");
	mach_free(m);
}

static void test_kthread_zombie_weird(void)
{
	const char *const kfiles[] = { "2/status", kthreadd_status, "2/stat", kthreadd_stat,
				       "2/statm", "0 0 0 0 0 0 0\n", "2/maps", "", "2/cmdline", "",
				       "2/comm", "kthreadd\n", NULL };
	const char *const zfiles[] = { "77/status", zombie_status, "77/stat", zombie_stat,
				       "77/statm", "0 0 0 0 0 0 0\n", "77/maps", "", "77/cmdline", "",
				       "77/comm", "edge\n", NULL };
	const char *const wfiles[] = { "90/status", weird_status, "90/stat", weird_stat,
				       "90/comm", "a\nb\\c\td e)(f\n", NULL };
	struct mach_machine *m = mach_new();
	const struct mach_process *p;
	char err[ERRLEN];
	int rc;

	rc = load_set(m, kfiles, err);
	roundtrip_set(m, kfiles, "kthreadd");
	p = mach_find_process(m, 2);
	ok(rc == 0 && p && !p->mm && p->threads[0].kthread, "kthreadd: a kernel thread, no mm");
	if (rc)
		diag("%s", err);
	if (p) {
		is_u64(p->sig_ignored, UINT64_MAX, "SigIgn all ones");
		is_i64(p->exit_signal, 0, "kthreadd's exit_signal 0");
		ok(p->threads[0].state != MACH_TASK_RUNNING, "asleep: stat field 35 is 1");
		is_u64(p->threads[0].nvcsw, 61, "voluntary_ctxt_switches");
	}
	rc = load_set(m, zfiles, err);
	roundtrip_set(m, zfiles, "the zombie");
	p = mach_find_process(m, 77);
	ok(rc == 0 && p && !p->mm && p->threads[0].state == MACH_TASK_ZOMBIE &&
	   p->threads[0].umask == -1, "a zombie: no Umask, no mm");
	if (rc)
		diag("%s", err);
	if (p)
		is_i64(p->exit_code, 768, "zombie exit_code");
	ok(m->profile.status_umask, "a zombie's missing Umask does not change the profile");
	rc = load_set(m, wfiles, err);
	roundtrip_set(m, wfiles, "the odd name");
	p = mach_find_process(m, 90);
	ok(rc == 0 && p, "comm with newline, backslash, tab, space and parentheses");
	if (rc)
		diag("%s", err);
	if (p) {
		is_str(p->threads[0].comm, "a\nb\\c\td e)(f", "unescaped comm");
		ok(p->threads[0].ns_levels == 2 && mach_thread_ns_ids(&p->threads[0], MACH_NSID_PID)[1] == 1,
		   "two pid namespace levels");
	}
	is_u64(m->nprocs, 3, "three processes, sorted");
	ok(m->nprocs == 3 && m->procs[0].tgid == 2 && m->procs[2].tgid == 90, "by tgid");
	mach_free(m);
}

/* A process of three threads: the leader 50 and threads 51, 52. */
#define THR_STATUS(pid, name, vcsw) \
	STATUS_HEAD(name, "S (sleeping)", "50", "1") \
	"FDSize:\t64\n" \
	"Groups:\t \n" \
	"NStgid:\t50\n" \
	"NSpid:\t" pid "\n" \
	"NSpgid:\t50\n" \
	"NSsid:\t50\n" \
	"Kthread:\t0\n" \
	CAT_VM("VmRSS:\t    1628 kB\n") \
	"Threads:\t3\n" \
	STATUS_TAIL

static char *subst(const char *s, const char *from, const char *to)
{
	const char *at = strstr(s, from);
	char *r = malloc(strlen(s) + strlen(to) + 1);

	if (!r || !at) {
		free(r);
		return NULL;
	}
	memcpy(r, s, (size_t)(at - s));
	strcpy(r + (at - s), to);
	strcat(r, at + strlen(from));
	return r;
}

static void test_threads(void)
{
	static const char st_whole[] =
		"50 (srv) S 1 50 50 0 -1 4194560 1000 5 2 0 40 20 0 0 20 0 3 0 500 3133440 407 "
		"18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 7 0 0 0 0 0 0 0 0 0\n";
	static const char st_lead[] =
		"50 (srv) S 1 50 50 0 -1 4194560 600 5 1 0 10 5 0 0 20 0 3 0 500 3133440 407 "
		"18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 2 0 0 0 0 0 0 0 0 0\n";
	static const char st_51[] =
		"51 (worker) S 1 50 50 0 -1 4194624 300 5 0 0 12 6 0 0 30 10 3 0 510 3133440 407 "
		"18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 -1 0 0 0 0 2 0 0 0 0 0 0 0 0 0\n";
	static const char st_52[] =
		"52 (worker) S 1 50 50 0 -1 4194624 50 5 0 0 13 6 0 0 30 10 3 0 511 3133440 407 "
		"18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 -1 1 0 0 0 2 0 0 0 0 0 0 0 0 0\n";
	char *s51 = subst(THR_STATUS("51", "worker", 0), "Pid:\t50", "Pid:\t51");
	char *s52 = subst(THR_STATUS("52", "worker", 0), "Pid:\t50", "Pid:\t52");
	const char *const files[] = {
		"50/status", THR_STATUS("50", "srv", 0), "50/stat", st_whole,
		"50/statm", cat_statm, "50/comm", "srv\n",
		"50/task/50/status", THR_STATUS("50", "srv", 0), "50/task/50/stat", st_lead,
		"50/task/51/status", s51, "50/task/51/stat", st_51,
		"50/task/52/status", s52, "50/task/52/stat", st_52,
		"50/task/52/statm", cat_statm, "50/task/52/comm", "worker\n",
		NULL
	};
	struct mach_machine *m = mach_new();
	const struct mach_process *p;
	char err[ERRLEN];
	int rc;

	if (!s51 || !s52) {
		ok(0, "test set-up");
		return;
	}
	rc = load_set(m, files, err);
	p = mach_find_process(m, 50);
	ok(rc == 0 && p && p->nthreads == 3, "three threads");
	if (rc)
		diag("%s", err);
	{
		/* a non-leader's exit_signal is -1; the renderer prints the process's */
		const char *const lead[] = { files[0], files[1], files[2], files[3], files[4], files[5],
					     files[6], files[7], files[8], files[9], files[10], files[11],
					     files[12], files[13], files[16], files[17], files[20], files[21],
					     files[22], files[23], NULL };
		unsigned int near = 0;

		roundtrip_set(m, lead, "three threads (but the other threads' stat)");
		for (int k = 14; k <= 18; k += 4) {
			struct pfs_node f;
			struct pfs_ctx ctx;
			char *out = NULL;
			size_t olen = 0;

			if (!pfs_resolve(m, files[k], &f, &ctx, err, sizeof(err)) &&
			    !pfs_render(&f, &ctx, &out, &olen))
				near += stat_equal_except(out, olen, files[k + 1], strlen(files[k + 1]),
							  1ull << 38);
			free(out);
		}
		ok(near == 2, "the other threads' stat render back but for exit_signal -1");
	}
	if (p && p->nthreads == 3) {
		ok(p->threads[0].tid == 50 && p->threads[1].tid == 51 && p->threads[2].tid == 52,
		   "the leader first, then by tid");
		is_u64(p->dead_minflt, 1000 - 600 - 300 - 50, "minflt of exited threads");
		is_u64(p->dead_majflt, 1, "majflt of exited threads");
		is_u64(p->group_utime_ns, 400000000, "group utime from /proc/<pid>/stat");
		is_u64(p->threads[1].utime_ns, 120000000, "a thread's own utime");
		is_i64(p->threads[1].nice, 10, "a thread's own nice");
		is_i64(p->exit_signal, 17, "the leader's exit_signal (threads print -1)");
		ok(p->stat_hidden, "startcode = endcode = 1: no ptrace access");
		ok(p->mm && p->mm->start_code == 0, "hidden layout stays 0");
		is_u64(p->mm ? p->mm->statm_text : 0, 5, "statm text");
		is_u64(p->threads[2].processor, 1, "a thread's processor");
		is_str(p->threads[1].comm, "worker", "a thread's comm");
	}
	mach_free(m);

	/* the whole file's minflt cannot be below its threads' */
	{
		char *bad = subst(st_whole, " 1000 5 2 ", " 900 5 2 ");
		const char *const f2[] = { "50/stat", bad, "50/task/50/stat", st_lead,
					   "50/task/51/stat", st_51, "50/task/52/stat", st_52, NULL };

		m = mach_new();
		rc = load_set(m, f2, err);
		ok(rc == -EINVAL && err_is(err, "50/stat:1:", "below the sum over its threads"),
		   "whole minflt below the threads' sum: error");
		mach_free(m);
		free(bad);
	}
	/* a non-leader thread's exit_signal is -1 */
	{
		char *bad = subst(st_51, " -1 0 0 0 0 2 ", " 17 0 0 0 0 2 ");
		const char *const f3[] = { "50/stat", st_whole, "50/task/50/stat", st_lead,
					   "50/task/51/stat", bad, "50/task/52/stat", st_52, NULL };

		m = mach_new();
		rc = load_set(m, f3, err);
		ok(rc == -EINVAL && err_is(err, "50/task/51/stat:1:", "exit_signal"),
		   "a thread with exit_signal 17: error");
		mach_free(m);
		free(bad);
	}
	free(s51);
	free(s52);
}

/* ------------------------------------------------------------------ */
/* Global files                                                         */

static const char stat_text[] =
	"cpu  1406 0 500 20000 10 0 30 0 0 0\n"
	"cpu0 429 0 250 10000 5 0 15 0 0 0\n"
	"cpu1 976 0 249 9999 5 0 14 0 0 0\n"
	"intr 1000 0 9 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1 1 9 0 0 0 0 270 41 0 34 1\n"
	"ctxt 354101\n"
	"btime 1795984074\n"
	"processes 8542\n"
	"procs_running 2\n"
	"procs_blocked 0\n"
	"softirq 194737 0 30569 4 1739 42540 0 5 68977 0 50903\n";

static void test_stat(void)
{
	struct mach_machine *m = mach_new();
	char err[ERRLEN];
	int rc = load_set(m, (const char *const[]){ "stat", stat_text, NULL }, err);
	unsigned int bad = 0;

	ok(rc == 0, "/proc/stat loads");
	if (rc) {
		diag("%s", err);
		mach_free(m);
		return;
	}
	is_u64(m->ncpus, 2, "two CPUs, no offline one needed");
	is_u64(m->nr_cpu_ids, 2, "nr_cpu_ids");
	for (int c = 0; c < MACH_NR_CPUTIME && m->ncpus == 2; c++) {
		static const uint64_t agg[MACH_NR_CPUTIME] = { 1406, 0, 500, 20000, 10, 0, 30, 0, 0, 0 };
		static const uint64_t c0[MACH_NR_CPUTIME] = { 429, 0, 250, 10000, 5, 0, 15, 0, 0, 0 };
		static const uint64_t c1[MACH_NR_CPUTIME] = { 976, 0, 249, 9999, 5, 0, 14, 0, 0, 0 };
		uint64_t a = m->cpus[0].time_ns[c], b = m->cpus[1].time_ns[c];

		if (mach_ns_to_ticks(a) != c0[c] || mach_ns_to_ticks(b) != c1[c] ||
		    mach_ns_to_ticks(a + b) != agg[c])
			bad++;
	}
	is_u64(bad, 0, "per-CPU ns print back each cpuN line and, summed, the cpu line");
	ok(roundtrip(m, "stat", stat_text, strlen(stat_text), 1), "/proc/stat renders back");
	is_u64(m->nr_irqs, 36, "nr_irqs = counts after the total");
	ok(m->nirqs == 8 && m->irqs[0].irq == 1 && m->irqs[0].total == 9 && !m->irqs[0].per_cpu,
	   "sparse irqs");
	is_u64(m->intr_arch_extra, 1000 - 366, "intr total minus the listed counts");
	is_u64(m->softirq[7], 68977, "softirq SCHED");
	ok(m->ctxt == 354101 && m->btime == 1795984074 && m->processes == 8542 &&
	   m->procs_running == 2 && m->procs_blocked == 0, "ctxt btime processes procs_*");
	mach_free(m);

	/* a surplus the online CPUs cannot absorb: an offline CPU holds it */
	m = mach_new();
	{
		static const char t[] =
			"cpu  500 0 0 0 0 0 0 0 0 0\n"
			"cpu0 100 0 0 0 0 0 0 0 0 0\n"
			"cpu1 100 0 0 0 0 0 0 0 0 0\n"
			"intr 0\nctxt 1\nbtime 2\nprocesses 3\nprocs_running 1\nprocs_blocked 0\n"
			"softirq 0 0 0 0 0 0 0 0 0 0 0\n";
		uint64_t sum = 0;

		rc = load_set(m, (const char *const[]){ "stat", t, NULL }, err);
		ok(rc == 0 && m->ncpus == 3 && !m->cpus[2].online && m->cpus[2].id == 2,
		   "aggregate surplus of 300 ticks: offline cpu2");
		for (unsigned int i = 0; i < m->ncpus; i++)
			sum += m->cpus[i].time_ns[MACH_CPU_USER];
		is_u64(mach_ns_to_ticks(sum), 500, "the aggregate prints back");
		is_u64(m->nr_irqs, 0, "intr with no per-irq counts");
		is_u64(m->nr_cpu_ids, 3, "nr_cpu_ids covers the offline CPU");
	}
	mach_free(m);
}

static const char meminfo_text[] =
	"MemTotal:       24683620 kB\n"
	"MemFree:        24441892 kB\n"
	"VmallocTotal:   34359738367 kB\n"
	"HugePages_Total:       0\n"
	"Hugepagesize:       2048 kB\n"
	"DirectMap2M:    25135104 kB\n";

static void test_small_globals(void)
{
	struct mach_machine *m = mach_new();
	struct mach_loader *ld = mach_loader_new(m);
	char err[ERRLEN];
	int rc;

	rc = load_str(ld, "meminfo", meminfo_text, err);
	ok(rc == 0 && m->profile.nmeminfo == 6 &&
	   m->profile.meminfo_order[2] == MACH_MEMINFO_VMALLOCTOTAL &&
	   m->meminfo[MACH_MEMINFO_VMALLOCTOTAL] == 34359738367ull &&
	   m->meminfo[MACH_MEMINFO_HUGEPAGESIZE] == 2048, "meminfo values and order");
	if (rc)
		diag("%s", err);
	rc = load_str(ld, "vmstat", "nr_free_pages 6110473\nnr_zone_inactive_anon 1035\npgfault 1234\n", err);
	ok(rc == 0 && m->profile.nvmstat == 3 && m->vmstat[MACH_VMSTAT_PGFAULT] == 1234 &&
	   m->profile.vmstat_order[2] == MACH_VMSTAT_PGFAULT, "vmstat values and order");
	rc = load_str(ld, "uptime", "461.36 751.54\n", err);
	ok(rc == 0 && m->uptime_ns == 461360000000ull && m->idle_ns == 751540000000ull, "uptime");
	rc = load_str(ld, "loadavg", "0.43 0.34 0.15 2/107 16736\n", err);
	ok(rc == 0 && m->nr_running == 2 && m->nr_threads == 107 && m->last_pid == 16736,
	   "loadavg counts");
	rc = load_str(ld, "pressure/cpu",
		      "some avg10=3.03 avg60=3.12 avg300=1.13 total=5303257\n"
		      "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n", err);
	ok(rc == 0 && m->pressure[MACH_PSI_CPU].present && m->pressure[MACH_PSI_CPU].has_some &&
	   m->pressure[MACH_PSI_CPU].has_full &&
	   m->pressure[MACH_PSI_CPU].some.total_us == 5303257, "pressure/cpu");
	rc = load_str(ld, "pressure/irq", "full avg10=0.10 avg60=0.00 avg300=0.00 total=42\n", err);
	ok(rc == 0 && !m->pressure[MACH_PSI_IRQ].has_some && m->pressure[MACH_PSI_IRQ].has_full,
	   "pressure/irq has only a full line");
	rc = load_str(ld, "schedstat",
		      "version 17\ntimestamp 4295000000\n"
		      "cpu0 0 0 100 50 60 30 123456789 98765 40\n"
		      "domain0 MC 3 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 "
		      "24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45\n"
		      "cpu1 1 0 101 51 61 31 223456789 198765 41\n"
		      "domain0 MC 3 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 "
		      "0 0 0 0 0 0 0 0 0 0 0 0 7\n", err);
	ok(rc == 0 && m->ncpus == 2 && m->cpus[0].sched.ndomains == 1 &&
	   m->cpus[0].sched.domains[0].level == MACH_SD_MC &&
	   m->cpus[0].sched.domains[0].lb[MACH_IDLE_IDLE][MACH_LB_COUNT] == 12 &&
	   m->cpus[0].sched.domains[0].tail[MACH_TTWU_MOVE_BALANCE] == 45 &&
	   m->cpus[1].sched.rq_cpu_time == 223456789 && m->schedstat_timestamp == 4295000000ull,
	   "schedstat v17");
	if (rc)
		diag("%s", err);
	rc = load_str(ld, "stat", stat_text, err);
	ok(rc == 0 && m->ncpus == 2 && m->cpus[1].sched.pcount == 41,
	   "/proc/stat after schedstat keeps the scheduler statistics");
	rc = mach_loader_finish(ld, err, ERRLEN);
	ok(rc == 0 && m->cpus[0].sched.domains[0].span.nbits == 2, "domain span nr_cpu_ids wide");
	mach_loader_free(ld);
	mach_free(m);
}

/* Every printed average maps back to a fixed-point value that prints the same. */
static void test_inverses(void)
{
	unsigned int bad_load = 0, bad_psi = 0;

	for (unsigned int ip = 0; ip < 70; ip += (ip < 3 ? 1 : 33)) {
		for (unsigned int frac = 0; frac < 100; frac++) {
			char text[128], err[ERRLEN];
			struct mach_machine *m = mach_new();
			struct mach_loader *ld = mach_loader_new(m);
			unsigned long x, y;

			snprintf(text, sizeof(text), "%u.%02u 0.00 0.00 1/1 1\n", ip, frac);
			if (load_str(ld, "loadavg", text, err)) {
				bad_load++;
			} else {
				y = m->avenrun[0] + MACH_FIXED_1 / 200;
				if ((y >> 11) != ip || (((y & 2047) * 100) >> 11) != frac)
					bad_load++;
			}
			snprintf(text, sizeof(text), "some avg10=%u.%02u avg60=0.00 avg300=0.00 total=0\n",
				 ip, frac);
			if (load_str(ld, "pressure/io", text, err)) {
				bad_psi++;
			} else {
				x = m->pressure[MACH_PSI_IO].some.avg[0];
				if ((x >> 11) != ip || (((x & 2047) * 100) >> 11) != frac)
					bad_psi++;
			}
			mach_loader_finish(ld, err, ERRLEN);
			mach_loader_free(ld);
			mach_free(m);
		}
	}
	is_u64(bad_load, 0, "every loadavg x.yy inverts to an avenrun that prints x.yy");
	is_u64(bad_psi, 0, "every pressure x.yy inverts to an average that prints x.yy");
}

/* ------------------------------------------------------------------ */
/* Errors                                                               */

static void expect_error(const char *path, const char *text, size_t len, const char *prefix,
			 const char *needle, const char *what)
{
	struct mach_machine *m = mach_new();
	struct mach_loader *ld = mach_loader_new(m);
	char err[ERRLEN] = "";
	int rc = pfs_load_text(ld, path, text, len, err, ERRLEN);

	if (!rc)
		rc = mach_loader_finish(ld, err, ERRLEN);
	mach_loader_free(ld);
	ok(rc == -EINVAL && err_is(err, prefix, needle), "%s", what);
	mach_free(m);
}

static void expect_error_str(const char *path, const char *text, const char *prefix,
			     const char *needle, const char *what)
{
	expect_error(path, text, strlen(text), prefix, needle, what);
}

static void test_errors(void)
{
	const char *const cs = CAT_STATUS;
	char *t;

	/* the cursor names the line: VmRSS: is line 23 of the sample */
	t = subst(cs, "VmRSS:\t    1628 kB\n", "VmRSS:\tx12 kB\n");
	expect_error_str("42/status", t, "42/status:23: ",
			 "expected a number after \"VmRSS:\", got \"x12\"", "a bad number");
	free(t);
	expect_error("42/status", cs, (size_t)(strstr(cs, "VmRSS:") - cs) + 12, "42/status:23: ",
		     "pads to 8 columns after \"VmRSS:\"", "a truncated line");
	expect_error("42/status", cs, (size_t)(strstr(cs, "VmRSS:") - cs), "42/status:23: ",
		     "expected \"VmRSS:\", got end of file", "a truncated file");
	t = subst(cs, "VmRSS:\t    1628 kB\n", "VmRSS:\t    1628 KB\n");
	expect_error_str("42/status", t, "42/status:23: ", "expected \" kB\"", "a wrong unit");
	free(t);
	t = subst(cs, "VmRSS:\t    1628 kB\n", "VmRSS:\t99999999999999999999999 kB\n");
	expect_error_str("42/status", t, "42/status:23: ", "too large", "a huge number");
	free(t);
	t = subst(cs, "Ngid:\t0\n", "Ngid:\t0\nFoo:\t1\n");
	expect_error_str("42/status", t, "42/status:6: ", "unknown field \"Foo:\"", "an unknown field");
	free(t);
	t = subst(cs, "Pid:\t42\n", "Pid:\t42\nPid:\t42\n");
	expect_error_str("42/status", t, "42/status:7: ", "\"Pid:\" repeated or out of order",
			 "a duplicated line");
	free(t);
	t = subst(cs, "State:\tR (running)\n", "");
	expect_error_str("42/status", t, "42/status:3: ", "expected \"State:\", got \"Tgid:\"",
			 "a missing line");
	free(t);
	t = subst(cs, "Uid:\t0\t0\t0\t0\n", "Uid:\t0\t0\t0\n");
	expect_error_str("42/status", t, "42/status:9: ", "expected \"\\t\" after \"Uid:\"",
			 "a missing token");
	free(t);
	t = subst(cs, "Groups:\t4 24 27 100 \n", "Groups:\t4 24 27 100\n");
	expect_error_str("42/status", t, "42/status:12: ", "expected \" \" after \"Groups:\"",
			 "Groups: without its trailing space");
	free(t);
	t = subst(cs, "NSsid:\t30\n", "NSsid:\t30\t1\n");
	expect_error_str("42/status", t, "42/status:16: ", "levels", "NS lines of different depth");
	free(t);
	{
		const char *nine = "NStgid:\t42\t1\t2\t3\t4\t5\t6\t7\t8\n";

		t = subst(cs, "NStgid:\t42\n", nine);
		expect_error_str("42/status", t, "42/status:13: ", "more than 8 pid namespace levels",
				 "too many NS levels");
		free(t);
	}
	t = subst(cs, "Name:\tcat\n", "Name:\tc\\at\n");
	expect_error_str("42/status", t, "42/status:1: ", "bad escape", "a bad escape in Name:");
	free(t);
	t = subst(cs, "Cpus_allowed_list:\t0-1\n", "Cpus_allowed_list:\t0\n");
	expect_error_str("42/status", t, "42/status:", "does not match the bitmap",
			 "Cpus_allowed_list disagrees with Cpus_allowed");
	free(t);
	t = subst(cs, "Speculation_Store_Bypass:\tvulnerable\n",
		  "Speculation_Store_Bypass:\tvulnerable-ish\n");
	expect_error_str("42/status", t, "42/status:", "Speculation_Store_Bypass", "an unknown state name");
	free(t);
	t = subst(cs, "Tgid:\t42\n", "Tgid:\t41\n");
	expect_error_str("42/status", t, "42/status:4: ", "not the process id 42", "Tgid: not the pid");
	free(t);
	t = subst(cs, "RssAnon:\t     112 kB\n", "RssAnon:\t     116 kB\n");
	expect_error_str("42/status", t, "42/status:23: ", "VmRSS: is not RssAnon:", "Rss sum");
	free(t);
	expect_error_str("42/stat", "42 (cat R 40\n", "42/stat:1: ", "closed by \")\"",
			 "stat without the comm's ')'");
	t = subst(cat_stat, " 0\n", "\n");
	expect_error_str("42/stat", t, "42/stat:1: ", "expected \" \" in field 52 (exit_code)",
			 "stat with 51 fields");
	free(t);
	t = subst(cat_stat, "R 40 40 30 0 -1 4194304 101", "R 40 40 30 0 -1 4194304 -101");
	expect_error_str("42/stat", t, "42/stat:1: ", "field 10 (minflt)", "a negative unsigned field");
	free(t);
	expect_error_str("42/stat", "42 (x\n) Q\n", "42/stat:2: ", "state letter",
			 "a bad state letter, line counted through the comm's newline");
	expect_error_str("42/statm", "765 407 379 5 0 123\n", "42/statm:1: ", "field 7 (dt)",
			 "statm with six fields");
	expect_error_str("42/maps", "56471a0ce000-56471a0d0000 r--p 00000000 fe:00 247134\n",
			 "42/maps:1: ", "expected \" \" after \"inode\"",
			 "maps without the space after the inode");
	expect_error_str("42/maps",
			 "7f911e9c1000-7f911e9e3000 rw-p 00000000 00:00 0 \n"
			 "7f911e9c0000-7f911e9c1000 rw-p 00000000 00:00 0 \n",
			 "42/maps:2: ", "overlaps or precedes", "maps out of order");
	expect_error_str("42/maps", "7f911e9c1000-7f911e9e3000 rwzp 00000000 00:00 0 \n",
			 "42/maps:1: ", "permissions", "bad permissions");
	expect_error_str("42/comm", "cat", "42/comm:1: ", "newline", "comm without its newline");
	expect_error_str("meminfo", "MemTotal:       24683620 kB\nMemFree:        24441892 kB\n"
			 "MemAvailable:   24396132 kB\nBuffers:             960 kB\n"
			 "Cached:            99568 kB\nSwapCached:            0 kB\n"
			 "Active:            68128 kB\nInactive:          29104 kB\n"
			 "Active(anon):       1520 kB\nInactive(anon):     4140 kB\n"
			 "Active(file):      66608 kB\nFoo bar:      1 kB\n", "meminfo:12: ",
			 "\"Foo bar:\" is not a meminfo label", "meminfo: a label no kernel prints");
	expect_error_str("meminfo", "MemTotal:      24683620 kB\n", "meminfo:1: ",
			 "expected the kernel's padding", "meminfo: a value with the wrong padding");
	expect_error_str("meminfo", "MemTotal:       24683620 kB\nMemTotal:       24683620 kB\n",
			 "meminfo:2: ", "repeated", "meminfo: a repeated field");
	expect_error_str("meminfo", "HugePages_Total:       0 kB\n", "meminfo:1: ",
			 "expected end of line", "meminfo: a unit where none is printed");
	expect_error_str("vmstat", "nr_free_pages 1\nnr-bogus 2\n", "vmstat:2: ",
			 "not a vmstat counter name", "vmstat: a name no kernel prints");
	expect_error_str("vmstat", "nr_free_pages 01\n", "vmstat:1: ", "leading zero",
			 "vmstat: a leading zero");
	expect_error_str("vmstat", "nr_bounce 1\nnr_bounce 2\n", "vmstat:2: ", "repeated",
			 "vmstat: an extra counter repeated");
	expect_error_str("vmstat", "nr_free_pages\t1\n", "vmstat:1: ", "expected \" \"",
			 "vmstat: a tab for the space");
	expect_error_str("loadavg", "0.43 0.34 0.1 2/107 16736\n", "loadavg:1: ", "two decimals",
			 "loadavg with one decimal");
	expect_error_str("uptime", "461.36\n", "uptime:1: ", "expected \" \"", "uptime with one field");
	expect_error_str("pressure/cpu", "some avg10=3.03 avg60=3.12 total=1\n", "pressure/cpu:1: ",
			 "avg300=", "pressure without avg300");
	t = subst(stat_text, "cpu  1406", "cpu  1404");
	expect_error_str("stat", t, "stat:1: ", "below the sum of the per-CPU lines",
			 "aggregate below the per-CPU sum");
	free(t);
	t = subst(stat_text, "softirq 194737", "softirq 194738");
	expect_error_str("stat", t, "stat:10: ", "not the sum", "softirq total mismatch");
	free(t);
	t = subst(stat_text, "intr 1000", "intr 100");
	expect_error_str("stat", t, "stat:4: ", "below the sum of the per-irq counts",
			 "intr total below its counts");
	free(t);
	t = subst(stat_text, "cpu  1406", "cpu 1406");
	expect_error_str("stat", t, "stat:1: ", "expected \"cpu  \"", "\"cpu\" with one space");
	free(t);
	expect_error_str("schedstat", "version 14\ntimestamp 1\n", "schedstat:1: ", "version 14",
			 "a schedstat version before 15");
	expect_error_str("42/bogus", "x", "42/bogus: ", "not a file the loader parses",
			 "an unknown path");

	/* cross-file disagreements name both files */
	{
		const char *const f[] = { "42/status", CAT_STATUS, "42/statm", "765 408 379 5 0 123 0\n",
					  NULL };
		struct mach_machine *m = mach_new();
		char err[ERRLEN];
		int rc = load_set(m, f, err);

		ok(rc == -EINVAL && err_is(err, "42/statm:1: ", "42/status:23"),
		   "statm resident disagrees with status VmRSS: both files named");
		mach_free(m);
	}
	{
		char *bad = subst(cat_stat, "42 (cat) R", "42 (cat) S");
		const char *const f[] = { "42/status", CAT_STATUS, "42/stat", bad, NULL };
		struct mach_machine *m = mach_new();
		char err[ERRLEN];
		int rc = load_set(m, f, err);

		ok(rc == -EINVAL && err_is(err, "42/status:3: ", "42/stat:1"),
		   "status State: R, stat S: both files named");
		mach_free(m);
		free(bad);
	}
	{
		const char *const f[] = { "42/status", CAT_STATUS, "42/comm", "dog\n", NULL };
		struct mach_machine *m = mach_new();
		char err[ERRLEN];
		int rc = load_set(m, f, err);

		ok(rc == -EINVAL && err_is(err, "42/comm:1: ", "42/status"), "comm vs Name:");
		mach_free(m);
	}
	{
		char *lead = subst(CAT_STATUS, "VmHWM:\t    1628 kB", "VmHWM:\t    1632 kB");
		const char *const f[] = { "42/status", CAT_STATUS, "42/task/42/status", lead, NULL };
		struct mach_machine *m = mach_new();
		char err[ERRLEN];
		int rc = load_set(m, f, err);

		ok(rc == -EINVAL && err_is(err, "42/status:22: ", "42/task/42/status:22"),
		   "/proc/42/status and task/42/status disagree on VmHWM:");
		mach_free(m);
		free(lead);
	}
	{
		/* the first status decides the profile; a later one may not differ */
		char *nokt = subst(CAT_STATUS, "Kthread:\t0\n", "");
		char *nokt2 = nokt ? subst(nokt, "42", "43") : NULL;
		char *nokt3 = nokt2 ? subst(nokt2, "Pid:\t42", "Pid:\t43") : NULL;
		char *nokt4 = nokt3 ? subst(nokt3, "NStgid:\t42", "NStgid:\t43") : NULL;
		char *nokt5 = nokt4 ? subst(nokt4, "NSpid:\t42", "NSpid:\t43") : NULL;
		const char *const f[] = { "42/status", CAT_STATUS, "43/status", nokt5, NULL };
		struct mach_machine *m = mach_new();
		char err[ERRLEN];
		int rc = nokt5 ? load_set(m, f, err) : 0;

		ok(rc == -EINVAL && err_is(err, "43/status:1: has no \"Kthread:\" line", "42/status"),
		   "profile: a status without Kthread: after one with it, both named");
		mach_free(m);
		free(nokt);
		free(nokt2);
		free(nokt3);
		free(nokt4);
		free(nokt5);
	}
	{
		/* the status widths bound nr_cpu_ids: "3" allows at most 4 CPUs */
		static const char st8[] =
			"cpu  0 0 0 0 0 0 0 0 0 0\ncpu7 0 0 0 0 0 0 0 0 0 0\nintr 0\nctxt 1\nbtime 2\n"
			"processes 3\nprocs_running 1\nprocs_blocked 0\nsoftirq 0 0 0 0 0 0 0 0 0 0 0\n";
		const char *const f[] = { "stat", st8, "42/status", CAT_STATUS, NULL };
		struct mach_machine *m = mach_new();
		char err[ERRLEN];
		int rc = load_set(m, f, err);

		ok(rc == -EINVAL && err_is(err, "nr_cpu_ids: stat needs at least 8", "42/status"),
		   "cpu7 in stat but a 1-digit Cpus_allowed: error naming both");
		mach_free(m);
	}
	{
		/* ... and raise it: "03" is 5 to 8 bits wide */
		char *wide = subst(CAT_STATUS, "Cpus_allowed:\t3\n", "Cpus_allowed:\t03\n");
		const char *const f[] = { "stat", stat_text, "42/status", wide, NULL };
		struct mach_machine *m = mach_new();
		char err[ERRLEN];
		int rc = load_set(m, f, err);

		ok(rc == 0 && m->nr_cpu_ids == 5, "a 2-digit Cpus_allowed raises nr_cpu_ids to 5");
		if (rc)
			diag("%s", err);
		mach_free(m);
		free(wide);
	}
}

int main(void)
{
	test_user_process();
	test_padding();
	test_kthread_zombie_weird();
	test_threads();
	test_stat();
	test_small_globals();
	test_inverses();
	test_errors();
	test_interrupts();
	test_sysctl();
	test_system_files();
	/*
	 * The rest reads this machine's /proc (test_load_live.c); without one
	 * it cannot run, and says so once rather than passing empty checks.
	 */
	if (access("/proc/self/status", R_OK) == 0) {
		test_tree();
		test_live();
		test_roundtrip_live();
		test_mutations();
	} else {
		skip("live /proc: /proc/self/status is not readable (%s)", strerror(errno));
	}
	return tap_done();
}
