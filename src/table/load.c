// SPDX-License-Identifier: MIT
/*
 * load.c - the loader driven by the table: which files a tree walk reads,
 * and which parser a path's text goes to.  The loader itself knows files by
 * kind only.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uprocfs/procfs.h"

static struct mach_ld_name *names;
static size_t nnames;
static pthread_once_t names_once = PTHREAD_ONCE_INIT;

/* One name per loaded entry: a file in both task scopes has the same name in each. */
static void collect_names(void)
{
	names = calloc(pfs_nentries, sizeof(*names));
	if (!names)
		return;
	for (size_t i = 0; i < pfs_nentries; i++) {
		const struct pfs_entry *e = &pfs_entries[i];

		if (e->kind == PFS_FILE && e->load != MACH_LD_NONE && !strchr(e->path, '*'))
			names[nnames++] = (struct mach_ld_name){
				.name = e->path, .kind = e->load,
				.flags = (e->scopes == PFS_IN(PFS_SCOPE_TID) ? MACH_LDN_TID_ONLY : 0) |
					 (e->access & PFS_ACC_NEED_MM ? MACH_LDN_NEED_MM : 0),
			};
	}
}

const struct mach_ld_name *pfs_load_names(size_t *n)
{
	pthread_once(&names_once, collect_names);
	*n = nnames;
	return names;
}

int pfs_load_tree(const char *dir, const struct mach_load_opts *opts, struct mach_machine **out,
		  struct mach_load_report *report, char *err, size_t errlen)
{
	struct mach_load_opts o = { 0 };

	if (opts)
		o = *opts;
	o.files = pfs_load_names(&o.nfiles);
	if (!o.files) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	return mach_load_tree(dir, &o, out, report, err, errlen);
}

int pfs_load_text(struct mach_loader *ld, const char *path, const char *text, size_t len, char *err,
		  size_t errlen)
{
	struct pfs_node n;
	int rc = pfs_parse_path(path, &n, err, errlen);

	if (!rc && (!n.entry || n.entry->kind != PFS_FILE || n.entry->load == MACH_LD_NONE))
		rc = -EINVAL;
	if (rc) {
		snprintf(err, errlen, "%s: not a file the loader parses (stat, meminfo, 42/status, "
			 "42/task/43/maps, ...)", path);
		return -EINVAL;
	}
	return mach_loader_file(ld, n.entry->load, n.pid, n.tid, path, text, len, err, errlen);
}
