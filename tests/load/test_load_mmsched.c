// SPDX-License-Identifier: MIT
/*
 * test_load_mmsched.c - the loader of smaps, smaps_rollup, schedstat,
 * wchan, stack, syscall and children.
 *
 * The fixed-point PSS fit on cases taken from the reference machine (a
 * mapping whose anon pages are private and whose file pages are shared,
 * so Pss_Anon is exact while Pss is not; locked pages shared three ways);
 * a synthetic process's files loaded back byte for byte; and each file
 * altered the way a moving task or a foreign kernel alters it, refused
 * with a message naming the file.  smaps of kernels from 3.10 to 6.6 load
 * as the kernel that wrote them, ProtectionKey lines too; lines edited,
 * missing or moved are refused.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_vmas.h"
#include "load/load_mmsched.h"
#include "spec.h"
#include "tap.h"
#include "uprocfs/load.h"
#include "uprocfs/procfs.h"

#define KB_FIXED (UINT64_C(1) << (MACH_PSS_SHIFT + 10))

/* ------------------------------------------------------------------ */
/* The fit                                                              */

/* A VMA of the fit: Rss, Pss, Anonymous, dirty kB and VM_LOCKED. */
static struct ld_smap smap(uint64_t rss, uint64_t pss, uint64_t anon, uint64_t dirty, bool locked)
{
	struct ld_smap v = { .vma = { .flags = locked ? MACH_VM_LOCKED : 0, .kind = MACH_VMA_ANON } };

	v.kb[SM_RSS] = rss;
	v.kb[SM_PSS] = pss;
	v.kb[SM_ANONYMOUS] = anon;
	v.kb[SM_PRIVATE_DIRTY] = dirty;
	v.kb[SM_PSS_DIRTY] = pss < dirty ? pss : dirty;
	v.kb[SM_LOCKED] = locked ? pss : 0;
	return v;
}

/* Each VMA prints what it printed, the sums print the rollup, the kinds add up. */
static bool fits(const struct ld_smap *v, size_t n, const struct ld_rollup *ro)
{
	uint64_t pss = 0, anon = 0, file = 0, shmem = 0, locked = 0, dirty = 0;
	bool good = true;

	for (size_t i = 0; i < n; i++) {
		const struct mach_mss *s = &v[i].vma.mss;

		good &= s->pss / KB_FIXED == v[i].kb[SM_PSS] && s->pss_dirty / KB_FIXED == v[i].kb[SM_PSS_DIRTY] &&
			s->pss == s->pss_anon + s->pss_file + s->pss_shmem && s->pss <= v[i].kb[SM_RSS] * KB_FIXED &&
			s->pss_anon <= v[i].kb[SM_ANONYMOUS] * KB_FIXED;
		pss += s->pss;
		anon += s->pss_anon;
		file += s->pss_file;
		shmem += s->pss_shmem;
		dirty += s->pss_dirty;
		locked += (v[i].vma.flags & MACH_VM_LOCKED) ? s->pss : 0;
	}
	return good && pss / KB_FIXED == ro->kb[SM_PSS] && anon / KB_FIXED == ro->kb[SM_PSS_ANON] &&
	       file / KB_FIXED == ro->kb[SM_PSS_FILE] && shmem / KB_FIXED == ro->kb[SM_PSS_SHMEM] &&
	       locked / KB_FIXED == ro->kb[SM_LOCKED] && dirty / KB_FIXED == ro->kb[SM_PSS_DIRTY];
}

