/* SPDX-License-Identifier: MIT */
/*
 * mach_platform.h - what /sys says of the machine that /proc does not: the
 * CPUs' topology, caches and frequency (drivers/base/topology.c,
 * drivers/base/cacheinfo.c, drivers/cpufreq), the NUMA nodes' own files
 * (drivers/base/node.c), hardware monitors and thermal zones
 * (drivers/hwmon, drivers/thermal) and transparent hugepages
 * (mm/huge_memory.c).
 *
 * Masks that sysfs prints (thread_siblings, shared_cpu_map, a node's
 * cpumap) are not stored: the kernel builds them from the ids kept here,
 * and so do the helpers at the end (src/machine/platform.c).  Units are the
 * kernel's: kHz, millidegrees Celsius, pages.  machine.h includes this
 * header: struct mach_cpu holds a struct mach_cpu_topo, struct
 * mach_machine a struct mach_platform.
 */
#ifndef UPROCFS_MACH_PLATFORM_H
#define UPROCFS_MACH_PLATFORM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MACH_CACHE_LEAVES_MAX 8      /* cpuN/cache/index0..7 */
#define MACH_CPUFREQ_TABLE_MAX 16    /* frequencies of a cpufreq table */
#define MACH_NR_CPUS_DEFAULT 256     /* CONFIG_NR_CPUS of the reference kernel: kernel_max 255 */

/* ------------------------------------------------------------------ */
/* CPUs                                                                 */

/** A cache leaf's type as cacheinfo names it: "Data", "Instruction", "Unified". */
enum mach_cache_type { MACH_CACHE_DATA, MACH_CACHE_INST, MACH_CACHE_UNIFIED, MACH_NR_CACHE_TYPES };

/**
 * One cache a CPU sees (struct cacheinfo): its geometry, and the id the
 * CPUs sharing it have in common (shared_cpu_map is every online CPU
 * whose leaf of the same index has the same id).  Its size is
 * sets * ways * line_size * partitions bytes, as cpuid leaf 4 gives it.
 */
struct mach_cache_leaf {
	uint8_t level;
	uint8_t type;             /* enum mach_cache_type */
	bool has_id;              /* the "id" file exists (CACHE_ID) */
	uint16_t ways;            /* ways_of_associativity */
	uint16_t line_size;       /* coherency_line_size, bytes */
	uint16_t partitions;      /* physical_line_partition */
	uint32_t sets;            /* number_of_sets */
	uint32_t id;
};

/** A leaf's size in bytes. */
static inline uint64_t mach_cache_bytes(const struct mach_cache_leaf *l)
{
	return (uint64_t)l->sets * l->ways * l->line_size * l->partitions;
}

/**
 * Where a CPU sits (struct cpuinfo_topology) and what sysfs shows of it
 * beyond /proc/stat.  Sibling masks follow from the ids: thread siblings
 * share a package, die and core; cluster CPUs a cluster (the L2 on x86).
 */
/* The cluster_id x86 prints for a CPU whose L2 id was never set (BAD_APICID): its cluster is its SMT siblings. */
#define MACH_CLUSTER_UNKNOWN_X86 65535

struct mach_cpu_topo {
	int package;              /* physical_package_id, cpuinfo "physical id" */
	int die;                  /* die_id */
	int cluster;              /* cluster_id (MACH_CLUSTER_UNKNOWN_X86: none reported) */
	int core;                 /* core_id, cpuinfo "core id" */
	int node;                 /* the NUMA node it belongs to */
	uint32_t apicid;          /* cpuinfo "apicid" and "initial apicid" */
	bool present, enabled;    /* in cpu_present_mask, cpu_enabled_mask */
	bool isolated;            /* isolcpus=: in /sys/devices/system/cpu/isolated */
	bool hotpluggable;        /* cpuN/online exists (never for the boot CPU on x86) */
	bool has_ppin;            /* X86_FEATURE_INTEL_PPIN: topology/ppin (0400) */
	uint64_t ppin;
	uint32_t cur_khz;         /* its current frequency: scaling_cur_freq, cpuinfo "cpu MHz"; 0: cpu_khz */
	uint32_t hw_khz;          /* what the driver reads from the hardware: cpuinfo_cur_freq; 0: cur_khz */
	uint8_t ncaches;
	struct mach_cache_leaf cache[MACH_CACHE_LEAVES_MAX];
	/*
	 * The next CPU (index in m->cpus) that shares each sibling mask
	 * (enum mach_topo_mask) and each cache leaf with this one, a ring
	 * through the group: mach_topo_link() sets them, so a mask costs its
	 * group's size rather than every CPU (4,096 CPUs' topology files
	 * would otherwise cost 4,096 squared).
	 */
	uint32_t topo_next[4];
	uint32_t cache_next[MACH_CACHE_LEAVES_MAX];
};

