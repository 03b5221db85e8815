// SPDX-License-Identifier: MIT
/*
 * sys_cpu.c - /sys/devices/system/cpu: the CPU lists (drivers/base/cpu.c
 * print_cpus_*, show_cpus_attr), kernel_max, each CPU's online file
 * (online_show), its topology/ (drivers/base/topology.c) and its cache/
 * (drivers/base/cacheinfo.c), and the links between CPUs and nodes.
 *
 * Masks are as wide as nr_cpu_ids (cpumap_print_to_pagebuf: %*pb and
 * %*pbl, then a newline); the ids are "%d\n".  c->inst is the CPU's id,
 * or its cache leaf (mach_cache_inst).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"

/* A CPU mask on the stack when it fits (8192 CPUs), else on the heap. */
struct mask {
	uint64_t stack[128];
	uint64_t *w;
	unsigned int nbits;
};

static bool mask_init(struct mask *k, const struct mach_machine *m)
{
	size_t words = mach_cpumask_words(m->nr_cpu_ids);

	k->nbits = m->nr_cpu_ids;
	k->w = words <= 128 ? k->stack : calloc(words, sizeof(uint64_t));
	if (k->w == k->stack)
		memset(k->stack, 0, sizeof(k->stack));
	return k->w != NULL;
}

static void mask_put(struct seq_file *m, struct mask *k, bool list)
{
	if (list)
		seq_put_bitmap_list(m, k->w, k->nbits);
	else
		seq_put_bitmap(m, k->w, k->nbits);
	seq_putc(m, '\n');
	if (k->w != k->stack)
		free(k->w);
}

static const struct mach_cpu *cpu_of(const struct pfs_ctx *c, uint32_t id)
{
	int i = mach_cpu_index(c->mach, id);

	return i < 0 ? NULL : &c->mach->cpus[i];
}

/* Whether @cpu is in the top-level list the entry's arg names. */
static bool in_list(const struct mach_machine *m, const struct mach_cpu *cpu, unsigned int which)
{
	bool known = m->platform.cpus_known;

	switch (which) {
	case MACH_SYSA_CPUS_ONLINE: return cpu->online;
	case MACH_SYSA_CPUS_OFFLINE: return !cpu->online;
	case MACH_SYSA_CPUS_PRESENT: return !known || cpu->topo.present;
	case MACH_SYSA_CPUS_ENABLED: return !known || cpu->topo.enabled;
	case MACH_SYSA_CPUS_ISOLATED: return cpu->topo.isolated;
	default: return true; /* possible: every CPU the machine has */
	}
}

int pfs_show_sys_cpus(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	const struct mach_machine *mach = c->mach;
	struct mask k;

	(void)v;
	if (!mask_init(&k, mach))
		return -ENOMEM;
	for (unsigned int i = 0; i < mach->ncpus; i++)
		if (mach->cpus[i].id < k.nbits && in_list(mach, &mach->cpus[i], c->arg))
			k.w[mach->cpus[i].id / 64] |= UINT64_C(1) << (mach->cpus[i].id % 64);
	mask_put(m, &k, true);
	return 0;
}

int pfs_show_sys_kernel_max(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;

	(void)v;
	seq_put_decimal_ull(m, NULL, c->mach->platform.nr_cpus_kernel - 1);
	seq_putc(m, '\n');
	return 0;
}

int pfs_show_sys_cpu_online(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	const struct mach_cpu *cpu = cpu_of(c, c->inst);

	(void)v;
	seq_putc(m, cpu && cpu->online ? '1' : '0');
	seq_putc(m, '\n');
	return 0;
}

/* Which topology mask an attr names, and whether as a list. */
static enum mach_topo_mask topo_mask(unsigned int attr, bool *list)
{
	static const enum mach_topo_mask masks[] = {
		MACH_TOPO_THREAD, MACH_TOPO_THREAD, MACH_TOPO_PACKAGE, MACH_TOPO_PACKAGE,
		MACH_TOPO_DIE, MACH_TOPO_CLUSTER,
	};
	unsigned int k = attr - MACH_SYSA_TOPO_THREAD_SIBLINGS;

	*list = k % 2;
	return masks[k / 2 < sizeof(masks) / sizeof(masks[0]) ? k / 2 : 0];
}

