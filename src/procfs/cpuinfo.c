// SPDX-License-Identifier: MIT
/*
 * cpuinfo.c - /proc/cpuinfo, one block per online CPU.
 *
 * Mirrors arch/x86/kernel/cpu/proc.c show_cpuinfo of Linux 6.18 (labels, tab
 * alignment, the empty "power management:" line and the blank line after
 * each block).  The model knows the CPU's name and clock; the remaining
 * identification fields are those of the reference VM's AMD EPYC.  Where
 * the machine knows its CPUs' topology (mach_platform.h), the ids, counts,
 * cache size and each CPU's clock are the ones /sys shows; otherwise one
 * package without SMT siblings at the machine's clock.
 */
#include <stdlib.h>

#include "render.h"

static const char cpu_flags[] =
	"fpu vme de pse tsc msr pae mce cx8 apic sep pge mca cmov pat pse36 clflush mmx fxsr "
	"sse sse2 ht syscall nx mmxext lm constant_tsc rep_good nopl xtopology tsc_reliable "
	"nonstop_tsc cpuid extd_apicid tsc_known_freq pni pclmulqdq ssse3 fma cx16 sse4_1 sse4_2 "
	"x2apic movbe popcnt tsc_deadline_timer aes xsave avx f16c rdrand hypervisor lahf_lm "
	"cr8_legacy misalignsse 3dnowprefetch topoext bmi1 avx2 bmi2 erms adx clflushopt clwb "
	"sha_ni xsaveopt xsavec xgetbv1 clzero xsaveerptr arat gfni vaes vpclmulqdq fsrm";

/* Online CPUs and cores of each package (siblings, cpu cores), counted once for all blocks. */
struct pkg_counts {
	unsigned int n;
	unsigned int *cpus, *cores;
};

static int key_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static void count_packages(const struct mach_machine *mach, struct pkg_counts *pc)
{
	unsigned int top = 0, nkeys = 0;
	uint64_t *keys;

	pc->n = 0;
	for (unsigned int i = 0; i < mach->ncpus; i++)
		if (mach->cpus[i].topo.package >= 0 && (unsigned int)mach->cpus[i].topo.package >= top)
			top = (unsigned int)mach->cpus[i].topo.package + 1;
	pc->cpus = calloc(2 * (size_t)top + 1, sizeof(*pc->cpus));
	keys = malloc(((size_t)mach->ncpus + 1) * sizeof(*keys));
	if (!pc->cpus || !keys) {
		free(keys);
		return;
	}
	pc->cores = pc->cpus + top;
	pc->n = top;
	/* a core counts once, whichever of its threads are online: distinct (package, die, core) */
	for (unsigned int i = 0; i < mach->ncpus; i++) {
		const struct mach_cpu_topo *t = &mach->cpus[i].topo;

		if (!mach->cpus[i].online || t->package < 0)
			continue;
		pc->cpus[t->package]++;
		keys[nkeys++] = (uint64_t)t->package << 42 | (uint64_t)(t->die & 0x1fffff) << 21 |
				(uint64_t)(t->core & 0x1fffff);
	}
	if (nkeys)
		qsort(keys, nkeys, sizeof(*keys), key_cmp);
	for (unsigned int k = 0; k < nkeys; k++)
		if (!k || keys[k] != keys[k - 1])
			pc->cores[keys[k] >> 42]++;
	free(keys);
}

/* The CPU's L2 size in KiB: what x86_cache_size holds on AMD; 1024 when its caches are not known. */
static unsigned long long l2_kib(const struct mach_cpu *cpu)
{
	for (unsigned int k = 0; k < cpu->topo.ncaches; k++)
		if (cpu->topo.cache[k].level == 2)
			return mach_cache_bytes(&cpu->topo.cache[k]) >> 10;
	return 1024;
}

int pfs_show_cpuinfo(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	const struct mach_machine *mach = c->mach;
	bool known = mach->platform.cpus_known;
	struct pkg_counts pc = { 0 };
	unsigned int online = 0;

	(void)v;
	for (unsigned int i = 0; i < mach->ncpus; i++)
		online += mach->cpus[i].online;
	if (known)
		count_packages(mach, &pc);
	for (unsigned int i = 0; i < mach->ncpus; i++) {
		const struct mach_cpu *cpu = &mach->cpus[i];
		unsigned int khz = cpu->topo.cur_khz ? cpu->topo.cur_khz : mach->cpu_khz;
		unsigned int pkg = known && cpu->topo.package >= 0 ? (unsigned int)cpu->topo.package : 0;
		bool counted = known && pkg < pc.n;

		if (!cpu->online)
			continue;
		seq_put_decimal_ull(m, "processor\t: ", cpu->id);
		seq_puts(m, "\nvendor_id\t: AuthenticAMD\ncpu family\t: 26\nmodel\t\t: 2\nmodel name\t: ");
		seq_puts(m, mach->cpu_model);
		seq_puts(m, "\nstepping\t: 1");
		seq_put_decimal_ull(m, "\ncpu MHz\t\t: ", khz / 1000);
		seq_put_decimal_ull(m, ".", khz % 1000 / 100);
		seq_put_decimal_ull(m, NULL, khz % 100 / 10);
		seq_put_decimal_ull(m, NULL, khz % 10);
		seq_put_decimal_ull(m, "\ncache size\t: ", l2_kib(cpu));
		seq_put_decimal_ull(m, " KB\nphysical id\t: ", pkg);
		seq_put_decimal_ull(m, "\nsiblings\t: ", counted ? pc.cpus[pkg] : online);
		seq_put_decimal_ull(m, "\ncore id\t\t: ", known ? (unsigned int)cpu->topo.core : cpu->id);
		seq_put_decimal_ull(m, "\ncpu cores\t: ", counted ? pc.cores[pkg] : online);
		seq_put_decimal_ull(m, "\napicid\t\t: ", known ? cpu->topo.apicid : cpu->id);
		seq_put_decimal_ull(m, "\ninitial apicid\t: ", known ? cpu->topo.apicid : cpu->id);
		seq_puts(m, "\nfpu\t\t: yes\nfpu_exception\t: yes\ncpuid level\t: 13\nwp\t\t: yes\nflags\t\t: ");
		seq_puts(m, cpu_flags);
		seq_puts(m, "\nbugs\t\t: cpu_meltdown spectre_v1 spectre_v2 spec_store_bypass srso spectre_v2_user");
		/* bogomips: twice the clock in MHz, two decimals */
		seq_put_decimal_ull(m, "\nbogomips\t: ", mach->cpu_khz / 500);
		seq_put_decimal_ull(m, mach->cpu_khz % 500 / 5 < 10 ? ".0" : ".", mach->cpu_khz % 500 / 5);
		seq_puts(m, "\nTLB size\t: 192 4K pages\nclflush size\t: 64\ncache_alignment\t: 64\n"
			    "address sizes\t: 48 bits physical, 48 bits virtual\npower management:\n\n");
	}
	free(pc.cpus);
	return 0;
}
