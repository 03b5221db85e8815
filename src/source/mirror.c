// SPDX-License-Identifier: MIT
/*
 * mirror.c - real processes as models: read their files from a real procfs,
 * parse them with the loader, and let the renderers print them.  Nothing is
 * passed through as text: a file the loader cannot parse is an error.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../util/readfile.h"
#include "../util/vec.h"
#include "mirror.h"
#include "uprocfs/load.h"
#include "uprocfs/procfs.h"

/*
 * Read @path of the procfs and parse it into @ld's machine; a symlink
 * (@f->link) with readlink.  What the task lacks (@f->absent_rc) or denies
 * us is left out unless @required.
 */
static int load_one(struct mach_loader *ld, int procfd, const char *path, const struct mach_ld_name *f,
		    bool required, char *err, size_t errlen)
{
	char *text = NULL, target[PFS_LINK_MAX];
	size_t len = 0;
	int rc;

	if (f && f->link) {
		long n = uf_readlink(procfd, path, 0, target, sizeof(target));

		rc = n < 0 ? (int)n : 0;
		len = n < 0 ? 0 : (size_t)n;
	} else {
		rc = uf_read(procfd, path, 0, UF_LIMIT_DEFAULT, &text, &len);
	}
	if (rc) {
		/* a link to nothing (a zombie's cwd: ENOENT) is what the task shows */
		if (!required && (rc == -ENOENT || rc == -EACCES || rc == -EPERM || (f && rc == f->absent_rc)))
			return 0;
		snprintf(err, errlen, "%s: %s", path, strerror(-rc));
		return rc;
	}
	rc = pfs_load_text(ld, path, text ? text : target, len, err, errlen);
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

/* Whether global file @f is to be loaded for @kinds. */
static bool wanted(const struct mach_ld_name *f, mach_ld_set kinds)
{
	return !mach_ld_kind_per_task(f->kind) && (mach_ld_required(f->kind) || (kinds & PFS_NEEDS(f->kind)));
}

/*
 * File @lead and the files that move with it (mach_ld_group), read back to
 * back before any is parsed: the fewer microseconds between them, the
 * likelier their counters agree.
 */
static int load_group(struct mach_loader *ld, int procfd, const struct mach_ld_name *files, size_t n, size_t lead,
		      mach_ld_set kinds, char *err, size_t errlen)
{
	char *text[8] = { NULL };
	size_t len[8], idx[8], k = 0;
	int rc = 0, got[8];

	for (size_t i = lead; i < n && k < 8; i++)
		if (i == lead || (wanted(&files[i], kinds) && files[i].kind != files[lead].kind &&
				  mach_ld_group(files[i].kind) == files[lead].kind))
			idx[k++] = i;
	for (size_t j = 0; j < k; j++)
		got[j] = uf_read(procfd, files[idx[j]].name, 0, UF_LIMIT_DEFAULT, &text[j], &len[j]);
	for (size_t j = 0; j < k && !rc; j++) {
		const char *name = files[idx[j]].name;
		bool required = mach_ld_required(files[idx[j]].kind);

		if (got[j] && !required && (got[j] == -ENOENT || got[j] == -EACCES || got[j] == -EPERM))
			continue;
		if (got[j]) {
			snprintf(err, errlen, "%s: %s", name, strerror(-got[j]));
			rc = got[j];
		} else {
			rc = pfs_load_text(ld, name, text[j], len[j], err, errlen);
		}
	}
	for (size_t j = 0; j < k; j++)
		if (!got[j])
			free(text[j]);
	return rc;
}

static int load_globals_once(int procfd, mach_ld_set kinds, struct mach_machine **out, char *err, size_t errlen)
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
	for (size_t i = 0; i < n && !rc; i++) {
		enum mach_ld_kind k = files[i].kind;

		if (!wanted(&files[i], kinds) || mach_ld_group(k) != k)
			continue; /* a group's other files are read with its first */
		if (mach_ld_kind_tree(k))
			rc = mirror_load_sysctl(ld, procfd, files[i].name, err, errlen);
		else
			rc = load_group(ld, procfd, files, n, i, kinds, err, errlen);
	}
	return finish_or_free(m, ld, rc, out, err, errlen);
}

