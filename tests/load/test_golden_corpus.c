// SPDX-License-Identifier: MIT
/*
 * test_golden_corpus.c - real /proc files of kernels 3.2 to 6.18
 * (tests/golden/corpus-<kernel>/, each with an INDEX.tsv naming its source,
 * licence and what is expected of every file) through the loader.
 *
 * The trees are partial (a file or a process here and there), so each is
 * loaded path by path: a machine-wide file alone, a process's files
 * together (the loader checks them against each other).  Every file the
 * INDEX calls well-formed must load and render back identical; every file
 * it marks damaged in storage (CRLF, no final newline, edited spacing) or
 * unrepresentable must be refused, and the loader's reason is shown: a
 * damaged file that loaded would be a file misread.
 */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "uprocfs/load.h"
#include "uprocfs/procfs.h"

#define MAX_ROWS 128

struct row {
	char path[256];           /* under the corpus directory: SOURCE/PROC-PATH */
	char proc[256];           /* the /proc path: after SOURCE/ */
	char group[256];          /* SOURCE/PID for a process's files, else the path */
	bool expect_identical;
	char why[256];            /* skipped: the INDEX's account of the damage */
	char *text;
	size_t len;
};

struct counts {
	unsigned int identical, skipped, bad;
};

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END) && (n = ftell(f)) >= 0 && !fseek(f, 0, SEEK_SET) &&
	    (buf = malloc((size_t)n + 1)) && fread(buf, 1, (size_t)n, f) == (size_t)n) {
		*len = (size_t)n;
	} else {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

/* One INDEX line: path, expect, why skipped, then provenance columns the test does not need. */
static int parse_row(char *line, struct row *r)
{
	char *f[3], *slash;

	for (int i = 0; i < 3; i++) {
		f[i] = strsep(&line, "\t");
		if (!f[i])
			return -1;
	}
	memset(r, 0, sizeof(*r));
	snprintf(r->path, sizeof(r->path), "%s", f[0]);
	r->expect_identical = !strcmp(f[1], "identical");
	snprintf(r->why, sizeof(r->why), "%s", f[2]);
	slash = strchr(r->path, '/');
	if (!slash || (!r->expect_identical && strcmp(f[1], "skipped")))
		return -1;
	snprintf(r->proc, sizeof(r->proc), "%s", f[0] + (slash - r->path) + 1);
	/* a process's files load together: the group is SOURCE/PID */
	snprintf(r->group, sizeof(r->group), "%s", f[0]);
	if (r->proc[0] >= '1' && r->proc[0] <= '9')
		r->group[(slash - r->path) + 1 + strcspn(r->proc, "/")] = '\0';
	return 0;
}

static int load_one(struct mach_loader *ld, const struct row *r, char *err, size_t errlen)
{
	const char *skip = NULL;
	int rc;

	if (strncmp(r->proc, "sys/", 4))
		return pfs_load_text(ld, r->proc, r->text, r->len, err, errlen);
	rc = mach_loader_sysctl(ld, r->proc + 4, 0444, 0, r->text, r->len, &skip, err, errlen);
	if (!rc && skip) {
		snprintf(err, errlen, "%s: %s", r->proc, skip);
		rc = -EINVAL;
	}
	return rc;
}

/*
 * Load the well-formed files of @group and, when @extra is given, that one
 * file too, into a fresh machine; *@out the machine (the caller frees it).
 */
static int load_group(struct row *rows, size_t n, const char *group, const struct row *extra,
		      struct mach_machine **out, char *err, size_t errlen)
{
	struct mach_machine *m = mach_new();
	struct mach_loader *ld = m ? mach_loader_new(m) : NULL;
	int rc = ld ? 0 : -ENOMEM;

	for (size_t i = 0; i < n && !rc; i++)
		if (rows[i].expect_identical && !strcmp(rows[i].group, group))
			rc = load_one(ld, &rows[i], err, errlen);
	if (!rc && extra)
		rc = load_one(ld, extra, err, errlen);
	if (!rc)
		rc = mach_loader_finish(ld, err, errlen);
	mach_loader_free(ld);
	*out = m;
	return rc;
}

static void check_identical(const char *dir, struct row *rows, size_t n, size_t i, struct counts *c)
{
	struct mach_machine *m = NULL;
	struct pfs_node node;
	struct pfs_ctx ctx;
	char err[1024], *text = NULL;
	size_t len = 0;
	int rc = load_group(rows, n, rows[i].group, NULL, &m, err, sizeof(err));

	if (!rc)
		rc = pfs_resolve(m, rows[i].proc, &node, &ctx, err, sizeof(err));
	if (!rc)
		rc = pfs_render(&node, &ctx, &text, &len);
	if (rc) {
		c->bad++;
		ok(0, "%s/%s: refused: %s", dir, rows[i].path, err);
	} else if (is_bytes(text, len, rows[i].text, rows[i].len, "%s/%s: identical", dir, rows[i].path)) {
		c->identical++;
	} else {
		c->bad++;
	}
	free(text);
	mach_free(m);
}

static void check_skipped(const char *dir, struct row *rows, size_t n, size_t i, struct counts *c)
{
	struct mach_machine *m = NULL;
	char err[1024];
	int rc = load_group(rows, n, rows[i].group, &rows[i], &m, err, sizeof(err));

	if (rc) {
		c->skipped++;
		ok(1, "%s/%s: skipped (%s): %s", dir, rows[i].path, rows[i].why, err);
	} else {
		c->bad++;
		ok(0, "%s/%s: %s, yet it loaded: a file misread", dir, rows[i].path, rows[i].why);
	}
	mach_free(m);
}

static void check_corpus(const char *golden, const char *dir, struct counts *total)
{
	static struct row rows[MAX_ROWS];
	struct counts c = { 0, 0, 0 };
	char path[1024], *line = NULL;
	size_t n = 0, cap = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s/INDEX.tsv", golden, dir);
	f = fopen(path, "r");
	if (!ok(f != NULL, "%s: INDEX.tsv opens", dir))
		return;
	for (bool header = true; getline(&line, &cap, f) > 0; header = false) {
		line[strcspn(line, "\n")] = '\0';
		if (header)
			continue;
		if (n == MAX_ROWS || parse_row(line, &rows[n])) {
			ok(0, "%s: INDEX line \"%.60s\" is path, expect (identical|skipped), why, ...", dir, line);
			continue;
		}
		snprintf(path, sizeof(path), "%s/%s/%s", golden, dir, rows[n].path);
		rows[n].text = slurp(path, &rows[n].len);
		if (!rows[n].text) {
			ok(0, "%s/%s is missing", dir, rows[n].path);
			continue;
		}
		n++;
	}
	free(line);
	fclose(f);
	for (size_t i = 0; i < n; i++) {
		if (rows[i].expect_identical)
			check_identical(dir, rows, n, i, &c);
		else
			check_skipped(dir, rows, n, i, &c);
	}
	diag("%s: %u identical, %u skipped as expected, %u wrong", dir, c.identical, c.skipped, c.bad);
	total->identical += c.identical;
	total->skipped += c.skipped;
	total->bad += c.bad;
	for (size_t i = 0; i < n; i++)
		free(rows[i].text);
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strverscmp((*a)->d_name, (*b)->d_name);
}

static int is_corpus(const struct dirent *d)
{
	return !strncmp(d->d_name, "corpus-", 7);
}

int main(int argc, char **argv)
{
	struct counts total = { 0, 0, 0 };
	struct dirent **names;
	int n;

	if (argc != 2)
		skip_all("usage: test_golden_corpus GOLDEN-DIR");
	plan(0);
	n = scandir(argv[1], &names, is_corpus, by_name);
	if (!ok(n >= 8, "at least 8 corpus directories under %s (%d)", argv[1], n))
		return tap_done();
	for (int i = 0; i < n; i++) {
		check_corpus(argv[1], names[i]->d_name, &total);
		free(names[i]);
	}
	free(names);
	diag("all corpora: %u identical, %u skipped as expected, %u wrong", total.identical, total.skipped, total.bad);
	ok(total.bad == 0 && total.identical > 0, "every well-formed file identical, every damaged one refused");
	return tap_done();
}
