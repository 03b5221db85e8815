/* SPDX-License-Identifier: MIT */
/*
 * bench.h - the benchmark harness behind `uprocfs bench`.
 *
 * Every case measures a candidate and its baseline side by side in one run,
 * alternating passes, and reports the median of each; the ratio is
 * baseline / candidate.  These VMs are noisy and their clock sometimes drops,
 * so only same-run ratios are meaningful.
 */
#ifndef UPROCFS_BENCH_H
#define UPROCFS_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "uprocfs/procfs.h"

struct bench_opts {
	int json;      /* one JSON object per line */
	int quick;     /* scale iteration counts so a run stays short */
	int callgrind; /* also count instructions under valgrind (where supported) */
	const char *plot; /* SVG output path, or NULL */
	const char *self_exe; /* path of the running uprocfs binary */
	const char *transport; /* bench fuse's tools over this transport of run only ("fuse", "preload"), or NULL: both */
};

struct bench_result {
	const char *bench;
	const char *case_name;
	const char *unit;
	double value;
	const char *baseline;     /* what the baseline is, or NULL */
	double baseline_value;
	const char *note;         /* extra free text for the table, or NULL */
	double kernel_ratio;      /* the ratio the kernel patch reported, or 0 */
	double cand_ir, base_ir;  /* callgrind instructions per op, or 0 */
};

/** Print one result as a JSON line or a table row. */
void bench_report(const struct bench_opts *o, const struct bench_result *r);

/** A temporary file for plot data (its name into @path), or NULL with a message naming @who. */
FILE *bench_plot_data(char path[32], const char *who);
/**
 * Draw o->plot (SVG, or PNG by its name) with gnuplot: the terminal and
 * output set, then @script with "%s" for the data file; the data removed.
 */
void bench_plot_draw(const struct bench_opts *o, const char *data, const char *who, const char *script);

/** Monotonic nanoseconds. */
uint64_t bench_now_ns(void);

/** Keep the compiler from deleting work whose result is @p. */
static inline void bench_escape(const void *p)
{
	__asm__ volatile("" : : "g"(p) : "memory");
}

/** A timed pass: run @fn(@arg) and return its nanoseconds. */
typedef void (*bench_fn)(void *arg);

/**
 * Run @base and @cand alternately for @passes passes each and store the median
 * nanoseconds per pass of each.
 */
void bench_pair(bench_fn base, void *base_arg, bench_fn cand, void *cand_arg,
		int passes, double *base_ns, double *cand_ns);

/** Median of @n doubles (reorders them). */
double bench_median(double *v, size_t n);

/** Pin the calling thread to one CPU so passes are comparable; best effort. */
void bench_pin_cpu(void);

/** Give the calling thread back the CPUs it had before bench_pin_cpu (a build the goal times on all cores). */
void bench_unpin_cpu(void);

/** Core clock estimate in GHz from a dependent-add loop (the VM sometimes slows). */
double bench_clock_ghz(void);

/** Progress on stderr for runs over two seconds; "" clears the line. */
void bench_progress(const struct bench_opts *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

struct bench_def {
	const char *name;
	const char *help;
	int (*run)(const struct bench_opts *o);
};

/** All benchmarks, NULL-terminated; `uprocfs bench NAME` picks from here. */
extern const struct bench_def bench_table[];

int bench_putters(const struct bench_opts *o);
int bench_psi(const struct bench_opts *o);
int bench_capture(const struct bench_opts *o);
/** `uprocfs bench scale`: the model and ps per process as the machine grows (bench_scale.c). */
int bench_scale(const struct bench_opts *o);
int bench_seeds(const struct bench_opts *o);
int bench_render(const struct bench_opts *o);

/* bench render's passes: a file rendered from a model, and the kernel's read, @iters times */
#define BENCH_RENDER_BUF (1u << 20)
struct bench_render_job {
	struct pfs_node f;
	struct pfs_ctx ctx;
	size_t iters, bytes;
	size_t cap;               /* the buffer's size; 0: BENCH_RENDER_BUF */
	char *buf;                /* BENCH_RENDER_BUF bytes */
};
struct bench_live_job {
	char path[96];
	size_t iters, bytes;
	char *buf;                /* BENCH_RENDER_BUF bytes */
	bool ok;
};
/** Open, read whole and close j->f through the seq_file protocol, j->iters times (a struct bench_render_job). */
void bench_render_pass(void *arg);
/** open, read and close j->path on the kernel's /proc, j->iters times (a struct bench_live_job). */
void bench_live_pass(void *arg);

struct mach_process;
/** bench render's case of /proc/<pid>/smaps with 1000 mappings, built from @typical's. */
void bench_render_smaps_1000(const struct bench_opts *o, const struct mach_process *typical);
/** bench render's cases of maps and smaps_rollup whose VMAs are made on demand, beside stored ones. */
void bench_render_vmas_made(const struct bench_opts *o);
int bench_fuse(const struct bench_opts *o);
int bench_psi_demo(const struct bench_opts *o);
/** /sys/devices/system/cpu of a 4096-CPU machine: its listing and `online` (goal: each under 1 ms). */
int bench_sys(const struct bench_opts *o);
/** `uprocfs bench --time-tool ps|top|htop N`: time N runs or refreshes; print the median and the processes. */
int bench_time_tool(const char *tool, const char *count);
/** `uprocfs bench --idle-procs N`: fork N sleeping processes, say "ready N" and sleep. */
int bench_idle_procs(const char *count);
/**
 * Run @argv (a `bench --time-tool`/`--time-cmd` child) and parse its
 * "tool_ns=X procs=Y"; with @stats, the line of its stderr starting at
 * @stats_line ("fuse requests:", "preload:").  0 or -1.
 */
int bench_run_timer(char *const argv[], double *ns, long *procs, const char *stats_line, char *stats,
		    size_t statslen);
/** bench fuse's tool cases: ps, top and htop per process at 2,000 and 100,000 tasks, beside the kernel. */
void bench_tools(const struct bench_opts *o);
/** `uprocfs bench --time-kill PID N`: kill(PID, 0) N times (0: this process); print the mean ns. */
int bench_time_kill(const char *pid, const char *count);
/**
 * `uprocfs bench --time-cmd N EXTRA CMD...`: start EXTRA sleeping children, run CMD N
 * times; print the median ns and the processes /proc lists.  @argv starts at N.
 */
int bench_time_cmd(int argc, char **argv);
/** The child side of `bench seeds --callgrind`: one case variant, counted reads. */
int bench_seeds_callgrind_child(const char *case_name, const char *variant, const char *count);

/** Entry point of `uprocfs bench [--json] [--quick] [NAME...]`. */
int bench_main(int argc, char **argv, const char *self_exe);

#endif
