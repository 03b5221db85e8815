// SPDX-License-Identifier: MIT
/*
 * bench_scale.c - `uprocfs bench scale`: how the model and the served tree
 * grow with the machine.  For synthetic machines of 1,000 to 100,000 tasks
 * (each built in a child of its own, so one size's heap never counts in the
 * next): the resident bytes the model adds per task and its build time, and
 * (without --quick) those of the issue's own machine, a million tasks at
 * 4096 CPUs; a readdir of /proc at a million pids (--quick: the largest
 * size); /proc/stat at 4096 CPUs; and `ps
 * aux` through `uprocfs run`, per process, at each size (the cost curve).
 * Each figure is reported against its goal from issue 16 (1 KiB per task,
 * 2 s for a million tasks, 1 ms for /proc/stat, a flat ps curve).  --plot
 * draws the curves with gnuplot.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "spec.h"
#include "uprocfs/procfs.h"
#include "uprocfs/source.h"

#define MAX_SIZES 4

/* What one size measured; 0 where it was not. */
struct scale_point {
	long tasks;               /* processes asked for */
	long threads;             /* tasks the machine holds (its threads) */
	double bytes_per_task;    /* resident growth / threads */
	double build_ms;
	double ps_us;             /* ps aux through run (the FUSE mount), per process listed */
	double ps_preload_us;     /* the same through run --preload */
};

/* The resident size of this process, in bytes. */
static long resident_bytes(void)
{
	long pages = 0, size;
	FILE *f = fopen("/proc/self/statm", "r");

	if (!f)
		return -1;
	if (fscanf(f, "%ld %ld", &size, &pages) != 2)
		pages = -1;
	fclose(f);
	return pages < 0 ? -1 : pages * sysconf(_SC_PAGESIZE);
}

/* In a child: build machine @spec and write "bytes ms threads" to @fd. */
static void model_child(int fd, const char *spec)
{
	struct mach_machine *m;
	char err[256], line[128];
	long before = resident_bytes(), after;
	uint64_t t0;
	size_t threads = 0;
	int n;

	/* the goal is a build on all the machine's cores; the bench pinned itself to one */
	bench_unpin_cpu();
	t0 = bench_now_ns();
	if (mach_from_spec(spec, &m, err, sizeof(err))) {
		fprintf(stderr, "bench scale: %s\n", err);
		_exit(1);
	}
	t0 = bench_now_ns() - t0;
	after = resident_bytes();
	for (size_t i = 0; i < m->nprocs; i++)
		threads += m->procs[i].nthreads;
	n = snprintf(line, sizeof(line), "%ld %.3f %zu\n", after - before, (double)t0 / 1e6, threads);
	if (write(fd, line, (size_t)n) != n)
		_exit(1);
	_exit(0);
}

/* The model's bytes per task and build time of @spec (of @p->tasks processes), from a child; 0 or -1. */
static int measure_model(struct scale_point *p, const char *spec)
{
	char buf[128] = "";
	long bytes = 0;
	int fds[2], status;
	ssize_t got;
	pid_t pid;

	if (pipe(fds))
		return -1;
	pid = fork();
	if (pid == 0) {
		close(fds[0]);
		model_child(fds[1], spec);
	}
	close(fds[1]);
	got = pid > 0 ? read(fds[0], buf, sizeof(buf) - 1) : -1;
	close(fds[0]);
	if (pid > 0)
		waitpid(pid, &status, 0);
	if (got <= 0 || sscanf(buf, "%ld %lf %ld", &bytes, &p->build_ms, &p->threads) != 3 || p->threads <= 0)
		return -1;
	p->bytes_per_task = (double)bytes / (double)p->threads;
	return 0;
}

/* ps aux through `uprocfs run [--preload]` at @tasks: microseconds per process listed in *@us; 0 or -1. */
static int measure_ps(const struct bench_opts *o, long tasks, bool preload, double *us)
{
	char spec[96], runs[8];
	char *argv[] = { (char *)o->self_exe, "run", "--machine", spec, "--", (char *)o->self_exe, "bench",
			 "--time-tool", "ps", runs, NULL, NULL };
	double ns;
	long procs;

	if (preload) {
		/* the option before the others */
		memmove(argv + 3, argv + 2, 9 * sizeof(argv[0]));
		argv[2] = "--preload";
	}
	snprintf(spec, sizeof(spec), "synth:tasks=%ld,threads=%ld,seed=3", tasks, tasks / 10);
	snprintf(runs, sizeof(runs), "%d", tasks > 10000 ? 2 : 3);
	if (bench_run_timer(argv, &ns, &procs, NULL, NULL, 0) || procs <= 0)
		return -1;
	*us = ns / (double)procs / 1000;
	return 0;
}

