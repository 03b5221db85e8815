// SPDX-License-Identifier: MIT
/*
 * test_synth_kernels.c - `synth:kernel=V` through the loader.
 *
 * For every kernel the facts table describes and seeds 1..10: the machine
 * renders into a tree (on disk for seed 1, in memory for the rest), the
 * tree loads back, the loader learns the same
 * kernel profile from the files (vmstat and meminfo lines in order, the
 * extra counters, status lines, stat and schedstat formats, pressure,
 * smaps lines and formats, smaps_rollup or none), and
 * every file re-renders to the same bytes; the loaded machine serves the
 * same files as the built one.  The 6.18 entry of the table is
 * the default profile, and the kernel= option refuses other versions with
 * the list of accepted ones.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "served_set.h"
#include "spec.h"
#include "tap.h"
#include "tree_write.h"
#include "uprocfs/load.h"
#include "uprocfs/procfs.h"

#define SAME(field) (a->field == b->field)

static bool any_umask(const struct mach_machine *m)
{
	for (size_t i = 0; i < m->nprocs; i++)
		for (unsigned int k = 0; k < m->procs[i].nthreads; k++)
			if (m->procs[i].threads[k].umask >= 0)
				return true;
	return false;
}

/* What a tree tells of the kernel, the same in the built and the loaded machine (NULL) or what differs. */
static const char *profile_differs(const struct mach_machine *x, const struct mach_machine *y)
{
	const struct mach_profile *a = &x->profile, *b = &y->profile;

	if (!SAME(nvmstat) || memcmp(a->vmstat_order, b->vmstat_order, a->nvmstat * sizeof(a->vmstat_order[0])))
		return "vmstat lines";
	if (!SAME(nvmstat_extra))
		return "vmstat extra keys";
	for (unsigned int i = 0; i < a->nvmstat_extra; i++)
		if (strcmp(a->vmstat_extra[i].name, b->vmstat_extra[i].name) ||
		    x->vmstat_extra[i] != y->vmstat_extra[i])
			return "a vmstat extra key";
	if (!SAME(nmeminfo) || memcmp(a->meminfo_order, b->meminfo_order, a->nmeminfo * sizeof(a->meminfo_order[0])))
		return "meminfo lines";
	/*
	 * A status without Umask: decides nothing (a task without an fs_struct
	 * lacks it on every kernel), so a kernel before 4.7 leaves the default;
	 * no loaded task has a umask to print either way.
	 */
	if ((!SAME(status_umask) && any_umask(y)) || !SAME(status_ngid) || !SAME(status_ns_lines) || !SAME(status_kthread) ||
	    !SAME(status_hugetlb) || !SAME(status_core_dumping) || !SAME(status_thp_enabled) ||
	    !SAME(status_untag_mask) || !SAME(status_seccomp) || !SAME(status_seccomp_filters) ||
	    !SAME(status_spec_ib) || !SAME(status_vmpin) || !SAME(status_rss) || !SAME(status_vmpmd) ||
	    !SAME(status_capamb) || !SAME(status_nnp) || !SAME(status_ssb) || !SAME(status_groups_space))
		return "status lines";
	if (!SAME(stat_wchan_addr) || !SAME(stat_brk_fields) || !SAME(stat_arg_fields) ||
	    !SAME(stat_cpu_columns) || !SAME(stat_softirq))
		return "stat formats";
	if (!SAME(schedstat_version) || strcmp(a->kernel_release, b->kernel_release))
		return "schedstat version or release";
	/* Locked's rule shows only in values a machine may not have: its lines and formats must match */
	if (a->smaps.lines != b->smaps.lines || a->smaps.thp != b->smaps.thp ||
	    a->smaps.sizes_first != b->smaps.sizes_first || a->smaps.filepmd_narrow != b->smaps.filepmd_narrow ||
	    a->smaps.pkey != b->smaps.pkey || a->smaps.rollup != b->smaps.rollup)
		return "smaps lines";
	for (int r = 0; r < MACH_NR_PSI_RES; r++)
		if (x->pressure[r].present != y->pressure[r].present ||
		    (x->pressure[r].present && (x->pressure[r].has_some != y->pressure[r].has_some ||
						x->pressure[r].has_full != y->pressure[r].has_full)))
			return "pressure files";
	return NULL;
}

struct kcheck {
	const char *spec;
	size_t shown;
};

static void show_difference(void *arg, const struct pfs_verify_file *v)
{
	struct kcheck *c = arg;

	if (v->verdict != PFS_IDENTICAL && c->shown++ < 3)
		diag("%s: %s differs after the round trip", c->spec, v->loaded->path);
}