static void test_fit(void)
{
	char err[512];
	struct ld_msg ms = { err, sizeof(err), NULL };
	/*
	 * From a bash on the reference machine: its heap and data are private
	 * anon pages (Pss = Anonymous, exact); one mapping holds 12 kB of
	 * private anon pages and 24 kB of file pages shared widely, so its Pss
	 * prints 12 but is 12 and a bit; the file pages elsewhere make up the
	 * rest.  Pss_Anon is the exact anon sum, Pss one kB above the lines.
	 */
	struct ld_smap v[] = {
		smap(40, 40, 0, 0, false), smap(44784, 44784, 44784, 44784, false),
		smap(1132, 1132, 1132, 1132, false), smap(36, 12, 12, 12, false), smap(980, 71, 0, 0, false),
		smap(152, 1, 0, 0, false), smap(128, 11, 0, 0, false), smap(224, 112, 0, 0, false),
		smap(1004, 1004, 1004, 1004, false), smap(424, 424, 424, 424, false),
	};
	struct ld_rollup ro = { .path = "7/smaps_rollup" };
	/* locked anon pages shared three ways: 16 kB print Pss 5, and Locked 5 */
	struct ld_smap w[] = { smap(16, 5, 16, 16, true), smap(8, 2, 8, 8, false), smap(8, 8, 0, 0, false) };
	struct ld_rollup rw = { .path = "8/smaps_rollup" };
	struct mach_smaps_profile p618;
	int rc;

	mach_smaps_profile_default(&p618);
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		ro.kb[SM_PSS] += v[i].kb[SM_PSS];
		ro.kb[SM_PSS_DIRTY] += v[i].kb[SM_PSS_DIRTY];
		ro.kb[SM_PSS_ANON] += v[i].kb[SM_ANONYMOUS];
	}
	ro.kb[SM_PSS] += 1;
	ro.kb[SM_PSS_FILE] = ro.kb[SM_PSS] - ro.kb[SM_PSS_ANON];
	rc = ld_fit_pss(&ms, v, sizeof(v) / sizeof(v[0]), &ro, &p618);
	ok(rc == 0 && fits(v, sizeof(v) / sizeof(v[0]), &ro),
	   "Pss a kB above its lines, Pss_Anon exact: the file pages' fractions carry it");
	if (rc)
		diag("%s", err);
	rw.kb[SM_PSS] = 16;
	rw.kb[SM_LOCKED] = 5;
	rw.kb[SM_PSS_ANON] = 8;
	rw.kb[SM_PSS_FILE] = 8;
	rw.kb[SM_PSS_DIRTY] = 8;
	rc = ld_fit_pss(&ms, w, 3, &rw, &p618);
	ok(rc == 0 && fits(w, 3, &rw), "locked pages shared three ways: Locked and Pss in thirds");
	if (rc)
		diag("%s", err);
	rw.kb[SM_PSS] = 19; /* beyond what three VMAs' fractions can make up */
	rc = ld_fit_pss(&ms, w, 3, &rw, &p618);
	ok(rc == -ENOTSUP && strstr(err, "8/smaps_rollup: Pss: 19 kB"), "a rollup no fractions explain: refused");
}

/* ------------------------------------------------------------------ */
/* A synthetic process's files, loaded back and altered                 */

struct pfile {
	char path[96];
	char *text;
	size_t len;
};

struct pset {
	pid_t pid;
	struct pfile f[1024];
	size_t n;
};

static int take_file(void *arg, const struct pfs_node *n, const struct pfs_ctx *c)
{
	struct pset *s = arg;
	struct pfile *f;

	if (n->pid != s->pid || s->n == sizeof(s->f) / sizeof(s->f[0]))
		return 0;
	f = &s->f[s->n];
	if (pfs_node_path(n, c, f->path, sizeof(f->path)) || pfs_render(n, c, &f->text, &f->len))
		return -EIO;
	s->n++;
	return 0;
}

