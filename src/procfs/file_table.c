// SPDX-License-Identifier: MIT
/*
 * file_table.c - the one table of files uprocfs serves, path resolution and
 * opening through the seq_file protocol.
 *
 * Modes are the kernel's (fs/proc/base.c tgid_base_stuff, the fs/proc files'
 * proc_create calls, kernel/sched/psi.c): pressure files are 0666 because
 * they accept trigger writes; comm 0644 because its owner may rename the task.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uprocfs/procfs.h"

const struct pfs_file pfs_files[] = {
	{ "stat", PFS_SCOPE_GLOBAL, 0444, pfs_show_stat, NULL, pfs_stat_first_size, 0, "show_stat" },
	{ "meminfo", PFS_SCOPE_GLOBAL, 0444, pfs_show_meminfo, NULL, NULL, 0, "meminfo_proc_show" },
	{ "vmstat", PFS_SCOPE_GLOBAL, 0444, NULL, &pfs_vmstat_ops, NULL, 0, "vmstat_show" },
	{ "loadavg", PFS_SCOPE_GLOBAL, 0444, pfs_show_loadavg, NULL, NULL, 0, "loadavg_proc_show" },
	{ "uptime", PFS_SCOPE_GLOBAL, 0444, pfs_show_uptime, NULL, NULL, 0, "uptime_proc_show" },
	{ "schedstat", PFS_SCOPE_GLOBAL, 0444, NULL, &pfs_schedstat_ops, NULL, 0, "show_schedstat" },
	{ "pressure/io", PFS_SCOPE_GLOBAL, 0666, pfs_show_pressure, NULL, NULL, MACH_PSI_IO, "psi_show" },
	{ "pressure/memory", PFS_SCOPE_GLOBAL, 0666, pfs_show_pressure, NULL, NULL, MACH_PSI_MEM, "psi_show" },
	{ "pressure/cpu", PFS_SCOPE_GLOBAL, 0666, pfs_show_pressure, NULL, NULL, MACH_PSI_CPU, "psi_show" },
	{ "pressure/irq", PFS_SCOPE_GLOBAL, 0666, pfs_show_pressure, NULL, NULL, MACH_PSI_IRQ, "psi_show" },
	{ "status", PFS_SCOPE_PID, 0444, pfs_show_pid_status, NULL, NULL, 0, "proc_pid_status" },
	{ "stat", PFS_SCOPE_PID, 0444, pfs_show_pid_stat, NULL, NULL, 0, "do_task_stat" },
	{ "statm", PFS_SCOPE_PID, 0444, pfs_show_pid_statm, NULL, NULL, 0, "proc_pid_statm" },
	{ "maps", PFS_SCOPE_PID, 0444, NULL, &pfs_pid_maps_ops, NULL, 0, "show_map" },
	{ "cmdline", PFS_SCOPE_PID, 0444, pfs_show_pid_cmdline, NULL, NULL, 0, "proc_pid_cmdline_read" },
	{ "comm", PFS_SCOPE_PID, 0644, pfs_show_pid_comm, NULL, NULL, 0, "comm_show" },
};

const size_t pfs_nfiles = sizeof(pfs_files) / sizeof(pfs_files[0]);

const struct pfs_file *pfs_lookup(enum pfs_scope scope, const char *name)
{
	for (size_t i = 0; i < pfs_nfiles; i++)
		if (pfs_files[i].scope == scope && !strcmp(pfs_files[i].name, name))
			return &pfs_files[i];
	return NULL;
}

int pfs_open(struct seq_file *m, const struct pfs_file *f, struct pfs_ctx *ctx)
{
	if (f->scope == PFS_SCOPE_PID && (!ctx->proc || !ctx->thread))
		return -EINVAL;
	ctx->arg = f->arg;
	if (f->ops)
		return seq_open(m, f->ops, ctx);
	if (f->first_size)
		return single_open_size(m, f->show, ctx, f->first_size(ctx));
	return single_open(m, f->show, ctx);
}

int pfs_render(const struct pfs_file *f, const struct pfs_ctx *ctx_in, char **out, size_t *len)
{
	struct pfs_ctx ctx = *ctx_in;
	struct seq_file m;
	size_t cap = 8192, have = 0;
	char *buf;
	loff_t pos = 0;
	ssize_t n;
	int err;

	err = pfs_open(&m, f, &ctx);
	if (err)
		return err;
	buf = malloc(cap);
	if (!buf) {
		seq_release(&m);
		return -ENOMEM;
	}
	for (;;) {
		if (cap - have < 4096) {
			char *bigger = realloc(buf, cap * 2);
			if (!bigger) {
				err = -ENOMEM;
				break;
			}
			buf = bigger;
			cap *= 2;
		}
		n = seq_read(&m, buf + have, cap - have, &pos);
		if (n <= 0) {
			err = (int)n;
			break;
		}
		have += (size_t)n;
	}
	seq_release(&m);
	if (err) {
		free(buf);
		return err;
	}
	*out = buf;
	*len = have;
	return 0;
}

/* A decimal pid component of a path; -1 if it is not one. */
static pid_t parse_pid(const char *s, size_t len)
{
	long v = 0;

	if (!len || len > 9 || (s[0] == '0' && len > 1))
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return (pid_t)v;
}

int pfs_resolve(const struct machine *mach, const char *path, const struct pfs_file **f,
		struct pfs_ctx *ctx, char *err, size_t errlen)
{
	const char *p = path, *slash;
	pid_t pid;

	memset(ctx, 0, sizeof(*ctx));
	ctx->mach = mach;
	ctx->ptrace_ok = true;
	if (!strncmp(p, "/proc/", 6))
		p += 6;
	else if (*p == '/')
		goto no_file;
	slash = strchr(p, '/');
	pid = parse_pid(p, slash ? (size_t)(slash - p) : strlen(p));
	if (pid < 0) {
		*f = pfs_lookup(PFS_SCOPE_GLOBAL, p);
		if (!*f)
			goto no_file;
		if (!strcmp((*f)->name, "schedstat") && !mach->profile.has_schedstat)
			goto no_file;
		if ((*f)->show == pfs_show_pressure && !mach->pressure[(*f)->arg].present)
			goto no_file;
		return 0;
	}
	if (!slash)
		goto no_file;
	ctx->thread = mach_find_any_thread(mach, pid, &ctx->proc);
	if (!ctx->thread) {
		snprintf(err, errlen, "%s: no process %d on this machine", path, (int)pid);
		return -ENOENT;
	}
	ctx->whole = true;
	p = slash + 1;
	if (!strncmp(p, "task/", 5)) {
		const char *tid_end = strchr(p + 5, '/');
		pid_t tid = tid_end ? parse_pid(p + 5, (size_t)(tid_end - p - 5)) : -1;

		ctx->thread = tid >= 0 ? mach_find_thread(ctx->proc, tid) : NULL;
		if (!ctx->thread) {
			snprintf(err, errlen, "%s: no such thread of process %d", path, (int)ctx->proc->tgid);
			return -ENOENT;
		}
		ctx->whole = false;
		p = tid_end + 1;
	}
	*f = pfs_lookup(PFS_SCOPE_PID, p);
	if (*f)
		return 0;
no_file:
	snprintf(err, errlen, "%s: not a file uprocfs serves", path);
	return -ENOENT;
}
