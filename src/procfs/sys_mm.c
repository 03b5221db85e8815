// SPDX-License-Identifier: MIT
/*
 * sys_mm.c - /sys/kernel/mm/transparent_hugepage (mm/huge_memory.c):
 * enabled_show, defrag_show and shmem_enabled_show print every choice
 * with the current one in brackets, separated by single spaces;
 * use_zero_page and hpage_pmd_size are numbers.
 */
#include "render.h"

/* The choices 0..@n-1 named by @name, @cur in brackets, then a newline. */
static void choices(struct seq_file *m, unsigned int n, unsigned int cur, const char *(*name)(unsigned int))
{
	for (unsigned int i = 0; i < n; i++) {
		if (i)
			seq_putc(m, ' ');
		if (i == cur)
			seq_putc(m, '[');
		seq_puts(m, name(i));
		if (i == cur)
			seq_putc(m, ']');
	}
	seq_putc(m, '\n');
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

int pfs_show_sys_thp(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	const struct mach_thp *t = &c->mach->platform.thp;

	(void)v;
	switch (c->arg) {
	case MACH_SYSA_THP_ENABLED: choices(m, MACH_NR_THP_ENABLED, t->enabled, enabled_name); break;
	case MACH_SYSA_THP_DEFRAG: choices(m, MACH_NR_THP_DEFRAG, t->defrag, defrag_name); break;
	case MACH_SYSA_THP_SHMEM: choices(m, MACH_NR_THP_SHMEM, t->shmem, shmem_name); break;
	case MACH_SYSA_THP_ZERO_PAGE:
		seq_putc(m, t->use_zero_page ? '1' : '0');
		seq_putc(m, '\n');
		break;
	default:
		seq_put_decimal_ull(m, NULL, t->pmd_size);
		seq_putc(m, '\n');
		break;
	}
	return 0;
}
