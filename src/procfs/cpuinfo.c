// SPDX-License-Identifier: MIT
/*
 * cpuinfo.c - /proc/cpuinfo, one block per online CPU.
 *
 * Mirrors arch/x86/kernel/cpu/proc.c show_cpuinfo of Linux 6.18 (labels, tab
 * alignment, the empty "power management:" line and the blank line after
 * each block).  The model knows the CPU's name and clock; the remaining
 * identification fields are those of the reference VM's AMD EPYC, and the
 * topology follows the machine's CPU count (one package, no SMT siblings).
 */
#include "render.h"

static const char cpu_flags[] =
	"fpu vme de pse tsc msr pae mce cx8 apic sep pge mca cmov pat pse36 clflush mmx fxsr "
	"sse sse2 ht syscall nx mmxext lm constant_tsc rep_good nopl xtopology tsc_reliable "
	"nonstop_tsc cpuid extd_apicid tsc_known_freq pni pclmulqdq ssse3 fma cx16 sse4_1 sse4_2 "
	"x2apic movbe popcnt tsc_deadline_timer aes xsave avx f16c rdrand hypervisor lahf_lm "
	"cr8_legacy misalignsse 3dnowprefetch topoext bmi1 avx2 bmi2 erms adx clflushopt clwb "
	"sha_ni xsaveopt xsavec xgetbv1 clzero xsaveerptr arat gfni vaes vpclmulqdq fsrm";

int pfs_show_cpuinfo(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	const struct mach_machine *mach = c->mach;
	unsigned int online = 0;

	(void)v;
	for (unsigned int i = 0; i < mach->ncpus; i++)
		online += mach->cpus[i].online;
	for (unsigned int i = 0; i < mach->ncpus; i++) {
		const struct mach_cpu *cpu = &mach->cpus[i];

		if (!cpu->online)
			continue;
		seq_put_decimal_ull(m, "processor\t: ", cpu->id);
		seq_puts(m, "\nvendor_id\t: AuthenticAMD\ncpu family\t: 26\nmodel\t\t: 2\nmodel name\t: ");
		seq_puts(m, mach->cpu_model);
		seq_puts(m, "\nstepping\t: 1");
		seq_put_decimal_ull(m, "\ncpu MHz\t\t: ", mach->cpu_khz / 1000);
		seq_put_decimal_ull(m, ".", mach->cpu_khz % 1000 / 100);
		seq_put_decimal_ull(m, NULL, mach->cpu_khz % 100 / 10);
		seq_put_decimal_ull(m, NULL, mach->cpu_khz % 10);
		seq_puts(m, "\ncache size\t: 1024 KB\nphysical id\t: 0");
		seq_put_decimal_ull(m, "\nsiblings\t: ", online);
		seq_put_decimal_ull(m, "\ncore id\t\t: ", cpu->id);
		seq_put_decimal_ull(m, "\ncpu cores\t: ", online);
		seq_put_decimal_ull(m, "\napicid\t\t: ", cpu->id);
		seq_put_decimal_ull(m, "\ninitial apicid\t: ", cpu->id);
		seq_puts(m, "\nfpu\t\t: yes\nfpu_exception\t: yes\ncpuid level\t: 13\nwp\t\t: yes\nflags\t\t: ");
		seq_puts(m, cpu_flags);
		seq_puts(m, "\nbugs\t\t: cpu_meltdown spectre_v1 spectre_v2 spec_store_bypass srso spectre_v2_user");
		/* bogomips: twice the clock in MHz, two decimals */
		seq_put_decimal_ull(m, "\nbogomips\t: ", mach->cpu_khz / 500);
		seq_put_decimal_ull(m, mach->cpu_khz % 500 / 5 < 10 ? ".0" : ".", mach->cpu_khz % 500 / 5);
		seq_puts(m, "\nTLB size\t: 192 4K pages\nclflush size\t: 64\ncache_alignment\t: 64\n"
			    "address sizes\t: 48 bits physical, 48 bits virtual\npower management:\n\n");
	}
	return 0;
}