/* A directory listing of /proc and /proc/stat of a 4096-CPU machine, rendered here. */
static void measure_render(const struct bench_opts *o, long tasks)
{
	struct mach_machine *m = NULL;
	struct pfs_source *src = NULL;
	struct pfs_node n;
	struct pfs_ctx c;
	char err[256] = "", spec[96], note[240];
	double t[15];
	size_t entries = 0;

	snprintf(spec, sizeof(spec), "synth:tasks=%ld,seed=3", tasks);
	bench_progress(o, "scale: readdir of /proc, %ld tasks", tasks);
	if (!mach_from_spec(spec, &m, err, sizeof(err)) && !pfs_resolve(m, "/proc", &n, &c, err, sizeof(err)) &&
	    !pfs_model_source_new(m, &(struct pfs_model_opts){ .reader_proc_fd = -1 }, &src)) {
		/* as FUSE's readdir lists the pids: in batches from a cursor, never all at once */
		struct pfs_reader rd = { .uid = 0 };
		pid_t ids[256];

		for (int i = 0; i < 15; i++) {
			uint64_t t0 = bench_now_ns();
			pid_t after = 0;
			size_t got;

			entries = 0;
			while ((got = src->ops->list_ids(src, &rd, &n, after, ids, 256)) > 0) {
				entries += got;
				after = ids[got - 1];
			}
			t[i] = (double)(bench_now_ns() - t0);
		}
		snprintf(note, sizeof(note), "%zu pids, in batches of 256 from a cursor as FUSE's readdir lists them "
			 "(%.0f ns per entry; a million at this rate: %.0f ms)", entries,
			 bench_median(t, 15) / (double)(entries ? entries : 1),
			 bench_median(t, 15) / (double)(entries ? entries : 1) * 1e6 / 1e6);
		struct bench_result r = { .bench = "scale", .case_name = "readdir_proc_pids", .unit = "ms",
					  .value = bench_median(t, 15) / 1e6, .note = note };
		bench_report(o, &r);
		pfs_source_free(src);
	} else {
		fprintf(stderr, "bench scale: %s\n", err);
	}
	mach_free(m);
	m = NULL;
	bench_progress(o, "scale: /proc/stat, 4096 CPUs");
	if (!mach_from_spec("synth:cpus=4096,tasks=200,seed=3", &m, err, sizeof(err)) &&
	    !pfs_resolve(m, "/proc/stat", &n, &c, err, sizeof(err))) {
		size_t len = 0;

		for (int i = 0; i < 15; i++) {
			char *text = NULL;
			uint64_t t0 = bench_now_ns();

			if (pfs_render(&n, &c, &text, &len))
				break;
			t[i] = (double)(bench_now_ns() - t0);
			free(text);
		}
		double ms = bench_median(t, 15) / 1e6;

		snprintf(note, sizeof(note), "%zu bytes; goal under 1 ms (%s)", len, ms < 1 ? "met" : "MISSED");
		struct bench_result r = { .bench = "scale", .case_name = "proc_stat_4096cpu", .unit = "ms",
					  .value = ms, .baseline = "goal", .baseline_value = 1, .note = note };
		bench_report(o, &r);
	} else {
		fprintf(stderr, "bench scale: %s\n", err);
	}
	mach_free(m);
}

static void plot(const struct bench_opts *o, const struct scale_point *pt, size_t n)
{
	char data[32];
	FILE *f = bench_plot_data(data, "scale");

	if (!f)
		return;
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%ld %.1f %.2f %.2f\n", pt[i].tasks, pt[i].bytes_per_task, pt[i].ps_us, pt[i].ps_preload_us);
	fclose(f);
	bench_plot_draw(o, data, "scale",
			"set title 'uprocfs at scale: model bytes per task, and ps aux per process through uprocfs run'\n"
			"set logscale x\nset xrange [500:200000]\nset yrange [0:*]\nset y2range [0:*]\n"
			"set xlabel 'tasks (processes)'\nset ylabel 'bytes per task'\n"
			"set y2label 'ps aux, µs per process'\nset ytics nomirror\nset y2tics\nset grid\nset key center right\n"
			"plot '%s' using 1:2 with linespoints title 'model bytes/task', 1024 with lines dt 2 "
			"title 'goal: 1 KiB/task', '' using 1:3 axes x1y2 with linespoints title 'ps aux µs/process (FUSE)', "
			"'' using 1:4 axes x1y2 with linespoints title 'ps aux µs/process (--preload)'\n");
}

