// SPDX-License-Identifier: MIT
/*
 * sysctl.c - the files of /proc/sys: fs/proc/proc_sysctl.c proc_sys_read
 * calling the key's handler.  proc_dointvec and its kin print each value
 * of the vector in decimal, separated by TABs, then a newline;
 * proc_dostring prints the string and a newline; vm/stat_refresh prints
 * nothing; an unset stable_secret fails with EIO.
 *
 * Keys whose value another part of the model holds are printed from it
 * (kernel/osrelease, kernel/pid_max, kernel/ns_last_pid, fs/file-nr), so
 * they agree with the other files that show it.  kernel/random/uuid is a
 * new random v4 UUID on every read, as proc_do_uuid makes one when the
 * table has no storage: the model keeps none.
 */
#include <errno.h>
#include <sys/random.h>

#include "render.h"

/* The files in use (fs/file-nr's first field): where the file tables are connected. */
static uint64_t files_in_use(const struct mach_machine *mach)
{
	return mach->sysctl->nr_files;
}

/* fs/file-nr: in use, always 0 free since 2.6, and fs/file-max. */
static void show_file_nr(struct seq_file *m, const struct mach_machine *mach)
{
	int64_t max = mach_sysctl_find(mach->sysctl, "fs/file-max");
	const struct mach_sysctl_node *fm = max > 0 ? &mach->sysctl->nodes[max] : NULL;

	seq_put_decimal_ull(m, NULL, files_in_use(mach));
	seq_puts(m, "\t0");
	seq_put_decimal_ull(m, "\t", fm && fm->kind == MACH_SYSCTL_NUMS && fm->nvals ? fm->vals[0] : 0);
	seq_putc(m, '\n');
}

/* generate_random_uuid, printed as %pU: 8-4-4-4-12 lowercase hex digits. */
static int show_random_uuid(struct seq_file *m)
{
	static const unsigned int dash_after[] = { 3, 5, 7, 9 };
	unsigned char u[16];
	unsigned int d = 0;

	if (getrandom(u, sizeof(u), 0) != (ssize_t)sizeof(u))
		return -EIO;
	u[6] = (u[6] & 0x0f) | 0x40;
	u[8] = (u[8] & 0x3f) | 0x80;
	for (unsigned int i = 0; i < 16; i++) {
		seq_put_hex_ll(m, NULL, u[i], 2);
		if (d < 4 && i == dash_after[d]) {
			seq_putc(m, '-');
			d++;
		}
	}
	seq_putc(m, '\n');
	return 0;
}

/* The vector of a NUMS key, TAB-separated. */
static void show_nums(struct seq_file *m, const struct mach_sysctl_node *n)
{
	for (uint32_t i = 0; i < n->nvals; i++) {
		const char *sep = i ? "\t" : NULL;

		if (n->is_signed)
			seq_put_decimal_ll(m, sep, (long long)n->vals[i]);
		else
			seq_put_decimal_ull(m, sep, n->vals[i]);
	}
	seq_putc(m, '\n');
}

int pfs_show_sysctl(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	const struct mach_machine *mach = c->mach;
	const struct mach_sysctl_node *n = &mach->sysctl->nodes[c->inst];

	(void)v;
	switch (n->src) {
	case MACH_SYSCTL_SRC_OSRELEASE:
		seq_puts(m, mach->profile.kernel_release);
		seq_putc(m, '\n');
		return 0;
	case MACH_SYSCTL_SRC_PID_MAX:
		seq_put_decimal_ll(m, NULL, mach->pid_max);
		seq_putc(m, '\n');
		return 0;
	case MACH_SYSCTL_SRC_NS_LAST_PID:
		seq_put_decimal_ll(m, NULL, mach->last_pid);
		seq_putc(m, '\n');
		return 0;
	case MACH_SYSCTL_SRC_FILE_NR:
		show_file_nr(m, mach);
		return 0;
	case MACH_SYSCTL_SRC_RANDOM_UUID:
		return show_random_uuid(m);
	default:
		break;
	}
	switch (n->kind) {
	case MACH_SYSCTL_NUMS:
		show_nums(m, n);
		return 0;
	case MACH_SYSCTL_STRING:
		seq_write(m, n->str ? n->str : "", n->len);
		seq_putc(m, '\n');
		return 0;
	case MACH_SYSCTL_EMPTY:
		return 0;
	case MACH_SYSCTL_UNSET:
		return -EIO;
	default:
		return -EACCES; /* a write-only key: sysctl_perm refuses the open first */
	}
}
