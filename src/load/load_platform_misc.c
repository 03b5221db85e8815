// SPDX-License-Identifier: MIT
/*
 * load_platform_misc.c - the rest of the platform's /sys into the model:
 * the NUMA nodes (the lists, each node's meminfo and numastat; its masks,
 * distances and the lists that follow from the CPUs are checked at the
 * end), the hwmon devices and thermal zones (placed by their class links,
 * which the walk reads first), and transparent hugepages.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load_platform.h"

#define NODE_LIMIT (1u << 16)
#define SENSOR_LIMIT 4096u

/* ------------------------------------------------------------------ */
/* Nodes                                                                */

/* Node @id of the platform, created (in id order) if new; NULL on ENOMEM. */
static struct mach_node_files *node_at(struct mach_machine *m, unsigned int id)
{
	struct mach_platform *p = &m->platform;
	struct mach_node_files *n;
	unsigned int at = 0;

	while (at < p->nnodes && p->nodes[at].id < id)
		at++;
	if (at < p->nnodes && p->nodes[at].id == id)
		return &p->nodes[at];
	n = realloc(p->nodes, (p->nnodes + 1) * sizeof(*n));
	if (!n)
		return NULL;
	p->nodes = n;
	memmove(&n[at + 1], &n[at], (p->nnodes - at) * sizeof(*n));
	n[at] = (struct mach_node_files){ .id = id };
	p->nnodes++;
	return &n[at];
}

/* The meminfo lines and what they hold: an item, or -1..-4 the sums MemUsed, Active, Inactive, Slab. */
static const struct {
	const char *label;
	int item;
} mem_lines[] = {
	{ "MemTotal:       ", MACH_NODE_MEMTOTAL }, { "MemFree:        ", MACH_NODE_MEMFREE },
	{ "MemUsed:        ", -1 }, { "SwapCached:     ", MACH_NODE_SWAPCACHED }, { "Active:         ", -2 },
	{ "Inactive:       ", -3 }, { "Active(anon):   ", MACH_NODE_ACTIVE_ANON },
	{ "Inactive(anon): ", MACH_NODE_INACTIVE_ANON }, { "Active(file):   ", MACH_NODE_ACTIVE_FILE },
	{ "Inactive(file): ", MACH_NODE_INACTIVE_FILE }, { "Unevictable:    ", MACH_NODE_UNEVICTABLE },
	{ "Mlocked:        ", MACH_NODE_MLOCKED }, { "Dirty:          ", MACH_NODE_DIRTY },
	{ "Writeback:      ", MACH_NODE_WRITEBACK }, { "FilePages:      ", MACH_NODE_FILEPAGES },
	{ "Mapped:         ", MACH_NODE_MAPPED }, { "AnonPages:      ", MACH_NODE_ANONPAGES },
	{ "Shmem:          ", MACH_NODE_SHMEM }, { "KernelStack:    ", MACH_NODE_KERNELSTACK_KB },
	{ "PageTables:     ", MACH_NODE_PAGETABLES }, { "SecPageTables:  ", MACH_NODE_SECPAGETABLES },
	{ "NFS_Unstable:   ", MACH_NODE_NFS_UNSTABLE }, { "Bounce:         ", MACH_NODE_BOUNCE },
	{ "WritebackTmp:   ", MACH_NODE_WRITEBACKTMP }, { "KReclaimable:   ", MACH_NODE_KRECLAIMABLE },
	{ "Slab:           ", -4 }, { "SReclaimable:   ", MACH_NODE_SRECLAIMABLE },
	{ "SUnreclaim:     ", MACH_NODE_SUNRECLAIM }, { "AnonHugePages:  ", MACH_NODE_ANONHUGE },
	{ "ShmemHugePages: ", MACH_NODE_SHMEMHUGE }, { "ShmemPmdMapped: ", MACH_NODE_SHMEMPMDMAPPED },
	{ "FileHugePages:  ", MACH_NODE_FILEHUGE }, { "FilePmdMapped:  ", MACH_NODE_FILEPMDMAPPED },
	{ "HugePages_Total:", MACH_NODE_HUGEPAGES_TOTAL }, { "HugePages_Free: ", MACH_NODE_HUGEPAGES_FREE },
	{ "HugePages_Surp: ", MACH_NODE_HUGEPAGES_SURP },
};