/* Load @s into a fresh machine (the global files of @m first), @alter applied to file @which. */
static int load_back(const struct mach_machine *m, const struct pset *s, const char *which,
		     void (*alter)(char *text), struct mach_machine **out, char *err, size_t errlen)
{
	static const char *const globals[] = { "stat", "meminfo", "vmstat", "loadavg", "uptime" };
	struct mach_machine *b = mach_new();
	struct mach_loader *ld = b ? mach_loader_new(b) : NULL;
	int rc = ld ? 0 : -ENOMEM;
	char twin[128];

	for (size_t i = 0; i < sizeof(globals) / sizeof(globals[0]) && !rc; i++) {
		struct pfs_node n;
		struct pfs_ctx c;
		char *text;
		size_t len;

		rc = pfs_resolve(m, globals[i], &n, &c, err, errlen);
		if (!rc && !(rc = pfs_render(&n, &c, &text, &len))) {
			rc = pfs_load_text(ld, globals[i], text, len, err, errlen);
			free(text);
		}
	}
	/* @which is /proc/<pid>/X: the leader's task/<pid>/X, the same task, changes with it */
	snprintf(twin, sizeof(twin), "%d/task/%d/%s", (int)s->pid, (int)s->pid,
		 which && strchr(which, '/') ? strchr(which, '/') + 1 : "");
	for (size_t i = 0; i < s->n && !rc; i++) {
		char *text = malloc(2 * s->f[i].len + 64);
		size_t len = s->f[i].len;

		if (!text) {
			rc = -ENOMEM;
			break;
		}
		memcpy(text, s->f[i].text, len);
		text[len] = '\0';
		size_t pl = strlen(s->f[i].path), wl = which ? strlen(which) : 0;
		/* "* /X": every thread's X */
		bool every = which && which[0] == '*' && pl >= wl - 1 &&
			     !strcmp(s->f[i].path + pl - (wl - 1), which + 1);

		if (alter && which && (every || !strcmp(s->f[i].path, which) || !strcmp(s->f[i].path, twin))) {
			alter(text);
			len = strlen(text);
		}
		rc = pfs_load_text(ld, s->f[i].path, text, len, err, errlen);
		free(text);
	}
	if (!rc)
		rc = mach_loader_finish(ld, err, errlen);
	mach_loader_free(ld);
	if (rc || !out)
		mach_free(b);
	else
		*out = b;
	return rc;
}

/*
 * How many of @s's files @back renders otherwise than @s has them; those
 * that @alter changes (every path ending in @suffix) compared altered.
 */
static unsigned int differing(const struct mach_machine *back, const struct pset *s, const char *suffix,
			      char *(*alter)(const char *text, size_t len))
{
	unsigned int bad = 0;
	char err[512];

	for (size_t i = 0; i < s->n; i++) {
		size_t pl = strlen(s->f[i].path), sl = suffix ? strlen(suffix) : 0;
		char *want = suffix && pl >= sl && !strcmp(s->f[i].path + pl - sl, suffix) ?
			     alter(s->f[i].text, s->f[i].len) : NULL;
		struct pfs_node n;
		struct pfs_ctx c;
		char *text;
		size_t len;

		if (pfs_resolve(back, s->f[i].path, &n, &c, err, sizeof(err)) || pfs_render(&n, &c, &text, &len)) {
			bad++;
			free(want);
			continue;
		}
		if (want ? len != strlen(want) || memcmp(text, want, len) :
			   len != s->f[i].len || memcmp(text, s->f[i].text, len)) {
			diag("%s differs", s->f[i].path);
			bad++;
		}
		free(text);
		free(want);
	}
	return bad;
}

/* Replace the first @from in @text by @to (the buffer has room for 64 bytes more than twice its text). */
static void replace(char *text, const char *from, const char *to)
{
	char *hit = strstr(text, from);

	if (hit) {
		memmove(hit + strlen(to), hit + strlen(from), strlen(hit + strlen(from)) + 1);
		memcpy(hit, to, strlen(to));
	}
}

static void to_running(char *t) { strcpy(t, "running\n"); }
static void other_wchan(char *t) { strcpy(t, "do_select"); }
static void later_run(char *t)
{
	memmove(t + 1, t, strlen(t) + 1);
	t[0] = '9';
}
static void unnamed_flag(char *t) { replace(t, "VmFlags: rd", "VmFlags: ??"); }
/* Rss of the first mapping one page more: "...4 kB" becomes "...8 kB" */
static void other_rss(char *t)
{
	char *kb = strstr(strstr(t, "\nRss:"), " kB");

	kb[-1] = kb[-1] == '9' ? '8' : (char)(kb[-1] + 1);
}
static void module_frame(char *t) { replace(t, "/0x5e0\n", "/0x5e0 [ext4]\n"); }

