// SPDX-License-Identifier: MIT
/*
 * load_platform_cpu.c - /sys/devices/system/cpu into the model: the CPU
 * lists against /proc/stat's CPUs, each CPU's online file, node link,
 * topology ids and cache geometry, and the cpufreq policies (one per CPU,
 * the driver's settings the same for all).  Masks, cache sizes and
 * scaling_setspeed are checked when the session ends (ld_sys_check_cpu).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load_platform.h"

#define CPU_ID_LIMIT (1u << 20)

/* CPU @id of the machine (from /proc/stat), or an error naming the file. */
static struct mach_cpu *cpu_at(struct lex *lx, struct mach_machine *m, uint32_t id)
{
	int i = mach_cpu_index(m, id);

	if (i < 0) {
		lex_fail_line(lx, 1, "cpu%u is not a CPU /proc/stat shows (offline CPUs are not modelled)", id);
		return NULL;
	}
	return &m->cpus[i];
}

/* The first file of the CPU tree: from now on the topology is the loaded one. */
static void cpus_known(struct mach_machine *m)
{
	if (m->platform.cpus_known)
		return;
	m->platform.cpus_known = true;
	for (unsigned int i = 0; i < m->ncpus; i++)
		m->cpus[i].topo = (struct mach_cpu_topo){ .present = true, .enabled = true };
}

/* A top-level CPU list: online, possible and offline must be /proc/stat's; the others set flags. */
static int cpu_list(struct lex *lx, struct mach_machine *m, unsigned int attr)
{
	struct mach_bitmap b;
	int rc = ld_sys_list(lx, &b, CPU_ID_LIMIT);

	for (unsigned int bit = 0; !rc && bit < b.nbits; bit++)
		if (mach_bitmap_test(&b, bit) && mach_cpu_index(m, bit) < 0)
			rc = lex_fail_line(lx, 1, "lists cpu%u, which /proc/stat does not show", bit);
	for (unsigned int i = 0; !rc && i < m->ncpus; i++) {
		struct mach_cpu *c = &m->cpus[i];
		bool in = mach_bitmap_test(&b, c->id);

		switch (attr) {
		case MACH_SYSA_CPUS_ONLINE:
		case MACH_SYSA_CPUS_OFFLINE:
			if (in != (c->online == (attr == MACH_SYSA_CPUS_ONLINE)))
				rc = lex_fail_line(lx, 1, "cpu%u is %s in /proc/stat", c->id,
						   c->online ? "online" : "offline");
			break;
		case MACH_SYSA_CPUS_POSSIBLE:
			if (!in)
				rc = lex_fail_line(lx, 1, "leaves out cpu%u, which /proc/stat shows", c->id);
			break;
		case MACH_SYSA_CPUS_PRESENT: c->topo.present = in; break;
		case MACH_SYSA_CPUS_ENABLED: c->topo.enabled = in; break;
		default: c->topo.isolated = in; break;
		}
	}
	mach_bitmap_free(&b);
	return rc;
}

/* A link's target: "@prefix<decimal>" whole, the number in *@v. */
static int link_number(struct lex *lx, const char *prefix, uint64_t *v)
{
	if (lex_expect(lx, prefix) || lex_u64_max(lx, v, CPU_ID_LIMIT))
		return -EINVAL;
	return lex_expect_eof(lx);
}

static int topology(struct lex *lx, struct mach_cpu *c, const struct mach_ld_sys_file *f, struct mach_loader *ld,
		    const char *path)
{
	int64_t v;
	uint64_t ppin;
	int *id[] = { &c->topo.package, &c->topo.die, &c->topo.cluster, &c->topo.core };

	switch (f->attr) {
	case MACH_SYSA_TOPO_PACKAGE:
	case MACH_SYSA_TOPO_DIE:
	case MACH_SYSA_TOPO_CLUSTER:
	case MACH_SYSA_TOPO_CORE:
		if (ld_sys_number(lx, &v, -1, INT32_MAX))
			return -EINVAL;
		*id[f->attr - MACH_SYSA_TOPO_PACKAGE] = (int)v;
		ld->m->topo_linked = 0; /* the rings no longer follow the ids: linked again at the end */
		return 0;
	case MACH_SYSA_TOPO_PPIN:
		if (lex_expect(lx, "0x") || lex_hex(lx, &ppin) || lex_eol(lx) || lex_expect_eof(lx))
			return -EINVAL;
		c->topo.has_ppin = true;
		c->topo.ppin = ppin;
		return 0;
	default:
		/* a mask: against the ids, once all are in */
		return ld_sys_defer(ld, f, path, lx->text, (size_t)(lx->end - lx->text));
	}
}

