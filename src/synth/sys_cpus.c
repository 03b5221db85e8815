// SPDX-License-Identifier: MIT
/*
 * sys_cpus.c - what /sys shows of a synthetic machine beyond /proc: where
 * each CPU sits and what it caches, its clock (acpi-cpufreq), the NUMA
 * nodes' own files, the sensors (a k10temp per package, an ACPI thermal
 * zone) and transparent hugepages.
 *
 * The CPUs are AMD Zen 4 cores, as /proc/cpuinfo names them: 32 KiB L1
 * data and instruction caches and a 1 MiB L2 per core (its SMT threads
 * share them), a 32 MiB L3 per complex of eight cores.  APIC ids pack the
 * thread, the core and the package; the L2 (cluster) and cache ids follow
 * from them as cpuid leaf 0x8000001D derives them.  Everything here is
 * its own random stream (KEY_SYSFS), so nothing else moves with it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "synth_int.h"

#define CCX_CORES 8               /* cores sharing an L3 */
#define K10TEMP_MAX 8             /* data fabric devices 0x18..0x1f: one per package */
#define TCCD_MAX 12

static unsigned int bits_for(unsigned int n)
{
	unsigned int b = 0;

	while ((1u << b) < n)
		b++;
	return b;
}

void sy_plan_thp(struct synth *s)
{
	struct mach_thp *thp = &s->m->platform.thp;
	struct rng r;
	double p;

	rng_init(&r, s->o->seed, KEY_SYSFS);
	p = rng_unit(&r);
	thp->known = true;
	/* distributions ship madvise (Debian, Ubuntu) or always (Fedora, RHEL); a few turn it off */
	thp->enabled = p < 0.55 ? MACH_THP_MADVISE : p < 0.9 ? MACH_THP_ALWAYS : MACH_THP_NEVER;
	thp->defrag = MACH_THP_DEFRAG_MADVISE;
	thp->shmem = MACH_THP_SHMEM_NEVER;
	thp->use_zero_page = true;
	thp->pmd_size = 2u << 20;
}

static void cache_leaf(struct mach_cache_leaf *l, unsigned int level, enum mach_cache_type type, unsigned int ways,
		       unsigned int sets, uint32_t id)
{
	*l = (struct mach_cache_leaf){ .level = (uint8_t)level, .type = (uint8_t)type, .has_id = true,
				       .ways = (uint16_t)ways, .line_size = 64, .partitions = 1, .sets = sets,
				       .id = id };
}

/* Where CPU @c sits: its package, core and thread, and the ids that follow from them. */
static void place_cpu(struct synth *s, unsigned int c, unsigned int pkg_cores)
{
	struct mach_cpu_topo *t = &s->m->cpus[c].topo;
	unsigned int smt_bits = s->smt ? 1 : 0, core_bits = bits_for(pkg_cores);
	unsigned int core = sy_cpu_core(s, c) % pkg_cores, pkg = sy_cpu_pkg(s, c);
	unsigned int thread = s->smt && c >= s->o->cpus / 2;
	unsigned int l3_shift = smt_bits + (core_bits < 3 ? core_bits : 3);

	t->package = (int)pkg;
	t->die = 0;
	t->core = (int)core;
	t->apicid = pkg << (core_bits + smt_bits) | core << smt_bits | thread;
	t->cluster = (int)(t->apicid >> smt_bits);
	t->node = (int)sy_cpu_node(s, c);
	t->present = t->enabled = true;
	t->hotpluggable = c != 0;
	t->ncaches = 4;
	cache_leaf(&t->cache[0], 1, MACH_CACHE_DATA, 8, 64, t->apicid >> smt_bits);
	cache_leaf(&t->cache[1], 1, MACH_CACHE_INST, 8, 64, t->apicid >> smt_bits);
	cache_leaf(&t->cache[2], 2, MACH_CACHE_UNIFIED, 8, 2048, t->apicid >> smt_bits);
	cache_leaf(&t->cache[3], 3, MACH_CACHE_UNIFIED, 16, 32768, t->apicid >> l3_shift);
}

/* acpi-cpufreq with the P-states of the package, schedutil picking one by how busy a CPU is. */
static void build_cpufreq(struct synth *s)
{
	struct mach_cpufreq *f = &s->m->platform.cpufreq;
	uint32_t max = s->m->cpu_khz;

	f->present = true;
	snprintf(f->driver, sizeof(f->driver), "%s", "acpi-cpufreq");
	snprintf(f->governor, sizeof(f->governor), "%s", "schedutil");
	snprintf(f->governors, sizeof(f->governors), "%s", "conservative ondemand userspace powersave performance schedutil");
	f->nfreqs = 3;
	f->freqs[0] = max;
	f->freqs[1] = max / 100000 * 100000 * 3 / 4 / 100000 * 100000;
	f->freqs[2] = max / 100000 * 100000 * 4 / 7 / 100000 * 100000;
	f->max_khz = f->scaling_max_khz = f->freqs[0];
	f->min_khz = f->scaling_min_khz = f->freqs[2];
	f->latency_ns = 0;
	for (unsigned int c = 0; c < s->m->ncpus; c++) {
		const uint64_t *t = s->m->cpus[c].time_ns;
		uint64_t all = 0, rest = t[MACH_CPU_IDLE] + t[MACH_CPU_IOWAIT];

		for (int k = 0; k < MACH_NR_CPUTIME; k++)
			all += t[k];
		s->m->cpus[c].topo.cur_khz = mach_cpufreq_pick(f, all ? (double)(all - rest) / (double)all : 0);
	}
}