static void test_synthetic_process(void)
{
	struct mach_machine *m = NULL, *back = NULL;
	static struct pset s;
	char err[1024], path[96];
	unsigned int bad = 0;
	int rc;

	rc = mach_from_spec("synth:seed=5", &m, err, sizeof(err));
	/* a multi-threaded process whose leader sleeps in epoll_wait */
	for (size_t i = 0; !rc && i < m->nprocs && !s.pid; i++) {
		const struct mach_process *p = &m->procs[i];
		const char *w = mach_ksym_name(m, p->threads[0].wchan_sym);

		if (p->mm && p->nthreads > 1 && w && !strcmp(w, "do_epoll_wait"))
			s.pid = p->tgid;
	}
	if (!ok(rc == 0 && s.pid, "a synthetic machine with a multi-threaded process in epoll_wait")) {
		mach_free(m);
		return;
	}
	pfs_for_each_file(m, 0, take_file, &s);
	rc = load_back(m, &s, NULL, NULL, &back, err, sizeof(err));
	ok(rc == 0, "its %zu files load", s.n);
	if (rc)
		diag("%s", err);
	bad = back ? differing(back, &s, NULL, NULL) : 1;
	ok(back && bad == 0, "every one renders back byte for byte (%u differ)", bad);
	mach_free(back);
	back = NULL;

	snprintf(path, sizeof(path), "%d/syscall", (int)s.pid);
	rc = load_back(m, &s, path, to_running, NULL, err, sizeof(err));
	if (!ok(rc == -EINVAL && strstr(err, "syscall: running, but the state is S"), "\"running\" while asleep: refused"))
		diag("%d %s", rc, err);
	snprintf(path, sizeof(path), "%d/wchan", (int)s.pid);
	rc = load_back(m, &s, path, other_wchan, NULL, err, sizeof(err));
	ok(rc == -EINVAL && strstr(err, "waits in do_select, but") && strstr(err, "is in do_epoll_wait"),
	   "a wchan other than the stack's first frame: refused");
	snprintf(path, sizeof(path), "%d/schedstat", (int)s.pid);
	rc = load_back(m, &s, path, later_run, NULL, err, sizeof(err));
	if (!ok(rc == -EINVAL && strstr(err, "schedstat: run time"), "a run time far from utime + stime: refused"))
		diag("%d %s", rc, err);
	snprintf(path, sizeof(path), "%d/smaps", (int)s.pid);
	rc = load_back(m, &s, path, unnamed_flag, NULL, err, sizeof(err));
	ok(rc == -EINVAL && strstr(err, "smaps:") && strstr(err, "its bit is unknown"), "a \"??\" VmFlags: refused");
	rc = load_back(m, &s, "*/smaps", other_rss, NULL, err, sizeof(err));
	if (!ok(rc == -EINVAL && strstr(err, "the sum of Rss:"), "an Rss no longer what status says they add up to: refused"))
		diag("%d %s", rc, err);
	snprintf(path, sizeof(path), "%d/stack", (int)s.pid);
	rc = load_back(m, &s, path, module_frame, &back, err, sizeof(err));
	if (rc)
		diag("%s", err);
	ok(rc == 0 && back && mach_find_process(back, s.pid) &&
	   back->ksyms[back->kstacks[mach_find_process(back, s.pid)->threads[0].kstack].frames[0].sym].module &&
	   !strcmp(back->ksyms[back->kstacks[mach_find_process(back, s.pid)->threads[0].kstack].frames[0].sym]
			   .module, "ext4"),
	   "a module's function in a stack keeps its module");
	mach_free(back);
	for (size_t i = 0; i < s.n; i++)
		free(s.f[i].text);
	mach_free(m);
}

/* ------------------------------------------------------------------ */
/* smaps of other kernels                                               */

/* A process of @m with mappings, a locked one if there is: 0 when none. */
static pid_t mapped_pid(const struct mach_machine *m)
{
	pid_t any = 0;

	for (size_t i = 0; i < m->nprocs; i++) {
		const struct mach_mm *mm = m->procs[i].mm;
		const struct mach_vma *vmas = mm ? test_vmas(mm) : NULL;

		for (size_t k = 0; mm && k < mm->nvmas; k++) {
			if (vmas[k].flags & MACH_VM_LOCKED)
				return m->procs[i].tgid;
			if (!any && vmas[k].mss.pss)
				any = m->procs[i].tgid;
		}
	}
	return any;
}

