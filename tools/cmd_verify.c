// SPDX-License-Identifier: MIT
/*
 * cmd_verify.c - `uprocfs verify`: load a /proc tree into the model, render
 * every file that loaded, and compare with the kernel's bytes.
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../src/util/num.h"
#include "cli.h"
#include "uprocfs/load.h"
#include "uprocfs/machine.h"
#include "uprocfs/procfs.h"

static void verify_usage(FILE *f)
{
	fprintf(f,
		"usage: uprocfs verify [--proc DIR] [--quiet] [--by-file] [PID...]\n"
		"\n"
		"Load the /proc tree at DIR (default /proc) into the machine model, render every\n"
		"file that loaded and compare it byte for byte with what was read.  Prints one\n"
		"line per differing file with its first differing line, then\n"
		"  verify: N files identical, M differ, K skipped\n"
		"Files the kernel would not let us read, or whose task exited or kept changing,\n"
		"are skipped.  Exit status 0 only when nothing differs and something was compared.\n"
		"\n"
		"  --proc DIR   the tree to load: /proc, or a directory from `uprocfs capture`\n"
		"  --quiet      print only the summary line and differences\n"
		"  --by-file    then a table: each file name's identical, differing and skipped counts\n"
		"  PID...       only these processes (global files are always compared)\n");
}

/* Print a line for display: escaped, at most 160 characters. */
static void print_line(const char *label, const char *text, size_t len)
{
	printf("    %s \"", label);
	for (size_t i = 0; i < len && i < 160; i++) {
		unsigned char c = (unsigned char)text[i];
		if (c == '\t')
			fputs("\\t", stdout);
		else if (c == '\\' || c == '"')
			printf("\\%c", c);
		else if (c < 32 || c >= 127)
			printf("\\x%02x", c);
		else
			putchar(c);
	}
	printf("\"%s\n", len > 160 ? "..." : "");
}

/* Report the first line where @want (kernel) and @got (uprocfs) differ. */
static void report_difference(const char *path, const char *want, size_t wlen,
			      const char *got, size_t glen)
{
	size_t i = 0, line_start = 0, line = 1;

	while (i < wlen && i < glen && want[i] == got[i]) {
		if (want[i] == '\n') {
			line++;
			line_start = i + 1;
		}
		i++;
	}
	const char *we = memchr(want + line_start, '\n', wlen - line_start);
	const char *ge = memchr(got + line_start, '\n', glen > line_start ? glen - line_start : 0);
	size_t wl = we ? (size_t)(we - want) - line_start : wlen - line_start;
	size_t gl = glen > line_start ? (ge ? (size_t)(ge - got) - line_start : glen - line_start) : 0;

	printf("differs: %s line %zu (byte %zu; kernel %zu bytes, uprocfs %zu bytes)\n", path, line,
	       i, wlen, glen);
	print_line("kernel: ", want + line_start, wl);
	print_line("uprocfs:", glen > line_start ? got + line_start : "", gl);
}

/* Counts by file: "pid/status" counts /proc/<pid>/status and task/<tid>/status together. */
struct by_file {
	char name[32];
	size_t n[3];           /* by enum pfs_verdict */
};

struct verdicts {
	int quiet;
	bool by_file;
	struct by_file files[64];
	size_t nfiles;
};

static void count_file(struct verdicts *vs, const char *path, enum pfs_verdict verdict)
{
	const char *rest = path;
	char name[32];
	size_t i = 0;

	/* a task's file as "pid/FILE" whether under /proc/<pid> or its task/<tid>; global ones whole */
	if (*path >= '1' && *path <= '9') {
		rest = strchr(path, '/') ? strchr(path, '/') + 1 : path;
		if (!strncmp(rest, "task/", 5) && strchr(rest + 5, '/'))
			rest = strchr(rest + 5, '/') + 1;
		snprintf(name, sizeof(name), "pid/%s", rest);
	} else {
		snprintf(name, sizeof(name), "%s", path);
	}

	while (i < vs->nfiles && strcmp(vs->files[i].name, name))
		i++;
	if (i == vs->nfiles) {
		if (vs->nfiles == sizeof(vs->files) / sizeof(vs->files[0]))
			return;
		snprintf(vs->files[vs->nfiles++].name, sizeof(vs->files[0].name), "%s", name);
	}
	vs->files[i].n[verdict]++;
}

