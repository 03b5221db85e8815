// SPDX-License-Identifier: MIT
/*
 * sys_load.c - which loader tree a /sys path belongs to.  The trees' files
 * are named by their path below /sys (the loader's tree kinds read it), so
 * a path is given to its tree as it is: the objects it names (a disk, a
 * group) need not be in the machine yet.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "table_sys.h"

static const struct {
	const char *prefix;
	enum mach_ld_kind kind;
} sys_trees[] = {
	{ "block/", MACH_LD_SYS_BLOCK },
	{ "class/block/", MACH_LD_SYS_BLOCK },
	{ "dev/block/", MACH_LD_SYS_BLOCK },
	{ "devices/", MACH_LD_SYS_BLOCK },
	{ "fs/cgroup/", MACH_LD_SYS_CGROUP },
};

int pfs_sys_load_text(struct mach_loader *ld, const char *path, const char *text, size_t len, char *err,
		      size_t errlen)
{
	const char *rel = path;

	if (!strncmp(rel, "/sys/", 5))
		rel += 5;
	for (size_t i = 0; i < sizeof(sys_trees) / sizeof(sys_trees[0]); i++)
		if (!strncmp(rel, sys_trees[i].prefix, strlen(sys_trees[i].prefix)))
			return mach_loader_file(ld, sys_trees[i].kind, 0, 0, rel, text, len, err, errlen);
	snprintf(err, errlen, "%s: no file of /sys that the loader parses", path);
	return -ENOENT;
}
