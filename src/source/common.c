// SPDX-License-Identifier: MIT
/* common.c - what the sources share: owners, real directory listings, rendering a node whole. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../util/vec.h"
#include "source_int.h"

uint64_t src_boottime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void src_task_owner(const struct mach_machine *m, const struct mach_process *p, const struct mach_thread *t,
		    struct stat *st)
{
	/*
	 * task_dump_owner: the entries of a task whose mm is not dumpable, or
	 * which has none (a zombie), belong to root, except its r-xr-xr-x
	 * directories (the pid directory, task/, task/<tid>), which keep the
	 * effective ids so that `ls -l /proc` shows the owner.
	 */
	bool root = t->kthread || ((p->undumpable || !p->mm) && st->st_mode != (S_IFDIR | 0555));
	struct timespec start = {
		.tv_sec = (time_t)(m->btime + t->start_time_ns / 1000000000u),
		.tv_nsec = (long)(t->start_time_ns % 1000000000u),
	};

	st->st_uid = root ? 0 : mach_thread_cred(t)->uid[1];
	st->st_gid = root ? 0 : mach_thread_cred(t)->gid[1];
	st->st_atim = st->st_mtim = st->st_ctim = start;
}

int src_mirror_exists(int procfd, const struct pfs_node *n)
{
	char path[256];
	struct stat st;

	if (pfs_node_path(n, NULL, path, sizeof(path)))
		return -ENOENT;
	return fstatat(procfd, path[0] ? path : ".", &st, AT_SYMLINK_NOFOLLOW) ? -ENOENT : 0;
}

void src_sort_ids(pid_t *ids, size_t n)
{
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && ids[j - 1] > ids[j]; j--) {
			pid_t t = ids[j];
			ids[j] = ids[j - 1];
			ids[j - 1] = t;
		}
}

size_t src_merge_id(pid_t *ids, size_t n, size_t max, pid_t id)
{
	size_t at = 0;

	while (at < n && ids[at] < id)
		at++;
	if (at < n && ids[at] == id)
		return n;
	if (at == max)
		return n; /* beyond this batch: the next one starts past its last id and finds it */
	if (n == max)
		n--; /* the last id drops out; the next batch finds it again */
	memmove(ids + at + 1, ids + at, (n - at) * sizeof(*ids));
	ids[at] = id;
	return n + 1;
}

static int id_cmp(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;
	return (x > y) - (x < y);
}

/* A decimal id, as procfs names its task directories; 0 for other names. */
static pid_t real_id(const char *s)
{
	long v = 0;

	if (!*s || *s == '0')
		return 0;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > 0x3fffffff)
			return 0;
		v = v * 10 + (*s - '0');
	}
	return (pid_t)v;
}

size_t src_list_real_ids(int procfd, const struct pfs_node *dir, pid_t after, pid_t *ids, size_t max)
{
	char path[32];
	pid_t *all = NULL;
	size_t n = 0, cap = 0, out = 0;
	struct dirent *de;
	DIR *d;
	int fd;

	snprintf(path, sizeof(path), dir->pid ? "%d/task" : ".", (int)dir->pid);
	fd = openat(procfd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return 0;
	}
	/* the kernel lists in its own order: take all above @after, sort, keep the first @max */
	while ((de = readdir(d))) {
		pid_t id = real_id(de->d_name);

		if (id <= after)
			continue;
		if (VEC_RESERVE(all, cap, n + 1))
			break;
		all[n++] = id;
	}
	closedir(d);
	if (all) {
		qsort(all, n, sizeof(*all), id_cmp);
		out = n < max ? n : max;
		memcpy(ids, all, out * sizeof(*ids));
		free(all);
	}
	return out;
}

void pfs_source_free(struct pfs_source *s)
{
	if (s)
		s->ops->destroy(s);
}

int pfs_source_render(struct pfs_source *s, const struct pfs_reader *r, const struct pfs_node *n,
		      char **out, size_t *len, char *err, size_t errlen)
{
	struct pfs_view v;
	char path[4096] = "";
	int rc;

	err[0] = '\0';
	if (s->ops->advance)
		s->ops->advance(s);
	rc = s->ops->open(s, r, n, &v, err, errlen);
	if (!rc && v.ctx.read_denied)
		rc = -(v.ctx.read_err ? v.ctx.read_err : EACCES); /* the open succeeds, the read fails */
	if (!rc) {
		rc = s->ops->enter(s, n, &v);
		if (!rc) {
			rc = pfs_render(n, &v.ctx, out, len);
			/* a /proc/sys key's path comes from the machine: name it while it is at hand */
			if (rc && pfs_node_path(n, &v.ctx, path, sizeof(path)))
				path[0] = '\0';
			s->ops->leave(s, &v);
		}
	}
	s->ops->close(s, &v);
	if (rc && !err[0]) {
		if (!path[0] && pfs_node_path(n, NULL, path, sizeof(path)))
			path[0] = '\0';
		const char *tree = n->scope >= PFS_SCOPE_SYS ? "/sys" : "/proc";

		if (rc == -ENOENT || rc == -ESRCH)
			snprintf(err, errlen, "%s/%s: not on this machine", tree, path);
		else
			snprintf(err, errlen, "%s/%s: %s", tree, path, strerror(-rc));
	}
	return rc;
}
