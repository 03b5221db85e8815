// SPDX-License-Identifier: MIT
/*
 * bench_tools.c - `uprocfs bench fuse`'s tool cases: `ps aux`, top's later
 * refreshes and htop's, per process listed, through `uprocfs run` over a
 * synthetic machine of 2,000 and 100,000 tasks, beside the same tool on the
 * kernel's /proc with as many extra processes (as many as pid_max leaves).
 * Each transport of `run` is timed against the same kernel figure: the
 * FUSE mount, and the in-process library of `run --preload`.
 *
 * The child `uprocfs bench --time-tool TOOL N` runs inside the /proc to be
 * timed and prints "tool_ns=X procs=Y".  A refresh of top or htop is timed
 * from the tool's output: the gap between two frames' output is the delay
 * it sleeps plus the next scan of /proc, so the gap less the delay is what
 * the scan cost (the first frame is left out: top's %CPU needs a second).
 */
#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

#define FRAME_DELAY_NS 100000000ull /* top -d 0.1, htop -d 1: a tenth of a second */
#define MAX_GAPS 64

/* Processes in this /proc: its numeric names. */
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

/* Start @argv with its stdout on a pipe; the read end goes in @fd.  The pid, or -1. */
static pid_t spawn_piped(char *const argv[], int *fd)
{
	int p[2];
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
	*fd = p[0];
	if (pid < 0)
		close(p[0]);
	return pid;
}

/* Wall time of one `ps aux` into a pipe we drain. */
static double time_ps_once(void)
{
	char *argv[] = { "ps", "aux", NULL };
	uint64_t t0 = bench_now_ns();
	char buf[65536];
	int fd;
	pid_t pid = spawn_piped(argv, &fd);

	if (pid < 0)
		return -1;
	while (read(fd, buf, sizeof(buf)) > 0)
		;
	close(fd);
	waitpid(pid, NULL, 0);
	return (double)(bench_now_ns() - t0);
}

/*
 * Read @fd until @pid's output ends, recording the quiet gaps longer than
 * @min_gap; after @want gaps, write "q" to @fd (htop's quit key) when
 * @quit.  Returns the number of gaps kept in @gaps.
 */
static int frame_gaps(int fd, bool quit, int want, uint64_t min_gap, double *gaps)
{
	uint64_t last = 0, deadline = bench_now_ns() + 600000000000ull;
	char buf[65536];
	int n = 0, seen = 0;

	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		int rc = poll(&pfd, 1, 1000);
		uint64_t now = bench_now_ns();

		if (now > deadline)
			break;
		if (rc == 0)
			continue;
		if (rc < 0 && errno == EINTR)
			continue;
		if (rc < 0 || read(fd, buf, sizeof(buf)) <= 0)
			break; /* a pty's master says EIO once the tool is gone */
		if (last && now - last > min_gap) {
			/* the first gap follows the first frame: top's second refresh */
			if (n < MAX_GAPS)
				gaps[n++] = (double)(now - last - FRAME_DELAY_NS);
			if (++seen >= want && quit && write(fd, "q", 1) != 1)
				break;
		}
		last = now;
	}
	return n;
}

/* top -b or htop, @frames refreshes after the first: the median scan in ns. */
static double time_frames(bool htop, int frames)
{
	double gaps[MAX_GAPS];
	char count[16];
	int fd, status, n;
	pid_t pid;

	snprintf(count, sizeof(count), "%d", frames + 1);
	if (htop) {
		struct winsize ws = { .ws_row = 60, .ws_col = 200 };

		pid = forkpty(&fd, NULL, NULL, &ws);
		if (pid == 0) {
			setenv("TERM", "xterm", 1);
			execlp("htop", "htop", "-d", "1", (char *)NULL);
			_exit(127);
		}
	} else {
		char *argv[] = { "top", "-b", "-d", "0.1", "-n", count, "-w", "200", NULL };

		pid = spawn_piped(argv, &fd);
	}
	if (pid < 0)
		return -1;
	/* a scan is never shorter than a tenth of the delay: shorter gaps are within a frame */
	n = frame_gaps(fd, htop, frames, FRAME_DELAY_NS * 9 / 10, gaps);
	close(fd);
	if (htop)
		kill(pid, SIGTERM);
	waitpid(pid, &status, 0);
	return n > 0 ? bench_median(gaps, (size_t)n) : -1;
}

/* Fork @n children that sleep until this process dies: how many started. */
static long start_sleepers(long n)
{
	long started = 0;

	for (; started < n; started++) {
		pid_t p = fork();

		if (p == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			for (;;)
				pause();
		}
		if (p < 0)
			break;
	}
	return started;
}

