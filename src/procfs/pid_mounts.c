// SPDX-License-Identifier: MIT
/*
 * pid_mounts.c - /proc/<pid>/mounts, mountinfo and mountstats: one record
 * per mount of the task's mount namespace, seen from its root.
 *
 * Mirror fs/proc_namespace.c show_vfsmnt, show_mountinfo and show_vfsstat
 * of Linux 6.18.  Device names and filesystem types go through mangle(),
 * which octal-escapes space, tab, newline, backslash and '#'; paths (the
 * mount's root and its mount point) escape the first four only.  mounts
 * shows the effective read-only state (mount or superblock), then the
 * superblock flags, the mount flags and the filesystem's options;
 * mountinfo splits them into the mount's ("rw,nosuid,relatime") and the
 * superblock's ("rw,size=4k"), with the propagation fields in between.  A
 * task without an nsproxy (a zombie) cannot open these files: EINVAL, which
 * the file table's PFS_ACC_NEED_NS gives at open.
 */
#include "render.h"

#define PATH_ESC " \t\n\\"

static void mangle(struct seq_file *m, const char *s)
{
	seq_escape(m, s, " \t\n\\#");
}

static const struct mach_mnt_table *mounts_table(struct seq_file *m)
{
	const struct pfs_ctx *c = m->private;

	return mach_thread_mounts(c->mach, c->thread);
}

static void *mounts_start(struct seq_file *m, loff_t *pos)
{
	const struct mach_mnt_table *t = mounts_table(m);
	const struct mach_mount *mounts;
	int rc;

	if (!t || *pos < 0 || (size_t)*pos >= t->n)
		return NULL;
	/* every call asks again: the mounts may be made ones, kept for this thread only */
	if ((rc = mach_mnt_table_mounts(t, &mounts)))
		return SEQ_ERR_PTR(rc);
	return (void *)&mounts[*pos];
}

static void *mounts_next(struct seq_file *m, void *v, loff_t *pos)
{
	(void)v;
	++*pos;
	return mounts_start(m, pos);
}

/* ",sync,dirsync,mand,lazytime" as the superblock has them (show_sb_opts). */
static void show_sb_opts(struct seq_file *m, unsigned int sb)
{
	if (sb & MACH_SB_SYNC)
		seq_puts(m, ",sync");
	if (sb & MACH_SB_DIRSYNC)
		seq_puts(m, ",dirsync");
	if (sb & MACH_SB_MAND)
		seq_puts(m, ",mand");
	if (sb & MACH_SB_LAZYTIME)
		seq_puts(m, ",lazytime");
}

/* ",nosuid,...,relatime" as the mount has them (show_mnt_opts). */
static void show_mnt_opts(struct seq_file *m, unsigned int f)
{
	static const struct { unsigned int flag; const char *str; } opts[] = {
		{ MACH_MNT_NOSUID, ",nosuid" }, { MACH_MNT_NODEV, ",nodev" },
		{ MACH_MNT_NOEXEC, ",noexec" }, { MACH_MNT_NOATIME, ",noatime" },
		{ MACH_MNT_NODIRATIME, ",nodiratime" }, { MACH_MNT_RELATIME, ",relatime" },
		{ MACH_MNT_NOSYMFOLLOW, ",nosymfollow" },
	};

	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++)
		if (f & opts[i].flag)
			seq_puts(m, opts[i].str);
	if (f & MACH_MNT_IDMAPPED)
		seq_puts(m, ",idmapped");
}

/* The filesystem's own options (its show_options), each after a comma. */
static void show_fs_opts(struct seq_file *m, const struct mach_mount *mnt)
{
	if (mnt->fs_opts && mnt->fs_opts[0]) {
		seq_putc(m, ',');
		seq_puts(m, mnt->fs_opts);
	}
}

static int show_vfsmnt(struct seq_file *m, void *v)
{
	const struct mach_mount *mnt = v;
	bool ro = (mnt->mnt_flags & MACH_MNT_RDONLY) || (mnt->sb_flags & MACH_SB_RDONLY);

	mangle(m, mnt->source ? mnt->source : "none");
	seq_putc(m, ' ');
	seq_escape(m, mnt->point, PATH_ESC);
	seq_putc(m, ' ');
	mangle(m, mnt->fstype);
	seq_puts(m, ro ? " ro" : " rw");
	show_sb_opts(m, mnt->sb_flags);
	show_mnt_opts(m, mnt->mnt_flags);
	show_fs_opts(m, mnt);
	seq_puts(m, " 0 0\n");
	return 0;
}

static int show_mountinfo(struct seq_file *m, void *v)
{
	const struct mach_mount *mnt = v;

	seq_put_decimal_ll(m, NULL, mnt->id);
	seq_put_decimal_ll(m, " ", mnt->parent);
	seq_put_decimal_ull(m, " ", mnt->major);
	seq_put_decimal_ull(m, ":", mnt->minor);
	seq_putc(m, ' ');
	seq_escape(m, mnt->root, PATH_ESC);
	seq_putc(m, ' ');
	seq_escape(m, mnt->point, PATH_ESC);
	seq_puts(m, mnt->mnt_flags & MACH_MNT_RDONLY ? " ro" : " rw");
	show_mnt_opts(m, mnt->mnt_flags);
	if (mnt->shared)
		seq_put_decimal_ll(m, " shared:", mnt->shared);
	if (mnt->master) {
		seq_put_decimal_ll(m, " master:", mnt->master);
		if (mnt->propagate_from && mnt->propagate_from != mnt->master)
			seq_put_decimal_ll(m, " propagate_from:", mnt->propagate_from);
	}
	if (mnt->unbindable)
		seq_puts(m, " unbindable");
	seq_puts(m, " - ");
	mangle(m, mnt->fstype);
	seq_putc(m, ' ');
	mangle(m, mnt->source ? mnt->source : "none");
	seq_puts(m, mnt->sb_flags & MACH_SB_RDONLY ? " ro" : " rw");
	show_sb_opts(m, mnt->sb_flags);
	show_fs_opts(m, mnt);
	seq_putc(m, '\n');
	return 0;
}

static int show_vfsstat(struct seq_file *m, void *v)
{
	const struct mach_mount *mnt = v;

	if (mnt->source) {
		seq_puts(m, "device ");
		mangle(m, mnt->source);
	} else {
		seq_puts(m, "no device");
	}
	seq_puts(m, " mounted on ");
	seq_escape(m, mnt->point, PATH_ESC);
	seq_puts(m, " with fstype ");
	mangle(m, mnt->fstype);
	seq_putc(m, '\n');
	return 0;
}

const struct seq_operations pfs_pid_mounts_ops = {
	.start = mounts_start,
	.next = mounts_next,
	.stop = pfs_seq_stop_nothing,
	.show = show_vfsmnt,
};

const struct seq_operations pfs_pid_mountinfo_ops = {
	.start = mounts_start,
	.next = mounts_next,
	.stop = pfs_seq_stop_nothing,
	.show = show_mountinfo,
};

const struct seq_operations pfs_pid_mountstats_ops = {
	.start = mounts_start,
	.next = mounts_next,
	.stop = pfs_seq_stop_nothing,
	.show = show_vfsstat,
};