static int cache_type(struct lex *lx, struct mach_cache_leaf *l)
{
	char name[16];

	if (ld_sys_word(lx, name, sizeof(name), "a cache type"))
		return -EINVAL;
	for (int t = 0; t < MACH_NR_CACHE_TYPES; t++)
		if (!strcmp(name, mach_cache_type_name((enum mach_cache_type)t))) {
			l->type = (uint8_t)t;
			return 0;
		}
	return lex_fail_line(lx, 1, "\"%s\" is not a cache type the model knows (Data, Instruction, Unified)", name);
}

static int cache(struct lex *lx, struct mach_cpu *c, const struct mach_ld_sys_file *f, struct mach_loader *ld,
		 const char *path)
{
	unsigned int leaf = f->inst & 7u;
	struct mach_cache_leaf *l = &c->topo.cache[leaf];
	int64_t v;

	if (leaf >= c->topo.ncaches)
		c->topo.ncaches = (uint8_t)(leaf + 1);
	ld->m->topo_linked = 0; /* a leaf's level, type or id: linked again at the end */
	switch (f->attr) {
	case MACH_SYSA_CACHE_TYPE:
		return cache_type(lx, l);
	case MACH_SYSA_CACHE_SIZE:
	case MACH_SYSA_CACHE_SHARED_MAP:
	case MACH_SYSA_CACHE_SHARED_LIST:
		return ld_sys_defer(ld, f, path, lx->text, (size_t)(lx->end - lx->text));
	case MACH_SYSA_CACHE_LEVEL:
		if (ld_sys_number(lx, &v, 0, 255))
			return -EINVAL;
		l->level = (uint8_t)v;
		return 0;
	case MACH_SYSA_CACHE_ID:
		if (ld_sys_number(lx, &v, 0, UINT32_MAX))
			return -EINVAL;
		l->id = (uint32_t)v;
		l->has_id = true;
		return 0;
	case MACH_SYSA_CACHE_SETS:
		if (ld_sys_number(lx, &v, 0, UINT32_MAX))
			return -EINVAL;
		l->sets = (uint32_t)v;
		return 0;
	default:
		if (ld_sys_number(lx, &v, 0, UINT16_MAX))
			return -EINVAL;
		if (f->attr == MACH_SYSA_CACHE_WAYS)
			l->ways = (uint16_t)v;
		else if (f->attr == MACH_SYSA_CACHE_LINE)
			l->line_size = (uint16_t)v;
		else
			l->partitions = (uint16_t)v;
		return 0;
	}
}

/* A machine-wide cpufreq number: the first policy sets it, the others must agree. */
static int freq_same(struct lex *lx, struct ld_sys *s, unsigned int attr, uint32_t *field, uint32_t v)
{
	uint64_t bit = UINT64_C(1) << (attr - MACH_SYSA_FREQ_AFFECTED);

	if ((s->freq_attrs & bit) && *field != v)
		return lex_fail_line(lx, 1, "%u where another policy says %u (policies are modelled alike)", v, *field);
	s->freq_attrs |= bit;
	*field = v;
	return 0;
}

/* A word list ending in a space (governor drivers) or not (setpolicy drivers), into @buf. */
static int words(struct lex *lx, char *buf, size_t size, bool *trailing)
{
	const char *eol = lex_line_end(lx);
	size_t n = (size_t)(eol - lx->p);

	*trailing = n && eol[-1] == ' ';
	n -= *trailing;
	if (n >= size)
		return lex_fail(lx, "a list longer than %zu bytes", size - 1);
	memcpy(buf, lx->p, n);
	buf[n] = '\0';
	lx->p = eol;
	return lex_eol(lx) ? -EINVAL : lex_expect_eof(lx);
}