static struct pset kset;

/* The files of a process of `synth:kernel=@v` into kset, the machine into *@m: 0 or an error. */
static int kernel_files(const char *v, struct mach_machine **m, char *err, size_t errlen)
{
	char spec[64];
	int rc;

	for (size_t i = 0; i < kset.n; i++)
		free(kset.f[i].text);
	memset(&kset, 0, sizeof(kset));
	snprintf(spec, sizeof(spec), "synth:kernel=%s,seed=5", v);
	if ((rc = mach_from_spec(spec, m, err, errlen)))
		return rc;
	kset.pid = mapped_pid(*m);
	return kset.pid ? pfs_for_each_file(*m, 0, take_file, &kset) : -ENOENT;
}

/* Every record's "VmFlags:" after a ProtectionKey line: the CPU of the capture had pkeys. */
static void add_pkey(char *t)
{
	for (char *p = t; (p = strstr(p, "VmFlags:"));) {
		static const char line[] = "ProtectionKey:         5\n";

		memmove(p + sizeof(line) - 1, p, strlen(p) + 1);
		memcpy(p, line, sizeof(line) - 1);
		p += sizeof(line) - 1 + 8;
	}
}

static char *pkey_added(const char *text, size_t len)
{
	char *t = malloc(2 * len + 64);

	memcpy(t, text, len);
	t[len] = '\0';
	add_pkey(t);
	return t;
}

static void no_second_ksm(char *t) { replace(strstr(t, "\nKSM:") + 1, "KSM:            ", "X"); }
static void drop_ksm_line(char *t)
{
	char *k = strstr(strstr(t, "\nKSM:") + 1, "\nKSM:");

	if (k)
		memmove(k + 1, strchr(k + 1, '\n') + 1, strlen(strchr(k + 1, '\n') + 1) + 1);
}
static void narrow_rss(char *t) { replace(t, "Rss:            ", "Rss:           "); }
/* The first record's Referenced: and Anonymous: lines, which have labels of one length, in each other's place */
static void swap_two_lines(char *t)
{
	char *r = strstr(t, "Referenced:     "), *a = strstr(t, "Anonymous:      ");
	char tmp[16];

	memcpy(tmp, r, 16);
	memcpy(r, a, 16);
	memcpy(a, tmp, 16);
}

/* A rollup as 4.14 prints it, every value 0. */
static char *rollup_414(void)
{
	struct mach_smaps_profile p = { .lines = MACH_SMAPS_SWAP_PSS | MACH_SMAPS_HUGETLB | MACH_SMAPS_SHMEM_PMD |
						 MACH_SMAPS_LAZYFREE, .sizes_first = true, .rollup = true };
	unsigned char ids[MACH_NR_SML];
	unsigned int n = mach_smaps_lines(&p, true, ids), width;
	char *t = malloc(4096), *e = t;

	e += sprintf(e, "00400000-00401000 ---p 00000000 00:00 0%34s[rollup]\n", "");
	for (unsigned int i = 0; i < n; i++) {
		const char *label = mach_smaps_label(&p, (enum mach_smaps_line)ids[i], &width);

		e += sprintf(e, "%s%*d kB\n", label, (int)width, 0);
	}
	return t;
}