/* Every memory node's own directory: distances as a two-socket SLIT gives them, counters from its zones. */
static int build_nodes(struct synth *s)
{
	struct mach_platform *fs = &s->m->platform;
	unsigned int n = s->m->sys.nnodes;

	fs->nodes = calloc(n ? n : 1, sizeof(*fs->nodes));
	if (!fs->nodes)
		return -ENOMEM;
	fs->nnodes = n;
	for (unsigned int k = 0; k < n; k++) {
		struct mach_node_files *ns = &fs->nodes[k];

		ns->id = s->m->sys.nodes[k].id;
		ns->distance = malloc(n);
		if (!ns->distance)
			return -ENOMEM;
		for (unsigned int j = 0; j < n; j++)
			ns->distance[j] = j == k ? 10 : j / 2 == k / 2 ? 21 : 32;
		mach_node_derive(s->m, k);
	}
	return 0;
}

/* A k10temp for package @pkg: Tctl, then a Tccd per complex of cores (temp3 on). */
static int k10temp(struct synth *s, struct rng *r, struct mach_hwmon *h, unsigned int pkg, unsigned int ccds)
{
	int32_t idle = (int32_t)rng_range(r, 36, 46) * 1000;

	h->present = true;
	snprintf(h->name, sizeof(h->name), "%s", "k10temp");
	h->parent = MACH_HWMON_PCI;
	snprintf(h->pci, sizeof(h->pci), "0000:00:%02x.3", 0x18 + pkg);
	h->package = (int)pkg;
	h->idle_mc = idle;
	h->busy_mc = idle + 34000;
	h->temps = calloc(1 + ccds, sizeof(*h->temps));
	if (!h->temps)
		return -ENOMEM;
	h->ntemps = 1 + ccds;
	h->temps[0] = (struct mach_hwmon_temp){ .index = 1, .files = MACH_HWMON_LABEL };
	snprintf(h->temps[0].label, sizeof(h->temps[0].label), "%s", "Tctl");
	for (unsigned int i = 0; i < ccds; i++) {
		struct mach_hwmon_temp *t = &h->temps[1 + i];

		*t = (struct mach_hwmon_temp){ .index = 3 + i, .files = MACH_HWMON_LABEL };
		snprintf(t->label, sizeof(t->label), "Tccd%u", i + 1);
	}
	(void)s;
	return 0;
}

/*
 * The sensors: ACPI's thermal zone (and its own hwmon0, which reads the
 * zone), then a k10temp per package.  The simulator moves them with load;
 * here they read as the CPUs' past load heated them.
 */
static int build_sensors(struct synth *s, struct rng *r, unsigned int npkgs, unsigned int pkg_cores)
{
	struct mach_platform *fs = &s->m->platform;
	unsigned int nk = npkgs < K10TEMP_MAX ? npkgs : K10TEMP_MAX;
	unsigned int ccds = (pkg_cores + CCX_CORES - 1) / CCX_CORES;
	int rc = 0;

	fs->thermal_class = true;
	fs->zones = calloc(1, sizeof(*fs->zones));
	fs->hwmon = calloc(1 + nk, sizeof(*fs->hwmon));
	if (!fs->zones || !fs->hwmon)
		return -ENOMEM;
	fs->nzones = 1;
	fs->zones[0] = (struct mach_thermal_zone){ .present = true, .enabled = true, .crit = 105000, .package = 0, .hwmon = 0 };
	snprintf(fs->zones[0].type, sizeof(fs->zones[0].type), "%s", "acpitz");
	snprintf(fs->zones[0].policy, sizeof(fs->zones[0].policy), "%s", "step_wise");
	fs->hwmon[0] = (struct mach_hwmon){ .present = true, .parent = MACH_HWMON_THERMAL, .zone = 0, .package = 0,
					    .idle_mc = (int32_t)rng_range(r, 250, 320) * 100 };
	fs->hwmon[0].busy_mc = fs->hwmon[0].idle_mc + 12000;
	snprintf(fs->hwmon[0].name, sizeof(fs->hwmon[0].name), "%s", "acpitz");
	fs->hwmon[0].temps = calloc(1, sizeof(*fs->hwmon[0].temps));
	if (!fs->hwmon[0].temps)
		return -ENOMEM;
	fs->hwmon[0].ntemps = 1;
	fs->hwmon[0].temps[0] = (struct mach_hwmon_temp){ .index = 1, .files = MACH_HWMON_CRIT, .crit = 105000 };
	fs->nhwmon = 1;
	for (unsigned int p = 0; p < nk && !rc; p++, fs->nhwmon++)
		rc = k10temp(s, r, &fs->hwmon[1 + p], p, ccds < TCCD_MAX ? ccds : TCCD_MAX);
	if (!rc)
		mach_sensors_settle(s->m);
	return rc;
}

int sy_build_sysfs(struct synth *s)
{
	struct mach_machine *m = s->m;
	unsigned int pkg_cores = s->smt ? s->pkg_cpus / 2 : s->pkg_cpus;
	unsigned int cores = s->smt ? s->o->cpus / 2 : s->o->cpus;
	struct rng r;
	int rc;

	rng_init(&r, s->o->seed, KEY_SYSFS + 1);
	m->platform.cpus_known = true;
	for (unsigned int c = 0; c < m->ncpus; c++)
		place_cpu(s, c, pkg_cores);
	build_cpufreq(s);
	if ((rc = build_nodes(s)))
		return rc;
	return build_sensors(s, &r, cores / pkg_cores, pkg_cores);
}
