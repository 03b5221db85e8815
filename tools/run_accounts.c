// SPDX-License-Identifier: MIT
/*
 * run_accounts.c - the served machine's /etc/passwd and /etc/group, for
 * `uprocfs run`.
 *
 * /proc gives ids; tools name them through the command's own files.  On a
 * synthetic machine most ids (postgres, the login users) are not the
 * host's, so ps prints numbers and htop, which caches only the names it
 * finds, asks getpwuid() again for every such process on every refresh.
 * The command gets files listing the machine's accounts first (getpwuid
 * returns the first match) and then the host's lines for every other id,
 * so its own processes keep their names.  They are written to a private
 * tmpfs and bound read-only over the host's files in the command's mount
 * namespace; the host's files are never touched.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../src/util/readfile.h"
#include "run_accounts.h"

/* The id (third field) of a passwd or group line, or -1 when the line has none. */
static long line_id(const char *line, const char *eol)
{
	const char *p = line;
	char *end;
	long id;

	for (int f = 0; f < 2; f++) {
		p = memchr(p, ':', (size_t)(eol - p));
		if (!p)
			return -1;
		p++;
	}
	if (p == eol || *p < '0' || *p > '9')
		return -1;
	id = strtol(p, &end, 10);
	return end <= eol && (end == eol || *end == ':') ? id : -1;
}

/* The host's @path, whole, into a malloc'd buffer (empty when it does not exist; at most 64 MiB). */
static int read_host(const char *path, char **out, size_t *len)
{
	int rc;

	*out = NULL;
	*len = 0;
	rc = uf_read(AT_FDCWD, path, 0, 64u << 20, out, len);
	return rc == -ENOENT ? 0 : rc;
}

/* The machine's lines, then the host's lines (from @host) for ids @list does not hold. */
static int write_file(const char *path, const struct mach_account *list, size_t n, bool users, const char *host,
		      size_t hlen)
{
	FILE *f = fopen(path, "we");
	int rc = 0;

	if (!f)
		return -errno;
	for (size_t i = 0; i < n; i++) {
		const struct mach_account *a = &list[i];

		if (!users)
			fprintf(f, "%s:x:%u:\n", a->name, a->id);
		else if (a->id == 0)
			fprintf(f, "root:x:0:0:root:/root:/bin/bash\n");
		else if (a->id >= 1000 && a->id < 65534)
			fprintf(f, "%s:x:%u:%u:%s:/home/%s:/bin/bash\n", a->name, a->id, a->gid, a->name, a->name);
		else
			fprintf(f, "%s:x:%u:%u:%s:/nonexistent:/usr/sbin/nologin\n", a->name, a->id, a->gid, a->name);
	}
	for (const char *line = host; line && line < host + hlen;) {
		const char *eol = memchr(line, '\n', (size_t)(host + hlen - line));
		long id;

		if (!eol)
			eol = host + hlen;
		id = line_id(line, eol);
		if (id < 0 || id > UINT32_MAX || !mach_account_find(list, n, (uint32_t)id))
			fprintf(f, "%.*s\n", (int)(eol - line), line);
		line = eol + 1;
	}
	if (ferror(f))
		rc = -EIO;
	if (fclose(f) && !rc)
		rc = -errno;
	return rc;
}

/* @src bound over @dst, read-only. */
static int bind_ro(const char *src, const char *dst)
{
	if (mount(src, dst, NULL, MS_BIND, NULL))
		return -errno;
	if (mount(NULL, dst, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY, NULL)) {
		int rc = -errno;

		umount2(dst, MNT_DETACH);
		return rc;
	}
	return 0;
}

int run_accounts_prepare(const struct mach_machine *m, char *err, size_t errlen)
{
	static const char *const names[2] = { "passwd", "group" };
	char dir[] = "/tmp/uprocfs-etc.XXXXXX", path[64], host[32];
	int rc = 0, bound = 0;

	if (!m || (!m->accounts.nusers && !m->accounts.ngroups))
		return 0;
	if (!mkdtemp(dir)) {
		rc = -errno;
		snprintf(err, errlen, "a staging directory in /tmp: %s", strerror(-rc));
		return rc;
	}
	if (mount("tmpfs", dir, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, "mode=0755,size=64m")) {
		rc = -errno;
		snprintf(err, errlen, "tmpfs on %s: %s", dir, strerror(-rc));
		rmdir(dir);
		return rc;
	}
	for (int i = 0; i < 2 && !rc; i++) {
		bool users = i == 0;
		char *text;
		size_t len;

		snprintf(host, sizeof(host), "/etc/%s", names[i]);
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		rc = read_host(host, &text, &len);
		if (!rc)
			rc = write_file(path, users ? m->accounts.users : m->accounts.groups,
					users ? m->accounts.nusers : m->accounts.ngroups, users, text, len);
		free(text);
		if (!rc && chmod(path, 0644))
			rc = -errno;
		if (!rc && !(rc = bind_ro(path, host)))
			bound++;
		if (rc)
			snprintf(err, errlen, "%s: %s", host, strerror(-rc));
	}
	if (rc && bound)
		umount2("/etc/passwd", MNT_DETACH); /* the host's files again, both */
	/* the bound files keep the tmpfs alive; its name in /tmp goes */
	umount2(dir, MNT_DETACH);
	rmdir(dir);
	return rc;
}