/* What a sum line must say of the items. */
static uint64_t mem_sum(const uint64_t *v, int which)
{
	switch (which) {
	case -1: return v[MACH_NODE_MEMTOTAL] - v[MACH_NODE_MEMFREE];
	case -2: return v[MACH_NODE_ACTIVE_ANON] + v[MACH_NODE_ACTIVE_FILE];
	case -3: return v[MACH_NODE_INACTIVE_ANON] + v[MACH_NODE_INACTIVE_FILE];
	default: return v[MACH_NODE_SRECLAIMABLE] + v[MACH_NODE_SUNRECLAIM];
	}
}

static int node_meminfo(struct lex *lx, struct mach_node_files *n, const char **skip)
{
	uint64_t v[MACH_NR_NODE_MEM] = { 0 }, sums[4], id;

	for (size_t i = 0; i < sizeof(mem_lines) / sizeof(mem_lines[0]); i++) {
		int it = mem_lines[i].item;
		bool pages = it >= 0 && it < MACH_NODE_HUGEPAGES_TOTAL && it != MACH_NODE_KERNELSTACK_KB;
		uint64_t x;

		lex_ctx(lx, mem_lines[i].label);
		if (lex_expect(lx, "Node ") || lex_u64(lx, &id) || lex_expect(lx, " ") ||
		    lex_expect(lx, mem_lines[i].label))
			return -EINVAL;
		/* "%8lu kB", and the huge page counts " %5lu" */
		if (it < MACH_NODE_HUGEPAGES_TOTAL ? lex_u64_width_max(lx, &x, 8, UINT64_MAX)
						   : lex_expect(lx, " ") || lex_u64_width_max(lx, &x, 5, UINT64_MAX))
			return -EINVAL;
		if (id != n->id)
			return lex_fail(lx, "node %llu in the file of node %u", (unsigned long long)id, n->id);
		if (it < MACH_NODE_HUGEPAGES_TOTAL && lex_expect(lx, " kB"))
			return -EINVAL;
		if (lex_eol(lx))
			return -EINVAL;
		if ((pages || it < 0) && x % 4)
			return lex_fail(lx, "%llu kB is no whole number of pages", (unsigned long long)x);
		if (it >= 0)
			v[it] = pages ? x / 4 : x;
		else
			sums[-it - 1] = x / 4;
	}
	if (lex_expect_eof(lx))
		return -EINVAL;
	memcpy(n->mem, v, sizeof(v));
	/* a sum and its parts are read apart: under load they may differ, and the sum is not kept */
	for (int k = 1; k <= 4; k++)
		if (sums[k - 1] != mem_sum(v, -k))
			*skip = "a sum (MemUsed, Active, Inactive or Slab) moved away from its parts while printed";
	return 0;
}

static int node_numastat(struct lex *lx, struct mach_node_files *n)
{
	static const char *const names[MACH_NR_NODE_NUMA] = { "numa_hit ", "numa_miss ", "numa_foreign ",
							       "interleave_hit ", "local_node ", "other_node " };

	for (int i = 0; i < MACH_NR_NODE_NUMA; i++)
		if (lex_expect(lx, names[i]) || lex_u64(lx, &n->numa[i]) || lex_eol(lx))
			return -EINVAL;
	return lex_expect_eof(lx);
}

