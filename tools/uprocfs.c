// SPDX-License-Identifier: MIT
/*
 * uprocfs.c - the command line: dispatch to the subcommands.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* Set on the second start: how GLIBC_TUNABLES was ("-": unset; "=VALUE": VALUE). */
#define TUNED_FROM "UPROCFS_TUNED_FROM"
#define THP_TUNABLE "glibc.malloc.hugetlb=1"

/*
 * A large machine is gigabytes of small records.  With malloc's heap in
 * transparent huge pages (glibc's glibc.malloc.hugetlb tunable) building
 * one takes far fewer page faults and TLB misses: docs/benchmarks.md has
 * the figures.  glibc reads its tunables only when a program starts, so
 * the command starts itself once more with the tunable added, then puts
 * the environment back as the caller had it: what `run` starts sees the
 * caller's.  UPROCFS_MALLOC_THP=0 keeps the caller's malloc, and so does
 * running under valgrind or a sanitizer, whose allocators are their own.
 */
/* GLIBC_TUNABLES as the caller had it (@tunables, NULL: unset), and no mark of a second start. */
static void give_back(const char *tunables)
{
	if (tunables)
		setenv("GLIBC_TUNABLES", tunables, 1);
	else
		unsetenv("GLIBC_TUNABLES");
	unsetenv(TUNED_FROM);
}

static void tune_malloc(char **argv)
{
	const char *from = getenv(TUNED_FROM), *now = getenv("GLIBC_TUNABLES");
	const char *pre = getenv("LD_PRELOAD"), *opt = getenv("UPROCFS_MALLOC_THP");
	char *want, *mark, self[4096];
	ssize_t len;

	if (from) {
		give_back(from[0] == '=' ? from + 1 : NULL);
		return;
	}
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
	return;
#endif
	if ((opt && !strcmp(opt, "0")) || (pre && strstr(pre, "vgpreload")) ||
	    (now && strstr(now, "glibc.malloc.hugetlb")))
		return;
	/* by its own path, not /proc/self/exe: the command name (ps, top) stays "uprocfs" */
	len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (len <= 0 || (size_t)len >= sizeof(self) - 1)
		return;
	self[len] = '\0';
	if (asprintf(&mark, "%s%s", now ? "=" : "-", now ? now : "") < 0)
		return;
	if (asprintf(&want, "%s%s%s", now ? now : "", now && *now ? ":" : "", THP_TUNABLE) < 0) {
		free(mark);
		return;
	}
	if (!setenv(TUNED_FROM, mark, 1) && !setenv("GLIBC_TUNABLES", want, 1))
		execv(self, argv);
	/* no second start (no /proc, no exec): go on with malloc as it is, the environment as it was */
	give_back(now);
	free(mark);
	free(want);
}

int main(int argc, char **argv)
{
	tune_malloc(argv);
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
