// SPDX-License-Identifier: MIT
/*
 * bench_preload.c - `uprocfs bench fuse --transport preload` (the case
 * "fuse-preload"): tools over `uprocfs run --preload` beside the kernel's
 * /proc, per process listed, in one run.
 *
 *   ps_aux, top_b_n2: the tool over a synthetic machine of 2,000 tasks (and
 *       100,000 without --quick) served by the in-process transport, against
 *       the same tool over the kernel's /proc of a pid namespace holding
 *       2,000 processes (the kernel's side cannot hold 100,000: pid_max and
 *       the memory of a shared VM), and over the host's whole /proc.
 *   The daemon's statistics give the snapshot publish cost and its bytes
 *   per task.
 *
 * Kept apart from bench_fuse.c so the FUSE-side work merges without
 * conflicts.
 */
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

/* The processes the reader's /proc lists (through whatever serves it). */
static long count_procs(void)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	long n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)))
		n += e->d_name[0] >= '1' && e->d_name[0] <= '9';
	closedir(d);
	return n;
}

/* Run @argv once with its output counted away: nanoseconds, or -1. */
static double run_once(char **argv)
{
	uint64_t t0 = bench_now_ns();
	char buf[65536];
	int p[2], st;
	pid_t pid;

	if (pipe(p))
		return -1;
	pid = fork();
	if (pid == 0) {
		dup2(p[1], 1);
		close(p[0]);
		close(p[1]);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(p[1]);
	while (read(p[0], buf, sizeof(buf)) > 0)
		;
	close(p[0]);
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
		return -1;
	return (double)(bench_now_ns() - t0);
}

int bench_time_cmd(int argc, char **argv)
{
	int n = argc > 2 ? atoi(argv[0]) : 0, extra = argc > 2 ? atoi(argv[1]) : 0;
	double *t = calloc((size_t)(n > 0 ? n : 1), sizeof(double));
	int started = 0;

	if (!t || n <= 0)
		return 2;
	/* sleepers for a kernel /proc of a given size (the caller made a pid namespace) */
	for (; started < extra; started++) {
		pid_t p = fork();

		if (p == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			for (;;)
				pause();
		}
		if (p < 0)
			break;
	}
	for (int i = 0; i < n; i++)
		if ((t[i] = run_once(argv + 2)) < 0) {
			fprintf(stderr, "bench: %s failed\n", argv[2]);
			return 1;
		}
	printf("tool_ns=%.0f procs=%ld\n", bench_median(t, (size_t)n), count_procs());
	free(t);
	return 0;
}

/* One tool at one machine size: preload, the kernel's pid namespace of 2,000, the host's /proc. */
static void tool_case(const struct bench_opts *o, const char *name, char *const tool[], int tasks)
{
	char spec[64], runs[8], *argv[24];
	double ours = 0, ns2k = 0, host = 0;
	long pours = 0, p2k = 0, phost = 0;
	char stats[512] = "", note[1024], cname[64];
	int k = 0, t0;

	snprintf(spec, sizeof(spec), "synth:tasks=%d,seed=3", tasks);
	snprintf(runs, sizeof(runs), "%d", o->quick ? 3 : 5);
	argv[k++] = (char *)o->self_exe;
	argv[k++] = "run";
	argv[k++] = "--preload";
	argv[k++] = "--machine";
	argv[k++] = spec;
	argv[k++] = "--";
	t0 = k;
	argv[k++] = (char *)o->self_exe;
	argv[k++] = "bench";
	argv[k++] = "--time-cmd";
	argv[k++] = runs;
	argv[k++] = "0";
	for (int i = 0; tool[i]; i++)
		argv[k++] = tool[i];
	argv[k] = NULL;
	setenv("UPROCFS_FUSE_STATS", "1", 1);
	if (bench_run_timer(argv, &ours, &pours, "preload:", stats, sizeof(stats))) {
		fprintf(stderr, "bench fuse --transport preload: %s over --preload failed\n", name);
		unsetenv("UPROCFS_FUSE_STATS");
		return;
	}
	unsetenv("UPROCFS_FUSE_STATS");
	bench_run_timer(argv + t0, &host, &phost, NULL, NULL, 0);
	/* the kernel with 2,000 processes: sleepers in a pid namespace with its own /proc */
	{
		char *ns_argv[24] = { "/usr/bin/unshare", "--pid", "--fork", "--mount-proc" };
		int j = 4;

		for (int i = t0; argv[i]; i++)
			ns_argv[j++] = argv[i];
		ns_argv[j] = NULL;
		ns_argv[4 + 4] = "1999"; /* the --time-cmd extra count */
		bench_run_timer(ns_argv, &ns2k, &p2k, NULL, NULL, 0);
	}
	snprintf(note, sizeof(note),
		 "uprocfs --preload: %ld processes, %.1f ms; kernel pidns: %ld processes, %.1f ms (ratio %.2f); "
		 "kernel host /proc: %ld processes, %.1f ms (ratio %.2f); %s",
		 pours, ours / 1e6, p2k, ns2k / 1e6,
		 p2k && pours ? (ns2k / (double)p2k) / (ours / (double)pours) : 0, phost, host / 1e6,
		 phost && pours ? (host / (double)phost) / (ours / (double)pours) : 0, stats);
	snprintf(cname, sizeof(cname), "%s_per_process_preload_%d", name, tasks);
	struct bench_result r = {
		.bench = "fuse", .case_name = cname, .unit = "us/process",
		.value = ours / (double)(pours ? pours : 1) / 1000, .baseline = "kernel_proc_pidns_2000",
		.baseline_value = ns2k / (double)(p2k ? p2k : 1) / 1000, .note = note,
	};
	bench_report(o, &r);
}

int bench_fuse_preload(const struct bench_opts *o)
{
	static char *const ps[] = { "ps", "aux", NULL };
	static char *const top[] = { "top", "-b", "-n", "2", "-d", "0.1", NULL };
	const int sizes[] = { 2000, 100000 };

	if (geteuid() != 0 || access("/dev/fuse", R_OK | W_OK)) {
		fprintf(stderr, "bench fuse --transport preload: needs root and /dev/fuse; skipped\n");
		return 0;
	}
	for (size_t i = 0; i < (o->quick ? 1u : 2u); i++) {
		bench_progress(o, "fuse --transport preload: %d tasks", sizes[i]);
		tool_case(o, "ps_aux", ps, sizes[i]);
		tool_case(o, "top_b_n2", top, sizes[i]);
	}
	bench_progress(o, "%s", "");
	return 0;
}
