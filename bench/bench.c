// SPDX-License-Identifier: MIT
/*
 * bench.c - harness for `uprocfs bench`: option parsing, side-by-side timing,
 * reporting.
 */
#include <getopt.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

const struct bench_def bench_table[] = {
	{ "putters", "number putters, seq_printf and the maps line prefix vs libc", bench_putters },
	{ "render", "each file rendered for a typical synthetic task vs the live kernel's", bench_render },
	{ "fuse", "the served tree vs the kernel's /proc: files, and ps, top and htop per process", bench_fuse },
	{ "psi_demo", "one load for 30 s on this machine and in the simulator (not in the default set)",
	  bench_psi_demo },
	{ "seeds", "the five kernel patches' before/after, on uprocfs and the live kernel", bench_seeds },
	{ "psi", "PSI task change cost by cgroup depth: one clock read vs one per level", bench_psi },
	{ "sys", "/sys/devices/system/cpu of a 4096-CPU machine: its listing and online list", bench_sys },
	{ "capture", "loading a 2,000-process capture archive (.tar.zst) vs the same tree in a directory",
	  bench_capture },
	{ "scale", "the model's bytes and build time per task up to a million tasks at 4096 CPUs, readdir of a "
	  "million pids, /proc/stat at 4096 CPUs, ps per process from 1,000 to 100,000 tasks (not in the default set)",
	  bench_scale },
	{ NULL, NULL, NULL },
};

uint64_t bench_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

double bench_median(double *v, size_t n)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void bench_pair(bench_fn base, void *base_arg, bench_fn cand, void *cand_arg,
		int passes, double *base_ns, double *cand_ns)
{
	double *b = calloc((size_t)passes, sizeof(double));
	double *c = calloc((size_t)passes, sizeof(double));

	if (!b || !c) {
		fprintf(stderr, "bench: out of memory\n");
		exit(1);
	}
	/* One untimed warm-up of each, then alternate so drift hits both alike. */
	base(base_arg);
	cand(cand_arg);
	for (int i = 0; i < passes; i++) {
		uint64_t t0 = bench_now_ns();
		base(base_arg);
		uint64_t t1 = bench_now_ns();
		cand(cand_arg);
		uint64_t t2 = bench_now_ns();
		b[i] = (double)(t1 - t0);
		c[i] = (double)(t2 - t1);
	}
	*base_ns = bench_median(b, (size_t)passes);
	*cand_ns = bench_median(c, (size_t)passes);
	free(b);
	free(c);
}

/* The CPUs the process was allowed before it pinned itself; none kept: nothing to give back. */
static cpu_set_t unpinned;
static bool unpinned_known;

void bench_pin_cpu(void)
{
	cpu_set_t set;
	int cpu = sched_getcpu();

	unpinned_known = !sched_getaffinity(0, sizeof(unpinned), &unpinned);
	CPU_ZERO(&set);
	CPU_SET(cpu < 0 ? 0 : cpu, &set);
	(void)sched_setaffinity(0, sizeof(set), &set);
}

void bench_unpin_cpu(void)
{
	if (unpinned_known)
		(void)sched_setaffinity(0, sizeof(unpinned), &unpinned);
}

double bench_clock_ghz(void)
{
	const unsigned long iters = 20000000ul;
	double best = 0;

	for (int r = 0; r < 3; r++) {
		unsigned long x = 0;
		uint64_t t0 = bench_now_ns();
		/* One dependent add per iteration: about one cycle each. */
		for (unsigned long i = 0; i < iters; i++)
			__asm__ volatile("add $1, %0" : "+r"(x));
		uint64_t t1 = bench_now_ns();
		double ghz = (double)iters / (double)(t1 - t0);
		if (ghz > best)
			best = ghz;
	}
	return best;
}

static uint64_t progress_start;

void bench_progress(const struct bench_opts *o, const char *fmt, ...)
{
	va_list ap;

	(void)o;
	if (!isatty(STDERR_FILENO))
		return; /* a log or a pipe: no carriage-return progress */
	if (!progress_start)
		progress_start = bench_now_ns();
	if (bench_now_ns() - progress_start < 2000000000ull && *fmt)
		return;
	fprintf(stderr, "\r\033[K");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fflush(stderr);
}

static void json_string(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			printf("\\u%04x", *s);
		else
			putchar(*s);
	}
	putchar('"');
}

void bench_report(const struct bench_opts *o, const struct bench_result *r)
{
	double ratio = r->baseline && r->value > 0 ? r->baseline_value / r->value : 0;

	if (o->json) {
		printf("{\"bench\":");
		json_string(r->bench);
		printf(",\"case\":");
		json_string(r->case_name);
		printf(",\"unit\":");
		json_string(r->unit);
		printf(",\"value\":%.4g", r->value);
		if (r->baseline) {
			printf(",\"baseline\":");
			json_string(r->baseline);
			printf(",\"baseline_value\":%.4g,\"ratio\":%.3g", r->baseline_value, ratio);
		}
		if (r->kernel_ratio > 0)
			printf(",\"kernel_ratio\":%.3g", r->kernel_ratio);
		if (r->cand_ir > 0)
			printf(",\"ir\":%.0f", r->cand_ir);
		if (r->base_ir > 0)
			printf(",\"baseline_ir\":%.0f", r->base_ir);
		if (r->note) {
			printf(",\"note\":");
			json_string(r->note);
		}
		printf("}\n");
	} else if (r->baseline) {
		char extra[160] = "";
		int n = 0;

		if (r->kernel_ratio > 0)
			n += snprintf(extra + n, sizeof(extra) - (size_t)n, "  (kernel x%.2f)", r->kernel_ratio);
		if (r->cand_ir > 0 && r->base_ir > 0)
			snprintf(extra + n, sizeof(extra) - (size_t)n, "  Ir %.0f vs %.0f (x%.1f)", r->cand_ir,
				 r->base_ir, r->base_ir / r->cand_ir);
		printf("%-10s %-28s %10.4g %-8s  %-22s %10.4g  x%.2f%s%s%s\n", r->bench, r->case_name,
		       r->value, r->unit, r->baseline, r->baseline_value, ratio, extra,
		       r->note ? "  " : "", r->note ? r->note : "");
	} else {
		printf("%-10s %-28s %10.4g %-8s%s%s\n", r->bench, r->case_name, r->value, r->unit,
		       r->note ? "  " : "", r->note ? r->note : "");
	}
	fflush(stdout);
}

