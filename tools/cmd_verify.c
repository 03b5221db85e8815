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
#include "capture_read.h"
#include "cli.h"
#include "uprocfs/load.h"
#include "uprocfs/machine.h"
#include "uprocfs/procfs.h"

static void verify_usage(FILE *f)
{
	fprintf(f,
		"usage: uprocfs verify [--proc PATH] [--sys[=DIR]] [--quiet | --list | --json] [--by-file] [PID...]\n"
		"\n"
		"Load the /proc tree at PATH (default /proc) into the machine model, render every\n"
		"file that loaded and compare it byte for byte with what was read.  Prints one\n"
		"line per differing file with its first differing line, then\n"
		"  verify: N files identical, M differ, K skipped\n"
		"Every file loads on its own: one the kernel would not let us read, whose task\n"
		"exited or kept changing, that does not parse, that the model cannot hold, or\n"
		"that disagrees with a file of its process read before it (a torn capture) is\n"
		"skipped with the reason; files the tree lacks are not compared.  Exit status 0\n"
		"only when nothing differs and something was compared.\n"
		"\n"
		"  --proc PATH  the tree to load: /proc, a directory from `uprocfs capture` (or\n"
		"               cp -r, or a sosreport with proc/ under its root), or an archive\n"
		"               of one (.tar.zst, .tar.gz, .zip, ... as libarchive reads)\n"
		"               (a capture's sys/, beside its proc/, is compared too)\n"
		"  --sys[=DIR]  also load the /sys tree at DIR (default /sys) and compare the\n"
		"               files of it that uprocfs serves\n"
		"  --quiet      print only the summary line and differences\n"
		"  --list       one line per file: identical|differ|skipped PATH [reason], then\n"
		"               the summary\n"
		"  --json       one JSON document: {\"tree\", \"files\": [{\"path\", \"verdict\",\n"
		"               \"reason\"}...], \"counts\": {\"identical\", \"differ\", \"skipped\"}}\n"
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

/* Where @want (the file read) and @got (uprocfs) first differ: line and byte. */
static void first_difference(const char *want, size_t wlen, const char *got, size_t glen, size_t *line,
			     size_t *byte, size_t *line_start)
{
	size_t i = 0;

	*line = 1;
	*line_start = 0;
	while (i < wlen && i < glen && want[i] == got[i]) {
		if (want[i] == '\n') {
			++*line;
			*line_start = i + 1;
		}
		i++;
	}
	*byte = i;
}

/* Report the first line where @want (kernel) and @got (uprocfs) differ. */
static void report_difference(const char *path, const char *want, size_t wlen,
			      const char *got, size_t glen)
{
	size_t i, line_start, line;

	first_difference(want, wlen, got, glen, &line, &i, &line_start);
	const char *we = memchr(want + line_start, '\n', wlen - line_start);
	const char *ge = memchr(got + line_start, '\n', glen > line_start ? glen - line_start : 0);
	size_t wl = we ? (size_t)(we - want) - line_start : wlen - line_start;
	size_t gl = glen > line_start ? (ge ? (size_t)(ge - got) - line_start : glen - line_start) : 0;

	printf("differs: %s line %zu (byte %zu; kernel %zu bytes, uprocfs %zu bytes)\n", path, line,
	       i, wlen, glen);
	print_line("kernel: ", want + line_start, wl);
	print_line("uprocfs:", glen > line_start ? got + line_start : "", gl);
}

enum verify_format { FMT_PLAIN, FMT_QUIET, FMT_LIST, FMT_JSON };

/* Counts by file: "pid/status" counts /proc/<pid>/status and task/<tid>/status together. */
struct by_file {
	char name[64];
	size_t n[3];           /* by enum pfs_verdict */
};

struct verify_out {
	enum verify_format fmt;
	size_t nfiles;          /* printed so far (--json: commas between them) */
	bool by_file;
	struct by_file files[4096];
	size_t nnames;
	struct pfs_verify_counts sys;  /* how the files of /sys fared among the others */
};

/* @s as a JSON string: quotes, backslashes and control bytes escaped, bytes past ASCII as \u00XX. */
static void json_string(const char *s, size_t len)
{
	putchar('"');
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c == '\n')
			fputs("\\n", stdout);
		else if (c == '\t')
			fputs("\\t", stdout);
		else if (c < 32 || c >= 127)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

/* Why a file differs, in a few words: "line 3 (byte 57)", or why it could not be rendered. */
static void differ_reason(const struct pfs_verify_file *v, char *buf, size_t n)
{
	const struct mach_load_file *lf = v->loaded;
	size_t line, byte, start;

	if (!v->text) {
		snprintf(buf, n, "uprocfs cannot render it: %s", v->why);
		return;
	}
	first_difference(lf->text, lf->len, v->text, v->len, &line, &byte, &start);
	snprintf(buf, n, "line %zu (byte %zu; kernel %zu bytes, uprocfs %zu bytes)", line, byte, lf->len, v->len);
}

/* The verdicts as --list and --json name them. */
static const char *const word[] = { [PFS_IDENTICAL] = "identical", [PFS_DIFFERS] = "differ", [PFS_SKIPPED] = "skipped" };

/* One line of --list: the verdict, the path, the reason on the same line (newlines shown as \n). */
static void list_line(const struct pfs_verify_file *v)
{
	const struct mach_load_file *lf = v->loaded;
	char why[1200];

	printf("%s %s", word[v->verdict], lf->path);
	if (v->verdict == PFS_DIFFERS)
		differ_reason(v, why, sizeof(why));
	else
		snprintf(why, sizeof(why), "%s", v->verdict != PFS_SKIPPED ? "" : lf->reason ? lf->reason : v->why ? v->why : "");
	if (why[0]) {
		putchar(' ');
		for (const char *p = why; *p; p++) {
			if (*p == '\n')
				fputs("\\n", stdout);
			else
				putchar(*p);
		}
	}
	putchar('\n');
}

/* One element of --json's files array. */
static void json_file(struct verify_out *o, const struct pfs_verify_file *v)
{
	const struct mach_load_file *lf = v->loaded;
	char why[1200];

	printf("%s\n    {\"path\": ", o->nfiles ? "," : "");
	json_string(lf->path, strlen(lf->path));
	printf(", \"verdict\": \"%s\"", word[v->verdict]);
	if (v->verdict != PFS_IDENTICAL) {
		if (v->verdict == PFS_DIFFERS)
			differ_reason(v, why, sizeof(why));
		else
			snprintf(why, sizeof(why), "%s", lf->reason ? lf->reason : v->why ? v->why : "?");
		fputs(", \"reason\": ", stdout);
		json_string(why, strlen(why));
	}
	putchar('}');
}

/*
 * A /sys file by kind: a group's file as "cgroup/FILE", a block device's
 * as "block/FILE" (a partition's "block/PART/FILE", the device under a
 * disk "block/device/FILE"), other numbers as N (cpuN/online).
 */
static void sys_file_kind(const char *path, char *name, size_t size)
{
	const char *rel = path + 5, *b = strstr(rel, "/block/");
	size_t at = 0;

	if (!strncmp(rel, "fs/cgroup/", 10)) {
		snprintf(name, size, "cgroup/%s", strrchr(rel, '/') + 1);
		return;
	}
	if (!strncmp(rel, "block/", 6) || !strncmp(rel, "class/block/", 12) || !strncmp(rel, "dev/block/", 10)) {
		snprintf(name, size, "%.*s/LINK", (int)(strrchr(rel, '/') - rel), rel);
		return;
	}
	if (!strncmp(rel, "devices/", 8) && b) {
		const char *disk = b + 7, *rest = strchr(disk, '/'), *sub;

		if (rest) {
			size_t dlen = (size_t)(rest - disk);

			rest++;
			sub = strchr(rest, '/');
			if (sub && !strncmp(rest, disk, dlen) && rest[dlen] != '/')
				snprintf(name, size, "block/PART/%s", sub + 1);
			else
				snprintf(name, size, "block/%s", rest);
			return;
		}
	}
	if (!strncmp(rel, "devices/", 8) && strncmp(rel, "devices/system", 14) != 0 && !strstr(rel, "hwmon") &&
	    !strstr(rel, "thermal")) {
		snprintf(name, size, "block/device/%s", strrchr(rel, '/') + 1);
		return;
	}
	for (const char *p = rel; *p && at + 1 < size; p++) {
		if (*p >= '0' && *p <= '9') {
			while (p[1] >= '0' && p[1] <= '9')
				p++;
			name[at++] = 'N';
		} else {
			name[at++] = *p;
		}
	}
	name[at] = '\0';
}

static void count_file(struct verify_out *vs, const char *path, enum pfs_verdict verdict)
{
	const char *rest = path;
	char name[64];
	size_t i = 0;

	/* a task's file as "pid/FILE" whether under /proc/<pid> or its task/<tid>; global ones whole */
	if (!strncmp(path, "/sys/", 5)) {
		sys_file_kind(path, name, sizeof(name));
	} else if (*path >= '1' && *path <= '9') {
		rest = strchr(path, '/') ? strchr(path, '/') + 1 : path;
		if (!strncmp(rest, "task/", 5) && strchr(rest + 5, '/'))
			rest = strchr(rest + 5, '/') + 1;
		snprintf(name, sizeof(name), "pid/%s", rest);
	} else {
		snprintf(name, sizeof(name), "%s", path);
	}

	while (i < vs->nnames && strcmp(vs->files[i].name, name))
		i++;
	if (i == vs->nnames) {
		if (vs->nnames == sizeof(vs->files) / sizeof(vs->files[0]))
			return;
		snprintf(vs->files[vs->nnames++].name, sizeof(vs->files[0].name), "%s", name);
	}
	vs->files[i].n[verdict]++;
}

static void print_by_file(const struct verify_out *vs)
{
	printf("%-32s %9s %9s %9s\n", "file", "identical", "differ", "skipped");
	for (size_t i = 0; i < vs->nnames; i++)
		printf("%-32s %9zu %9zu %9zu\n", vs->files[i].name, vs->files[i].n[PFS_IDENTICAL],
		       vs->files[i].n[PFS_DIFFERS], vs->files[i].n[PFS_SKIPPED]);
}

/* What verify prints of each file. */
static void show_verdict(void *arg, const struct pfs_verify_file *v)
{
	struct verify_out *o = arg;
	const struct mach_load_file *lf = v->loaded;

	if (o->by_file)
		count_file(o, lf->path, v->verdict);
	if (!strncmp(lf->path, "/sys/", 5)) {
		o->sys.identical += v->verdict == PFS_IDENTICAL;
		o->sys.differ += v->verdict == PFS_DIFFERS;
		o->sys.skipped += v->verdict == PFS_SKIPPED;
	}

	if (o->fmt == FMT_LIST)
		list_line(v);
	else if (o->fmt == FMT_JSON)
		json_file(o, v);
	else if (v->verdict == PFS_SKIPPED && o->fmt == FMT_PLAIN)
		printf("skipped: %s (%s)\n", lf->path, lf->reason ? lf->reason : v->why ? v->why : "?");
	else if (v->verdict == PFS_DIFFERS && !v->text)
		printf("differs: %s (uprocfs cannot render it: %s)\n", lf->path, v->why);
	else if (v->verdict == PFS_DIFFERS)
		report_difference(lf->path, lf->text, lf->len, v->text, v->len);
	o->nfiles++;
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

/* The PIDs of the command line into @opts (@pids holds them); 0, or 2 after saying what is wrong. */
static int parse_pids(int argc, char **argv, pid_t *pids, struct mach_load_opts *opts)
{
	for (int i = optind; i < argc; i++) {
		if (parse_pid_arg(argv[i], &pids[opts->npids])) {
			fprintf(stderr, "uprocfs verify: \"%s\" is not a process id\n", argv[i]);
			return 2;
		}
		opts->npids++;
	}
	opts->pids = opts->npids ? pids : NULL;
	return 0;
}

int cmd_verify(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "proc", required_argument, NULL, 'p' },
		{ "sys", optional_argument, NULL, 's' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "list", no_argument, NULL, 'l' },
		{ "json", no_argument, NULL, 'j' },
		{ "by-file", no_argument, NULL, 'b' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *dir = "/proc";
	struct mach_load_opts opts = { 0 };
	struct mach_load_report report = { 0 };
	struct mach_machine *mach = NULL;
	struct pfs_verify_counts counts;
	static struct verify_out out = { .fmt = FMT_PLAIN };
	pid_t *pids = NULL;
	int c, rc;
	char err[1024];

	optind = 1;
	while ((c = getopt_long(argc, argv, "+p:qljbh", longopts, NULL)) != -1) {
		switch (c) {
		case 'p': dir = optarg; break;
		case 's': opts.sys_dir = optarg ? optarg : "/sys"; break;
		case 'q': out.fmt = FMT_QUIET; break;
		case 'l': out.fmt = FMT_LIST; break;
		case 'j': out.fmt = FMT_JSON; break;
		case 'b': out.by_file = true; break;
		case 'h': verify_usage(stdout); return 0;
		default: verify_usage(stderr); return 2;
		}
	}
	pids = calloc((size_t)(argc - optind) + 1, sizeof(*pids));
	if (!pids) {
		fprintf(stderr, "uprocfs verify: out of memory\n");
		return 1;
	}
	if (parse_pids(argc, argv, pids, &opts)) {
		free(pids);
		return 2;
	}
	rc = capture_load(dir, &opts, &mach, &report, err, sizeof(err));
	free(pids);
	if (rc) {
		fprintf(stderr, "uprocfs verify: %s\n", err);
		return 1;
	}
	if (out.fmt == FMT_JSON) {
		fputs("{\n  \"tree\": ", stdout);
		json_string(dir, strlen(dir));
		fputs(",\n  \"files\": [", stdout);
	}
	rc = pfs_verify(mach, &report, show_verdict, &out, &counts);
	if (rc) {
		fflush(stdout);
		fprintf(stderr, "uprocfs verify: %s\n", strerror(-rc));
		mach_load_report_free(&report);
		mach_free(mach);
		return 1;
	}
	if (out.fmt == FMT_JSON)
		printf("\n  ],\n  \"counts\": {\"identical\": %zu, \"differ\": %zu, \"skipped\": %zu}\n}\n",
		       counts.identical, counts.differ, counts.skipped);
	else
		printf("verify: %zu files identical, %zu differ, %zu skipped\n", counts.identical, counts.differ,
		       counts.skipped);
	if (out.fmt != FMT_JSON && out.sys.identical + out.sys.differ + out.sys.skipped)
		printf("verify: of them in /sys: %zu identical, %zu differ, %zu skipped\n", out.sys.identical,
		       out.sys.differ, out.sys.skipped);
	if (out.by_file && out.fmt != FMT_JSON)
		print_by_file(&out);
	mach_load_report_free(&report);
	mach_free(mach);
	return counts.differ == 0 && counts.identical > 0 ? 0 : 1;
}
