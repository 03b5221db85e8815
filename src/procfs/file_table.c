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
#include <sys/stat.h>

#include "uprocfs/procfs.h"

/* A file read through the seq protocol, and a symlink. */
#define SEQ_FILE(n, sc, md, sh, op, fs, a, fn) \
	{ .name = n, .scope = sc, .mode = md, .show = sh, .ops = op, .first_size = fs, .arg = a, .mirrors = fn, \
	  .verified = true }
/* Served for the tools that read them; neither loaded nor verified against a kernel. */
#define EXTRA_FILE(n, sc, md, sh, fn) \
	{ .name = n, .scope = sc, .mode = md, .show = sh, .mirrors = fn }
#define LINK(n, sc, fn, rl) \
	{ .name = n, .scope = sc, .mode = S_IFLNK | 0777, .mirrors = fn, .readlink = rl }

const struct pfs_file pfs_files[] = {
	SEQ_FILE("stat", PFS_SCOPE_GLOBAL, 0444, pfs_show_stat, NULL, pfs_stat_first_size, 0, "show_stat"),
	SEQ_FILE("meminfo", PFS_SCOPE_GLOBAL, 0444, pfs_show_meminfo, NULL, NULL, 0, "meminfo_proc_show"),
	SEQ_FILE("vmstat", PFS_SCOPE_GLOBAL, 0444, NULL, &pfs_vmstat_ops, NULL, 0, "vmstat_show"),
	SEQ_FILE("loadavg", PFS_SCOPE_GLOBAL, 0444, pfs_show_loadavg, NULL, NULL, 0, "loadavg_proc_show"),
	SEQ_FILE("uptime", PFS_SCOPE_GLOBAL, 0444, pfs_show_uptime, NULL, NULL, 0, "uptime_proc_show"),
	SEQ_FILE("schedstat", PFS_SCOPE_GLOBAL, 0444, NULL, &pfs_schedstat_ops, NULL, 0, "show_schedstat"),
	SEQ_FILE("pressure/io", PFS_SCOPE_GLOBAL, 0666, pfs_show_pressure, NULL, NULL, MACH_PSI_IO, "psi_show"),
	SEQ_FILE("pressure/memory", PFS_SCOPE_GLOBAL, 0666, pfs_show_pressure, NULL, NULL, MACH_PSI_MEM, "psi_show"),
	SEQ_FILE("pressure/cpu", PFS_SCOPE_GLOBAL, 0666, pfs_show_pressure, NULL, NULL, MACH_PSI_CPU, "psi_show"),
	SEQ_FILE("pressure/irq", PFS_SCOPE_GLOBAL, 0666, pfs_show_pressure, NULL, NULL, MACH_PSI_IRQ, "psi_show"),
	SEQ_FILE("status", PFS_SCOPE_PID, 0444, pfs_show_pid_status, NULL, NULL, 0, "proc_pid_status"),
	SEQ_FILE("stat", PFS_SCOPE_PID, 0444, pfs_show_pid_stat, NULL, NULL, 0, "do_task_stat"),
	SEQ_FILE("statm", PFS_SCOPE_PID, 0444, pfs_show_pid_statm, NULL, NULL, 0, "proc_pid_statm"),
	SEQ_FILE("maps", PFS_SCOPE_PID, 0444, NULL, &pfs_pid_maps_ops, NULL, 0, "show_map"),
	SEQ_FILE("cmdline", PFS_SCOPE_PID, 0444, pfs_show_pid_cmdline, NULL, NULL, 0, "proc_pid_cmdline_read"),
	SEQ_FILE("comm", PFS_SCOPE_PID, 0644, pfs_show_pid_comm, NULL, NULL, 0, "comm_show"),
	EXTRA_FILE("cpuinfo", PFS_SCOPE_GLOBAL, 0444, pfs_show_cpuinfo, "show_cpuinfo"),
	EXTRA_FILE("sys/kernel/pid_max", PFS_SCOPE_GLOBAL, 0644, pfs_show_pid_max, "proc_dointvec"),
	EXTRA_FILE("sys/kernel/osrelease", PFS_SCOPE_GLOBAL, 0444, pfs_show_osrelease, "proc_dostring"),
	EXTRA_FILE("tty/drivers", PFS_SCOPE_GLOBAL, 0444, pfs_show_tty_drivers, "show_tty_driver"),
	EXTRA_FILE("environ", PFS_SCOPE_PID, 0400, pfs_show_pid_environ, "environ_read"),
	LINK("self", PFS_SCOPE_GLOBAL, "proc_self_get_link", pfs_link_self),
	LINK("thread-self", PFS_SCOPE_GLOBAL, "proc_thread_self_get_link", pfs_link_thread_self),
	LINK("exe", PFS_SCOPE_PID, "proc_exe_link", pfs_link_exe),
	LINK("ns/pid", PFS_SCOPE_PID, "ns_get_name", pfs_link_ns_pid),
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
	if (pfs_is_link(f))
		return -ELOOP; /* symlinks are read with readlink, not opened */
	ctx->arg = f->arg;
	if (f->ops)
		return seq_open(m, f->ops, ctx);
	if (f->first_size)
		return seq_single_open_size(m, f->show, ctx, f->first_size(ctx));
	return seq_single_open(m, f->show, ctx);
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

/* mkdir -p of the directories leading to @path. */
static int make_parents(char *path)
{
	for (char *p = strchr(path + 1, '/'); p; p = strchr(p + 1, '/')) {
		*p = '\0';
		if (mkdir(path, 0755) && errno != EEXIST) {
			*p = '/';
			return -errno;
		}
		*p = '/';
	}
	return 0;
}

static int write_one(const struct pfs_file *f, const struct pfs_ctx *ctx, char *path, char *err,
		     size_t errlen)
{
	char *text;
	size_t len;
	FILE *out;
	int rc = pfs_render(f, ctx, &text, &len);

	if (!rc)
		rc = make_parents(path);
	if (!rc) {
		out = fopen(path, "w");
		if (!out || fwrite(text, 1, len, out) != len)
			rc = -errno ? -errno : -EIO;
		if (out && fclose(out) && !rc)
			rc = -errno;
	}
	free(text);
	if (rc)
		snprintf(err, errlen, "%s: %s", path, strerror(-rc));
	return rc;
}

static bool global_exists(const struct machine *m, const struct pfs_file *f)
{
	if (!strcmp(f->name, "schedstat"))
		return m->profile.has_schedstat;
	if (f->show == pfs_show_pressure)
		return m->pressure[f->arg].present;
	return true;
}

int pfs_write_tree(const struct machine *mach, const char *dir, char *err, size_t errlen)
{
	char path[4096];
	int rc;

	for (size_t i = 0; i < pfs_nfiles; i++) {
		const struct pfs_file *f = &pfs_files[i];
		struct pfs_ctx ctx = { .mach = mach, .ptrace_ok = true, .arg = f->arg };

		if (!f->verified || f->scope != PFS_SCOPE_GLOBAL || !global_exists(mach, f))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, f->name);
		rc = write_one(f, &ctx, path, err, errlen);
		if (rc)
			return rc;
	}
	for (size_t p = 0; p < mach->nprocs; p++) {
		const struct mach_process *proc = &mach->procs[p];

		for (unsigned int t = 0; t <= proc->nthreads; t++) {
			/* t == 0: /proc/<pid> (the leader, whole group); then task/<tid> */
			const struct mach_thread *th = &proc->threads[t ? t - 1 : 0];
			struct pfs_ctx ctx = { .mach = mach, .proc = proc, .thread = th, .whole = t == 0,
					       .ptrace_ok = true };

			for (size_t i = 0; i < pfs_nfiles; i++) {
				const struct pfs_file *f = &pfs_files[i];

				if (!f->verified || f->scope != PFS_SCOPE_PID)
					continue;
				if (t == 0)
					snprintf(path, sizeof(path), "%s/%d/%s", dir, (int)proc->tgid, f->name);
				else
					snprintf(path, sizeof(path), "%s/%d/task/%d/%s", dir, (int)proc->tgid,
						 (int)th->tid, f->name);
				rc = write_one(f, &ctx, path, err, errlen);
				if (rc)
					return rc;
			}
		}
	}
	return 0;
}
