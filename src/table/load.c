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

#include "table_sys.h"
#include "uprocfs/procfs.h"

/* The scopes of /proc: any other roots under /sys. */
#define PFS_IN_PROC (PFS_IN(PFS_SCOPE_GLOBAL) | PFS_IN_TASK | PFS_IN(PFS_SCOPE_SYSCTL))

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

		if (e->scopes & ~PFS_IN_PROC) {
			/* /sys: a directory marked with a kind roots a subtree the walk reads (walk_sys.c) */
			if (e->kind == PFS_DIR && mach_ld_kind_sysfs(e->load))
				names[nnames++] = (struct mach_ld_name){ .name = e->path, .kind = e->load };
			continue;
		}
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

/*
 * What a path under /sys is to the loader: a directory the table serves,
 * or a file it loads.  Named by syntax first (cpu3/cache/index2); what
 * that does not name, or names as an object's (a disk's, a group's), by
 * the machine /proc loaded, whose objects the directories are named after.
 */
static int sys_classify(const struct mach_machine *m, const char *rel, bool dir, struct mach_ld_sys_file *f)
{
	char path[4200], err[64];
	struct pfs_node n;

	if (snprintf(path, sizeof(path), "/sys/%s", rel) >= (int)sizeof(path))
		return -ENOENT;
	if ((pfs_parse_path(path, NULL, &n, err, sizeof(err)) || !n.entry || n.scope == PFS_SCOPE_SYSOBJ) &&
	    (!m || pfs_parse_path_loading(path, m, &n, err, sizeof(err)) || !n.entry))
		return -ENOENT;
	if (dir)
		return n.entry->kind == PFS_DIR ? 0 : -ENOENT;
	if (n.entry->kind == PFS_DIR || !mach_ld_kind_sysfs(n.entry->load))
		return -ENOENT;
	*f = (struct mach_ld_sys_file){ .kind = n.entry->load, .attr = n.entry->arg, .inst = n.inst,
					.link = n.entry->kind == PFS_LINK };
	return 0;
}

int pfs_load_tree(const char *dir, const struct mach_load_opts *opts, struct mach_machine **out,
		  struct mach_load_report *report, char *err, size_t errlen)
{
	struct mach_load_opts o = { 0 };

	if (opts)
		o = *opts;
	o.sys_classify = sys_classify;
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
	if (!rc && mach_ld_kind_sysfs(n.entry->load)) {
		struct mach_ld_sys_file f = { .kind = n.entry->load, .attr = n.entry->arg, .inst = n.inst,
					      .link = n.entry->kind == PFS_LINK,
					      .rel = strncmp(path, "/sys/", 5) ? path : path + 5 };
		const char *skip;

		return mach_loader_sys(ld, &f, path, text, len, &skip, err, errlen);
	}
	if (rc) {
		snprintf(err, errlen, "%s: not a file the loader parses (stat, meminfo, 42/status, "
			 "42/task/43/maps, 42/fd/3, ...)", path);
		return -EINVAL;
	}
	return mach_loader_file_inst(ld, n.entry->load, n.pid, n.tid, n.inst, path, text, len, err, errlen);
}
