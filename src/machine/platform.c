// SPDX-License-Identifier: MIT
/*
 * platform.c - the platform part of the model (mach_platform.h): lifetimes, names,
 * and the masks and sums the kernel builds when a file is read: sibling
 * masks from topology ids (arch/x86/kernel/smpboot.c set_cpu_sibling_map),
 * a cache's shared CPUs from its id (cacheinfo), a node's CPUs, and a
 * node's meminfo from its zones (drivers/base/node.c node_read_meminfo).
 */
#include <stdlib.h>
#include <string.h>

#include "uprocfs/machine.h"

void mach_platform_init(struct mach_platform *s)
{
	memset(s, 0, sizeof(*s));
	s->nr_cpus_kernel = MACH_NR_CPUS_DEFAULT;
}

void mach_platform_nodes_clear(struct mach_platform *s)
{
	for (unsigned int i = 0; s->nodes && i < s->nnodes; i++)
		free(s->nodes[i].distance);
	free(s->nodes);
	s->nodes = NULL;
	s->nnodes = 0;
}

void mach_platform_sensors_clear(struct mach_platform *s)
{
	for (unsigned int i = 0; s->hwmon && i < s->nhwmon; i++)
		free(s->hwmon[i].temps);
	free(s->hwmon);
	free(s->zones);
	s->hwmon = NULL;
	s->zones = NULL;
	s->nhwmon = s->nzones = 0;
}

void mach_platform_clear(struct mach_platform *s)
{
	mach_platform_nodes_clear(s);
	mach_platform_sensors_clear(s);
	mach_platform_init(s);
}

const char *mach_cache_type_name(enum mach_cache_type t)
{
	static const char *const names[MACH_NR_CACHE_TYPES] = { "Data", "Instruction", "Unified" };

	return (unsigned int)t < MACH_NR_CACHE_TYPES ? names[t] : "Unknown";
}

const char *mach_thp_enabled_name(enum mach_thp_enabled v)
{
	static const char *const names[MACH_NR_THP_ENABLED] = { "always", "madvise", "never" };

	return (unsigned int)v < MACH_NR_THP_ENABLED ? names[v] : "";
}

const char *mach_thp_defrag_name(enum mach_thp_defrag v)
{
	static const char *const names[MACH_NR_THP_DEFRAG] = { "always", "defer", "defer+madvise", "madvise",
							       "never" };

	return (unsigned int)v < MACH_NR_THP_DEFRAG ? names[v] : "";
}

const char *mach_thp_shmem_name(enum mach_thp_shmem v)
{
	static const char *const names[MACH_NR_THP_SHMEM] = { "always", "within_size", "advise", "never", "deny",
							      "force" };

	return (unsigned int)v < MACH_NR_THP_SHMEM ? names[v] : "";
}

int mach_cpu_index(const struct mach_machine *m, unsigned int id)
{
	/* ids are ascending and usually the index itself */
	if (id < m->ncpus && m->cpus[id].id == id)
		return (int)id;
	for (unsigned int i = 0; i < m->ncpus; i++)
		if (m->cpus[i].id == id)
			return (int)i;
	return -1;
}

int mach_node_index(const struct mach_machine *m, unsigned int id)
{
	for (unsigned int i = 0; i < m->platform.nnodes; i++)
		if (m->platform.nodes[i].id == id)
			return (int)i;
	return -1;
}

static bool shares(const struct mach_cpu_topo *a, const struct mach_cpu_topo *b, enum mach_topo_mask k)
{
	if (a->package != b->package)
		return false;
	switch (k) {
	case MACH_TOPO_THREAD:
		return a->die == b->die && a->core == b->core;
	case MACH_TOPO_CLUSTER:
		/*
		 * x86's match_l2c: an L2 id the CPU never reported (BAD_APICID,
		 * cluster_id 65535, as on some AMD guests) falls back to the SMT
		 * siblings rather than making every such CPU one cluster.
		 */
		if (a->cluster == MACH_CLUSTER_UNKNOWN_X86)
			return a->die == b->die && a->core == b->core;
		return a->cluster == b->cluster;
	case MACH_TOPO_DIE:
		return a->die == b->die;
	default:
		return true;
	}
}

static void set_bit(uint64_t *words, unsigned int bit)
{
	words[bit / 64] |= UINT64_C(1) << (bit % 64);
}

_Static_assert(MACH_NR_TOPO_MASKS == sizeof(((struct mach_cpu_topo *)0)->topo_next) / sizeof(uint32_t),
	       "a ring for every sibling mask");