int mirror_load_globals(int procfd, mach_ld_set kinds, struct mach_machine **out, char *err, size_t errlen)
{
	int rc = -EAGAIN;

	/*
	 * Files that say things of each other move between two reads: softirqs
	 * and interrupts with stat (-EAGAIN), swaps with meminfo's SwapTotal
	 * (-EINVAL).  Read them all again until they agree.
	 */
	for (int attempt = 0; attempt < 20 && (rc == -EAGAIN || (rc == -EINVAL && attempt < 8)); attempt++)
		rc = load_globals_once(procfd, kinds, out, err, errlen);
	return rc;
}

/* The fd numbers in directory @path of the procfs, ascending; a task gone: -ENOENT. */
static int list_insts(int procfd, const char *path, uint32_t **out, size_t *n)
{
	int fd = openat(procfd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	size_t cap = 0;
	struct dirent *de;
	DIR *d;

	*out = NULL;
	*n = 0;
	if (fd < 0)
		return -errno;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return -errno;
	}
	while ((de = readdir(d))) {
		char *end;
		unsigned long v = strtoul(de->d_name, &end, 10);
		uint32_t *slot;

		if (de->d_name[0] < '0' || de->d_name[0] > '9' || *end || v > INT32_MAX)
			continue;
		slot = VEC_PUSH(*out, *n, cap);
		if (!slot) {
			closedir(d);
			return -ENOMEM;
		}
		*slot = (uint32_t)v;
	}
	closedir(d);
	return 0;
}

/* A collection (fd/): its listing, and the entries @inst selects. */
static int load_coll(struct mach_loader *ld, int procfd, const char *dir, pid_t pid, pid_t tid,
		     const struct mach_ld_name *f, long inst, char *err, size_t errlen)
{
	char path[128];
	uint32_t *insts;
	size_t n;
	int rc;

	snprintf(path, sizeof(path), "%s/%s", dir, f->name);
	rc = list_insts(procfd, path, &insts, &n);
	if (rc)
		return rc == -EACCES || rc == -EPERM ? 0 : rc;
	rc = mach_loader_listing(ld, f->kind, pid, tid, path, insts, n, err, errlen);
	for (size_t i = 0; i < n && !rc; i++) {
		char ipath[160];

		if (inst == MIRROR_NO_INSTS || (inst >= 0 && (uint32_t)inst != insts[i]))
			continue;
		snprintf(ipath, sizeof(ipath), "%s/%u", path, insts[i]);
		rc = load_one(ld, procfd, ipath, f, false, err, errlen);
		if (rc == -ENOENT)
			rc = -EINVAL; /* closed since listed: read it all again */
	}
	free(insts);
	return rc;
}

static int load_task_files(struct mach_loader *ld, int procfd, pid_t pid, pid_t tid, mach_ld_set kinds, long inst,
			   char *err, size_t errlen)
{
	const struct mach_ld_name *files;
	char dir[48], path[128];
	size_t n;
	int rc;

	if (tid)
		snprintf(dir, sizeof(dir), "%d/task/%d", (int)pid, (int)tid);
	else
		snprintf(dir, sizeof(dir), "%d", (int)pid);
	files = pfs_load_names(&n);
	for (size_t i = 0; i < n; i++) {
		if (!mach_ld_kind_per_task(files[i].kind) || !(kinds & PFS_NEEDS(files[i].kind)) ||
		    (tid && files[i].tgid_only) || (!tid && files[i].tid_only))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, files[i].name);
		/* status and stat define the task; the rest may be denied to us */
		if (mach_ld_kind_coll(files[i].kind))
			rc = load_coll(ld, procfd, dir, pid, tid, &files[i], inst, err, errlen);
		else
			rc = load_one(ld, procfd, path, &files[i], mach_ld_required(files[i].kind), err, errlen);
		if (rc)
			return rc;
	}
	return 0;
}