static void print_by_file(const struct verdicts *vs)
{
	printf("%-16s %9s %9s %9s\n", "file", "identical", "differ", "skipped");
	for (size_t i = 0; i < vs->nfiles; i++)
		printf("%-16s %9zu %9zu %9zu\n", vs->files[i].name, vs->files[i].n[PFS_IDENTICAL],
		       vs->files[i].n[PFS_DIFFERS], vs->files[i].n[PFS_SKIPPED]);
}

/* What verify prints of each file. */
static void show_verdict(void *arg, const struct pfs_verify_file *v)
{
	const struct mach_load_file *lf = v->loaded;
	struct verdicts *vs = arg;
	bool quiet = vs->quiet;

	if (vs->by_file)
		count_file(vs, lf->path, v->verdict);

	switch (v->verdict) {
	case PFS_SKIPPED:
		if (!quiet)
			printf("skipped: %s (%s)\n", lf->path, lf->reason ? lf->reason : "?");
		break;
	case PFS_DIFFERS:
		if (!v->text)
			printf("differs: %s (uprocfs cannot render it: %s)\n", lf->path, v->why);
		else
			report_difference(lf->path, lf->text, lf->len, v->text, v->len);
		break;
	case PFS_IDENTICAL:
		break;
	}
}

/* A pid: 1 to the kernel's pid_max limit (PID_MAX_LIMIT on 64-bit), in decimal. */
static int parse_pid_arg(const char *s, pid_t *pid)
{
	uint64_t v;

	if (!un_uint(s, 1, 4194304, &v))
		return -EINVAL;
	*pid = (pid_t)v;
	return 0;
}

int cmd_verify(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "proc", required_argument, NULL, 'p' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "by-file", no_argument, NULL, 'b' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *dir = "/proc";
	struct mach_load_opts opts = { 0 };
	struct mach_load_report report = { 0 };
	struct mach_machine *mach = NULL;
	struct pfs_verify_counts counts;
	size_t identical, differ, skipped;
	pid_t *pids = NULL;
	static struct verdicts vs;
	int c, rc;
	char err[1024];

	optind = 1;
	while ((c = getopt_long(argc, argv, "+p:qbh", longopts, NULL)) != -1) {
		switch (c) {
		case 'p': dir = optarg; break;
		case 'q': vs.quiet = 1; break;
		case 'b': vs.by_file = true; break;
		case 'h': verify_usage(stdout); return 0;
		default: verify_usage(stderr); return 2;
		}
	}
	if (optind < argc) {
		pids = calloc((size_t)(argc - optind), sizeof(*pids));
		if (!pids) {
			fprintf(stderr, "uprocfs verify: out of memory\n");
			return 1;
		}
		for (int i = optind; i < argc; i++) {
			if (parse_pid_arg(argv[i], &pids[opts.npids])) {
				fprintf(stderr, "uprocfs verify: \"%s\" is not a process id\n", argv[i]);
				free(pids);
				return 2;
			}
			opts.npids++;
		}
		opts.pids = pids;
	}
	rc = pfs_load_tree(dir, &opts, &mach, &report, err, sizeof(err));
	free(pids);
	if (rc) {
		fprintf(stderr, "uprocfs verify: %s\n", err);
		return 1;
	}
	rc = pfs_verify(mach, &report, show_verdict, &vs, &counts);
	if (rc) {
		fprintf(stderr, "uprocfs verify: %s\n", strerror(-rc));
		mach_load_report_free(&report);
		mach_free(mach);
		return 1;
	}
	identical = counts.identical;
	differ = counts.differ;
	skipped = counts.skipped;
	printf("verify: %zu files identical, %zu differ, %zu skipped\n", identical, differ, skipped);
	if (vs.by_file)
		print_by_file(&vs);
	mach_load_report_free(&report);
	mach_free(mach);
	return differ == 0 && identical > 0 ? 0 : 1;
}