_Static_assert(4 + MACH_CACHE_LEAVES_MAX <= 32, "topo_linked holds a bit for every ring");

/* Whether the rings of @bit (topo_linked) stand for m->cpus as it is. */
static bool linked(const struct mach_machine *m, uint32_t bit)
{
	return (m->topo_linked & bit) && m->topo_linked_ncpus == m->ncpus;
}

/* Set the bits of the online CPUs on the ring through @cpu: CPU i's next is the uint32_t at @next0 + i * @stride bytes. */
static void walk_ring(const struct mach_machine *m, unsigned int cpu, const uint32_t *next0, size_t stride,
		      uint64_t *words)
{
	unsigned int i = cpu;

	/* at most ncpus steps: a ring that does not come back is not trusted further */
	for (unsigned int steps = 0; steps < m->ncpus; steps++) {
		const struct mach_cpu *c = &m->cpus[i];

		if (c->online && c->id < m->nr_cpu_ids)
			set_bit(words, c->id);
		i = *(const uint32_t *)((const char *)next0 + (size_t)i * stride);
		if (i == cpu || i >= m->ncpus)
			break;
	}
}

void mach_topo_mask(const struct mach_machine *m, unsigned int cpu, enum mach_topo_mask k, uint64_t *words)
{
	const struct mach_cpu_topo *t = &m->cpus[cpu].topo;

	memset(words, 0, mach_cpumask_words(m->nr_cpu_ids) * sizeof(*words));
	if (linked(m, UINT32_C(1) << k)) {
		walk_ring(m, cpu, &m->cpus[0].topo.topo_next[k], sizeof(m->cpus[0]), words);
		return;
	}
	for (unsigned int i = 0; i < m->ncpus; i++)
		if (m->cpus[i].online && m->cpus[i].id < m->nr_cpu_ids && shares(t, &m->cpus[i].topo, k))
			set_bit(words, m->cpus[i].id);
}

void mach_cache_shared(const struct mach_machine *m, unsigned int cpu, unsigned int leaf, uint64_t *words)
{
	const struct mach_cache_leaf *l = &m->cpus[cpu].topo.cache[leaf];

	memset(words, 0, mach_cpumask_words(m->nr_cpu_ids) * sizeof(*words));
	if (leaf < m->cpus[cpu].topo.ncaches && linked(m, UINT32_C(1) << (4 + leaf))) {
		walk_ring(m, cpu, &m->cpus[0].topo.cache_next[leaf], sizeof(m->cpus[0]), words);
		return;
	}
	for (unsigned int i = 0; i < m->ncpus; i++) {
		const struct mach_cpu_topo *o = &m->cpus[i].topo;

		if (m->cpus[i].online && m->cpus[i].id < m->nr_cpu_ids && leaf < o->ncaches &&
		    o->cache[leaf].level == l->level && o->cache[leaf].type == l->type && o->cache[leaf].id == l->id)
			set_bit(words, m->cpus[i].id);
	}
}

/* A CPU's place in a ring: CPUs of equal keys share the mask or leaf. */
struct ring_key {
	int64_t key[4];
	uint32_t cpu;
};

static int ring_key_cmp(const void *pa, const void *pb)
{
	const struct ring_key *a = pa, *b = pb;

	for (int i = 0; i < 4; i++)
		if (a->key[i] != b->key[i])
			return a->key[i] < b->key[i] ? -1 : 1;
	return a->cpu < b->cpu ? -1 : a->cpu > b->cpu;
}

/* Sort @keys (@n of them) and make each run of equal keys a ring in the uint32_t at @next0 + cpu * stride. */
static void link_rings(struct ring_key *keys, size_t n, uint32_t *next0, size_t stride)
{
	qsort(keys, n, sizeof(*keys), ring_key_cmp);
	for (size_t start = 0, i = 0; i < n; i++) {
		bool last = i + 1 == n || memcmp(keys[i].key, keys[i + 1].key, sizeof(keys[i].key));
		uint32_t next = last ? keys[start].cpu : keys[i + 1].cpu;

		*(uint32_t *)((char *)next0 + (size_t)keys[i].cpu * stride) = next;
		if (last)
			start = i + 1;
	}
}

