// SPDX-License-Identifier: MIT
/*
 * test_synth_sysfs.c - what /sys shows of a synthetic machine agrees with
 * what /proc shows of it, file against file, as the kernel's own
 * accounting makes them agree.
 *
 * For seeds 1..20, read through the file table as a reader would:
 *   - a disk's /sys/block/X/stat holds its /proc/diskstats numbers, its
 *     size /proc/partitions' blocks, its links lead to its directory;
 *   - the online CPUs are /proc/stat's and /proc/cpuinfo's;
 *   - /sys/class/net lists /proc/net/dev's devices, whose statistics/
 *     files add up to its columns;
 *   - cgroup.procs lists each process in the group its /proc/<pid>/cgroup
 *     names, once, in pid order; pids.current counts the threads below;
 *   - a parent's memory.current, memory.stat and io.stat hold at least its
 *     children's, its cpu.stat usage at least theirs and at least what its
 *     tasks' /proc/<pid>/stat says they ran; user + system make usage
 *     (to the microsecond each is cut to);
 *   - the root's pressure files are /proc/pressure's, its io.stat the
 *     disks' counters.
 * And on a simulated machine, a group's cpu.pressure is what the
 * simulator's PSI group for it holds at that time.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spec.h"
#include "sysfs_checks.h"
#include "tap.h"
#include "uprocfs/procfs.h"

static const char *const prop_names[NR_PROPS] = {
	[P_BLKSTAT] = "a device's sysfs stat and size are its /proc/diskstats and /proc/partitions numbers",
	[P_BLKLINK] = "/sys/block, class/block and dev/block lead to the device's directory",
	[P_CPUS] = "the online CPUs are /proc/stat's and /proc/cpuinfo's, each with topology/ and a /sys/bus/cpu link",
	[P_NET] = "/sys/class/net is /proc/net/dev's devices; their statistics/ make its columns",
	[P_PROCS] = "cgroup.procs lists each process once, in the group /proc/<pid>/cgroup names, in pid order",
	[P_PIDS] = "pids.current counts the threads in and below the group",
	[P_MEM] = "memory.current and memory.stat of a parent hold its children's",
	[P_CPU] = "cpu.stat: usage = user + system, at least the children's and the tasks' /proc/<pid>/stat time",
	[P_IO] = "io.stat: the root's is the disks' counters, a parent's holds its children's",
	[P_PSI] = "the root's pressure files are /proc/pressure's",
};

static unsigned long fails[NR_PROPS], checks[NR_PROPS];
static const char *cur = "";

void check(enum prop p, int cond, const char *fmt, ...)
{
	va_list ap;
	char msg[256];

	checks[p]++;
	if (cond)
		return;
	if (fails[p]++ < 4) {
		va_start(ap, fmt);
		vsnprintf(msg, sizeof(msg), fmt, ap);
		va_end(ap);
		diag("%s: %s: %s", cur, prop_names[p], msg);
	}
}

/* The text of the file at @path of @m, NUL-terminated; NULL when it is not there. */
char *file(const struct mach_machine *m, const char *fmt, ...)
{
	struct pfs_node n;
	struct pfs_ctx c;
	char path[1024], err[256], *text, *z;
	size_t len;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	if (pfs_resolve(m, path, &n, &c, err, sizeof(err)) || pfs_render(&n, &c, &text, &len))
		return NULL;
	z = realloc(text, len + 1);
	if (!z) {
		free(text);
		return NULL;
	}
	z[len] = '\0';
	return z;
}

/* The value after "@key " in @text (a "key value" file), or 0. */
uint64_t keyed(const char *text, const char *key)
{
	size_t k = strlen(key);

	for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, key, k) && p[k] == ' ')
			return strtoull(p + k + 1, NULL, 10);
	return 0;
}

uint64_t number(const struct mach_machine *m, const char *fmt, const char *path)
{
	char *t = file(m, fmt, path);
	uint64_t v = t ? strtoull(t, NULL, 10) : 0;

	free(t);
	return v;
}

/*
 * Every sibling mask and cache leaf's shared CPUs of @m through its rings
 * (mach_topo_link) against the scan of every CPU (the rings unset): the
 * count of masks that differ.  @rings counts the masks the rings answered.
 */
