// SPDX-License-Identifier: MIT
/*
 * coll_sys.c - the collections of /sys: the CPUs, their caches and cpufreq
 * policies, the NUMA nodes, the hwmon devices, their temperature files
 * and the thermal zones, as the directories and links that stand for
 * them.  Each is named by syntax ("cpu3", "index2", "temp3_input"), so a
 * path parses to its instance without the machine (the loader classifies
 * a tree's files so); whether the instance exists is the machine's to
 * say (has, next).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "table_int.h"

#define NO_PARENT UINT32_MAX

/* "<prefix><decimal>" with no sign and no leading zero, below @limit: 0 and the number, or -ENOENT. */
static int parse_named(const char *name, const char *prefix, uint32_t limit, uint32_t *out)
{
	size_t plen = strlen(prefix);
	uint64_t v = 0;
	const char *p;

	if (strncmp(name, prefix, plen))
		return -ENOENT;
	p = name + plen;
	if (!*p || (*p == '0' && p[1]))
		return -ENOENT;
	for (; *p; p++) {
		if (*p < '0' || *p > '9')
			return -ENOENT;
		v = v * 10 + (uint64_t)(*p - '0');
		if (v >= limit)
			return -ENOENT;
	}
	*out = (uint32_t)v;
	return 0;
}

static int put_name(char *buf, size_t size, const char *prefix, uint32_t v)
{
	return snprintf(buf, size, "%s%u", prefix, v) < (int)size ? 0 : -ENAMETOOLONG;
}

/* ------------------------------------------------------------------ */
/* CPUs                                                                 */

/* The index in m->cpus of CPU @id when it has a directory (it is present), or -1. */
static int present_cpu(const struct pfs_ctx *c, uint32_t id)
{
	const struct mach_machine *m = c->mach;
	int i = m ? mach_cpu_index(m, id) : -1;

	/* a machine that knows nothing of /sys has a directory for every CPU /proc/stat shows */
	if (i < 0 || (m->platform.cpus_known && !m->cpus[i].topo.present))
		return -1;
	return i;
}

static int cpus_lookup(const struct pfs_ctx *c, uint32_t parent, const char *name, uint32_t *inst)
{
	(void)c;
	(void)parent;
	return parse_named(name, "cpu", 1u << 20, inst);
}

static int cpus_name(const struct pfs_ctx *c, uint32_t inst, char *buf, size_t size)
{
	(void)c;
	return put_name(buf, size, "cpu", inst);
}

static bool cpus_next(const struct pfs_ctx *c, uint32_t parent, uint64_t *pos, uint32_t *inst)
{
	(void)parent;
	while (c->mach && *pos < c->mach->ncpus) {
		uint32_t id = c->mach->cpus[(*pos)++].id;

		if (present_cpu(c, id) >= 0) {
			*inst = id;
			return true;
		}
	}
	return false;
}

static bool cpus_has(const struct pfs_ctx *c, uint32_t inst)
{
	return present_cpu(c, inst) >= 0;
}

/* cpuN/cache/indexK: only an online CPU whose caches are known has them */
static int caches_lookup(const struct pfs_ctx *c, uint32_t parent, const char *name, uint32_t *inst)
{
	uint32_t k;

	(void)c;
	if (parse_named(name, "index", 8, &k))
		return -ENOENT;
	*inst = mach_cache_inst(parent, k);
	return 0;
}

static int caches_name(const struct pfs_ctx *c, uint32_t inst, char *buf, size_t size)
{
	(void)c;
	return put_name(buf, size, "index", inst & 7u);
}

static bool caches_has(const struct pfs_ctx *c, uint32_t inst)
{
	int i = present_cpu(c, inst >> 3);

	return i >= 0 && c->mach->cpus[i].online && (inst & 7u) < c->mach->cpus[i].topo.ncaches;
}

static bool caches_next(const struct pfs_ctx *c, uint32_t parent, uint64_t *pos, uint32_t *inst)
{
	while (*pos < MACH_CACHE_LEAVES_MAX) {
		uint32_t v = mach_cache_inst(parent, (unsigned int)(*pos)++);

		if (caches_has(c, v)) {
			*inst = v;
			return true;
		}
	}
	return false;
}

static uint32_t cache_parent(const struct pfs_ctx *c, uint32_t inst)
{
	(void)c;
	return inst >> 3;
}

/* cpuN/nodeM: the link to the CPU's node, once the nodes are known (instance: the CPU) */
static int cpu_node_name(const struct pfs_ctx *c, uint32_t inst, char *buf, size_t size)
{
	int i = c->mach ? present_cpu(c, inst) : -1;

	return i < 0 ? -ENOENT : put_name(buf, size, "node", (uint32_t)c->mach->cpus[i].topo.node);
}

static bool cpu_node_has(const struct pfs_ctx *c, uint32_t inst)
{
	int i = present_cpu(c, inst);

	return i >= 0 && c->mach->platform.nnodes && mach_node_index(c->mach, (unsigned int)c->mach->cpus[i].topo.node) >= 0;
}

static int cpu_node_lookup(const struct pfs_ctx *c, uint32_t parent, const char *name, uint32_t *inst)
{
	char want[32];
	uint32_t node;

	if (parse_named(name, "node", 1u << 16, &node))
		return -ENOENT;
	if (c->mach && (!cpu_node_has(c, parent) || cpu_node_name(c, parent, want, sizeof(want)) || strcmp(want, name)))
		return -ENOENT;
	*inst = parent;
	return 0;
}

