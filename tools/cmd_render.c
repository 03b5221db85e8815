// SPDX-License-Identifier: MIT
/*
 * cmd_render.c - `uprocfs render`: print files of a machine to stdout.
 */
#include <errno.h>
#include <stdbool.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../src/util/num.h"
#include "cli.h"
#include "spec.h"
#include "uprocfs/machine.h"
#include "tree_write.h"
#include "uprocfs/sim.h"
#include "uprocfs/source.h"

static void render_usage(FILE *f)
{
	fprintf(f,
		"usage: uprocfs render [--machine SPEC] [--at SECONDS] PATH...\n"
		"       uprocfs render [--machine SPEC] [--at SECONDS] [--force] --tree DIR\n"
		"\n"
		"Write the files at PATH (as /proc/stat, /proc/42/status, stat, 42/task/43/stat)\n"
		"of a machine to standard output, one after the other.\n"
		"\n"
		"  --machine SPEC   synth[:cpus=N,tasks=M,threads=T,seed=S,...] (default synth),\n"
		"                   tree:DIR (a tree written by `uprocfs capture`), or live\n"
		"  --tree DIR       write every file of the machine under DIR, laid out as /proc\n"
		"                   (as `uprocfs capture` does for the live kernel); DIR must be\n"
		"                   new or empty unless --force (then it is replaced)\n"
		"  --at SECONDS     run the simulator for SECONDS of machine time first\n"
		"                   (the workload: synth keys depth=D,load=L,io=F,mem=F)\n");
}

static int write_all(const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(STDOUT_FILENO, buf, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

int cmd_render(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "machine", required_argument, NULL, 'm' },
		{ "at", required_argument, NULL, 'a' },
		{ "tree", required_argument, NULL, 't' },
		{ "force", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *spec = "synth", *tree = NULL;
	struct pfs_source *src = NULL;
	bool force = false;
	double at = -1;
	struct mach_machine *mach;
	char err[512];
	int c, status = 0, rc;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+m:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'm': spec = optarg; break;
		case 'a':
			if (at >= 0 || !un_decimal(optarg, 1e7, &at)) {
				fprintf(stderr, "uprocfs render: --at \"%s\": %s\n", optarg,
					at >= 0 ? "given twice" : "expected seconds from 0 to 10000000, in decimal");
				return 2;
			}
			break;
		case 't':
			if (tree) {
				fprintf(stderr, "uprocfs render: --tree given twice\n");
				return 2;
			}
			tree = optarg;
			break;
		case 'f': force = true; break;
		case 'h': render_usage(stdout); return 0;
		default: render_usage(stderr); return 2;
		}
	}
	if (optind == argc && !tree) {
		fprintf(stderr, "uprocfs render: no PATH given\n");
		render_usage(stderr);
		return 2;
	}
	if (optind < argc && tree) {
		fprintf(stderr, "uprocfs render: give PATHs or --tree DIR, not both\n");
		render_usage(stderr);
		return 2;
	}
	rc = mach_from_spec(spec, &mach, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "uprocfs render: %s\n", err);
		return 1;
	}
	if (at >= 0) {
		struct mach_sim_opts so;
		struct mach_sim *sim = NULL;

		rc = mach_sim_opts_from_spec(spec, &so, err, sizeof(err));
		if (!rc)
			rc = mach_sim_create(mach, &so, &sim, err, sizeof(err));
		if (!rc)
			rc = mach_sim_advance(sim, mach->uptime_ns + (uint64_t)(at * 1e9));
		mach_sim_destroy(sim);
		if (rc) {
			fprintf(stderr, "uprocfs render: %s\n", err);
			mach_free(mach);
			return 1;
		}
	}
	if (tree) {
		struct tree_writer w;

		rc = tw_begin(&w, tree, force, err, sizeof(err));
		if (!rc) {
			rc = tw_machine(&w, mach, err, sizeof(err));
			rc = rc ? (tw_abort(&w), rc) : tw_commit(&w, err, sizeof(err));
		}
		if (rc) {
			fprintf(stderr, "uprocfs render: %s\n", err);
			status = 1;
		}
	}
	if (optind < argc && pfs_model_source_new(mach, NULL, &src)) {
		fprintf(stderr, "uprocfs render: out of memory\n");
		mach_free(mach);
		return 1;
	}
	for (int i = optind; i < argc; i++) {
		struct pfs_node n;
		char *text;
		size_t len;

		rc = pfs_parse_path(argv[i], mach, &n, err, sizeof(err));
		if (!rc)
			rc = pfs_source_render(src, NULL, &n, &text, &len, err, sizeof(err));
		if (rc) {
			fprintf(stderr, "uprocfs render: %s\n", err);
			status = 1;
			continue;
		}
		rc = write_all(text, len);
		free(text);
		if (rc) {
			fprintf(stderr, "uprocfs render: writing %s: %s\n", argv[i], strerror(-rc));
			status = 1;
			break;
		}
	}
	pfs_source_free(src);
	mach_free(mach);
	return status;
}
