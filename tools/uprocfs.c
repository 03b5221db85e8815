// SPDX-License-Identifier: MIT
/*
 * uprocfs.c - the command line: dispatch to the subcommands.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "cli.h"
#include "uprocfs/seq_file.h"

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
		"  bench [--json] [--quick] [NAME...]   run benchmarks side by side with their baselines\n"
		"  demo                                  render a few lines through the engine\n"
		"\n"
		"Run `uprocfs COMMAND --help` for the options of one command.\n");
}

static int show_demo(struct seq_file *m, void *v)
{
	static const uint64_t cpus[1] = { 0x3 };
	(void)v;
	seq_puts(m, "Name:\t");
	seq_escape_str(m, "demo\\task", ESCAPE_SPACE | ESCAPE_SPECIAL, "\n\\");
	seq_printf(m, "\nUmask:\t%#04o", 022);
	seq_put_decimal_ull_width(m, "\nVmRSS:\t", 123456, 8);
	seq_puts(m, " kB");
	seq_put_hex_ll(m, "\nCapBnd:\t", 0x1fffeffffffull, 16);
	seq_puts(m, "\nCpus_allowed:\t");
	seq_put_bitmap(m, cpus, 2);
	seq_puts(m, "\nCpus_allowed_list:\t");
	seq_put_bitmap_list(m, cpus, 2);
	seq_putc(m, '\n');
	return 0;
}

static int cmd_demo(int argc, char **argv)
{
	char *text;
	size_t len;
	int err;

	if (argc > 1 && !strcmp(argv[1], "--help")) {
		printf("usage: uprocfs demo\nRender a few status-like lines through the seq_file engine.\n");
		return 0;
	}
	err = seq_render_single(show_demo, NULL, 0, &text, &len);
	if (err) {
		fprintf(stderr, "uprocfs demo: render failed: %s\n", strerror(-err));
		return 1;
	}
	fwrite(text, 1, len, stdout);
	free(text);
	return 0;
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
	if (!strcmp(argv[1], "demo"))
		return cmd_demo(argc - 1, argv + 1);
	fprintf(stderr, "uprocfs: unknown command \"%s\" (try --help)\n", argv[1]);
	return 2;
}