/*
 * One machine through a tree and back: 0 when everything held, else a
 * diagnostic was printed.  The tree is written in @dir, or kept in memory
 * when @dir is NULL (the same members the loader reads of an archive).
 */
static int roundtrip(const char *spec, const char *dir)
{
	struct mach_load_report rep = { 0 };
	struct mach_machine *m = NULL, *back = NULL;
	struct pfs_verify_counts counts = { 0 };
	struct kcheck chk = { .spec = spec };
	const char *what = NULL;
	char err[512];
	int rc;

	if ((rc = mach_from_spec(spec, &m, err, sizeof(err))) ||
	    (dir ? (rc = tw_write_machine(m, dir, err, sizeof(err))) || (rc = pfs_load_tree(dir, NULL, &back, &rep, err, sizeof(err)))
		 : (rc = tw_roundtrip_memory(m, &back, &rep, err, sizeof(err))))) {
		diag("%s: %s", spec, err);
		goto out;
	}
	if ((what = profile_differs(m, back))) {
		diag("%s: the loaded profile's %s differ from the built one's", spec, what);
		rc = -EINVAL;
		goto out;
	}
	if (!served_same(spec, m, back)) {
		rc = -EINVAL;
		goto out;
	}
	pfs_verify(back, &rep, show_difference, &chk, &counts);
	if (counts.differ || counts.skipped || counts.identical != rep.nfiles) {
		diag("%s: %zu of %zu files differ or were skipped", spec, counts.differ + counts.skipped, rep.nfiles);
		rc = -EINVAL;
	}
out:
	mach_load_report_free(&rep);
	mach_free(back);
	mach_free(m);
	return rc;
}

static void check_default_is_618(void)
{
	struct mach_machine *a = NULL, *b = NULL;
	char err[256];
	int rc = mach_from_spec("synth:tasks=20", &a, err, sizeof(err));

	if (!rc)
		rc = mach_from_spec("synth:tasks=20,kernel=6.18", &b, err, sizeof(err));
	ok(!rc && a && b && a->profile.nvmstat == b->profile.nvmstat && !b->profile.nvmstat_extra &&
	   !memcmp(a->profile.vmstat_order, b->profile.vmstat_order, a->profile.nvmstat * 2) &&
	   a->profile.nmeminfo == b->profile.nmeminfo &&
	   !memcmp(a->profile.meminfo_order, b->profile.meminfo_order, a->profile.nmeminfo * 2),
	   "the table's 6.18 vmstat and meminfo lines are the default profile's");
	mach_free(a);
	mach_free(b);
	rc = mach_from_spec("synth:kernel=5.3", &a, err, sizeof(err));
	ok(rc == -EINVAL && strstr(err, "kernel=\"5.3\"") && strstr(err, "3.10") && strstr(err, "6.18"),
	   "kernel=5.3 is refused, naming the accepted versions");
	if (rc != -EINVAL)
		diag("%s", err);
	mach_free(a);
}

static void rm_tree(const char *dir)
{
	char cmd[160];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		diag("could not remove %s", dir);
}

int main(void)
{
	size_t nk;
	const unsigned int *k = mach_synth_kernels(&nk);
	char dir[64];

	plan(0);
	check_default_is_618();
	snprintf(dir, sizeof(dir), "/dev/shm/uprocfs-synth-k.XXXXXX");
	if (!mkdtemp(dir)) {
		snprintf(dir, sizeof(dir), "/tmp/uprocfs-synth-k.XXXXXX");
		if (!mkdtemp(dir))
			skip_all("no temporary directory: %s", strerror(errno));
	}
	for (size_t i = 0; i < nk; i++) {
		int bad = 0, seeds = tap_seeds(10);

		for (int seed = 1; seed <= seeds; seed++) {
			char spec[96], sub[128];

			snprintf(spec, sizeof(spec), "synth:kernel=%u.%u,seed=%d,tasks=40,cpus=%d", k[i] / 100,
				 k[i] % 100, seed, 1 + seed % 6);
			snprintf(sub, sizeof(sub), "%s/%u-%d", dir, k[i], seed);
			/*
			 * The first seed of each kernel goes through a directory, the
			 * rest through memory: the loader reads both alike, and files
			 * on disk were two thirds of this test's time, in the kernel.
			 */
			bad += roundtrip(spec, seed == 1 ? sub : NULL) != 0;
			/* one tree at a time: 280 at once fill a shared /dev/shm's inodes */
			if (seed == 1)
				rm_tree(sub);
		}
		ok(!bad, "kernel %u.%u: seeds 1..%d load back as that kernel and re-render identically (%d failed)",
		   k[i] / 100, k[i] % 100, seeds, bad);
	}
	rm_tree(dir);
	return tap_done();
}
