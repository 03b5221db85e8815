// SPDX-License-Identifier: MIT
/*
 * locks.c - /proc/locks.
 *
 * Mirrors fs/locks.c locks_start/next, locks_show and lock_get_status of
 * Linux 6.18: one record per lock of the global list, printing the lock and
 * then, depth first, the requests blocked on it, each under its record's id
 * and indented by "%*s" of "-> " to its depth.  The class, "ADVISORY " or
 * "*NOINODE*", the type, the owner's pid, the device in "%02x:%02x" and the
 * inode follow, then a POSIX-style range ("EOF" for OFFSET_MAX) or "0 EOF".
 */
#include "render.h"

/* Record @pos: the @pos-th line of level 0. */
static void *locks_at(struct seq_file *m, loff_t pos)
{
	const struct pfs_ctx *c = m->private;
	const struct mach_sys *s = &c->mach->sys;

	for (size_t i = 0; i < s->nlocks && pos >= 0; i++)
		if (s->locks[i].level == 0 && pos-- == 0)
			return (void *)&s->locks[i];
	return NULL;
}

static void *locks_start(struct seq_file *m, loff_t *pos)
{
	return locks_at(m, *pos);
}

static void *locks_next(struct seq_file *m, void *v, loff_t *pos)
{
	const struct pfs_ctx *c = m->private;
	const struct mach_sys *s = &c->mach->sys;
	const struct mach_file_lock *l = v, *end = s->locks + s->nlocks;

	++*pos;
	for (l++; l < end; l++)
		if (l->level == 0)
			return (void *)l;
	return NULL;
}

static const char *const type_names[MACH_NR_LOCK_TYPES] = {
	[MACH_LOCK_READ] = "READ", [MACH_LOCK_WRITE] = "WRITE", [MACH_LOCK_UNLCK] = "UNLCK",
};

static void lock_class(struct seq_file *m, const struct mach_file_lock *l)
{
	static const char *const lease_states[MACH_NR_LEASE_STATES] = {
		[MACH_LEASE_ACTIVE] = "ACTIVE    ", [MACH_LEASE_BREAKING] = "BREAKING  ",
		[MACH_LEASE_BREAKER] = "BREAKER   ",
	};

	switch (l->cls) {
	case MACH_LOCK_POSIX:
	case MACH_LOCK_OFDLCK:
	case MACH_LOCK_ACCESS:
		seq_puts(m, l->cls == MACH_LOCK_ACCESS ? "ACCESS" : l->cls == MACH_LOCK_OFDLCK ? "OFDLCK" : "POSIX ");
		seq_puts(m, l->has_inode ? " ADVISORY  " : " *NOINODE* ");
		break;
	case MACH_LOCK_FLOCK:
		seq_puts(m, "FLOCK  ADVISORY  ");
		break;
	case MACH_LOCK_LEASE:
	case MACH_LOCK_DELEG:
		seq_puts(m, l->cls == MACH_LOCK_DELEG ? "DELEG  " : "LEASE  ");
		seq_puts(m, lease_states[l->lease < MACH_NR_LEASE_STATES ? l->lease : 0]);
		break;
	default:
		seq_puts(m, "UNKNOWN UNKNOWN  ");
		break;
	}
}

void pfs_lock_get_status(struct seq_file *m, const struct mach_file_lock *l, long long id, unsigned int level)
{
	bool posix = l->cls == MACH_LOCK_POSIX || l->cls == MACH_LOCK_OFDLCK || l->cls == MACH_LOCK_ACCESS;

	seq_printf(m, "%lld: ", id);
	if (level)
		seq_printf(m, "%*s", (int)level - 1 + 3, "-> ");
	lock_class(m, l);
	seq_puts(m, type_names[l->type < MACH_NR_LOCK_TYPES ? l->type : MACH_LOCK_UNLCK]);
	seq_putc(m, ' ');
	if (l->has_inode)
		seq_printf(m, "%d %02x:%02x:%llu ", l->pid, l->dev_major, l->dev_minor, (unsigned long long)l->ino);
	else
		seq_printf(m, "%d <none>:0 ", l->pid);
	if (!posix)
		seq_puts(m, "0 EOF\n");
	else if (l->end == MACH_LOCK_EOF)
		seq_printf(m, "%lld EOF\n", (long long)l->start);
	else
		seq_printf(m, "%lld %lld\n", (long long)l->start, (long long)l->end);
}

static int locks_show(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	const struct mach_sys *s = &c->mach->sys;
	const struct mach_file_lock *l = v, *end = s->locks + s->nlocks;

	pfs_lock_get_status(m, l, l->id, 0);
	for (l++; l < end && l->level; l++)
		pfs_lock_get_status(m, l, l->id, l->level);
	return 0;
}

const struct seq_operations pfs_locks_ops = {
	.start = locks_start,
	.next = locks_next,
	.stop = pfs_seq_stop_nothing,
	.show = locks_show,
};