/* The key shares() groups CPUs by for mask @k. */
static void topo_key(const struct mach_cpu_topo *t, enum mach_topo_mask k, int64_t key[4])
{
	bool unknown = t->cluster == MACH_CLUSTER_UNKNOWN_X86;

	key[0] = t->package;
	key[1] = key[2] = key[3] = 0;
	switch (k) {
	case MACH_TOPO_THREAD:
		key[1] = t->die;
		key[2] = t->core;
		break;
	case MACH_TOPO_CLUSTER:
		key[1] = unknown;
		key[2] = unknown ? t->die : t->cluster;
		key[3] = unknown ? t->core : 0;
		break;
	case MACH_TOPO_DIE:
		key[1] = t->die;
		break;
	default:
		break;
	}
}

/*
 * Whether the sorted cluster keys put CPUs of unknown and known clusters in
 * one package: shares() is no equivalence there (an unknown CPU's cluster
 * is its core, which a known one's never counts it in), so that mask scans.
 */
static bool clusters_mixed(const struct ring_key *keys, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (keys[i].key[0] == keys[i - 1].key[0] && keys[i].key[1] != keys[i - 1].key[1])
			return true;
	return false;
}

void mach_topo_link(struct mach_machine *m)
{
	struct ring_key *keys = m->ncpus ? malloc(m->ncpus * sizeof(*keys)) : NULL;
	const size_t stride = sizeof(m->cpus[0]);

	m->topo_linked = 0;
	if (!keys)
		return; /* no CPUs, or no memory: the masks scan */
	for (int k = 0; k < MACH_NR_TOPO_MASKS; k++) {
		for (unsigned int i = 0; i < m->ncpus; i++) {
			topo_key(&m->cpus[i].topo, (enum mach_topo_mask)k, keys[i].key);
			keys[i].cpu = i;
		}
		link_rings(keys, m->ncpus, &m->cpus[0].topo.topo_next[k], stride);
		if (k != MACH_TOPO_CLUSTER || !clusters_mixed(keys, m->ncpus))
			m->topo_linked |= UINT32_C(1) << k;
	}
	for (unsigned int leaf = 0; leaf < MACH_CACHE_LEAVES_MAX; leaf++) {
		for (unsigned int i = 0; i < m->ncpus; i++) {
			const struct mach_cpu_topo *t = &m->cpus[i].topo;
			bool has = leaf < t->ncaches;

			/* a CPU without the leaf is a ring of its own, never walked */
			keys[i].key[0] = has ? 0 : 1;
			keys[i].key[1] = has ? t->cache[leaf].level : i;
			keys[i].key[2] = has ? t->cache[leaf].type : 0;
			keys[i].key[3] = has ? t->cache[leaf].id : 0;
			keys[i].cpu = i;
		}
		link_rings(keys, m->ncpus, &m->cpus[0].topo.cache_next[leaf], stride);
		m->topo_linked |= UINT32_C(1) << (4 + leaf);
	}
	m->topo_linked_ncpus = m->ncpus;
	free(keys);
}

void mach_node_cpus(const struct mach_machine *m, int node, uint64_t *words)
{
	memset(words, 0, mach_cpumask_words(m->nr_cpu_ids) * sizeof(*words));
	for (unsigned int i = 0; i < m->ncpus; i++)
		if (m->cpus[i].online && m->cpus[i].id < m->nr_cpu_ids && m->cpus[i].topo.node == node)
			set_bit(words, m->cpus[i].id);
}

/* The memory node (zones and node counters) of sysfs node @id, or NULL. */
static const struct mach_mem_node *mem_node(const struct mach_machine *m, unsigned int id)
{
	for (unsigned int i = 0; i < m->sys.nnodes; i++)
		if (m->sys.nodes[i].id == id)
			return &m->sys.nodes[i];
	return NULL;
}