static int freq_table(struct lex *lx, struct mach_cpufreq *fr, struct ld_sys *s)
{
	struct mach_cpufreq t = { 0 };

	while (!lex_peek(lx, '\n') && !lex_eof(lx)) {
		uint64_t v;

		if (t.nfreqs == MACH_CPUFREQ_TABLE_MAX)
			return lex_fail(lx, "more than %d frequencies", MACH_CPUFREQ_TABLE_MAX);
		if (lex_u64_max(lx, &v, UINT32_MAX) || lex_expect(lx, " "))
			return -EINVAL;
		t.freqs[t.nfreqs++] = (uint32_t)v;
	}
	if (lex_eol(lx) || lex_expect_eof(lx))
		return -EINVAL;
	if ((s->freq_attrs & (UINT64_C(1) << (MACH_SYSA_FREQ_AVAILABLE - MACH_SYSA_FREQ_AFFECTED))) &&
	    (t.nfreqs != fr->nfreqs || memcmp(t.freqs, fr->freqs, sizeof(t.freqs))))
		return lex_fail_line(lx, 1, "another policy has other frequencies (policies are modelled alike)");
	s->freq_attrs |= UINT64_C(1) << (MACH_SYSA_FREQ_AVAILABLE - MACH_SYSA_FREQ_AFFECTED);
	fr->nfreqs = t.nfreqs;
	memcpy(fr->freqs, t.freqs, sizeof(t.freqs));
	return 0;
}

/* A string a policy prints: the first sets it, the others must agree. */
static int freq_string(struct lex *lx, struct ld_sys *s, unsigned int attr, char *field, size_t size)
{
	uint64_t bit = UINT64_C(1) << (attr - MACH_SYSA_FREQ_AFFECTED);
	char v[96];

	if (ld_sys_word(lx, v, size < sizeof(v) ? size : sizeof(v), "a name"))
		return -EINVAL;
	if ((s->freq_attrs & bit) && strcmp(field, v))
		return lex_fail_line(lx, 1, "\"%s\" where another policy says \"%s\"", v, field);
	s->freq_attrs |= bit;
	memcpy(field, v, strlen(v) + 1); /* read to fit @size */
	return 0;
}

static int cpufreq(struct lex *lx, struct mach_machine *m, struct mach_cpu *c, const struct mach_ld_sys_file *f,
		   struct mach_loader *ld, const char *path)
{
	struct mach_cpufreq *fr = &m->platform.cpufreq;
	struct ld_sys *s = ld->sys;
	bool trailing;
	int64_t v;

	fr->present = true;
	switch (f->attr) {
	case MACH_SYSA_FREQ_GOVERNOR: return freq_string(lx, s, f->attr, fr->governor, sizeof(fr->governor));
	case MACH_SYSA_FREQ_DRIVER: return freq_string(lx, s, f->attr, fr->driver, sizeof(fr->driver));
	case MACH_SYSA_FREQ_AVAILABLE: return freq_table(lx, fr, s);
	case MACH_SYSA_FREQ_SETSPEED: return ld_sys_defer(ld, f, path, lx->text, (size_t)(lx->end - lx->text));
	case MACH_SYSA_FREQ_GOVERNORS:
		if (words(lx, fr->governors, sizeof(fr->governors), &trailing))
			return -EINVAL;
		fr->setpolicy = !trailing;
		return 0;
	default:
		break;
	}
	if (ld_sys_number(lx, &v, 0, UINT32_MAX))
		return -EINVAL;
	switch (f->attr) {
	case MACH_SYSA_FREQ_AFFECTED:
	case MACH_SYSA_FREQ_RELATED:
		return (uint32_t)v == c->id ? 0 : lex_fail_line(lx, 1, "a policy of other CPUs (one per CPU is modelled)");
	case MACH_SYSA_FREQ_SCALING_CUR: c->topo.cur_khz = (uint32_t)v; return 0;
	case MACH_SYSA_FREQ_CPUINFO_CUR: c->topo.hw_khz = (uint32_t)v; return 0;
	case MACH_SYSA_FREQ_CPUINFO_MIN: return freq_same(lx, s, f->attr, &fr->min_khz, (uint32_t)v);
	case MACH_SYSA_FREQ_CPUINFO_MAX: return freq_same(lx, s, f->attr, &fr->max_khz, (uint32_t)v);
	case MACH_SYSA_FREQ_SCALING_MIN: return freq_same(lx, s, f->attr, &fr->scaling_min_khz, (uint32_t)v);
	case MACH_SYSA_FREQ_SCALING_MAX: return freq_same(lx, s, f->attr, &fr->scaling_max_khz, (uint32_t)v);
	default: return freq_same(lx, s, f->attr, &fr->latency_ns, (uint32_t)v);
	}
}