int bench_time_cmd(int argc, char **argv)
{
	int n = argc > 2 ? atoi(argv[0]) : 0, extra = argc > 2 ? atoi(argv[1]) : 0;
	double *t = calloc((size_t)(n > 0 ? n : 1), sizeof(double));

	if (!t || n <= 0) {
		free(t);
		return 2;
	}
	/* sleepers for a kernel /proc of a given size (the caller made a pid namespace) */
	start_sleepers(extra);
	for (int i = 0; i < n; i++) {
		char buf[65536];
		uint64_t t0 = bench_now_ns();
		int fd, st;
		pid_t pid = spawn_piped(argv + 2, &fd);

		if (pid < 0)
			break;
		while (read(fd, buf, sizeof(buf)) > 0)
			;
		close(fd);
		if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st)) {
			fprintf(stderr, "bench: %s failed\n", argv[2]);
			free(t);
			return 1;
		}
		t[i] = (double)(bench_now_ns() - t0);
	}
	printf("tool_ns=%.0f procs=%ld\n", bench_median(t, (size_t)n), count_procs());
	free(t);
	return 0;
}

int bench_time_tool(const char *tool, const char *count)
{
	int n = atoi(count) > 0 ? atoi(count) : 1;
	double ns = -1;

	if (!strcmp(tool, "ps")) {
		double *t = calloc((size_t)n, sizeof(double));

		if (!t)
			return 1;
		for (int i = 0; i < n; i++)
			t[i] = time_ps_once();
		ns = bench_median(t, (size_t)n);
		free(t);
	} else if (!strcmp(tool, "top") || !strcmp(tool, "htop")) {
		ns = time_frames(tool[0] == 'h', n);
	} else {
		fprintf(stderr, "bench --time-tool: ps, top or htop\n");
		return 2;
	}
	printf("tool_ns=%.0f procs=%ld\n", ns, count_procs());
	return ns < 0;
}

/* ------------------------------------------------------------------ */
/* the kernel's side: extra sleeping processes                         */

int bench_idle_procs(const char *count)
{
	/* a fresh small process: each fork copies few page tables */
	long started = start_sleepers(atol(count));

	printf("ready %ld\n", started);
	fflush(stdout);
	for (;;)
		pause();
}

struct extra_procs {
	pid_t spawner;
	long n;
};

/*
 * Start @want sleeping processes for the kernel's /proc to list, forked
 * by `uprocfs bench --idle-procs` in its own process group: a small
 * process, so thousands of them cost little more than their kernel stacks.
 */