/* What a meminfo line takes from the node's counters; THP counters count huge pages of 512. */
static const struct {
	enum mach_node_mem line;
	enum mach_vmstat_id item;
	unsigned int scale;
} node_items[] = {
	{ MACH_NODE_SWAPCACHED, MACH_VMSTAT_NR_SWAPCACHED, 1 },
	{ MACH_NODE_ACTIVE_ANON, MACH_VMSTAT_NR_ACTIVE_ANON, 1 },
	{ MACH_NODE_INACTIVE_ANON, MACH_VMSTAT_NR_INACTIVE_ANON, 1 },
	{ MACH_NODE_ACTIVE_FILE, MACH_VMSTAT_NR_ACTIVE_FILE, 1 },
	{ MACH_NODE_INACTIVE_FILE, MACH_VMSTAT_NR_INACTIVE_FILE, 1 },
	{ MACH_NODE_UNEVICTABLE, MACH_VMSTAT_NR_UNEVICTABLE, 1 },
	{ MACH_NODE_DIRTY, MACH_VMSTAT_NR_DIRTY, 1 },
	{ MACH_NODE_WRITEBACK, MACH_VMSTAT_NR_WRITEBACK, 1 },
	{ MACH_NODE_FILEPAGES, MACH_VMSTAT_NR_FILE_PAGES, 1 },
	{ MACH_NODE_MAPPED, MACH_VMSTAT_NR_MAPPED, 1 },
	{ MACH_NODE_ANONPAGES, MACH_VMSTAT_NR_ANON_PAGES, 1 },
	{ MACH_NODE_SHMEM, MACH_VMSTAT_NR_SHMEM, 1 },
	{ MACH_NODE_KERNELSTACK_KB, MACH_VMSTAT_NR_KERNEL_STACK, 1 },
	{ MACH_NODE_PAGETABLES, MACH_VMSTAT_NR_PAGE_TABLE_PAGES, 1 },
	{ MACH_NODE_SECPAGETABLES, MACH_VMSTAT_NR_SEC_PAGE_TABLE_PAGES, 1 },
	{ MACH_NODE_SRECLAIMABLE, MACH_VMSTAT_NR_SLAB_RECLAIMABLE, 1 },
	{ MACH_NODE_SUNRECLAIM, MACH_VMSTAT_NR_SLAB_UNRECLAIMABLE, 1 },
	{ MACH_NODE_ANONHUGE, MACH_VMSTAT_NR_ANON_TRANSPARENT_HUGEPAGES, 512 },
	{ MACH_NODE_SHMEMHUGE, MACH_VMSTAT_NR_SHMEM_HUGEPAGES, 512 },
	{ MACH_NODE_SHMEMPMDMAPPED, MACH_VMSTAT_NR_SHMEM_PMDMAPPED, 512 },
	{ MACH_NODE_FILEHUGE, MACH_VMSTAT_NR_FILE_HUGEPAGES, 512 },
	{ MACH_NODE_FILEPMDMAPPED, MACH_VMSTAT_NR_FILE_PMDMAPPED, 512 },
};

/* Huge pages of the node: the machine's pool split evenly, the first node taking what is left. */
static uint64_t node_share(const struct mach_machine *m, unsigned int k, uint64_t total)
{
	unsigned int n = m->platform.nnodes ? m->platform.nnodes : 1;

	return total / n + (k == 0 ? total % n : 0);
}

void mach_node_derive(struct mach_machine *m, unsigned int k)
{
	struct mach_node_files *ns = &m->platform.nodes[k];
	const struct mach_mem_node *mn = mem_node(m, ns->id);
	uint64_t *v = ns->mem;

	memset(v, 0, sizeof(ns->mem));
	memset(ns->numa, 0, sizeof(ns->numa));
	ns->has_memory = ns->has_normal_memory = false;
	if (!mn)
		return;
	for (int z = 0; z < MACH_NR_ZONE_TYPES; z++) {
		const struct mach_zone *zone = &mn->zones[z];

		v[MACH_NODE_MEMTOTAL] += zone->managed;
		v[MACH_NODE_MEMFREE] += zone->stat[MACH_VMSTAT_NR_FREE_PAGES];
		v[MACH_NODE_MLOCKED] += zone->stat[MACH_VMSTAT_NR_MLOCK];
		ns->numa[MACH_NUMA_HIT] += zone->stat[MACH_VMSTAT_NUMA_HIT];
		ns->numa[MACH_NUMA_MISS] += zone->stat[MACH_VMSTAT_NUMA_MISS];
		ns->numa[MACH_NUMA_FOREIGN] += zone->stat[MACH_VMSTAT_NUMA_FOREIGN];
		ns->numa[MACH_NUMA_INTERLEAVE] += zone->stat[MACH_VMSTAT_NUMA_INTERLEAVE];
		ns->numa[MACH_NUMA_LOCAL] += zone->stat[MACH_VMSTAT_NUMA_LOCAL];
		ns->numa[MACH_NUMA_OTHER] += zone->stat[MACH_VMSTAT_NUMA_OTHER];
		if (mach_zone_populated(zone)) {
			ns->has_memory = true;
			ns->has_normal_memory |= z <= MACH_ZONE_NORMAL;
		}
	}
	for (size_t i = 0; i < sizeof(node_items) / sizeof(node_items[0]); i++)
		v[node_items[i].line] = mn->stat[node_items[i].item] * node_items[i].scale;
	v[MACH_NODE_KRECLAIMABLE] = mn->stat[MACH_VMSTAT_NR_SLAB_RECLAIMABLE] +
				    mn->stat[MACH_VMSTAT_NR_KERNEL_MISC_RECLAIMABLE];
	v[MACH_NODE_HUGEPAGES_TOTAL] = node_share(m, k, m->meminfo[MACH_MEMINFO_HUGEPAGES_TOTAL]);
	v[MACH_NODE_HUGEPAGES_FREE] = node_share(m, k, m->meminfo[MACH_MEMINFO_HUGEPAGES_FREE]);
	v[MACH_NODE_HUGEPAGES_SURP] = node_share(m, k, m->meminfo[MACH_MEMINFO_HUGEPAGES_SURP]);
}