/** The cpufreq driver's view, the same for every policy (one policy per CPU, as on x86). */
struct mach_cpufreq {
	bool present;             /* a driver is bound: cpufreq/policyN and cpuN/cpufreq exist */
	char driver[16];          /* scaling_driver: "acpi-cpufreq" */
	char governor[16];        /* scaling_governor: "schedutil" */
	char governors[96];       /* scaling_available_governors without its trailing space */
	bool setpolicy;           /* a setpolicy driver (intel_pstate): its policies, with no trailing space */
	uint32_t min_khz, max_khz;            /* cpuinfo_min_freq, cpuinfo_max_freq */
	uint32_t scaling_min_khz, scaling_max_khz;
	uint32_t latency_ns;      /* cpuinfo_transition_latency */
	unsigned int nfreqs;      /* scaling_available_frequencies, highest first; 0: no table */
	uint32_t freqs[MACH_CPUFREQ_TABLE_MAX];
};

/* ------------------------------------------------------------------ */
/* NUMA nodes                                                           */

/** What node_read_meminfo prints, in its order (pages, except kernel stack in kB). */
enum mach_node_mem {
	MACH_NODE_MEMTOTAL, MACH_NODE_MEMFREE, MACH_NODE_SWAPCACHED,
	MACH_NODE_ACTIVE_ANON, MACH_NODE_INACTIVE_ANON, MACH_NODE_ACTIVE_FILE, MACH_NODE_INACTIVE_FILE,
	MACH_NODE_UNEVICTABLE, MACH_NODE_MLOCKED, MACH_NODE_DIRTY, MACH_NODE_WRITEBACK, MACH_NODE_FILEPAGES,
	MACH_NODE_MAPPED, MACH_NODE_ANONPAGES, MACH_NODE_SHMEM, MACH_NODE_KERNELSTACK_KB, MACH_NODE_PAGETABLES,
	MACH_NODE_SECPAGETABLES, MACH_NODE_NFS_UNSTABLE, MACH_NODE_BOUNCE, MACH_NODE_WRITEBACKTMP,
	MACH_NODE_KRECLAIMABLE, MACH_NODE_SRECLAIMABLE, MACH_NODE_SUNRECLAIM, MACH_NODE_ANONHUGE,
	MACH_NODE_SHMEMHUGE, MACH_NODE_SHMEMPMDMAPPED, MACH_NODE_FILEHUGE, MACH_NODE_FILEPMDMAPPED,
	MACH_NODE_HUGEPAGES_TOTAL, MACH_NODE_HUGEPAGES_FREE, MACH_NODE_HUGEPAGES_SURP,
	MACH_NR_NODE_MEM
};

/** node_read_numastat's six counters, in order. */
enum mach_node_numa {
	MACH_NUMA_HIT, MACH_NUMA_MISS, MACH_NUMA_FOREIGN, MACH_NUMA_INTERLEAVE, MACH_NUMA_LOCAL, MACH_NUMA_OTHER,
	MACH_NR_NODE_NUMA
};

/**
 * A node's own sysfs files: the counters node_read_meminfo and
 * node_read_numastat summed when they were read.  /proc/zoneinfo prints
 * the same counters at another moment, so a loaded machine keeps both; a
 * synthetic one derives these from its zones (mach_node_derive).
 */