static void test_smaps_kernels(void)
{
	static const char *const kernels[] = { "3.10", "4.14", "4.19", "5.4", "6.6" };
	struct mach_machine *m = NULL, *back = NULL;
	char err[1024], path[96];
	int rc;

	for (size_t k = 0; k < sizeof(kernels) / sizeof(kernels[0]); k++) {
		rc = kernel_files(kernels[k], &m, err, sizeof(err));
		if (!rc)
			rc = load_back(m, &kset, NULL, NULL, &back, err, sizeof(err));
		if (rc)
			diag("%s", err);
		ok(!rc && mach_smaps_profile_equal(&back->profile.smaps, &m->profile.smaps) &&
		   !differing(back, &kset, NULL, NULL),
		   "kernel %s: process %d's smaps load as that kernel's (lines, formats, Locked) and render back",
		   kernels[k], (int)kset.pid);
		mach_free(back);
		back = NULL;
		if (!strcmp(kernels[k], "3.10") && kset.n < sizeof(kset.f) / sizeof(kset.f[0])) {
			/* a rollup beside smaps of a kernel before 4.14, which had none */
			snprintf(path, sizeof(path), "%d/smaps_rollup", (int)kset.pid);
			kset.f[kset.n].text = rollup_414();
			snprintf(kset.f[kset.n].path, sizeof(kset.f[kset.n].path), "%s", path);
			kset.f[kset.n].len = strlen(kset.f[kset.n].text);
			kset.n++;
			rc = load_back(m, &kset, NULL, NULL, NULL, err, sizeof(err));
			ok(rc < 0 && strstr(err, "before 4.14"), "kernel 3.10: a smaps_rollup beside its smaps: refused (%s)",
			   err);
		}
		mach_free(m);
		m = NULL;
	}

	if ((rc = kernel_files("6.18", &m, err, sizeof(err))))
		diag("%s", err);
	rc = rc ? rc : load_back(m, &kset, "*/smaps", add_pkey, &back, err, sizeof(err));
	if (rc)
		diag("%s", err);
	ok(!rc && back->profile.smaps.pkey && !differing(back, &kset, "/smaps", pkey_added),
	   "smaps of a CPU with protection keys: ProtectionKey loads into the flags and renders back");
	mach_free(back);
	back = NULL;
	rc = load_back(m, &kset, "*/smaps", drop_ksm_line, NULL, err, sizeof(err));
	ok(rc == -EINVAL && strstr(err, "expected \"KSM:"), "a record without a line the first has: refused (%s)", err);
	rc = load_back(m, &kset, "*/smaps", no_second_ksm, NULL, err, sizeof(err));
	ok(rc == -EINVAL && strstr(err, "smaps:"), "a line's label edited: refused (%s)", err);
	rc = load_back(m, &kset, "*/smaps", narrow_rss, NULL, err, sizeof(err));
	ok(rc == -EINVAL && strstr(err, "spaces before a"), "a line's padding edited: refused (%s)", err);
	rc = load_back(m, &kset, "*/smaps", swap_two_lines, NULL, err, sizeof(err));
	ok(rc == -EINVAL && strstr(err, "no kernel's"), "lines no kernel printed in that order: refused (%s)", err);
	for (size_t i = 0; i < kset.n; i++)
		free(kset.f[i].text);
	kset.n = 0;
	mach_free(m);
}

static void test_parse_errors(void)
{
	static const struct { const char *path, *text, *want; } cases[] = {
		{ "5/wchan", "do_wait\n", "trailing bytes" },
		{ "5/wchan", "", "expected a function name or 0" },
		{ "5/stack", "[<0>] do_wait+0x53\n", "expected \"/0x\"" },
		{ "5/stack", "[<ffffffff81000000>] do_wait+0x53/0x120\n", "expected \"[<0>] \"" },
		{ "5/syscall", "7 0x1 0x2\n", "expected \" 0x\"" },
		{ "5/syscall", "-1 0x0 0x0 0x0\n", "expected end of line" },
		{ "5/schedstat", "1 2\n", "expected \" \"" },
		{ "5/task/5/children", "12 13", "expected \" \"" },
		{ "5/smaps_rollup", "00000000-00000000 r--p 00000000 00:00 0                                  [rollup]\nRss: 0 kB\n",
		  "expected \"START-END ---p" },
	};
	struct mach_machine *m = mach_new();
	struct mach_loader *ld = mach_loader_new(m);
	char err[512];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int rc = pfs_load_text(ld, cases[i].path, cases[i].text, strlen(cases[i].text), err, sizeof(err));

		if (!ok(rc == -EINVAL && strstr(err, cases[i].path) && strstr(err, cases[i].want),
			"%s \"%.*s\": %s", cases[i].path, (int)strcspn(cases[i].text, "\n"), cases[i].text,
			cases[i].want))
			diag("error was: %s", err);
	}
	mach_loader_free(ld);
	mach_free(m);
}

int main(void)
{
	plan(0);
	test_fit();
	test_synthetic_process();
	test_smaps_kernels();
	test_parse_errors();
	return tap_done();
}
