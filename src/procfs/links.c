// SPDX-License-Identifier: MIT
/*
 * links.c - the symlinks of the served tree: self and thread-self (fs/proc/
 * self.c, thread_self.c: the reader's own pid and pid/task/tid), and per task
 * exe (the executable's path, from the mapping that holds the code) and
 * the ns/ links (fs/nsfs.c ns_get_name: "net:[inode]").
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

/* d_path of a path the model holds, and the suffix an unlinked one shows. */
static int put_path(const char *path, bool deleted, char *buf, size_t size)
{
	return fit(snprintf(buf, size, "%s%s", path, deleted ? " (deleted)" : ""), size);
}

int pfs_link_cwd(const struct pfs_ctx *c, char *buf, size_t size)
{
	const struct mach_fs *fs = mach_thread_fs(c->proc, c->thread);

	/* a zombie's fs_struct is gone: get_fs_pwd finds nothing */
	return fs && fs->cwd ? put_path(fs->cwd, fs->cwd_deleted, buf, size) : -ENOENT;
}

int pfs_link_root(const struct pfs_ctx *c, char *buf, size_t size)
{
	const struct mach_fs *fs = mach_thread_fs(c->proc, c->thread);

	return fs && fs->root ? put_path(fs->root, fs->root_deleted, buf, size) : -ENOENT;
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
	const struct mach_vma *vmas;
	int rc;

	if (!mm)
		return -ENOENT; /* kernel threads and zombies have no exe */
	if (mm->exe)
		return put_path(mm->exe, mm->exe_deleted, buf, size);
	/* a model that never saw the link (an older tree): the file that maps the code */
	if ((rc = mach_mm_vmas(mm, &vmas)))
		return rc;
	for (size_t i = 0; i < mm->nvmas; i++) {
		const struct mach_vma *v = &vmas[i];

		if (v->kind == MACH_VMA_FILE && v->start <= mm->start_code && mm->start_code < v->end)
			return fit(snprintf(buf, size, "%s%s", v->name ? v->name : "",
					    v->deleted ? " (deleted)" : ""), size);
	}
	return -ENOENT;
}

/*
 * proc_ns_readlink: the type and nsfs inode of the task's namespace.  A
 * zombie has dropped its nsproxy and keeps only the namespaces that come
 * from its pid and its credentials; pid_for_children is also missing while
 * that namespace has no init yet.  Either way: ENOENT.
 */
int pfs_link_ns(const struct pfs_ctx *c, char *buf, size_t size)
{
	enum mach_ns_type t = (enum mach_ns_type)c->arg;
	const struct mach_nsset *ns = mach_thread_nsset(c->mach, c->thread);
	bool from_nsproxy = t != MACH_NS_PID && t != MACH_NS_USER;

	if (!ns || t >= MACH_NR_NS || !ns->ino[t] || (from_nsproxy && !mach_thread_has_nsproxy(c->thread)))
		return -ENOENT;
	return fit(snprintf(buf, size, "%s:[%u]", mach_ns_type_name(t), (unsigned int)ns->ino[t]), size);
}