struct mach_node_files {
	unsigned int id;          /* the node (mach_sys.nodes[].id) */
	bool has_memory, has_normal_memory; /* N_MEMORY, N_NORMAL_MEMORY */
	uint64_t mem[MACH_NR_NODE_MEM];
	uint64_t numa[MACH_NR_NODE_NUMA];
	uint8_t *distance;        /* node_distance to each online node, in the order of mach_platform.nodes */
};

/* ------------------------------------------------------------------ */
/* Hardware monitors and thermal zones                                  */

/** A temperature channel's files, tempN_<name>, in hwmon_temp_attr_templates order. */
enum mach_hwmon_attr {
	MACH_HWMON_ATTR_INPUT, MACH_HWMON_ATTR_MAX, MACH_HWMON_ATTR_CRIT, MACH_HWMON_ATTR_CRIT_ALARM,
	MACH_HWMON_ATTR_LABEL, MACH_NR_HWMON_ATTRS
};

/** Which files a temperature channel has beyond _input (mach_hwmon_temp.files). */
#define MACH_HWMON_LABEL     (1u << MACH_HWMON_ATTR_LABEL)
#define MACH_HWMON_MAX       (1u << MACH_HWMON_ATTR_MAX)
#define MACH_HWMON_CRIT      (1u << MACH_HWMON_ATTR_CRIT)
#define MACH_HWMON_CRIT_ALARM (1u << MACH_HWMON_ATTR_CRIT_ALARM)

/*
 * How /sys numbers the files of a directory that stands for one of these
 * (the instance a renderer and the loader are given): a cache leaf is its
 * CPU and index, a channel's file its device, channel and attribute.
 */
static inline uint32_t mach_cache_inst(uint32_t cpu, unsigned int leaf)
{
	return cpu << 3 | (leaf & 7u);
}

static inline uint32_t mach_hwmon_file_inst(uint32_t hwmon, unsigned int channel, enum mach_hwmon_attr a)
{
	return hwmon << 12 | (channel & 0xffu) << 4 | ((unsigned int)a & 0xfu);
}

/** One temperature channel: the files tempN_input, tempN_label, ... */
struct mach_hwmon_temp {
	unsigned int index;       /* the N of tempN_* (from 1; channels may skip numbers) */
	unsigned int files;       /* MACH_HWMON_* beyond _input */
	char label[24];
	int32_t input, max, crit; /* millidegrees Celsius */
	bool crit_alarm;
};

/** Where a hwmon device hangs in /sys/devices. */
enum mach_hwmon_parent {
	MACH_HWMON_PCI,           /* devices/pci0000:00/<pci>/hwmon/hwmonN (k10temp) */
	MACH_HWMON_THERMAL,       /* devices/virtual/thermal/thermal_zoneK/hwmonN (a zone's own) */
	MACH_NR_HWMON_PARENTS
};

/** A registered hwmon device (hwmonN, N its index in mach_platform.hwmon). */
struct mach_hwmon {
	bool present;             /* a device the model holds (a loaded machine's may leave gaps) */
	char name[20];            /* "k10temp", "acpitz" */
	enum mach_hwmon_parent parent;
	char pci[16];             /* PCI: the function it is bound to, "0000:00:18.3" */
	unsigned int zone;        /* THERMAL: the zone */
	int package;              /* the package whose load heats it (the simulator), -1 none */
	int32_t idle_mc, busy_mc; /* what its first channel reads idle and fully loaded */
	unsigned int ntemps;
	struct mach_hwmon_temp *temps;
};

/** A thermal zone (thermal_zoneN). */
struct mach_thermal_zone {
	bool present;             /* a zone the model holds */
	char type[20];            /* "acpitz", "x86_pkg_temp" */
	char policy[20];          /* "step_wise" */
	bool enabled;             /* mode: "enabled" or "disabled" */
	int32_t temp;             /* millidegrees */
	int32_t crit;             /* trip_point_0 (critical), millidegrees; 0: no trip point */
	int package;              /* the package whose load heats it, -1 none */
	int hwmon;                /* its hwmon device, -1 none */
};

