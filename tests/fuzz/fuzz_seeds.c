// SPDX-License-Identifier: MIT
/*
 * fuzz_seeds.c - seeds for fuzz_parsers and fuzz_tree from a /proc tree
 * (a golden tree, a rendered synthetic machine).  usage:
 *   fuzz_seeds TREE PARSERS-DIR TREE-DIR
 * Loads TREE; every file it loaded becomes a fuzz_parsers seed (its kind's
 * byte, then its text; a /proc/sys key's text starts with the key's line),
 * at most PER_KIND per kind; its first TREE_SEEDS processes become fuzz_tree seeds with the
 * machine-wide files (a few /proc/sys keys) and its own.  Seeds are named by
 * a hash of their bytes, so running it again adds nothing twice.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_paths.h"

#define PER_KIND 3
#define SYS_KEYS 12
#define TREE_SEED_MAX (48 * 1024)
#define PARSER_SEED_MAX (24 * 1024)
#define TREE_SEEDS 4       /* per tree: its first processes */

static int write_seed(const char *dir, const char *buf, size_t len)
{
	uint64_t h = 1469598103934665603ull;
	char path[4096];
	FILE *f;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)buf[i]) * 1099511628211ull;
	snprintf(path, sizeof(path), "%s/%016llx", dir, (unsigned long long)h);
	if (!(f = fopen(path, "w")))
		return -errno;
	fwrite(buf, 1, len, f);
	return fclose(f) ? -errno : 0;
}

/* The kind of the file at report path @path, MACH_LD_NONE if none loads it. */
static enum mach_ld_kind kind_of_path(const char *path)
{
	struct pfs_node n;
	char err[256];

	if (!strncmp(path, "sys/", 4))
		return MACH_LD_SYSCTL;
	if (pfs_parse_path(path, NULL, &n, err, sizeof(err)) || !n.entry)
		return MACH_LD_NONE;
	return n.entry->load;
}

static void parser_seeds(const struct mach_load_report *r, const char *dir)
{
	unsigned int count[MACH_LD_NR_KINDS] = { 0 };

	for (size_t i = 0; i < r->nfiles; i++) {
		const struct mach_load_file *f = &r->files[i];
		enum mach_ld_kind k = f->status == MACH_LOAD_OK ? kind_of_path(f->path) : MACH_LD_NONE;
		int b = k ? fz_byte_of_kind(k) : -1;
		size_t len = 0;
		char *buf;

		if (b < 0 || count[k] >= PER_KIND || f->len > PARSER_SEED_MAX || !(buf = malloc(f->len + strlen(f->path) + 2)))
			continue;
		count[k]++;
		buf[len++] = (char)b;
		if (k == MACH_LD_SYSCTL)
			len += (size_t)sprintf(buf + len, "%s\n", f->path + 4);
		memcpy(buf + len, f->text, f->len);
		write_seed(dir, buf, len + f->len);
		free(buf);
	}
}

/* Append one file of the report in fuzz_tree's form, if there is room. */
static void append(char *buf, size_t *len, const struct mach_load_file *f)
{
	size_t need = strlen(f->path) + 2 + f->len;

	if (*len + need + 1 > TREE_SEED_MAX) /* sprintf adds its NUL */
		return;
	*len += (size_t)sprintf(buf + *len, "\x1e%s\n", f->path);
	memcpy(buf + *len, f->text, f->len);
	*len += f->len;
}

static void tree_seeds(const struct mach_load_report *r, const char *dir)
{
	char *buf = malloc(TREE_SEED_MAX);
	size_t globals = 0, sys = 0, nseeds = 0;

	if (!buf)
		return;
	for (size_t i = 0; i < r->nfiles; i++) {
		const struct mach_load_file *f = &r->files[i];

		if (f->status != MACH_LOAD_OK || (f->path[0] >= '0' && f->path[0] <= '9'))
			continue;
		if (strncmp(f->path, "sys/", 4) || sys++ < SYS_KEYS)
			append(buf, &globals, f);
	}
	for (size_t i = 0; i < r->nfiles && nseeds < TREE_SEEDS;) {
		const char *p = r->files[i].path;
		size_t plen = strspn(p, "0123456789"), len = globals;

		if (!plen || p[plen] != '/') {
			i++;
			continue;
		}
		for (; i < r->nfiles && !strncmp(r->files[i].path, p, plen + 1); i++)
			if (r->files[i].status == MACH_LOAD_OK)
				append(buf, &len, &r->files[i]);
		write_seed(dir, buf, len);
		nseeds++;
	}
	free(buf);
}

int main(int argc, char **argv)
{
	struct mach_load_report r = { 0 };
	struct mach_machine *m = NULL;
	char err[1024];
	int rc;

	if (argc != 4) {
		fprintf(stderr, "usage: fuzz_seeds TREE PARSERS-DIR TREE-DIR\n");
		return 2;
	}
	rc = pfs_load_tree(argv[1], NULL, &m, &r, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "fuzz_seeds: %s: %s\n", argv[1], err);
		return 1;
	}
	parser_seeds(&r, argv[2]);
	tree_seeds(&r, argv[3]);
	mach_load_report_free(&r);
	mach_free(m);
	return 0;
}