int ld_sys_node(struct lex *lx, struct mach_loader *ld, const struct mach_ld_sys_file *f, const char **skip)
{
	struct mach_machine *m = ld->m;
	struct mach_node_files *n;
	struct mach_bitmap b;
	int rc;

	switch (f->attr) {
	case MACH_SYSA_NONE:
		return 0;
	case MACH_SYSA_NODES_ONLINE:
		/* the online nodes are the nodes the model has */
		rc = ld_sys_list(lx, &b, NODE_LIMIT);
		for (unsigned int id = 0; !rc && id < b.nbits; id++)
			if (mach_bitmap_test(&b, id) && !node_at(m, id))
				rc = -ENOMEM;
		mach_bitmap_free(&b);
		return rc;
	case MACH_SYSA_NODES_POSSIBLE: case MACH_SYSA_NODES_HAS_CPU: case MACH_SYSA_NODES_HAS_MEMORY:
	case MACH_SYSA_NODES_HAS_NORMAL: case MACH_SYSA_NODES_HAS_GI: case MACH_SYSA_NODE_CPUMAP:
	case MACH_SYSA_NODE_CPULIST: case MACH_SYSA_NODE_DISTANCE:
		return ld_sys_defer(ld, f, lx->path, lx->text, (size_t)(lx->end - lx->text));
	case MACH_SYSA_NODE_CPU_LINK: {
		char want[48];

		snprintf(want, sizeof(want), "../../cpu/cpu%u", f->inst);
		return lex_expect(lx, want) ? -EINVAL : lex_expect_eof(lx);
	}
	default:
		break;
	}
	if (f->inst >= NODE_LIMIT || !(n = node_at(m, f->inst)))
		return f->inst >= NODE_LIMIT ? lex_fail_line(lx, 1, "node %u", f->inst) : -ENOMEM;
	return f->attr == MACH_SYSA_NODE_MEMINFO ? node_meminfo(lx, n, skip) : node_numastat(lx, n);
}