/* The machine-wide files a task's file renders from (meminfo for oom_score). */
static int load_task_globals(struct mach_loader *ld, int procfd, mach_ld_set kinds, char *err, size_t errlen)
{
	const struct mach_ld_name *files;
	size_t n;
	int rc = 0;

	files = pfs_load_names(&n);
	for (size_t i = 0; i < n && !rc; i++)
		if (!mach_ld_kind_per_task(files[i].kind) && !mach_ld_kind_tree(files[i].kind) &&
		    files[i].kind != MACH_LD_STAT && files[i].kind != MACH_LD_UPTIME && (kinds & PFS_NEEDS(files[i].kind)))
			rc = load_one(ld, procfd, files[i].name, &files[i], false, err, errlen);
	return rc;
}

static int load_task_once(int procfd, pid_t pid, pid_t tid, mach_ld_set kinds, long inst, struct mach_machine **out,
			  char *err, size_t errlen)
{
	struct mach_machine *m = mach_new();
	struct mach_loader *ld = m ? mach_loader_new(m) : NULL;
	int rc;

	if (!ld) {
		mach_free(m);
		return -ENOMEM;
	}
	rc = load_one(ld, procfd, "stat", NULL, true, err, errlen);
	if (!rc)
		rc = load_one(ld, procfd, "uptime", NULL, true, err, errlen); /* for the task's age */
	if (!rc && kinds != MACH_LD_ALL)
		rc = load_task_globals(ld, procfd, kinds, err, errlen);
	if (!rc)
		rc = load_task_files(ld, procfd, pid, 0, kinds, inst, err, errlen);
	/* only the thread asked for: a busy process's threads never agree for long */
	if (!rc && tid > 0)
		rc = load_task_files(ld, procfd, pid, tid, kinds, inst, err, errlen);
	return finish_or_free(m, ld, rc, out, err, errlen);
}

int mirror_load_task(int procfd, pid_t pid, pid_t tid, mach_ld_set kinds, enum mach_ld_kind own, long inst,
		     struct mach_machine **out, char *err, size_t errlen)
{
	char path[64], *env;
	size_t envlen;
	int rc = -EINVAL;

	mach_ld_set both = MACH_LD_BIT(MACH_LD_PID_STATUS) | MACH_LD_BIT(MACH_LD_PID_STAT);

	/*
	 * A running process changes between two of its files: read it again.
	 * smaps_rollup's Pss moves with every process that maps or unmaps a
	 * page it shares (libc's, whenever anything starts or ends), and read
	 * apart from smaps it may fall below what smaps' lines sum to: the
	 * model refuses that pair (-ENOTSUP), which a second read mends.
	 */
	for (int attempt = 0; attempt < 8 && (rc == -EINVAL || rc == -ENOTSUP); attempt++)
		rc = load_task_once(procfd, pid, tid, kinds, inst, out, err, errlen);
	/*
	 * One that changes on every read (a heap growing: status and statm never
	 * agree) is still served, as the kernel serves each file: the file read
	 * with only one of status and stat beside it for the task's identity, the
	 * way a partial tree loads.
	 */
	if (rc == -EINVAL && own != MACH_LD_NONE && (kinds & both) == both)
		rc = load_task_once(procfd, pid, tid,
				    kinds & ~MACH_LD_BIT(own == MACH_LD_PID_STATUS ? MACH_LD_PID_STAT : MACH_LD_PID_STATUS),
				    inst, out, err, errlen);
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
		if (p->nthreads && !p->threads[0].kthread && mach_thread_cred(&p->threads[0])->uid[1] != 0 &&
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

int mirror_load_sysctl(struct mach_loader *ld, int procfd, const char *dir, char *err, size_t errlen)
{
	return mach_loader_sysctl_tree(ld, procfd, dir, true, NULL, NULL, err, errlen);
}