static void extra_start(const struct bench_opts *o, struct extra_procs *x, long want)
{
	char count[24], line[64] = "";
	ssize_t got;
	int p[2];

	x->n = 0;
	x->spawner = 0;
	snprintf(count, sizeof(count), "%ld", want);
	if (pipe(p))
		return;
	x->spawner = fork();
	if (x->spawner == 0) {
		setpgid(0, 0);
		dup2(p[1], 1);
		close(p[0]);
		close(p[1]);
		execl(o->self_exe, o->self_exe, "bench", "--idle-procs", count, (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	got = read(p[0], line, sizeof(line) - 1);
	close(p[0]);
	if (got > 0)
		sscanf(line, "ready %ld", &x->n);
}

static void extra_stop(struct extra_procs *x)
{
	if (x->spawner <= 0)
		return;
	kill(-x->spawner, SIGKILL);
	kill(x->spawner, SIGKILL);
	waitpid(x->spawner, NULL, 0);
}

/* How many more processes pid_max leaves room for, keeping a margin for everyone else. */
static long pid_room(void)
{
	FILE *f = fopen("/proc/sys/kernel/pid_max", "r");
	long max = 32768, used = count_procs();

	if (f) {
		if (fscanf(f, "%ld", &max) != 1)
			max = 32768;
		fclose(f);
	}
	return max - used - 4000 > 0 ? max - used - 4000 : 0;
}

int bench_run_timer(char *const argv[], double *ns, long *procs, const char *stats_line, char *stats,
		    size_t statslen)
{
	char buf[4096] = "", ebuf[8192] = "";
	size_t have = 0, ehave = 0;
	int out[2], errp[2];
	ssize_t n;
	pid_t pid;

	if (pipe(out) || pipe(errp))
		return -1;
	pid = fork();
	if (pid == 0) {
		dup2(out[1], 1);
		dup2(errp[1], 2);
		close(out[0]);
		close(errp[0]);
		execv(argv[0], argv);
		_exit(127);
	}
	close(out[1]);
	close(errp[1]);
	while ((n = read(out[0], buf + have, sizeof(buf) - 1 - have)) > 0)
		have += (size_t)n;
	while ((n = read(errp[0], ebuf + ehave, sizeof(ebuf) - 1 - ehave)) > 0)
		ehave += (size_t)n;
	close(out[0]);
	close(errp[0]);
	waitpid(pid, NULL, 0);
	buf[have] = ebuf[ehave] = '\0';
	if (stats) {
		const char *s = strstr(ebuf, stats_line);
		char *nl;

		snprintf(stats, statslen, "%s", s ? s : "");
		if ((nl = strchr(stats, '\n')))
			*nl = '\0';
	}
	return sscanf(buf, "tool_ns=%lf procs=%ld", ns, procs) == 2 && *ns >= 0 ? 0 : -1;
}

/* Does the kernel offer FUSE over io_uring (the fuse module's parameter)? */
static bool uring_enabled(void)
{
	FILE *f = fopen("/sys/module/fuse/parameters/enable_uring", "r");
	int c = f ? fgetc(f) : EOF;

	if (f)
		fclose(f);
	return c == 'Y' || c == '1';
}

/* The transports of `uprocfs run` timed: its option, the stats line its daemon prints, the case's suffix. */
static const struct transport {
	const char *name, *option, *stats_line, *suffix;
} transports[] = {
	{ "fuse", NULL, "fuse requests:", "" },
	{ "fuse_direct", "--no-passthrough", "fuse requests:", "_direct" },
	{ "fuse_uring", "--io-uring", "fuse requests:", "_uring" },
	{ "preload", "--preload", "preload:", "_preload" },
};

/* One tool at one scale: on the kernel's /proc, then through `uprocfs run` over each transport asked for. */
static void tool_case(const struct bench_opts *o, const char *tool, long tasks, struct extra_procs *x)
{
	char spec[96], runs[8], stats[512], name[64], note[1024];
	char *kernel_argv[] = { (char *)o->self_exe, "bench", "--time-tool", (char *)tool, runs, NULL };
	double kernel_ns = 0;
	long kernel_procs = 0;

	snprintf(spec, sizeof(spec), "synth:tasks=%ld,threads=%ld,seed=3", tasks, tasks / 10);
	snprintf(runs, sizeof(runs), "%d", tasks > 10000 ? 2 : o->quick ? 3 : 7);
	if (bench_run_timer(kernel_argv, &kernel_ns, &kernel_procs, NULL, NULL, 0))
		kernel_ns = 0;
	for (size_t t = 0; t < sizeof(transports) / sizeof(transports[0]); t++) {
		const struct transport *tr = &transports[t];
		char *ours_argv[16];
		double ours_ns = 0;
		long ours_procs = 0;
		int k = 0;

		if (o->transport && strcmp(o->transport, tr->name))
			continue;
		if (!strcmp(tr->name, "fuse_uring") && !uring_enabled()) {
			fprintf(stderr, "bench fuse: %s over fuse_uring left out: the fuse module's enable_uring is off "
					"(echo 1 > /sys/module/fuse/parameters/enable_uring)\n", tool);
			continue;
		}
		ours_argv[k++] = (char *)o->self_exe;
		ours_argv[k++] = "run";
		if (tr->option)
			ours_argv[k++] = (char *)tr->option;
		ours_argv[k++] = "--machine";
		ours_argv[k++] = spec;
		ours_argv[k++] = "--";
		ours_argv[k++] = (char *)o->self_exe;
		ours_argv[k++] = "bench";
		ours_argv[k++] = "--time-tool";
		ours_argv[k++] = (char *)tool;
		ours_argv[k++] = runs;
		ours_argv[k] = NULL;
		stats[0] = '\0';
		setenv("UPROCFS_FUSE_STATS", "1", 1);
		if (bench_run_timer(ours_argv, &ours_ns, &ours_procs, tr->stats_line, stats, sizeof(stats))) {
			fprintf(stderr, "bench fuse: `uprocfs run %s -- %s` failed (root and FUSE needed)\n",
				tr->option ? tr->option : "", tool);
			unsetenv("UPROCFS_FUSE_STATS");
			continue;
		}
		unsetenv("UPROCFS_FUSE_STATS");
		snprintf(name, sizeof(name), "%s_per_process_%ldk%s", tool, tasks / 1000, tr->suffix);
		snprintf(note, sizeof(note),
			 "uprocfs (%s): %ld processes, %.1f ms per %s; kernel: %ld processes (%ld extra), %.1f ms; %s",
			 tr->name, ours_procs, ours_ns / 1e6, !strcmp(tool, "ps") ? "ps aux" : "refresh",
			 kernel_procs, x->n, kernel_ns / 1e6, stats);
		struct bench_result r = {
			.bench = "fuse", .case_name = name, .unit = "us/process",
			.value = ours_ns / (double)(ours_procs > 0 ? ours_procs : 1) / 1000,
			.baseline = "kernel_proc",
			.baseline_value = kernel_ns / (double)(kernel_procs > 0 ? kernel_procs : 1) / 1000,
			.note = note,
		};
		bench_report(o, &r);
	}
}

void bench_tools(const struct bench_opts *o)
{
	static const char *const tools[] = { "ps", "top", "htop" };
	/* --quick stays at 2,000: a 100,000-task machine takes minutes to serve once */
	static const long scales[] = { 2000, 100000 };
	struct extra_procs x;

	for (size_t s = 0; s < (o->quick ? 1u : 2u); s++) {
		long want = scales[s] < pid_room() ? scales[s] : pid_room();

		bench_progress(o, "fuse: tools at %ld tasks", scales[s]);
		extra_start(o, &x, want);
		for (size_t t = 0; t < sizeof(tools) / sizeof(tools[0]); t++)
			tool_case(o, tools[t], scales[s], &x);
		extra_stop(&x);
	}
}
