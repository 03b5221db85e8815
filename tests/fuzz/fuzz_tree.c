// SPDX-License-Identifier: MIT
/*
 * fuzz_tree.c - libFuzzer target: a whole tree.  The input is a sequence of
 * files, each "\x1e" PATH "\n" TEXT ("\x1e42/status\n..."): the machine-wide
 * files, a process's and its threads', /proc/sys keys.  They are written to
 * a temporary directory (links as symlinks, as `uprocfs capture` writes
 * them) and loaded as a tree, so the cross-file checks, the assembly of
 * processes and the walk all see it.  The tree must load or be refused with
 * a message; and what loads must verify: every file it loaded renders back
 * to its bytes (the loader refuses what it cannot hold exactly).
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "uprocfs/load.h"
#include "uprocfs/procfs.h"

#define MAX_FILES 256

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char root[64], tree[96];

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(p) && errno != ENOENT ? -1 : 0;
}

/* A relative path of plain names: no "..", ".", empty component, or absolute start. */
static int path_ok(const char *p)
{
	const char *s = p;

	if (!*p || *p == '/')
		return 0;
	while (*s) {
		size_t l = strcspn(s, "/");

		if (!l || (l == 1 && s[0] == '.') || (l == 2 && s[0] == '.' && s[1] == '.'))
			return 0;
		s += l;
		if (*s == '/' && !*++s)
			return 0;
	}
	return 1;
}

/* Write one file (or symlink, for a link entry) at @rel under the tree; a path in the way is skipped. */
static void put_file(const char *rel, const char *text, size_t len)
{
	char full[512], target[4096];
	struct pfs_node n;
	char err[128];
	int fd;

	if (snprintf(full, sizeof(full), "%s/%s", tree, rel) >= (int)sizeof(full))
		return;
	for (char *s = full + strlen(tree) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		mkdir(full, 0755);
		*s = '/';
	}
	if (!pfs_parse_path(rel, NULL, &n, err, sizeof(err)) && n.entry && n.entry->kind == PFS_LINK) {
		size_t l = strnlen(text, len < sizeof(target) - 1 ? len : sizeof(target) - 1);

		memcpy(target, text, l);
		target[l] = '\0';
		if (l)
			(void)!symlink(target, full);
		return;
	}
	fd = open(full, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	(void)!write(fd, text, len);
	close(fd);
}

static void on_file(void *arg, const struct pfs_verify_file *f)
{
	(void)arg;
	if (f->verdict == PFS_DIFFERS) {
		fprintf(stderr, "%s loaded but renders otherwise (%zu bytes in, %zu out%s%s)\n", f->loaded->path,
			f->loaded->len, f->len, f->why ? ": " : "", f->why ? f->why : "");
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = memchr(data, 0x1e, size), *end = (const char *)data + size;
	struct mach_load_report r = { 0 };
	struct pfs_verify_counts counts;
	struct mach_machine *m = NULL;
	char err[512] = "", rel[256];
	int nfiles = 0, rc;

	if (!*root) {
		snprintf(root, sizeof(root), "/dev/shm/uprocfs-fuzz-tree.%d", (int)getpid());
		snprintf(tree, sizeof(tree), "%s/t", root);
		mkdir(root, 0700);
	}
	nftw(tree, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	if (mkdir(tree, 0755))
		return 0;
	while (p && p < end && nfiles++ < MAX_FILES) {
		const char *nl = memchr(p + 1, '\n', (size_t)(end - p - 1));
		const char *next = nl ? memchr(nl + 1, 0x1e, (size_t)(end - nl - 1)) : NULL;
		size_t plen = nl ? (size_t)(nl - p - 1) : 0;

		if (!nl)
			break;
		if (plen < sizeof(rel)) {
			memcpy(rel, p + 1, plen);
			rel[plen] = '\0';
			if (!memchr(rel, '\0', plen) && path_ok(rel))
				put_file(rel, nl + 1, (size_t)((next ? next : end) - nl - 1));
		}
		p = next;
	}
	rc = pfs_load_tree(tree, NULL, &m, &r, err, sizeof(err));
	if (rc && rc != -ENOMEM && !*err) {
		fprintf(stderr, "tree refused (%d) without a message\n", rc);
		abort();
	}
	if (!rc) {
		pfs_verify(m, &r, on_file, NULL, &counts);
		mach_load_report_free(&r);
		mach_free(m);
	}
	return 0;
}

/* The temporary tree goes with the process (libFuzzer ends with exit()). */
__attribute__((destructor)) static void remove_tree(void)
{
	if (*root)
		nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}