int ld_sys_cpu(struct lex *lx, struct mach_loader *ld, const struct mach_ld_sys_file *f, const char **skip)
{
	struct mach_machine *m = ld->m;
	uint32_t id = f->attr >= MACH_SYSA_CACHE_LEVEL && f->attr <= MACH_SYSA_CACHE_SHARED_LIST ? f->inst >> 3 : f->inst;
	struct mach_cpu *c;
	uint64_t v;
	int64_t n;

	(void)skip;
	cpus_known(m);
	switch (f->attr) {
	case MACH_SYSA_NONE:
		return 0;
	case MACH_SYSA_CPUS_KERNEL_MAX:
		if (ld_sys_number(lx, &n, 0, CPU_ID_LIMIT))
			return -EINVAL;
		m->platform.nr_cpus_kernel = (unsigned int)n + 1;
		return 0;
	case MACH_SYSA_CPUS_ONLINE: case MACH_SYSA_CPUS_POSSIBLE: case MACH_SYSA_CPUS_PRESENT:
	case MACH_SYSA_CPUS_OFFLINE: case MACH_SYSA_CPUS_ISOLATED: case MACH_SYSA_CPUS_ENABLED:
		return cpu_list(lx, m, f->attr);
	default:
		break;
	}
	if (!(c = cpu_at(lx, m, id)))
		return -EINVAL;
	switch (f->attr) {
	case MACH_SYSA_CPU_ONLINE:
		if (ld_sys_number(lx, &n, 0, 1))
			return -EINVAL;
		if ((n == 1) != c->online)
			return lex_fail_line(lx, 1, "cpu%u is %s in /proc/stat", c->id, c->online ? "online" : "offline");
		c->topo.hotpluggable = true;
		return 0;
	case MACH_SYSA_CPU_NODE_LINK:
		if (link_number(lx, "../../node/node", &v))
			return -EINVAL;
		c->topo.node = (int)v;
		return 0;
	case MACH_SYSA_CPU_CPUFREQ_LINK:
		if (link_number(lx, "../cpufreq/policy", &v))
			return -EINVAL;
		return v == c->id ? 0 : lex_fail_line(lx, 1, "a policy of another CPU (one per CPU is modelled)");
	case MACH_SYSA_BUS_CPU_LINK:
		if (link_number(lx, "../../../devices/system/cpu/cpu", &v))
			return -EINVAL;
		return v == c->id ? 0 : lex_fail_line(lx, 1, "a link to another CPU's directory");
	case MACH_SYSA_CPU_SUBSYSTEM_LINK:
		/* every CPU is a device of the cpu bus: nothing to keep */
		return lex_expect(lx, "../../../../bus/cpu") ? -EINVAL : lex_expect_eof(lx);
	default:
		break;
	}
	if (f->attr >= MACH_SYSA_TOPO_PACKAGE && f->attr <= MACH_SYSA_TOPO_CLUSTER_CPUS_LIST)
		return topology(lx, c, f, ld, lx->path);
	if (f->attr >= MACH_SYSA_CACHE_LEVEL && f->attr <= MACH_SYSA_CACHE_SHARED_LIST)
		return cache(lx, c, f, ld, lx->path);
	if (f->attr >= MACH_SYSA_FREQ_AFFECTED && f->attr <= MACH_SYSA_FREQ_AVAILABLE)
		return cpufreq(lx, m, c, f, ld, lx->path);
	return lex_fail_line(lx, 1, "not a file of the CPU tree");
}

/* ------------------------------------------------------------------ */
/* Checked at the end: what the kernel builds from the ids                */

