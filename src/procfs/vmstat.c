// SPDX-License-Identifier: MIT
/*
 * vmstat.c - /proc/vmstat: one "name value" record per counter.
 *
 * Mirrors mm/vmstat.c vmstat_start/next/show of Linux 6.18: an iterator with a
 * record per line, each written as the name, " ", and the value.  The set and
 * order of names is the machine profile's (it varies with the kernel and its
 * configuration); names outside the vocabulary print as they were loaded.
 */
#include "render.h"

static void *vmstat_start(struct seq_file *m, loff_t *pos)
{
	const struct pfs_ctx *c = m->private;

	if (*pos < 0 || *pos >= (loff_t)c->mach->profile.nvmstat)
		return NULL;
	return (void *)&c->mach->profile.vmstat_order[*pos];
}

static void *vmstat_next(struct seq_file *m, void *v, loff_t *pos)
{
	(void)v;
	++*pos;
	return vmstat_start(m, pos);
}

static int vmstat_show(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	const struct mach_machine *mach = c->mach;
	unsigned int id = *(const uint16_t *)v;

	if (id >= MACH_NR_VMSTAT) {
		/* a counter outside the vocabulary, as loaded */
		const struct mach_extra_key *k = &mach->profile.vmstat_extra[id - MACH_NR_VMSTAT];
		uint64_t val = mach->vmstat_extra[id - MACH_NR_VMSTAT];

		seq_puts(m, k->name);
		if (k->is_signed)
			seq_put_decimal_ll(m, " ", (long long)val);
		else
			seq_put_decimal_ull(m, " ", val);
	} else {
		seq_puts(m, mach_vmstat_names[id]);
		seq_put_decimal_ull(m, " ", mach->vmstat[id]);
	}
	seq_putc(m, '\n');
	return 0;
}

const struct seq_operations pfs_vmstat_ops = {
	.start = vmstat_start,
	.next = vmstat_next,
	.stop = pfs_seq_stop_nothing,
	.show = vmstat_show,
};