/* ------------------------------------------------------------------ */
/* Transparent hugepages                                                */

enum mach_thp_enabled { MACH_THP_ALWAYS, MACH_THP_MADVISE, MACH_THP_NEVER, MACH_NR_THP_ENABLED };
enum mach_thp_defrag {
	MACH_THP_DEFRAG_ALWAYS, MACH_THP_DEFRAG_DEFER, MACH_THP_DEFRAG_DEFER_MADVISE, MACH_THP_DEFRAG_MADVISE,
	MACH_THP_DEFRAG_NEVER, MACH_NR_THP_DEFRAG
};
enum mach_thp_shmem {
	MACH_THP_SHMEM_ALWAYS, MACH_THP_SHMEM_WITHIN_SIZE, MACH_THP_SHMEM_ADVISE, MACH_THP_SHMEM_NEVER,
	MACH_THP_SHMEM_DENY, MACH_THP_SHMEM_FORCE, MACH_NR_THP_SHMEM
};

struct mach_thp {
	bool known;               /* kernel/mm/transparent_hugepage exists */
	uint8_t enabled;          /* enum mach_thp_enabled: AnonHugePages stays 0 when never */
	uint8_t defrag;           /* enum mach_thp_defrag */
	uint8_t shmem;            /* enum mach_thp_shmem */
	bool use_zero_page;
	uint64_t pmd_size;        /* hpage_pmd_size, bytes */
};

/* ------------------------------------------------------------------ */
/* The whole                                                            */

struct mach_platform {
	/* the CPUs' topology/, cache/ and ids are known (a synthetic machine, a loaded /sys) */
	bool cpus_known;
	unsigned int nr_cpus_kernel;    /* NR_CPUS: kernel_max is one less */
	struct mach_cpufreq cpufreq;
	/* the nodes' sysfs directories, ascending by id; 0: not known */
	unsigned int nnodes;
	struct mach_node_files *nodes;
	unsigned int nhwmon;
	struct mach_hwmon *hwmon;
	unsigned int nzones;
	struct mach_thermal_zone *zones;
	bool thermal_class;             /* /sys/class/thermal exists (empty without zones) */
	struct mach_thp thp;
};

/** An empty platform part: nothing known, NR_CPUS of the reference kernel. */
void mach_platform_init(struct mach_platform *s);
/** Free what @s owns and leave it empty. */
void mach_platform_clear(struct mach_platform *s);
/** Free the nodes of @s. */
void mach_platform_nodes_clear(struct mach_platform *s);
/** Free the hwmon devices and thermal zones of @s. */
void mach_platform_sensors_clear(struct mach_platform *s);

/* ------------------------------------------------------------------ */
/* The files, as the file table, the renderers and the loader name them */

/**
 * Which file of the platform's /sys a text is: a table entry's arg, what
 * the loader is told along with the instance of the directory holding it.
 */
