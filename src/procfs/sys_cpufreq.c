// SPDX-License-Identifier: MIT
/*
 * sys_cpufreq.c - /sys/devices/system/cpu/cpufreq/policyN: a cpufreq
 * policy's files (drivers/cpufreq/cpufreq.c show_*), one policy per CPU
 * as acpi-cpufreq makes them on x86.  c->inst is the CPU.
 *
 * Lists of CPUs are "%u " each without the last space (cpufreq_show_cpus);
 * the governor drivers and the frequency table end in a space.
 */
#include <errno.h>
#include <string.h>

#include "render.h"

int pfs_show_sys_cpufreq(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	const struct mach_cpufreq *f = &c->mach->platform.cpufreq;
	int i = mach_cpu_index(c->mach, c->inst);
	uint32_t cur;

	(void)v;
	if (i < 0)
		return -ENOENT;
	cur = c->mach->cpus[i].topo.cur_khz ? c->mach->cpus[i].topo.cur_khz : c->mach->cpu_khz;
	switch (c->arg) {
	case MACH_SYSA_FREQ_AFFECTED:
	case MACH_SYSA_FREQ_RELATED: seq_put_decimal_ull(m, NULL, c->inst); break;
	case MACH_SYSA_FREQ_CPUINFO_MIN: seq_put_decimal_ull(m, NULL, f->min_khz); break;
	case MACH_SYSA_FREQ_CPUINFO_MAX: seq_put_decimal_ull(m, NULL, f->max_khz); break;
	case MACH_SYSA_FREQ_CPUINFO_CUR:
		seq_put_decimal_ull(m, NULL, c->mach->cpus[i].topo.hw_khz ? c->mach->cpus[i].topo.hw_khz : cur);
		break;
	case MACH_SYSA_FREQ_SCALING_CUR: seq_put_decimal_ull(m, NULL, cur); break;
	case MACH_SYSA_FREQ_LATENCY: seq_put_decimal_ull(m, NULL, f->latency_ns); break;
	case MACH_SYSA_FREQ_SCALING_MIN: seq_put_decimal_ull(m, NULL, f->scaling_min_khz); break;
	case MACH_SYSA_FREQ_SCALING_MAX: seq_put_decimal_ull(m, NULL, f->scaling_max_khz); break;
	case MACH_SYSA_FREQ_GOVERNOR: seq_puts(m, f->governor); break;
	case MACH_SYSA_FREQ_DRIVER: seq_puts(m, f->driver); break;
	case MACH_SYSA_FREQ_GOVERNORS:
		seq_puts(m, f->governors);
		if (!f->setpolicy)
			seq_putc(m, ' ');
		break;
	case MACH_SYSA_FREQ_SETSPEED:
		/* only the userspace governor takes a speed */
		if (!strcmp(f->governor, "userspace"))
			seq_put_decimal_ull(m, NULL, cur);
		else
			seq_puts(m, "<unsupported>");
		break;
	case MACH_SYSA_FREQ_AVAILABLE:
		for (unsigned int k = 0; k < f->nfreqs; k++) {
			seq_put_decimal_ull(m, NULL, f->freqs[k]);
			seq_putc(m, ' ');
		}
		break;
	default:
		return -ENOENT;
	}
	seq_putc(m, '\n');
	return 0;
}