int pfs_show_sys_topology(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	int i = mach_cpu_index(c->mach, c->inst);
	const struct mach_cpu_topo *t;
	struct mask k;
	bool list;

	(void)v;
	if (i < 0)
		return -ENOENT;
	t = &c->mach->cpus[i].topo;
	switch (c->arg) {
	case MACH_SYSA_TOPO_PACKAGE: seq_put_decimal_ll(m, NULL, t->package); break;
	case MACH_SYSA_TOPO_DIE: seq_put_decimal_ll(m, NULL, t->die); break;
	case MACH_SYSA_TOPO_CLUSTER: seq_put_decimal_ll(m, NULL, t->cluster); break;
	case MACH_SYSA_TOPO_CORE: seq_put_decimal_ll(m, NULL, t->core); break;
	case MACH_SYSA_TOPO_PPIN: seq_put_hex_ll(m, "0x", t->ppin, 1); break;
	default:
		/* core_cpus and package_cpus are thread_siblings' and core_siblings' newer names */
		if (!mask_init(&k, c->mach))
			return -ENOMEM;
		mach_topo_mask(c->mach, (unsigned int)i, topo_mask(c->arg, &list), k.w);
		mask_put(m, &k, list);
		return 0;
	}
	seq_putc(m, '\n');
	return 0;
}

int pfs_show_sys_cache(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	int i = mach_cpu_index(c->mach, c->inst >> 3);
	unsigned int leaf = c->inst & 7u;
	const struct mach_cache_leaf *l;
	struct mask k;

	(void)v;
	if (i < 0 || leaf >= c->mach->cpus[i].topo.ncaches)
		return -ENOENT;
	l = &c->mach->cpus[i].topo.cache[leaf];
	switch (c->arg) {
	case MACH_SYSA_CACHE_LEVEL: seq_put_decimal_ull(m, NULL, l->level); break;
	case MACH_SYSA_CACHE_TYPE: seq_puts(m, mach_cache_type_name((enum mach_cache_type)l->type)); break;
	case MACH_SYSA_CACHE_SIZE:
		seq_put_decimal_ull(m, NULL, mach_cache_bytes(l) >> 10);
		seq_putc(m, 'K');
		break;
	case MACH_SYSA_CACHE_WAYS: seq_put_decimal_ull(m, NULL, l->ways); break;
	case MACH_SYSA_CACHE_LINE: seq_put_decimal_ull(m, NULL, l->line_size); break;
	case MACH_SYSA_CACHE_SETS: seq_put_decimal_ull(m, NULL, l->sets); break;
	case MACH_SYSA_CACHE_PARTITION: seq_put_decimal_ull(m, NULL, l->partitions); break;
	case MACH_SYSA_CACHE_ID: seq_put_decimal_ull(m, NULL, l->id); break;
	default:
		if (!mask_init(&k, c->mach))
			return -ENOMEM;
		mach_cache_shared(c->mach, (unsigned int)i, leaf, k.w);
		mask_put(m, &k, c->arg == MACH_SYSA_CACHE_SHARED_LIST);
		return 0;
	}
	seq_putc(m, '\n');
	return 0;
}

/* cpuN/nodeM -> ../../node/nodeM (register_cpu_under_node) */
int pfs_link_sys_cpu_node(const struct pfs_ctx *c, char *buf, size_t size)
{
	const struct mach_cpu *cpu = cpu_of(c, c->inst);

	if (!cpu)
		return -ENOENT;
	return snprintf(buf, size, "../../node/node%d", cpu->topo.node) < (int)size ? 0 : -ENAMETOOLONG;
}

/* nodeN/cpuM -> ../../cpu/cpuM */
int pfs_link_sys_node_cpu(const struct pfs_ctx *c, char *buf, size_t size)
{
	return snprintf(buf, size, "../../cpu/cpu%u", c->inst) < (int)size ? 0 : -ENAMETOOLONG;
}

/* cpuN/cpufreq -> ../cpufreq/policyN (cpufreq_add_dev_symlink; one policy per CPU) */
int pfs_link_sys_cpu_cpufreq(const struct pfs_ctx *c, char *buf, size_t size)
{
	return snprintf(buf, size, "../cpufreq/policy%u", c->inst) < (int)size ? 0 : -ENAMETOOLONG;
}

/* bus/cpu/devices/cpuN -> ../../../devices/system/cpu/cpuN (bus_add_device) */
int pfs_link_sys_bus_cpu(const struct pfs_ctx *c, char *buf, size_t size)
{
	return snprintf(buf, size, "../../../devices/system/cpu/cpu%u", c->inst) < (int)size ? 0 : -ENAMETOOLONG;
}

/* cpuN/subsystem -> ../../../../bus/cpu (device_add_class_symlinks) */
int pfs_link_sys_cpu_subsystem(const struct pfs_ctx *c, char *buf, size_t size)
{
	(void)c;
	return snprintf(buf, size, "../../../../bus/cpu") < (int)size ? 0 : -ENAMETOOLONG;
}

/* An empty attribute: uevent of a device with nothing to announce. */
int pfs_show_sys_empty(struct seq_file *m, void *v)
{
	(void)m;
	(void)v;
	return 0;
}

/* drivers_autoprobe of a bus: the kernel probes new devices' drivers (the default, "1\n"). */
int pfs_show_sys_one(struct seq_file *m, void *v)
{
	(void)v;
	seq_puts(m, "1\n");
	return 0;
}
