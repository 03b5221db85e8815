// SPDX-License-Identifier: MIT
/*
 * links.c - the symlinks of the served tree: self and thread-self (fs/proc/
 * self.c, thread_self.c: the reader's own pid and pid/task/tid), and per task
 * exe (the executable's path, from the mapping that holds the code) and
 * ns/pid (fs/nsfs.c: "pid:[inode]").
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "render.h"

static int fit(int n, size_t size)
{
	return n < 0 ? -EINVAL : (size_t)n >= size ? -ENAMETOOLONG : 0;
}

int pfs_link_self(const struct pfs_ctx *c, char *buf, size_t size)
{
	if (c->caller_pid <= 0)
		return -ENOENT;
	return fit(snprintf(buf, size, "%d", (int)c->caller_pid), size);
}

int pfs_link_thread_self(const struct pfs_ctx *c, char *buf, size_t size)
{
	if (c->caller_pid <= 0)
		return -ENOENT;
	return fit(snprintf(buf, size, "%d/task/%d", (int)c->caller_pid,
			    (int)(c->caller_tid > 0 ? c->caller_tid : c->caller_pid)), size);
}

/* proc_root_init's proc_symlink("mounts", NULL, "self/mounts") */
int pfs_link_mounts(const struct pfs_ctx *c, char *buf, size_t size)
{
	(void)c;
	return fit(snprintf(buf, size, "self/mounts"), size);
}

int pfs_link_exe(const struct pfs_ctx *c, char *buf, size_t size)
{
	const struct mach_mm *mm = c->proc->mm;

	if (!mm)
		return -ENOENT; /* kernel threads and zombies have no exe */
	for (size_t i = 0; i < mm->nvmas; i++) {
		const struct mach_vma *v = &mm->vmas[i];

		if (v->kind == MACH_VMA_FILE && v->start <= mm->start_code && mm->start_code < v->end)
			return fit(snprintf(buf, size, "%s%s", v->name ? v->name : "",
					    v->deleted ? " (deleted)" : ""), size);
	}
	return -ENOENT;
}

int pfs_link_ns_pid(const struct pfs_ctx *c, char *buf, size_t size)
{
	return fit(snprintf(buf, size, "pid:[%llu]", (unsigned long long)c->mach->pidns_inode), size);
}
