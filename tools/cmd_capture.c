// SPDX-License-Identifier: MIT
/*
 * cmd_capture.c - `uprocfs capture`: copy the supported files of the live
 * /proc and /sys into a directory, laid out as they are beneath DIR/proc and
 * DIR/sys, for `--machine tree:DIR` and `uprocfs verify --proc DIR`.
 *
 * The files are read by the loader, once each, and a process whose files
 * disagree (it changed between two reads) is read again as a whole, so the
 * captured tree is one consistent snapshot per process.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../src/util/num.h"
#include "cli.h"

/* The kernel's pid_max limit (PID_MAX_LIMIT on 64-bit): no pid lies beyond it. */
#define PID_LIMIT 4194304
#include "tree_write.h"
#include "uprocfs/load.h"
#include "uprocfs/procfs.h"

static void capture_usage(FILE *f)
{
	fprintf(f,
		"usage: uprocfs capture [--pid PID]... [--force] DIR\n"
		"\n"
		"Copy the files uprocfs serves from the live /proc and /sys into a new directory\n"
		"DIR, with their layout beneath DIR/proc and DIR/sys: DIR/proc/stat,\n"
		"DIR/proc/42/task/43/stat, DIR/sys/devices/system/cpu/online.  All processes\n"
		"unless --pid names some.  Files the kernel\n"
		"will not let us read are left out and listed on stderr.  DIR must not exist\n"
		"or be empty; --force replaces what it holds.  The tree is written aside and\n"
		"renamed into place, so a failed capture leaves nothing behind.\n");
}

int cmd_capture(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "pid", required_argument, NULL, 'p' },
		{ "force", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct mach_load_opts opts = { 0 };
	struct mach_load_report report = { 0 };
	struct mach_machine *mach = NULL;
	pid_t *pids = calloc((size_t)argc, sizeof(*pids));
	size_t written = 0, skipped = 0;
	char err[1024];
	struct tree_writer w;
	bool force = false;
	int c, rc, status = 0;

	if (!pids) {
		fprintf(stderr, "uprocfs capture: out of memory\n");
		return 1;
	}
	optind = 1;
	while ((c = getopt_long(argc, argv, "+p:fh", longopts, NULL)) != -1) {
		uint64_t v;

		switch (c) {
		case 'p':
			if (!un_uint(optarg, 1, PID_LIMIT, &v)) {
				fprintf(stderr, "uprocfs capture: --pid \"%s\" is not a process id\n", optarg);
				free(pids);
				return 2;
			}
			pids[opts.npids++] = (pid_t)v;
			break;
		case 'f':
			force = true;
			break;
		case 'h':
			capture_usage(stdout);
			free(pids);
			return 0;
		default:
			capture_usage(stderr);
			free(pids);
			return 2;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "uprocfs capture: give exactly one DIR\n");
		capture_usage(stderr);
		free(pids);
		return 2;
	}
	opts.pids = opts.npids ? pids : NULL;
	opts.sys_dir = "/sys"; /* the /sys files uprocfs serves, beside /proc */
	if (tw_begin(&w, argv[optind], force, err, sizeof(err))) {
		fprintf(stderr, "uprocfs capture: %s\n", err);
		free(pids);
		return 1;
	}
	rc = pfs_load_tree("/proc", &opts, &mach, &report, err, sizeof(err));
	free(pids);
	if (rc) {
		fprintf(stderr, "uprocfs capture: %s\n", err);
		tw_abort(&w);
		return 1;
	}
	for (size_t i = 0; i < report.nfiles; i++) {
		const struct mach_load_file *lf = &report.files[i];

		if (lf->status != MACH_LOAD_OK) {
			skipped++;
			fprintf(stderr, "uprocfs capture: left out %s (%s)\n", lf->path,
				lf->reason ? lf->reason : "?");
			continue;
		}
		rc = tw_entry(&w, lf->path, lf->text, lf->len, lf->mode, err, sizeof(err));
		if (rc) {
			fprintf(stderr, "uprocfs capture: %s\n", err);
			status = 1;
			break;
		}
		written++;
	}
	if (status)
		tw_abort(&w);
	else if (tw_commit(&w, err, sizeof(err))) {
		fprintf(stderr, "uprocfs capture: %s\n", err);
		status = 1;
		written = 0;
	}
	mach_load_report_free(&report);
	mach_free(mach);
	fprintf(stderr, "capture: %zu files written to %s, %zu left out\n", written, argv[optind], skipped);
	return status;
}