/*
 * Goal 2's own machine, synth:tasks=1000000,cpus=4096 (2.3 GB, some 20 s
 * here): its bytes per task and build time measured, not extrapolated.
 */
static void measure_goal_machine(const struct bench_opts *o)
{
	struct scale_point p = { .tasks = 1000000 };
	char note[200];

	bench_progress(o, "scale: the model at 1,000,000 tasks and 4,096 CPUs");
	if (measure_model(&p, "synth:tasks=1000000,cpus=4096")) {
		fprintf(stderr, "bench scale: the model of 1,000,000 tasks at 4,096 CPUs failed\n");
		return;
	}
	snprintf(note, sizeof(note), "synth:tasks=1000000,cpus=4096, %ld threads; built in %.1f s (goal 2 s, %s); "
		 "goal 1 KiB per task (%s)", p.threads, p.build_ms / 1e3, p.build_ms <= 2000 ? "met" : "MISSED",
		 p.bytes_per_task <= 1024 ? "met" : "MISSED");
	struct bench_result r = { .bench = "scale", .case_name = "model_bytes_per_task_1m_4096cpu", .unit = "bytes/task",
				  .value = p.bytes_per_task, .baseline = "goal", .baseline_value = 1024, .note = note };
	bench_report(o, &r);
}

int bench_scale(const struct bench_opts *o)
{
	static const long sizes[MAX_SIZES] = { 1000, 10000, 100000 };
	struct scale_point pt[MAX_SIZES] = { 0 };
	size_t n = o->quick ? 2 : 3;
	char note[200], name[64];

	for (size_t i = 0; i < n; i++) {
		char spec[96];

		pt[i].tasks = sizes[i];
		snprintf(spec, sizeof(spec), "synth:tasks=%ld,threads=%ld,seed=3", sizes[i], sizes[i] / 10);
		bench_progress(o, "scale: the model at %ld tasks", sizes[i]);
		if (measure_model(&pt[i], spec)) {
			fprintf(stderr, "bench scale: the model of %ld tasks failed\n", sizes[i]);
			continue;
		}
		snprintf(name, sizeof(name), "model_bytes_per_task_%ldk", sizes[i] / 1000);
		snprintf(note, sizeof(note), "%ld threads; built in %.0f ms (a million at this rate: %.1f s, goal 2 s); "
			 "goal 1 KiB per task (%s)", pt[i].threads, pt[i].build_ms,
			 pt[i].build_ms * 1e6 / (double)pt[i].tasks / 1e3, pt[i].bytes_per_task <= 1024 ? "met" : "MISSED");
		struct bench_result r = { .bench = "scale", .case_name = name, .unit = "bytes/task",
					  .value = pt[i].bytes_per_task, .baseline = "goal", .baseline_value = 1024,
					  .note = note };
		bench_report(o, &r);
	}
	if (!o->quick)
		measure_goal_machine(o);
	/* the listing of a million pids itself, where the full run can afford the machine */
	measure_render(o, o->quick ? sizes[n - 1] : 1000000);
	for (int preload = 0; preload <= 1; preload++)
		for (size_t i = 0; i < n; i++) {
			double *us = preload ? &pt[i].ps_preload_us : &pt[i].ps_us, first;

			bench_progress(o, "scale: ps aux through run%s at %ld tasks", preload ? " --preload" : "", sizes[i]);
			if (measure_ps(o, sizes[i], preload, us)) {
				fprintf(stderr, "bench scale: ps aux at %ld tasks failed (root and FUSE needed)\n", sizes[i]);
				continue;
			}
			first = preload ? pt[0].ps_preload_us : pt[0].ps_us;
			snprintf(name, sizeof(name), "ps_per_process_%ldk%s", sizes[i] / 1000, preload ? "_preload" : "");
			snprintf(note, sizeof(note), "%s; %.2fx the cost at %ldk (goal: flat)",
				 preload ? "run --preload" : "run (FUSE)", first > 0 ? *us / first : 0, sizes[0] / 1000);
			struct bench_result r = { .bench = "scale", .case_name = name, .unit = "us/process",
						  .value = *us, .note = note };
			bench_report(o, &r);
		}
	if (o->plot)
		plot(o, pt, n);
	return 0;
}