/* The node lists and a node's masks and distances, once the CPUs and nodes are all in. */
int ld_sys_check_node(struct mach_loader *ld, const struct ld_sys_check *c, char *err, size_t errlen)
{
	struct mach_machine *m = ld->m;
	struct mach_platform *p = &m->platform;
	int k = mach_node_index(m, c->inst);
	struct mach_bitmap want = { 0 };
	struct lex lx;
	int rc = 0;

	lex_init(&lx, c->path, c->text, c->len, err, errlen);
	if (c->attr == MACH_SYSA_NODE_DISTANCE) {
		uint64_t d;

		if (k < 0)
			return lex_fail_line(&lx, 1, "node %u is not online", c->inst);
		free(p->nodes[k].distance);
		if (!(p->nodes[k].distance = calloc(p->nnodes ? p->nnodes : 1, 1)))
			return -ENOMEM;
		for (unsigned int j = 0; j < p->nnodes; j++) {
			if ((j && lex_expect(&lx, " ")) || lex_u64_max(&lx, &d, 255))
				return -EINVAL;
			p->nodes[k].distance[j] = (uint8_t)d;
		}
		return lex_eol(&lx) ? -EINVAL : lex_expect_eof(&lx);
	}
	if (c->attr == MACH_SYSA_NODE_CPUMAP || c->attr == MACH_SYSA_NODE_CPULIST) {
		struct mach_bitmap got;
		unsigned int lo, hi;

		if (mach_bitmap_alloc(&want, m->nr_cpu_ids))
			return -ENOMEM;
		mach_node_cpus(m, (int)c->inst, want.words);
		if (c->attr == MACH_SYSA_NODE_CPULIST)
			rc = lex_bitmap_list(&lx, &want);
		else if (!(rc = lex_bitmap(&lx, &got, 1u << 20, &lo, &hi))) {
			for (unsigned int b = 0; !rc && b < (hi > want.nbits ? hi : want.nbits); b++)
				if (mach_bitmap_test(&got, b) != mach_bitmap_test(&want, b))
					rc = lex_fail_line(&lx, 1, "cpu%u, where the CPUs' node links say otherwise", b);
			if (!rc && (m->nr_cpu_ids < lo || m->nr_cpu_ids > hi))
				rc = lex_fail_line(&lx, 1, "a mask %u to %u bits wide, not nr_cpu_ids", lo, hi);
			mach_bitmap_free(&got);
		}
		mach_bitmap_free(&want);
		return rc || lex_eol(&lx) ? -EINVAL : lex_expect_eof(&lx);
	}
	/* the node lists: has_memory and has_normal_memory set flags; the others follow from the model */
	if ((rc = ld_sys_list(&lx, &want, NODE_LIMIT)))
		return rc;
	for (unsigned int i = 0; i < p->nnodes && !rc; i++) {
		struct mach_node_files *n = &p->nodes[i];
		bool in = mach_bitmap_test(&want, n->id), has_cpu = false;

		for (unsigned int j = 0; j < m->ncpus; j++)
			has_cpu |= m->cpus[j].online && m->cpus[j].topo.node == (int)n->id;
		if (c->attr == MACH_SYSA_NODES_HAS_MEMORY)
			n->has_memory = in;
		else if (c->attr == MACH_SYSA_NODES_HAS_NORMAL)
			n->has_normal_memory = in;
		else if (in != (c->attr == MACH_SYSA_NODES_POSSIBLE || (c->attr == MACH_SYSA_NODES_HAS_CPU && has_cpu)))
			rc = lex_fail_line(&lx, 1, "node %u: not what the model's nodes and CPUs say", n->id);
	}
	for (unsigned int id = 0; !rc && id < want.nbits; id++)
		if (mach_bitmap_test(&want, id) && mach_node_index(m, id) < 0)
			rc = lex_fail_line(&lx, 1, "node %u is not online (possible nodes beyond the online ones are "
						   "not modelled)", id);
	mach_bitmap_free(&want);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Sensors                                                              */

/* Device @h, the array grown to hold it (gaps not present); NULL on ENOMEM. */
static struct mach_hwmon *hwmon_at(struct mach_platform *p, unsigned int h)
{
	if (h >= p->nhwmon) {
		struct mach_hwmon *n = realloc(p->hwmon, (h + 1) * sizeof(*n));

		if (!n)
			return NULL;
		memset(&n[p->nhwmon], 0, (h + 1 - p->nhwmon) * sizeof(*n));
		for (unsigned int i = p->nhwmon; i <= h; i++)
			n[i].package = -1;
		p->hwmon = n;
		p->nhwmon = h + 1;
	}
	return &p->hwmon[h];
}

static struct mach_thermal_zone *zone_at(struct mach_platform *p, unsigned int z)
{
	if (z >= p->nzones) {
		struct mach_thermal_zone *n = realloc(p->zones, (z + 1) * sizeof(*n));

		if (!n)
			return NULL;
		memset(&n[p->nzones], 0, (z + 1 - p->nzones) * sizeof(*n));
		for (unsigned int i = p->nzones; i <= z; i++)
			n[i].package = n[i].hwmon = -1;
		p->zones = n;
		p->nzones = z + 1;
	}
	return &p->zones[z];
}

/* A PCI function's name ("0000:00:18.3": hex digits, ':' and '.' where they go) into @buf. */
static bool pci_name(struct lex *lx, char *buf, size_t size)
{
	static const char shape[] = "xxxx:xx:xx.x";

	if (lx->end - lx->p < 12 || size < 13)
		return false;
	for (int i = 0; i < 12; i++) {
		char ch = lx->p[i];

		if (shape[i] == 'x' ? !((ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f')) : ch != shape[i])
			return false;
	}
	memcpy(buf, lx->p, 12);
	buf[12] = '\0';
	lx->p += 12;
	return true;
}

/* class/hwmon/hwmonN: where the device hangs, if the model holds such places */
static int hwmon_link(struct lex *lx, struct mach_hwmon *hw, uint32_t h, const char **skip)
{
	char tail[32];
	uint64_t z;

	if (lex_accept(lx, "../../devices/pci0000:00/") && pci_name(lx, hw->pci, sizeof(hw->pci))) {
		hw->parent = MACH_HWMON_PCI;
	} else if (lex_accept(lx, "../../devices/virtual/thermal/thermal_zone") && !lex_u64_max(lx, &z, SENSOR_LIMIT)) {
		hw->parent = MACH_HWMON_THERMAL;
		hw->zone = (unsigned int)z;
	} else {
		*skip = "a hwmon device the model does not place (only PCI functions and thermal zones)";
		return 0;
	}
	snprintf(tail, sizeof(tail), hw->parent == MACH_HWMON_PCI ? "/hwmon/hwmon%u" : "/hwmon%u", h);
	if (lex_expect(lx, tail) || lex_expect_eof(lx))
		return -EINVAL;
	hw->present = true;
	return 0;
}

static int hwmon_temp(struct lex *lx, struct mach_hwmon *hw, uint32_t inst)
{
	unsigned int index = inst >> 4 & 0xffu, a = inst & 15u, k = 0;
	struct mach_hwmon_temp *t;
	int64_t v;

	while (k < hw->ntemps && hw->temps[k].index < index)
		k++;
	if (k == hw->ntemps || hw->temps[k].index != index) {
		t = realloc(hw->temps, (hw->ntemps + 1) * sizeof(*t));
		if (!t)
			return -ENOMEM;
		hw->temps = t;
		memmove(&t[k + 1], &t[k], (hw->ntemps - k) * sizeof(*t));
		t[k] = (struct mach_hwmon_temp){ .index = index };
		hw->ntemps++;
	}
	t = &hw->temps[k];
	if (a == MACH_HWMON_ATTR_LABEL) {
		t->files |= MACH_HWMON_LABEL;
		return ld_sys_word(lx, t->label, sizeof(t->label), "a label");
	}
	if (ld_sys_number(lx, &v, a == MACH_HWMON_ATTR_CRIT_ALARM ? 0 : INT32_MIN, a == MACH_HWMON_ATTR_CRIT_ALARM ? 1 : INT32_MAX))
		return -EINVAL;
	if (a != MACH_HWMON_ATTR_INPUT)
		t->files |= 1u << a;
	if (a == MACH_HWMON_ATTR_INPUT)
		t->input = (int32_t)v;
	else if (a == MACH_HWMON_ATTR_MAX)
		t->max = (int32_t)v;
	else if (a == MACH_HWMON_ATTR_CRIT)
		t->crit = (int32_t)v;
	else
		t->crit_alarm = v;
	return 0;
}

int ld_sys_hwmon(struct lex *lx, struct mach_loader *ld, const struct mach_ld_sys_file *f, const char **skip)
{
	struct mach_platform *p = &ld->m->platform;
	uint32_t h = f->attr == MACH_SYSA_HWMON_TEMP ? f->inst >> 12 : f->inst;
	struct mach_hwmon *hw;
	char want[48];

	if (f->attr == MACH_SYSA_NONE)
		return 0;
	if (h >= SENSOR_LIMIT || !(hw = hwmon_at(p, h)))
		return h >= SENSOR_LIMIT ? lex_fail_line(lx, 1, "hwmon%u", h) : -ENOMEM;
	if (f->attr == MACH_SYSA_HWMON_LINK)
		return hwmon_link(lx, hw, h, skip);
	if (!hw->present)
		return lex_fail_line(lx, 1, "hwmon%u: its class/hwmon link placed no device here", h);
	switch (f->attr) {
	case MACH_SYSA_HWMON_NAME: return ld_sys_word(lx, hw->name, sizeof(hw->name), "a device name");
	case MACH_SYSA_HWMON_TEMP: return hwmon_temp(lx, hw, f->inst);
	default:
		snprintf(want, sizeof(want), "../../../%s", hw->pci);
		return lex_expect(lx, want) ? -EINVAL : lex_expect_eof(lx);
	}
}

int ld_sys_thermal(struct lex *lx, struct mach_loader *ld, const struct mach_ld_sys_file *f)
{
	struct mach_platform *p = &ld->m->platform;
	struct mach_thermal_zone *z;
	char word[24], want[64];
	int64_t v;

	p->thermal_class = true;
	if (f->attr == MACH_SYSA_NONE)
		return 0;
	if (f->inst >= SENSOR_LIMIT || !(z = zone_at(p, f->inst)))
		return f->inst >= SENSOR_LIMIT ? lex_fail_line(lx, 1, "thermal_zone%u", f->inst) : -ENOMEM;
	switch (f->attr) {
	case MACH_SYSA_ZONE_LINK:
		snprintf(want, sizeof(want), "../../devices/virtual/thermal/thermal_zone%u", f->inst);
		z->present = true;
		return lex_expect(lx, want) ? -EINVAL : lex_expect_eof(lx);
	case MACH_SYSA_ZONE_TYPE: return ld_sys_word(lx, z->type, sizeof(z->type), "a zone type");
	case MACH_SYSA_ZONE_POLICY: return ld_sys_word(lx, z->policy, sizeof(z->policy), "a governor");
	case MACH_SYSA_ZONE_MODE:
		if (ld_sys_word(lx, word, sizeof(word), "enabled or disabled"))
			return -EINVAL;
		if (strcmp(word, "enabled") && strcmp(word, "disabled"))
			return lex_fail_line(lx, 1, "expected enabled or disabled");
		z->enabled = !strcmp(word, "enabled");
		return 0;
	case MACH_SYSA_ZONE_TRIP_TYPE:
		return lex_expect(lx, "critical\n") ? -EINVAL : lex_expect_eof(lx);
	default:
		if (ld_sys_number(lx, &v, INT32_MIN, INT32_MAX))
			return -EINVAL;
		if (f->attr == MACH_SYSA_ZONE_TEMP)
			z->temp = (int32_t)v;
		else
			z->crit = (int32_t)v;
		return 0;
	}
}

/* ------------------------------------------------------------------ */
/* Transparent hugepages                                                */

/* "a [b] c\n": the choices must be the model's, in its order; the bracketed one in *@cur. */
static int choices(struct lex *lx, unsigned int n, const char *(*name)(unsigned int), uint8_t *cur)
{
	bool seen = false;

	for (unsigned int i = 0; i < n; i++) {
		bool br;

		if (i && lex_expect(lx, " "))
			return -EINVAL;
		br = lex_accept(lx, "[");
		if (lex_expect(lx, name(i)) || (br && lex_expect(lx, "]")))
			return -EINVAL;
		if (br) {
			if (seen)
				return lex_fail(lx, "a second choice in brackets");
			*cur = (uint8_t)i;
			seen = true;
		}
	}
	if (!seen)
		return lex_fail_line(lx, 1, "no choice in brackets");
	return lex_eol(lx) ? -EINVAL : lex_expect_eof(lx);
}

static const char *enabled_name(unsigned int v)
{
	return mach_thp_enabled_name((enum mach_thp_enabled)v);
}

static const char *defrag_name(unsigned int v)
{
	return mach_thp_defrag_name((enum mach_thp_defrag)v);
}

static const char *shmem_name(unsigned int v)
{
	return mach_thp_shmem_name((enum mach_thp_shmem)v);
}

int ld_sys_thp(struct lex *lx, struct mach_loader *ld, const struct mach_ld_sys_file *f)
{
	struct mach_thp *t = &ld->m->platform.thp;
	int64_t v;

	t->known = true;
	switch (f->attr) {
	case MACH_SYSA_NONE: return 0;
	case MACH_SYSA_THP_ENABLED: return choices(lx, MACH_NR_THP_ENABLED, enabled_name, &t->enabled);
	case MACH_SYSA_THP_DEFRAG: return choices(lx, MACH_NR_THP_DEFRAG, defrag_name, &t->defrag);
	case MACH_SYSA_THP_SHMEM: return choices(lx, MACH_NR_THP_SHMEM, shmem_name, &t->shmem);
	case MACH_SYSA_THP_ZERO_PAGE:
		if (ld_sys_number(lx, &v, 0, 1))
			return -EINVAL;
		t->use_zero_page = v;
		return 0;
	default:
		if (ld_sys_number(lx, &v, 0, INT64_MAX))
			return -EINVAL;
		t->pmd_size = (uint64_t)v;
		return 0;
	}
}
