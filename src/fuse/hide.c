// SPDX-License-Identifier: MIT
/*
 * hide.c - procfs's mount options: hidepid=, gid= and subset=pid, with the
 * kernel's semantics (fs/proc/base.c has_pid_permissions, proc_pid_permission,
 * proc_pid_readdir; fs/proc/root.c).
 *
 * Whether a process is hidden depends on who asks, so while hiding is on,
 * nothing under a pid directory is cached for the next reader: every lookup
 * comes here.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/num.h"
#include "fs_int.h"

static int parse_gid(const char *v, gid_t *out)
{
	uint64_t g;

	/* (gid_t)-1 means "no group" to the kernel: not one to exempt */
	if (!un_uint(v, 0, 0xfffffffeu, &g))
		return -EINVAL;
	*out = (gid_t)g;
	return 0;
}

static int parse_hidepid(const char *v, unsigned int *out)
{
	static const struct { const char *name; unsigned int value; } names[] = {
		{ "0", PFS_HIDEPID_OFF }, { "off", PFS_HIDEPID_OFF },
		{ "1", PFS_HIDEPID_NOACCESS }, { "noaccess", PFS_HIDEPID_NOACCESS },
		{ "2", PFS_HIDEPID_INVISIBLE }, { "invisible", PFS_HIDEPID_INVISIBLE },
		{ "4", PFS_HIDEPID_PTRACEABLE }, { "ptraceable", PFS_HIDEPID_PTRACEABLE },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(v, names[i].name)) {
			*out = names[i].value;
			return 0;
		}
	return -EINVAL;
}

int pfs_fuse_parse_options(struct pfs_fuse_opts *o, const char *opts, char *err, size_t errlen)
{
	char *copy = strdup(opts), *save = NULL;
	bool seen_hidepid = false, seen_gid = false, seen_subset = false;
	int rc = 0;

	if (!copy)
		return -ENOMEM;
	for (char *opt = strtok_r(copy, ",", &save); opt && !rc; opt = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(opt, '=');
		const char *v = eq ? eq + 1 : "";
		bool *seen;

		if (eq)
			*eq = '\0';
		if (!strcmp(opt, "hidepid")) {
			seen = &seen_hidepid;
			rc = parse_hidepid(v, &o->hidepid);
		} else if (!strcmp(opt, "gid")) {
			seen = &seen_gid;
			rc = parse_gid(v, &o->hidepid_gid);
			o->hidepid_gid_set = !rc;
		} else if (!strcmp(opt, "subset")) {
			seen = &seen_subset;
			rc = strcmp(v, "pid") ? -EINVAL : 0;
			o->subset_pid = !rc;
		} else {
			snprintf(err, errlen, "-o %s: unknown option (hidepid=, gid=, subset=pid)", opt);
			rc = -EINVAL;
			break;
		}
		if (!rc && *seen) {
			snprintf(err, errlen, "-o %s: given twice", opt);
			rc = -EINVAL;
		} else if (rc) {
			snprintf(err, errlen, "-o %s=%s: bad value", opt, v);
		}
		*seen = true;
	}
	free(copy);
	return rc;
}

/* in_group_p: the reader's fs gid or one of its supplementary groups. */
static bool reader_in_group(fuse_req_t req, gid_t gid)
{
	gid_t groups[64];
	int n = fuse_req_getgroups(req, 64, groups);

	if (fuse_req_ctx(req)->gid == gid)
		return true;
	for (int i = 0; i < n && i < 64; i++)
		if (groups[i] == gid)
			return true;
	return false;
}

/* has_pid_permissions(): may the reader see process @pid at level @min? */
static bool may_see(struct pfs_fuse *fs, fuse_req_t req, const struct pfs_node *pid_dir, unsigned int min)
{
	struct pfs_source *s = fs->src;
	struct pfs_reader r;
	struct pfs_view v;
	char err[128];
	bool seen;

	if (fs->opts.hidepid != PFS_HIDEPID_PTRACEABLE) {
		if (fs->opts.hidepid < min)
			return true;
		if (fs->opts.hidepid_gid_set && reader_in_group(req, fs->opts.hidepid_gid))
			return true;
	}
	fs_reader(fs, req, &r);
	if (s->ops->open(s, &r, pid_dir, &v, err, sizeof(err))) {
		s->ops->close(s, &v);
		return true; /* gone: the lookup answers that */
	}
	seen = v.ctx.ptrace_ok;
	s->ops->close(s, &v);
	return seen;
}

bool fs_hiding(const struct pfs_fuse *fs)
{
	return fs->opts.hidepid != PFS_HIDEPID_OFF || fs->opts.subset_pid;
}

int fs_visible(struct pfs_fuse *fs, fuse_req_t req, const struct pfs_node *n)
{
	struct pfs_node pid_dir;

	if (!n->entry)
		return 0;
	if (fs->opts.subset_pid && n->scope == PFS_SCOPE_GLOBAL && !n->pid && n->entry->kind != PFS_LINK)
		return -ENOENT; /* subset=pid: the process directories, self and thread-self only */
	if (fs->opts.hidepid == PFS_HIDEPID_OFF || !n->pid)
		return 0;
	pid_dir = (struct pfs_node){ .entry = pfs_dir_coll(&(struct pfs_node){ .entry = NULL }, 0),
				     .scope = PFS_SCOPE_GLOBAL, .pid = n->pid };
	if (!may_see(fs, req, &pid_dir, PFS_HIDEPID_INVISIBLE))
		return -ENOENT; /* invisible, also to a lookup by name */
	if (n->entry->coll != PFS_COLL_PIDS)
		return fs_may_enter(fs, req, n->pid);
	return 0;
}

int fs_may_enter(struct pfs_fuse *fs, fuse_req_t req, pid_t pid)
{
	struct pfs_node pid_dir = { .entry = pfs_dir_coll(&(struct pfs_node){ .entry = NULL }, 0),
				    .scope = PFS_SCOPE_GLOBAL, .pid = pid };

	if (fs->opts.hidepid == PFS_HIDEPID_OFF)
		return 0;
	return may_see(fs, req, &pid_dir, PFS_HIDEPID_NOACCESS) ? 0 : -EPERM;
}