static bool cpu_node_next(const struct pfs_ctx *c, uint32_t parent, uint64_t *pos, uint32_t *inst)
{
	if ((*pos)++ || !cpu_node_has(c, parent))
		return false;
	*inst = parent;
	return true;
}

/* cpufreq/policyN: one per present CPU while a driver is bound */
static int policies_lookup(const struct pfs_ctx *c, uint32_t parent, const char *name, uint32_t *inst)
{
	(void)c;
	(void)parent;
	return parse_named(name, "policy", 1u << 20, inst);
}

static int policies_name(const struct pfs_ctx *c, uint32_t inst, char *buf, size_t size)
{
	(void)c;
	return put_name(buf, size, "policy", inst);
}

static bool policies_has(const struct pfs_ctx *c, uint32_t inst)
{
	return c->mach && c->mach->platform.cpufreq.present && present_cpu(c, inst) >= 0;
}

static bool policies_next(const struct pfs_ctx *c, uint32_t parent, uint64_t *pos, uint32_t *inst)
{
	return c->mach && c->mach->platform.cpufreq.present && cpus_next(c, parent, pos, inst);
}

/* ------------------------------------------------------------------ */
/* NUMA nodes                                                           */

static int nodes_lookup(const struct pfs_ctx *c, uint32_t parent, const char *name, uint32_t *inst)
{
	(void)c;
	(void)parent;
	return parse_named(name, "node", 1u << 16, inst);
}

static int nodes_name(const struct pfs_ctx *c, uint32_t inst, char *buf, size_t size)
{
	(void)c;
	return put_name(buf, size, "node", inst);
}

static bool nodes_has(const struct pfs_ctx *c, uint32_t inst)
{
	return c->mach && mach_node_index(c->mach, inst) >= 0;
}

static bool nodes_next(const struct pfs_ctx *c, uint32_t parent, uint64_t *pos, uint32_t *inst)
{
	(void)parent;
	if (!c->mach || *pos >= c->mach->platform.nnodes)
		return false;
	*inst = c->mach->platform.nodes[(*pos)++].id;
	return true;
}

/* nodeN/cpuM: links to the node's present CPUs (instance: the CPU) */
static int node_cpus_lookup(const struct pfs_ctx *c, uint32_t parent, const char *name, uint32_t *inst)
{
	int i;

	if (parse_named(name, "cpu", 1u << 20, inst))
		return -ENOENT;
	i = c->mach ? present_cpu(c, *inst) : -1;
	return c->mach && (i < 0 || c->mach->cpus[i].topo.node != (int)parent) ? -ENOENT : 0;
}

static bool node_cpus_has(const struct pfs_ctx *c, uint32_t inst)
{
	return c->mach && c->mach->platform.cpus_known && present_cpu(c, inst) >= 0;
}

static bool node_cpus_next(const struct pfs_ctx *c, uint32_t parent, uint64_t *pos, uint32_t *inst)
{
	while (c->mach && c->mach->platform.cpus_known && *pos < c->mach->ncpus) {
		const struct mach_cpu *cpu = &c->mach->cpus[(*pos)++];

		if (cpu->topo.node == (int)parent && present_cpu(c, cpu->id) >= 0) {
			*inst = cpu->id;
			return true;
		}
	}
	return false;
}

static uint32_t node_cpus_parent(const struct pfs_ctx *c, uint32_t inst)
{
	int i = c->mach ? present_cpu(c, inst) : -1;

	return i < 0 ? NO_PARENT : (uint32_t)c->mach->cpus[i].topo.node;
}

/* ------------------------------------------------------------------ */
/* Collections of the sensors: coll_sys_sensors.c                       */

/* ------------------------------------------------------------------ */

static const struct pfs_coll_ops sys_cpus_ops = {
	.syntactic = true, .lookup = cpus_lookup, .name = cpus_name, .next = cpus_next, .has = cpus_has,
};
static const struct pfs_coll_ops sys_caches_ops = {
	.syntactic = true, .lookup = caches_lookup, .name = caches_name, .next = caches_next, .has = caches_has,
	.parent = cache_parent,
};
static const struct pfs_coll_ops sys_cpu_node_ops = {
	.syntactic = true, .lookup = cpu_node_lookup, .name = cpu_node_name, .next = cpu_node_next,
	.has = cpu_node_has,
};
static const struct pfs_coll_ops sys_policies_ops = {
	.syntactic = true, .lookup = policies_lookup, .name = policies_name, .next = policies_next,
	.has = policies_has,
};
static const struct pfs_coll_ops sys_nodes_ops = {
	.syntactic = true, .lookup = nodes_lookup, .name = nodes_name, .next = nodes_next, .has = nodes_has,
};
static const struct pfs_coll_ops sys_node_cpus_ops = {
	.syntactic = true, .lookup = node_cpus_lookup, .name = cpus_name, .next = node_cpus_next,
	.has = node_cpus_has, .parent = node_cpus_parent,
};

const struct pfs_coll_ops *pfs_sys_coll_ops(enum pfs_coll coll)
{
	switch (coll) {
	case PFS_COLL_SYS_CPUS: return &sys_cpus_ops;
	case PFS_COLL_SYS_CACHES: return &sys_caches_ops;
	case PFS_COLL_SYS_CPU_NODE: return &sys_cpu_node_ops;
	case PFS_COLL_SYS_POLICIES: return &sys_policies_ops;
	case PFS_COLL_SYS_NODES: return &sys_nodes_ops;
	case PFS_COLL_SYS_NODE_CPUS: return &sys_node_cpus_ops;
	default: return pfs_sys_sensor_coll_ops(coll);
	}
}