enum mach_sys_attr {
	MACH_SYSA_NONE,
	/* devices/system/cpu: the CPU lists (cpulists), kernel_max */
	MACH_SYSA_CPUS_ONLINE, MACH_SYSA_CPUS_POSSIBLE, MACH_SYSA_CPUS_PRESENT, MACH_SYSA_CPUS_OFFLINE,
	MACH_SYSA_CPUS_ISOLATED, MACH_SYSA_CPUS_ENABLED, MACH_SYSA_CPUS_KERNEL_MAX,
	/* cpuN/ */
	MACH_SYSA_CPU_ONLINE, MACH_SYSA_CPU_NODE_LINK, MACH_SYSA_CPU_CPUFREQ_LINK,
	MACH_SYSA_CPU_SUBSYSTEM_LINK,  /* cpuN/subsystem -> the cpu bus */
	MACH_SYSA_BUS_CPU_LINK,        /* bus/cpu/devices/cpuN -> devices/system/cpu/cpuN */
	/* cpuN/topology/ */
	MACH_SYSA_TOPO_PACKAGE, MACH_SYSA_TOPO_DIE, MACH_SYSA_TOPO_CLUSTER, MACH_SYSA_TOPO_CORE, MACH_SYSA_TOPO_PPIN,
	MACH_SYSA_TOPO_THREAD_SIBLINGS, MACH_SYSA_TOPO_THREAD_SIBLINGS_LIST, MACH_SYSA_TOPO_CORE_CPUS,
	MACH_SYSA_TOPO_CORE_CPUS_LIST, MACH_SYSA_TOPO_CORE_SIBLINGS, MACH_SYSA_TOPO_CORE_SIBLINGS_LIST,
	MACH_SYSA_TOPO_PACKAGE_CPUS, MACH_SYSA_TOPO_PACKAGE_CPUS_LIST, MACH_SYSA_TOPO_DIE_CPUS,
	MACH_SYSA_TOPO_DIE_CPUS_LIST, MACH_SYSA_TOPO_CLUSTER_CPUS, MACH_SYSA_TOPO_CLUSTER_CPUS_LIST,
	/* cpuN/cache/indexK/ */
	MACH_SYSA_CACHE_LEVEL, MACH_SYSA_CACHE_TYPE, MACH_SYSA_CACHE_SIZE, MACH_SYSA_CACHE_WAYS,
	MACH_SYSA_CACHE_LINE, MACH_SYSA_CACHE_SETS, MACH_SYSA_CACHE_PARTITION, MACH_SYSA_CACHE_ID,
	MACH_SYSA_CACHE_SHARED_MAP, MACH_SYSA_CACHE_SHARED_LIST,
	/* cpufreq/policyN/ */
	MACH_SYSA_FREQ_AFFECTED, MACH_SYSA_FREQ_RELATED, MACH_SYSA_FREQ_CPUINFO_MIN, MACH_SYSA_FREQ_CPUINFO_MAX,
	MACH_SYSA_FREQ_CPUINFO_CUR, MACH_SYSA_FREQ_LATENCY, MACH_SYSA_FREQ_SCALING_CUR, MACH_SYSA_FREQ_SCALING_MIN,
	MACH_SYSA_FREQ_SCALING_MAX, MACH_SYSA_FREQ_GOVERNOR, MACH_SYSA_FREQ_DRIVER, MACH_SYSA_FREQ_GOVERNORS,
	MACH_SYSA_FREQ_SETSPEED, MACH_SYSA_FREQ_AVAILABLE,
	/* devices/system/node: the node lists, then nodeN/ */
	MACH_SYSA_NODES_POSSIBLE, MACH_SYSA_NODES_ONLINE, MACH_SYSA_NODES_HAS_CPU, MACH_SYSA_NODES_HAS_MEMORY,
	MACH_SYSA_NODES_HAS_NORMAL, MACH_SYSA_NODES_HAS_GI,
	MACH_SYSA_NODE_CPUMAP, MACH_SYSA_NODE_CPULIST, MACH_SYSA_NODE_DISTANCE, MACH_SYSA_NODE_MEMINFO,
	MACH_SYSA_NODE_NUMASTAT, MACH_SYSA_NODE_CPU_LINK,
	/* hwmon devices */
	MACH_SYSA_HWMON_LINK, MACH_SYSA_HWMON_NAME, MACH_SYSA_HWMON_TEMP, MACH_SYSA_HWMON_DEVICE_LINK,
	/* thermal zones */
	MACH_SYSA_ZONE_LINK, MACH_SYSA_ZONE_TYPE, MACH_SYSA_ZONE_TEMP, MACH_SYSA_ZONE_MODE, MACH_SYSA_ZONE_POLICY,
	MACH_SYSA_ZONE_TRIP_TYPE, MACH_SYSA_ZONE_TRIP_TEMP,
	/* kernel/mm/transparent_hugepage/ */
	MACH_SYSA_THP_ENABLED, MACH_SYSA_THP_DEFRAG, MACH_SYSA_THP_SHMEM, MACH_SYSA_THP_ZERO_PAGE,
	MACH_SYSA_THP_PMD_SIZE,
	MACH_NR_SYSA
};

