// SPDX-License-Identifier: MIT
/*
 * uprocfs.c - the command line: dispatch to the subcommands.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "cli.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: uprocfs COMMAND [ARGS...]\n"
		"\n"
		"Commands:\n"
		"  render [--machine SPEC] PATH...       print files of a machine (synthetic, captured or live)\n"
		"  verify [--proc DIR] [PID...]          load a /proc tree, render it back, compare byte for byte\n"
		"  capture [--pid PID]... DIR            copy the supported files of the live /proc into DIR\n"
		"  mount [--machine SPEC] MOUNTPOINT     serve a machine's /proc at MOUNTPOINT (FUSE)\n"
		"  run [--machine SPEC] -- CMD...        run CMD with a machine as its /proc\n"
		"  bench [--json] [--quick] [NAME...]    run benchmarks side by side with their baselines\n"
		"\n"
		"Run `uprocfs COMMAND --help` for the options of one command.\n");
}

int main(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	if (!strcmp(argv[1], "bench"))
		return bench_main(argc - 1, argv + 1, argv[0]);
	if (!strcmp(argv[1], "render"))
		return cmd_render(argc - 1, argv + 1);
	if (!strcmp(argv[1], "verify"))
		return cmd_verify(argc - 1, argv + 1);
	if (!strcmp(argv[1], "capture"))
		return cmd_capture(argc - 1, argv + 1);
	if (!strcmp(argv[1], "mount"))
		return cmd_mount(argc - 1, argv + 1);
	if (!strcmp(argv[1], "run"))
		return cmd_run(argc - 1, argv + 1);
	fprintf(stderr, "uprocfs: unknown command \"%s\" (try --help)\n", argv[1]);
	return 2;
}
