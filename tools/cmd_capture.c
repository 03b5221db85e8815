// SPDX-License-Identifier: MIT
/*
 * cmd_capture.c - `uprocfs capture`: copy the supported files of the live
 * /proc and /sys into a directory or one compressed archive, laid out as they
 * are beneath DIR/proc and DIR/sys, for `--machine tree:PATH` and
 * `uprocfs verify --proc PATH`.
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
#include <sys/utsname.h>
#include <time.h>
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
		"       uprocfs capture [--pid PID]... [--force] -o FILE.tar.zst\n"
		"\n"
		"Copy the files uprocfs serves from the live /proc and /sys into a new directory\n"
		"DIR, with their layout beneath DIR/proc and DIR/sys: DIR/proc/stat,\n"
		"DIR/proc/42/task/43/stat, DIR/sys/devices/system/cpu/online; or, with -o (or a DIR ending in .tar.zst, .tar.gz, .tgz,\n"
		".tar.xz, .tar.bz2, .tar), into one compressed archive holding that tree under\n"
		"one top directory.  The capture also holds " MACH_CAPTURE_INFO ": the kernel release\n"
		"and the clocks when it was taken.  All processes unless --pid names some.\n"
		"Files the kernel will not let us read are left out and listed on stderr.  DIR\n"
		"must not exist or be empty; --force replaces what it holds.  The tree is\n"
		"written aside and renamed into place, so a failed capture leaves nothing behind.\n"
		"Load it with `uprocfs verify --proc PATH` or `--machine tree:PATH`.\n");
}

/* What the capture says of itself: the kernel it ran on, the clocks when it started. */
static void capture_info_now(struct mach_capture_info *ci)
{
	struct timespec rt, bt;
	struct utsname u;

	memset(ci, 0, sizeof(*ci));
	if (!uname(&u)) {
		/* uname's fields are 65 bytes: a release longer than the profile holds is cut */
		snprintf(ci->kernel_release, sizeof(ci->kernel_release), "%.*s", (int)sizeof(ci->kernel_release) - 1,
			 u.release);
		memcpy(ci->hostname, u.nodename, sizeof(ci->hostname) - 1);
	}
	if (!clock_gettime(CLOCK_REALTIME, &rt) && !clock_gettime(CLOCK_BOOTTIME, &bt)) {
		ci->time_ns = (uint64_t)rt.tv_sec * 1000000000u + (uint64_t)rt.tv_nsec;
		ci->boottime_ns = (uint64_t)bt.tv_sec * 1000000000u + (uint64_t)bt.tv_nsec;
	}
}

/* Write what the loader read into @w: 0, or 1 with the error said. */
static int write_report(struct tree_writer *w, const struct mach_load_report *report, size_t *written,
			size_t *skipped)
{
	char err[1024];

	for (size_t i = 0; i < report->nfiles; i++) {
		const struct mach_load_file *lf = &report->files[i];

		if (lf->status != MACH_LOAD_OK) {
			(*skipped)++;
			fprintf(stderr, "uprocfs capture: left out %s (%s)\n", lf->path, lf->reason ? lf->reason : "?");
			continue;
		}
		if (tw_entry(w, lf->path, lf->text, lf->len, lf->mode, err, sizeof(err))) {
			fprintf(stderr, "uprocfs capture: %s\n", err);
			return 1;
		}
		(*written)++;
	}
	return 0;
}

int cmd_capture(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "pid", required_argument, NULL, 'p' },
		{ "force", no_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct mach_load_opts opts = { 0 };
	struct mach_load_report report = { 0 };
	struct mach_machine *mach = NULL;
	struct mach_capture_info ci;
	pid_t *pids = calloc((size_t)argc, sizeof(*pids));
	size_t written = 0, skipped = 0;
	const char *dest = NULL;
	char err[1024];
	struct tree_writer w;
	bool force = false;
	int c, rc, status = 0;

	if (!pids) {
		fprintf(stderr, "uprocfs capture: out of memory\n");
		return 1;
	}
	optind = 1;
	while ((c = getopt_long(argc, argv, "+p:fo:h", longopts, NULL)) != -1) {
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
		case 'o':
			dest = optarg;
			if (!tw_archive_suffix(dest)) {
				fprintf(stderr, "uprocfs capture: -o %s: an archive's name ends in .tar.zst (or .tar.gz, "
					".tgz, .tar.xz, .tar.bz2, .tar)\n", dest);
				free(pids);
				return 2;
			}
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
	if (dest ? optind != argc : optind != argc - 1) {
		fprintf(stderr, "uprocfs capture: give exactly one DIR, or -o FILE\n");
		capture_usage(stderr);
		free(pids);
		return 2;
	}
	if (!dest)
		dest = argv[optind];
	opts.pids = opts.npids ? pids : NULL;
	opts.sys_dir = "/sys"; /* the /sys files uprocfs serves, beside /proc */
	if (tw_begin(&w, dest, force, err, sizeof(err))) {
		fprintf(stderr, "uprocfs capture: %s\n", err);
		free(pids);
		return 1;
	}
	capture_info_now(&ci);
	rc = pfs_load_tree("/proc", &opts, &mach, &report, err, sizeof(err));
	free(pids);
	if (rc) {
		fprintf(stderr, "uprocfs capture: %s\n", err);
		tw_abort(&w);
		return 1;
	}
	if (tw_info(&w, &ci, err, sizeof(err))) {
		fprintf(stderr, "uprocfs capture: %s\n", err);
		status = 1;
	}
	if (!status)
		status = write_report(&w, &report, &written, &skipped);
	if (status)
		tw_abort(&w);
	else if (tw_commit(&w, err, sizeof(err))) {
		fprintf(stderr, "uprocfs capture: %s\n", err);
		status = 1;
		written = 0;
	}
	mach_load_report_free(&report);
	mach_free(mach);
	fprintf(stderr, "capture: %zu files written to %s, %zu left out\n", written, dest, skipped);
	return status;
}
