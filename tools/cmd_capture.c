// SPDX-License-Identifier: MIT
/*
 * cmd_capture.c - `uprocfs capture`: copy the supported files of the live
 * /proc into a directory, laid out as /proc is, for `--machine tree:DIR` and
 * `uprocfs verify --proc DIR`.
 *
 * The files are read by the loader, once each, and a process whose files
 * disagree (it changed between two reads) is read again as a whole, so the
 * captured tree is one consistent snapshot per process.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "uprocfs/load.h"

static void capture_usage(FILE *f)
{
	fprintf(f,
		"usage: uprocfs capture [--pid PID]... DIR\n"
		"\n"
		"Copy the files uprocfs serves from the live /proc into DIR (created if needed),\n"
		"with the same layout: DIR/stat, DIR/pressure/cpu, DIR/42/status,\n"
		"DIR/42/task/43/stat.  All processes unless --pid names some.  Files the kernel\n"
		"will not let us read are left out and listed on stderr.\n");
}

/* mkdir -p of the directories leading to @path (relative to @dirfd). */
static int make_parents(int dirfd, const char *path)
{
	char buf[4096];
	size_t len = strlen(path);

	if (len >= sizeof(buf))
		return -ENAMETOOLONG;
	memcpy(buf, path, len + 1);
	for (char *p = buf; (p = strchr(p, '/')); p++) {
		*p = '\0';
		if (mkdirat(dirfd, buf, 0755) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	return 0;
}

static int write_file(int dirfd, const char *path, const char *text, size_t len)
{
	int fd, rc = make_parents(dirfd, path);

	if (rc)
		return rc;
	fd = openat(dirfd, path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	while (len) {
		ssize_t n = write(fd, text, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			rc = -errno;
			break;
		}
		text += n;
		len -= (size_t)n;
	}
	if (close(fd) && !rc)
		rc = -errno;
	return rc;
}

int cmd_capture(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "pid", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct mach_load_opts opts = { 0 };
	struct mach_load_report report = { 0 };
	struct machine *mach = NULL;
	pid_t *pids = calloc((size_t)argc, sizeof(*pids));
	size_t written = 0, skipped = 0;
	char err[1024];
	int c, rc, dirfd, status = 0;

	if (!pids) {
		fprintf(stderr, "uprocfs capture: out of memory\n");
		return 1;
	}
	optind = 1;
	while ((c = getopt_long(argc, argv, "+p:h", longopts, NULL)) != -1) {
		char *end;
		long v;

		switch (c) {
		case 'p':
			errno = 0;
			v = strtol(optarg, &end, 10);
			if (errno || *end || end == optarg || v <= 0 || v > 0x3fffffff) {
				fprintf(stderr, "uprocfs capture: --pid \"%s\" is not a process id\n", optarg);
				free(pids);
				return 2;
			}
			pids[opts.npids++] = (pid_t)v;
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
	if (mkdir(argv[optind], 0755) && errno != EEXIST) {
		fprintf(stderr, "uprocfs capture: %s: %s\n", argv[optind], strerror(errno));
		free(pids);
		return 1;
	}
	dirfd = open(argv[optind], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0) {
		fprintf(stderr, "uprocfs capture: %s: %s\n", argv[optind], strerror(errno));
		free(pids);
		return 1;
	}
	rc = mach_load_tree("/proc", &opts, &mach, &report, err, sizeof(err));
	free(pids);
	if (rc) {
		fprintf(stderr, "uprocfs capture: %s\n", err);
		close(dirfd);
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
		rc = write_file(dirfd, lf->path, lf->text, lf->len);
		if (rc) {
			fprintf(stderr, "uprocfs capture: %s/%s: %s\n", argv[optind], lf->path, strerror(-rc));
			status = 1;
			break;
		}
		written++;
	}
	close(dirfd);
	mach_load_report_free(&report);
	mach_free(mach);
	fprintf(stderr, "capture: %zu files written to %s, %zu left out\n", written, argv[optind], skipped);
	return status;
}