/* The mask @c says against @want (nr_cpu_ids bits): a list, or hex as wide as nr_cpu_ids. */
static int check_mask(struct lex *lx, const struct mach_machine *m, const struct mach_bitmap *want, bool list)
{
	struct mach_bitmap got;
	unsigned int lo, hi;
	int rc;

	if (list)
		return lex_bitmap_list(lx, want) || lex_eol(lx) ? -EINVAL : lex_expect_eof(lx);
	rc = lex_bitmap(lx, &got, CPU_ID_LIMIT, &lo, &hi);
	if (!rc && (m->nr_cpu_ids < lo || m->nr_cpu_ids > hi))
		rc = lex_fail_line(lx, 1, "a mask %u to %u bits wide, where nr_cpu_ids is %u", lo, hi, m->nr_cpu_ids);
	for (unsigned int b = 0; !rc && b < hi; b++)
		if (mach_bitmap_test(&got, b) != mach_bitmap_test(want, b))
			rc = lex_fail_line(lx, 1, "cpu%u %s, where the ids loaded say otherwise", b,
					   mach_bitmap_test(&got, b) ? "is in the mask" : "is not in the mask");
	mach_bitmap_free(&got);
	return rc ? rc : lex_eol(lx) ? -EINVAL : lex_expect_eof(lx);
}

static int check_setspeed(struct lex *lx, const struct mach_machine *m, const struct mach_cpu *c)
{
	const struct mach_cpufreq *fr = &m->platform.cpufreq;
	int64_t v;

	if (strcmp(fr->governor, "userspace"))
		return lex_expect(lx, "<unsupported>\n") ? -EINVAL : lex_expect_eof(lx);
	if (ld_sys_number(lx, &v, 0, UINT32_MAX))
		return -EINVAL;
	return (uint32_t)v == (c->topo.cur_khz ? c->topo.cur_khz : m->cpu_khz)
		       ? 0
		       : lex_fail_line(lx, 1, "not the current frequency the userspace governor set");
}

int ld_sys_check_cpu(struct mach_loader *ld, const struct ld_sys_check *c, char *err, size_t errlen)
{
	const struct mach_machine *m = ld->m;
	bool cache_file = c->attr >= MACH_SYSA_CACHE_LEVEL && c->attr <= MACH_SYSA_CACHE_SHARED_LIST;
	int i = mach_cpu_index(m, cache_file ? c->inst >> 3 : c->inst);
	struct mach_bitmap want;
	struct lex lx;
	uint64_t kib;
	int rc;

	lex_init(&lx, c->path, c->text, c->len, err, errlen);
	if (i < 0)
		return lex_fail_line(&lx, 1, "no such CPU");
	if (c->attr == MACH_SYSA_FREQ_SETSPEED)
		return check_setspeed(&lx, m, &m->cpus[i]);
	if (c->attr == MACH_SYSA_CACHE_SIZE) {
		const struct mach_cache_leaf *l = &m->cpus[i].topo.cache[c->inst & 7u];

		if (lex_u64(&lx, &kib) || lex_expect(&lx, "K\n") || lex_expect_eof(&lx))
			return -EINVAL;
		return kib << 10 == mach_cache_bytes(l)
			       ? 0
			       : lex_fail_line(&lx, 1, "%llu KiB, where the leaf's sets, ways, line size and partitions "
						       "make %llu bytes", (unsigned long long)kib,
					       (unsigned long long)mach_cache_bytes(l));
	}
	if (mach_bitmap_alloc(&want, m->nr_cpu_ids))
		return -ENOMEM;
	if (cache_file) {
		mach_cache_shared(m, (unsigned int)i, c->inst & 7u, want.words);
		rc = check_mask(&lx, m, &want, c->attr == MACH_SYSA_CACHE_SHARED_LIST);
	} else {
		static const enum mach_topo_mask masks[] = { MACH_TOPO_THREAD, MACH_TOPO_THREAD, MACH_TOPO_PACKAGE,
							     MACH_TOPO_PACKAGE, MACH_TOPO_DIE, MACH_TOPO_CLUSTER };
		unsigned int k = c->attr - MACH_SYSA_TOPO_THREAD_SIBLINGS;

		mach_topo_mask(m, (unsigned int)i, masks[k / 2], want.words);
		rc = check_mask(&lx, m, &want, k % 2);
	}
	mach_bitmap_free(&want);
	return rc;
}