static unsigned long rings_differ(const struct mach_machine *m, unsigned long *rings)
{
	struct mach_machine scan = *m;
	size_t words = mach_cpumask_words(m->nr_cpu_ids);
	uint64_t *a = calloc(words, sizeof(*a)), *b = calloc(words, sizeof(*b));
	unsigned long bad = 0;

	scan.topo_linked = 0;
	for (unsigned int i = 0; a && b && i < m->ncpus; i++) {
		for (int k = 0; k < MACH_NR_TOPO_MASKS; k++) {
			mach_topo_mask(m, i, (enum mach_topo_mask)k, a);
			mach_topo_mask(&scan, i, (enum mach_topo_mask)k, b);
			bad += memcmp(a, b, words * sizeof(*a)) != 0;
			*rings += (m->topo_linked >> k) & 1;
		}
		for (unsigned int leaf = 0; leaf < m->cpus[i].topo.ncaches; leaf++) {
			mach_cache_shared(m, i, leaf, a);
			mach_cache_shared(&scan, i, leaf, b);
			bad += memcmp(a, b, words * sizeof(*a)) != 0;
			*rings += (m->topo_linked >> (4 + leaf)) & 1;
		}
	}
	free(a);
	free(b);
	return a && b ? bad : 1;
}

/* The rings give the masks the scan gives: built machines, and one whose ids are changed and linked again. */
static void check_rings(void)
{
	static const char *const specs[] = { "synth:seed=1", "synth:cpus=300,seed=3", "synth:cpus=64,seed=8,threads=9" };
	unsigned long rings = 0, bad = 0;
	struct mach_machine *m;
	char err[256];

	for (size_t s = 0; s < sizeof(specs) / sizeof(specs[0]); s++) {
		if (mach_from_spec(specs[s], &m, err, sizeof(err))) {
			ok(0, "%s builds: %s", specs[s], err);
			continue;
		}
		ok(m->topo_linked_ncpus == m->ncpus && (m->topo_linked & 0xf) == 0xf, "%s: its CPUs are linked", specs[s]);
		bad += rings_differ(m, &rings);
		if (s != 1) {
			mach_free(m);
			continue;
		}
		/*
		 * Package 0's CPUs of unknown cluster beside package 1's known
		 * ones, then one known CPU in package 0: only the second mixes,
		 * and its cluster masks must scan.
		 */
		for (unsigned int i = 0; i < m->ncpus; i++) {
			if (m->cpus[i].topo.package == 0)
				m->cpus[i].topo.cluster = MACH_CLUSTER_UNKNOWN_X86;
			m->cpus[i].topo.cache[1].id = i % 7; /* leaves shared across packages */
		}
		mach_topo_link(m);
		ok(m->topo_linked & (1u << MACH_TOPO_CLUSTER), "unknown clusters in a package of their own: linked");
		bad += rings_differ(m, &rings);
		m->cpus[0].topo.cluster = 3;
		mach_topo_link(m);
		ok(!(m->topo_linked & (1u << MACH_TOPO_CLUSTER)) && (m->topo_linked & (1u << MACH_TOPO_DIE)),
		   "unknown and known clusters in one package: the cluster masks scan, the others are linked");
		bad += rings_differ(m, &rings);
		m->ncpus--; /* a loader's new count: the rings are not trusted */
		ok(m->topo_linked_ncpus != m->ncpus, "a changed CPU count unlinks");
		bad += rings_differ(m, &rings);
		m->ncpus++;
		mach_free(m);
	}
	ok(bad == 0 && rings > 1000, "every CPU's sibling masks and cache leaves through the rings as through the scan "
	   "(%lu through rings, %lu differ)", rings, bad);
}

int main(void)
{
	char spec[64];

	plan(0);
	for (int seed = 1; seed <= 20; seed++) {
		struct mach_machine *m;
		char err[256];

		snprintf(spec, sizeof(spec), "synth:seed=%d", seed);
		cur = spec;
		if (mach_from_spec(spec, &m, err, sizeof(err))) {
			ok(0, "%s builds: %s", spec, err);
			continue;
		}
		check_blocks(m);
		check_cpus(m);
		check_net(m);
		check_cgroups(m);
		mach_free(m);
	}
	for (int p = 0; p < NR_PROPS; p++)
		ok(fails[p] == 0 && checks[p] > 0, "%s (%lu checks, %lu fail)", prop_names[p], checks[p], fails[p]);
	check_sim_pressure();
	check_rings();
	return tap_done();
}