static void bench_usage(FILE *f)
{
	fprintf(f, "usage: uprocfs bench [--json] [--quick] [--callgrind] [--plot FILE.svg]\n"
		   "                    [--transport fuse|fuse_direct|fuse_uring|preload] [NAME...]\n"
		   "\nBenchmarks (all when no NAME is given):\n");
	for (const struct bench_def *d = bench_table; d->name; d++)
		fprintf(f, "  %-10s %s\n", d->name, d->help);
	fprintf(f, "\n--transport fuse|fuse_direct|fuse_uring|preload: bench fuse's tools (ps, top, htop per\n"
		   "process) over that transport of `uprocfs run` only: the FUSE mount (with passthrough\n"
		   "where the kernel has it), the FUSE mount with every read a request (--no-passthrough),\n"
		   "the FUSE mount taking requests over io_uring (--io-uring; needs the fuse module's\n"
		   "enable_uring), or the in-process library of `run --preload` (default: all, each beside\n"
		   "the same kernel figure).\n");
	fprintf(f, "\nEach case runs its baseline and candidate alternately in one process and\n"
		   "reports medians and the ratio baseline/candidate.\n");
}

int bench_main(int argc, char **argv, const char *self_exe)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "quick", no_argument, NULL, 'q' },
		{ "callgrind", no_argument, NULL, 'c' },
		{ "plot", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ "transport", required_argument, NULL, 't' },
		{ NULL, 0, NULL, 0 },
	};
	struct bench_opts o = { .self_exe = self_exe };
	int c, status = 0;

	if (argc == 5 && !strcmp(argv[1], "--cg-case"))
		return bench_seeds_callgrind_child(argv[2], argv[3], argv[4]);
	if (argc == 3 && !strcmp(argv[1], "--idle-procs"))
		return bench_idle_procs(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "--time-tool"))
		return bench_time_tool(argv[2], argv[3]);
	if (argc >= 5 && !strcmp(argv[1], "--time-cmd"))
		return bench_time_cmd(argc - 2, argv + 2);
	if (argc == 4 && !strcmp(argv[1], "--time-kill"))
		return bench_time_kill(argv[2], argv[3]);
	optind = 1;
	while ((c = getopt_long(argc, argv, "jqcp:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'j': o.json = 1; break;
		case 'q': o.quick = 1; break;
		case 'c': o.callgrind = 1; break;
		case 'p': o.plot = optarg; break;
		case 't':
			if (strcmp(optarg, "fuse") && strcmp(optarg, "fuse_direct") && strcmp(optarg, "fuse_uring") &&
			    strcmp(optarg, "preload")) {
				bench_usage(stderr);
				return 2;
			}
			o.transport = optarg;
			break;
		case 'h': bench_usage(stdout); return 0;
		default: bench_usage(stderr); return 2;
		}
	}
	for (int i = optind; i < argc; i++) {
		const struct bench_def *d;
		for (d = bench_table; d->name && strcmp(d->name, argv[i]); d++)
			;
		if (!d->name) {
			fprintf(stderr, "uprocfs bench: unknown benchmark \"%s\" (try --help)\n", argv[i]);
			return 2;
		}
	}
	bench_pin_cpu();
	if (!o.json)
		printf("# core clock estimate: %.2f GHz (runs below ~3 GHz on this VM are throttled)\n",
		       bench_clock_ghz());
	for (const struct bench_def *d = bench_table; d->name; d++) {
		/* the demo runs 30 s of real load: only when asked for */
		int wanted = optind == argc && d->run != bench_psi_demo && d->run != bench_scale;
		for (int i = optind; i < argc; i++)
			wanted |= !strcmp(d->name, argv[i]);
		if (wanted && d->run(&o))
			status = 1;
	}
	return status;
}

FILE *bench_plot_data(char path[32], const char *who)
{
	int fd;
	FILE *f;

	snprintf(path, 32, "/tmp/uprocfs-plot-XXXXXX");
	fd = mkstemp(path);
	f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		fprintf(stderr, "bench %s: cannot write plot data\n", who);
		if (fd >= 0) {
			close(fd);
			unlink(path);
		}
	}
	return f;
}

void bench_plot_draw(const struct bench_opts *o, const char *data, const char *who, const char *script)
{
	size_t plen = strlen(o->plot);
	bool png = plen > 4 && !strcmp(o->plot + plen - 4, ".png");
	FILE *gp = popen("gnuplot", "w");

	if (!gp) {
		fprintf(stderr, "bench %s: gnuplot not found (Debian package gnuplot-nox)\n", who);
		unlink(data);
		return;
	}
	fprintf(gp, png ? "set terminal pngcairo size 900,480 font 'sans,10'\n"
			: "set terminal svg size 900,480 dynamic font 'sans,11'\n");
	fprintf(gp, "set output '%s'\n", o->plot);
	fprintf(gp, script, data);
	if (pclose(gp))
		fprintf(stderr, "bench %s: gnuplot failed\n", who);
	else if (!o->json)
		printf("# chart written to %s\n", o->plot);
	unlink(data);
}