/* ------------------------------------------------------------------ */
/* Masks the kernel builds from the ids                                 */

struct mach_machine;

/** Which CPUs a topology file groups with a CPU (topology_*_cpumask). */
enum mach_topo_mask {
	MACH_TOPO_THREAD,         /* thread_siblings, core_cpus: the same core */
	MACH_TOPO_CLUSTER,        /* cluster_cpus: the same cluster (L2) */
	MACH_TOPO_DIE,            /* die_cpus: the same die */
	MACH_TOPO_PACKAGE,        /* core_siblings, package_cpus: the same package */
	MACH_NR_TOPO_MASKS
};

/** Words of a CPU mask of @m (nr_cpu_ids bits): what the mask helpers fill. */
static inline size_t mach_cpumask_words(unsigned int nr_cpu_ids)
{
	return (nr_cpu_ids + 63) / 64;
}

/**
 * The online CPUs that share @k with the CPU at index @cpu of m->cpus,
 * into @words (mach_cpumask_words(m->nr_cpu_ids) of them), bit = CPU id.
 */
void mach_topo_mask(const struct mach_machine *m, unsigned int cpu, enum mach_topo_mask k, uint64_t *words);
/** The online CPUs whose cache leaf @leaf has the id the CPU at index @cpu has there. */
void mach_cache_shared(const struct mach_machine *m, unsigned int cpu, unsigned int leaf, uint64_t *words);
/**
 * Link each CPU to the next that shares each mask and cache leaf with it
 * (topo_next, cache_next), once the ids are final (the end of a build or
 * a load).  Without it, or after m->ncpus changes, the masks scan every
 * CPU; a loader that sets an id unlinks them (m->topo_linked = 0).
 */
void mach_topo_link(struct mach_machine *m);
/** The online CPUs of node @node (cpumask_of_node and cpu_online_mask). */
void mach_node_cpus(const struct mach_machine *m, int node, uint64_t *words);
/** The index in m->cpus of CPU @id, or -1. */
int mach_cpu_index(const struct mach_machine *m, unsigned int id);
/** The index in m->platform.nodes of node @id, or -1. */
int mach_node_index(const struct mach_machine *m, unsigned int id);
/**
 * A synthetic or simulated node's sysfs counters from what the model says
 * of its zones and node statistics, as node_read_meminfo sums them.
 */
void mach_node_derive(struct mach_machine *m, unsigned int k);

/**
 * The table frequency schedutil asks for a CPU busy @util (0..1) of the
 * time: the lowest one at or above 1.25 * util of the maximum (the
 * highest when none is).  No table: @util of the way from min to max.
 */
uint32_t mach_cpufreq_pick(const struct mach_cpufreq *f, double util);
/**
 * Move every sensor @alpha (0..1) of the way to what the clocks of its
 * package's CPUs make it read (1: there at once), in the steps its chip
 * reports: 125 for k10temp, 100 for ACPI's tenths of a kelvin.
 */
void mach_sensors_approach(struct mach_machine *m, double alpha);
/** mach_sensors_approach at once: the sensors as the present load has long heated them. */
static inline void mach_sensors_settle(struct mach_machine *m)
{
	mach_sensors_approach(m, 1.0);
}

/** "input", "max", "crit", "crit_alarm", "label". */
const char *mach_hwmon_attr_name(enum mach_hwmon_attr a);
/** The channel of hwmon device @h numbered @index (tempN: N), or NULL. */
const struct mach_hwmon_temp *mach_hwmon_channel(const struct mach_platform *p, unsigned int h, unsigned int index);

/** "Data", "Instruction", "Unified". */
const char *mach_cache_type_name(enum mach_cache_type t);
/** The THP files' choices, in the order they are printed: "always", "madvise", "never", ... */
const char *mach_thp_enabled_name(enum mach_thp_enabled v);
const char *mach_thp_defrag_name(enum mach_thp_defrag v);
const char *mach_thp_shmem_name(enum mach_thp_shmem v);

#ifdef __cplusplus
}
#endif

#endif /* UPROCFS_MACH_PLATFORM_H */
