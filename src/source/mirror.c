// SPDX-License-Identifier: MIT
/*
 * mirror.c - real processes as models: read their files from a real procfs,
 * parse them with the loader, and let the renderers print them.  Nothing is
 * passed through as text: a file the loader cannot parse is an error.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../util/readfile.h"
#include "mirror.h"
#include "uprocfs/load.h"
#include "uprocfs/procfs.h"

/* Read @path of the procfs and parse it into @ld's machine. */
static int load_one(struct mach_loader *ld, int procfd, const char *path, bool required, char *err,
		    size_t errlen)
{
	char *text;
	size_t len;
	int rc = uf_read(procfd, path, 0, UF_LIMIT_DEFAULT, &text, &len);

	if (rc) {
		if (!required && (rc == -ENOENT || rc == -EACCES || rc == -EPERM))
			return 0;
		snprintf(err, errlen, "%s: %s", path, strerror(-rc));
		return rc;
	}
	rc = pfs_load_text(ld, path, text, len, err, errlen);
	free(text);
	return rc;
}

/* Hand @m to @out once it loaded and built; on any failure free it.  @ld is freed. */
static int finish_or_free(struct mach_machine *m, struct mach_loader *ld, int rc, struct mach_machine **out,
			  char *err, size_t errlen)
{
	if (!rc)
		rc = mach_loader_finish(ld, err, errlen);
	mach_loader_free(ld);
	if (rc) {
		mach_free(m);
		return rc;
	}
	*out = m;
	return 0;
}

int mirror_load_globals(int procfd, struct mach_machine **out, char *err, size_t errlen)
{
	struct mach_machine *m = mach_new();
	struct mach_loader *ld = m ? mach_loader_new(m) : NULL;
	const struct mach_ld_name *files;
	size_t n;
	int rc = 0;

	if (!ld) {
		mach_free(m);
		return -ENOMEM;
	}
	m->profile.has_schedstat = false;
	files = pfs_load_names(&n);
	for (size_t i = 0; i < n && !rc; i++)
		if (!mach_ld_kind_per_task(files[i].kind))
			rc = load_one(ld, procfd, files[i].name, mach_ld_required(files[i].kind), err, errlen);
	return finish_or_free(m, ld, rc, out, err, errlen);
}

static int load_task_files(struct mach_loader *ld, int procfd, const char *dir, uint64_t kinds, char *err,
			   size_t errlen)
{
	const struct mach_ld_name *files;
	char path[96];
	size_t n;
	int rc;

	files = pfs_load_names(&n);
	for (size_t i = 0; i < n; i++) {
		if (!mach_ld_kind_per_task(files[i].kind) || !(kinds & PFS_NEEDS(files[i].kind)))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, files[i].name);
		/* status and stat define the task; the rest may be denied to us */
		rc = load_one(ld, procfd, path, mach_ld_required(files[i].kind), err, errlen);
		if (rc)
			return rc;
	}
	return 0;
}

static int load_task_once(int procfd, pid_t pid, pid_t tid, uint64_t kinds, struct mach_machine **out, char *err,
			  size_t errlen)
{
	struct mach_machine *m = mach_new();
	struct mach_loader *ld = m ? mach_loader_new(m) : NULL;
	char dir[64];
	int rc;

	if (!ld) {
		mach_free(m);
		return -ENOMEM;
	}
	rc = load_one(ld, procfd, "stat", true, err, errlen);
	if (!rc)
		rc = load_one(ld, procfd, "uptime", true, err, errlen); /* for the task's age */
	snprintf(dir, sizeof(dir), "%d", (int)pid);
	if (!rc)
		rc = load_task_files(ld, procfd, dir, kinds, err, errlen);
	/* only the thread asked for: a busy process's threads never agree for long */
	if (!rc && tid > 0 && tid != pid) {
		snprintf(dir, sizeof(dir), "%d/task/%d", (int)pid, (int)tid);
		rc = load_task_files(ld, procfd, dir, kinds, err, errlen);
	}
	return finish_or_free(m, ld, rc, out, err, errlen);
}

int mirror_load_task(int procfd, pid_t pid, pid_t tid, uint64_t kinds, struct mach_machine **out, char *err,
		     size_t errlen)
{
	char path[64], *env;
	size_t envlen;
	int rc = -EINVAL;

	/* A running process changes between two of its files: read it again. */
	for (int attempt = 0; attempt < 8 && rc == -EINVAL; attempt++)
		rc = load_task_once(procfd, pid, tid, kinds, out, err, errlen);
	if (rc)
		return rc == -ENOENT ? -ESRCH : rc;
	/* environ is a byte area like cmdline: no text structure to parse */
	snprintf(path, sizeof(path), "%d/environ", (int)pid);
	if ((*out)->nprocs && (*out)->procs[0].mm && !uf_read(procfd, path, 0, UF_LIMIT_DEFAULT, &env, &envlen)) {
		(*out)->procs[0].mm->environ = env;
		(*out)->procs[0].mm->environ_len = envlen;
	}
	mirror_dumpability(procfd, *out);
	return 0;
}

void mirror_dumpability(int procfd, struct mach_machine *m)
{
	char path[32];
	struct stat st;

	/*
	 * No file says whether an mm is dumpable, but the kernel shows it: the
	 * files of a task that is not belong to root (task_dump_owner), those
	 * of a dumpable one to its effective uid.  (Its r-xr-xr-x directories
	 * keep the effective uid either way.)
	 */
	for (size_t i = 0; i < m->nprocs; i++) {
		struct mach_process *p = &m->procs[i];

		snprintf(path, sizeof(path), "%d/status", (int)p->tgid);
		if (p->nthreads && !p->threads[0].kthread && p->threads[0].uid[1] != 0 &&
		    !fstatat(procfd, path, &st, 0) && st.st_uid == 0)
			p->undumpable = true;
	}
}

int mirror_translate_tid(int procfd, pid_t tid, pid_t *ns_tgid, pid_t *ns_tid)
{
	char path[32], err[256], *text;
	size_t len;
	int rc;

	/* A procfs shows /proc/<tid> for any thread; its status names the group. */
	snprintf(path, sizeof(path), "%d/status", (int)tid);
	if (uf_read(procfd, path, 0, UF_LIMIT_DEFAULT, &text, &len))
		return -ESRCH;
	rc = mach_status_ids(path, text, len, ns_tgid, ns_tid, err, sizeof(err));
	free(text);
	return rc ? -ESRCH : 0;
}
