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

/* The literal directory a scope-rooted entry lives under ("sys" for the keys of /proc/sys), or NULL. */
static const char *scope_root_path(const struct pfs_entry *e)
{
	for (size_t i = 0; i < pfs_nentries; i++) {
		const struct pfs_entry *d = &pfs_entries[i];

		if (d->kind == PFS_DIR && !strchr(d->path, '*') && d->child_scope != PFS_SCOPE_GLOBAL &&
		    (e->scopes & PFS_IN(d->child_scope)))
			return d->path;
	}
	return NULL;
}

/*
 * One name per loaded entry: a file in both task scopes has the same name in
 * each.  A leaf collection ("fd/ *") is named by its directory, a tree
 * (/proc/sys) by its root.
 */
static void collect_names(void)
{
	names = calloc(pfs_nentries, sizeof(*names));
	if (!names)
		return;
	for (size_t i = 0; i < pfs_nentries; i++) {
		const struct pfs_entry *e = &pfs_entries[i];
		const char *star = strchr(e->path, '*');
		char *dir = NULL;

		if (e->kind == PFS_DIR || e->load == MACH_LD_NONE)
			continue;
		if (e->kind == PFS_FILE && mach_ld_kind_tree(e->load)) {
			if (scope_root_path(e))
				names[nnames++] = (struct mach_ld_name){ .name = scope_root_path(e), .kind = e->load };
			continue;
		}
		if (star) {
			if (star == e->path || star[-1] != '/' || star[1] || !mach_ld_kind_coll(e->load))
				continue; /* only "DIR/ *" leaves are collections the loader reads */
			dir = strndup(e->path, (size_t)(star - 1 - e->path));
			if (!dir)
				continue;
		}
		names[nnames++] = (struct mach_ld_name){
			.name = dir ? dir : e->path,
			.kind = e->load,
			.link = e->kind == PFS_LINK,
			.tgid_only = !(e->scopes & PFS_IN(PFS_SCOPE_TID)),
			.tid_only = !(e->scopes & PFS_IN(PFS_SCOPE_TGID)),
			.absent_rc = pfs_entry_absent_rc(e),
		};
	}
}

int pfs_entry_absent_rc(const struct pfs_entry *e)
{
	if (e->access & PFS_ACC_NEED_NS)
		return -EINVAL;
	if (e->access & PFS_ACC_NEED_MM)
		return -ESRCH;
	if (e->load != MACH_LD_NONE && mach_ld_kind_net(e->load))
		return -ENOENT; /* a task without a network namespace (a zombie) has no net/ files */
	return e->kind == PFS_LINK ? -ENOENT : 0;
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
	int rc = pfs_parse_path(path, NULL, &n, err, errlen);

	if (!rc && (!n.entry || n.entry->kind == PFS_DIR || n.entry->load == MACH_LD_NONE))
		rc = -EINVAL;
	if (rc) {
		snprintf(err, errlen, "%s: not a file the loader parses (stat, meminfo, 42/status, "
			 "42/task/43/maps, 42/fd/3, ...)", path);
		return -EINVAL;
	}
	return mach_loader_file_inst(ld, n.entry->load, n.pid, n.tid, n.inst, path, text, len, err, errlen);
}