uint32_t mach_cpufreq_pick(const struct mach_cpufreq *f, double util)
{
	double want;

	util = util < 0 ? 0 : util > 1 ? 1 : util;
	want = 1.25 * util * f->max_khz;
	if (!f->nfreqs)
		return (uint32_t)(f->min_khz + util * (f->max_khz - f->min_khz));
	for (unsigned int i = f->nfreqs; i-- > 0;)
		if (f->freqs[i] >= want)
			return f->freqs[i];
	return f->freqs[0];
}

/* How hot package @pkg runs, 0 (idle) to 1: where its CPUs' clocks stand between the lowest and the highest. */
static double package_heat(const struct mach_machine *m, int pkg)
{
	const struct mach_cpufreq *f = &m->platform.cpufreq;
	double sum = 0;
	unsigned int n = 0;

	if (!f->present || f->max_khz <= f->min_khz)
		return 0.5;
	for (unsigned int i = 0; i < m->ncpus; i++) {
		const struct mach_cpu *c = &m->cpus[i];

		if (c->online && c->topo.package == pkg) {
			uint32_t khz = c->topo.cur_khz ? c->topo.cur_khz : m->cpu_khz;

			sum += ((double)khz - f->min_khz) / (double)(f->max_khz - f->min_khz);
			n++;
		}
	}
	return n ? (sum / n < 0 ? 0 : sum / n > 1 ? 1 : sum / n) : 0;
}

/* @from moved @alpha of the way to @to, in steps of @step. */
static int32_t approach(int32_t from, double to, double alpha, int32_t step)
{
	double v = from + alpha * (to - from);

	return (int32_t)(v / step + (v >= 0 ? 0.5 : -0.5)) * step;
}

void mach_sensors_approach(struct mach_machine *m, double alpha)
{
	struct mach_platform *fs = &m->platform;

	for (unsigned int h = 0; h < fs->nhwmon; h++) {
		struct mach_hwmon *hw = &fs->hwmon[h];
		bool acpi = hw->parent == MACH_HWMON_THERMAL;
		double target;

		if (hw->package < 0 || !hw->ntemps)
			continue;
		target = hw->idle_mc + package_heat(m, hw->package) * (hw->busy_mc - hw->idle_mc);
		for (unsigned int k = 0; k < hw->ntemps; k++) {
			/* the dies run a little cooler than the control temperature, the later ones more so */
			double t = k ? target - 1500.0 - 375.0 * k : target;

			hw->temps[k].input = approach(hw->temps[k].input ? hw->temps[k].input : (int32_t)t, t, alpha,
						      acpi ? 100 : 125);
		}
		if (acpi && hw->zone < fs->nzones)
			fs->zones[hw->zone].temp = hw->temps[0].input;
	}
}

const char *mach_hwmon_attr_name(enum mach_hwmon_attr a)
{
	static const char *const names[MACH_NR_HWMON_ATTRS] = { "input", "max", "crit", "crit_alarm", "label" };

	return (unsigned int)a < MACH_NR_HWMON_ATTRS ? names[a] : "";
}

const struct mach_hwmon_temp *mach_hwmon_channel(const struct mach_platform *p, unsigned int h, unsigned int index)
{
	if (h >= p->nhwmon)
		return NULL;
	for (unsigned int k = 0; k < p->hwmon[h].ntemps; k++)
		if (p->hwmon[h].temps[k].index == index)
			return &p->hwmon[h].temps[k];
	return NULL;
}
