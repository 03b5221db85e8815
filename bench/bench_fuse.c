// SPDX-License-Identifier: MIT
/*
 * bench_fuse.c - `uprocfs bench fuse`: the served tree against the kernel's
 * /proc, in one run.
 *
 *   open_read_close_status/stat: one file through a uprocfs mount (served by
 *       this process's daemon threads) vs /proc/self, with the FUSE requests
 *       each costs;
 *   open_read_close_stat_reader_other_cpu: the same with the reader on
 *       another CPU than the daemon's threads, against both on one (each
 *       request then wakes a thread across CPUs: in a VM without halt
 *       polling, the most expensive part of a request);
 *   ps/top/htop_per_process_2k/100k: the tools over synthetic machines
 *       (uprocfs run) vs the real /proc with extra processes (bench_tools.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "spec.h"
#include "uprocfs/pfs_fuse.h"
#include "uprocfs/sim.h"

#define PS_SPEC "synth:tasks=2000,threads=200,seed=3"

struct file_job {
	char path[256];
	size_t iters;
	char buf[65536];
};

static void file_pass(void *arg)
{
	struct file_job *j = arg;

	for (size_t i = 0; i < j->iters; i++) {
		int fd = open(j->path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return;
		while (read(fd, j->buf, sizeof(j->buf)) > 0)
			;
		close(fd);
	}
}

static void *loop_thread(void *fs)
{
	pfs_fuse_loop(fs);
	return NULL;
}

/* One file through the mount and through /proc, with requests per open+read+close. */
static void files_case(const struct bench_opts *o, struct pfs_fuse *fs, const char *mnt, pid_t pid,
		       const char *file, int passes, size_t iters)
{
	struct file_job *ours = calloc(1, sizeof(*ours)), *kernel = calloc(1, sizeof(*kernel));
	struct pfs_fuse_stats a, b;
	double ours_ns, kernel_ns;
	char name[64], note[160];

	snprintf(ours->path, sizeof(ours->path), "%s/%d/%s", mnt, (int)pid, file);
	snprintf(kernel->path, sizeof(kernel->path), "/proc/self/%s", file);
	ours->iters = kernel->iters = iters;
	pfs_fuse_get_stats(fs, &a);
	bench_pair(file_pass, kernel, file_pass, ours, passes, &kernel_ns, &ours_ns);
	pfs_fuse_get_stats(fs, &b);
	double n = (double)(passes + 1) * (double)iters;
	snprintf(note, sizeof(note),
		 "requests per open+read+close: %.2f lookup, %.2f getattr, %.2f open, %.2f read, %.2f release",
		 (double)(b.lookup - a.lookup) / n, (double)(b.getattr - a.getattr) / n,
		 (double)(b.open - a.open) / n, (double)(b.read - a.read) / n,
		 (double)(b.release - a.release) / n);
	snprintf(name, sizeof(name), "open_read_close_%s", file);
	struct bench_result r = {
		.bench = "fuse", .case_name = name, .unit = "us/file",
		.value = ours_ns / (double)iters / 1000, .baseline = "kernel_proc",
		.baseline_value = kernel_ns / (double)iters / 1000, .note = note,
	};
	bench_report(o, &r);
	free(ours);
	free(kernel);
}

/* A file pass run by a thread of its own pinned to @cpu: the median of @passes, in ns. */
struct cpu_pass {
	struct file_job *job;
	int cpu, passes;
	double ns;
};

static void *pass_on_cpu(void *arg)
{
	struct cpu_pass *c = arg;
	double t[64];
	cpu_set_t one;
	int n = c->passes < 64 ? c->passes : 64;

	CPU_ZERO(&one);
	CPU_SET(c->cpu, &one);
	if (pthread_setaffinity_np(pthread_self(), sizeof(one), &one))
		return NULL;
	file_pass(c->job); /* warm */
	for (int i = 0; i < n; i++) {
		uint64_t t0 = bench_now_ns();

		file_pass(c->job);
		t[i] = (double)(bench_now_ns() - t0);
	}
	c->ns = bench_median(t, (size_t)n);
	return NULL;
}

static double timed_on_cpu(struct file_job *job, int cpu, int passes)
{
	struct cpu_pass c = { .job = job, .cpu = cpu, .passes = passes };
	pthread_t th;

	if (pthread_create(&th, NULL, pass_on_cpu, &c))
		return 0;
	pthread_join(th, NULL);
	return c.ns;
}

/* One file read on the daemon's CPU and on another, alternately. */
static void other_cpu_case(const struct bench_opts *o, const char *mnt, pid_t pid, int passes, size_t iters)
{
	struct file_job *job = calloc(1, sizeof(*job));
	/* the bench pinned itself, so its daemon threads, to @here (bench_pin_cpu) */
	int here = sched_getcpu(), there = here == 0 ? 1 : 0;
	double same[16], other[16], s, x;
	char note[200];
	int rounds = passes < 16 ? passes : 16;

	if (!job || here < 0 || sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		fprintf(stderr, "bench fuse: one CPU only; the other-CPU case skipped\n");
		free(job);
		return;
	}
	snprintf(job->path, sizeof(job->path), "%s/%d/stat", mnt, (int)pid);
	job->iters = iters;
	for (int r = 0; r < rounds; r++) {
		same[r] = timed_on_cpu(job, here, 3);
		other[r] = timed_on_cpu(job, there, 3);
	}
	s = bench_median(same, (size_t)rounds);
	x = bench_median(other, (size_t)rounds);
	if (s <= 0 || x <= 0) {
		fprintf(stderr, "bench fuse: CPU %d or %d cannot be used; the other-CPU case skipped\n", here, there);
		free(job);
		return;
	}
	snprintf(note, sizeof(note), "daemon threads on CPU %d; the reader on CPU %d vs on CPU %d", here, there, here);
	struct bench_result r = {
		.bench = "fuse", .case_name = "open_read_close_stat_reader_other_cpu", .unit = "us/file",
		.value = x / (double)iters / 1000, .baseline = "reader_same_cpu",
		.baseline_value = s / (double)iters / 1000, .note = note,
	};
	bench_report(o, &r);
	free(job);
}

/* lxcfs serving @dir (foreground, in a child), once its proc/uptime reads; 0 when it is not installed. */
static pid_t lxcfs_start(const char *dir)
{
	char path[300];
	pid_t pid;

	if (access("/usr/bin/lxcfs", X_OK))
		return 0;
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		dup2(null, 2);
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		execl("/usr/bin/lxcfs", "lxcfs", "-f", dir, (char *)NULL);
		_exit(127);
	}
	snprintf(path, sizeof(path), "%s/proc/uptime", dir);
	for (int i = 0; i < 100 && pid > 0; i++) {
		int fd = open(path, O_RDONLY);

		if (fd >= 0) {
			close(fd);
			return pid;
		}
		usleep(50000);
	}
	if (pid > 0) {
		kill(pid, SIGTERM);
		waitpid(pid, NULL, 0);
	}
	return 0;
}

static void lxcfs_stop(pid_t pid, const char *dir)
{
	if (!pid)
		return;
	kill(pid, SIGTERM);
	waitpid(pid, NULL, 0);
	umount2(dir, MNT_DETACH); /* in case it left its mount behind */
}

/* A machine-wide file both serve: through our mount, beside the kernel's and beside lxcfs's. */
static void lxcfs_case(const struct bench_opts *o, const char *mnt, const char *lxdir, const char *file,
		       int passes, size_t iters)
{
	struct file_job *ours = calloc(1, sizeof(*ours)), *lx = calloc(1, sizeof(*lx)),
			*kernel = calloc(1, sizeof(*kernel));
	double ours_ns, lx_ns, kernel_ns, ours2_ns;
	char name[64], note[160];

	snprintf(ours->path, sizeof(ours->path), "%s/%s", mnt, file);
	snprintf(lx->path, sizeof(lx->path), "%s/proc/%s", lxdir, file);
	snprintf(kernel->path, sizeof(kernel->path), "/proc/%s", file);
	ours->iters = lx->iters = kernel->iters = iters;
	bench_pair(file_pass, kernel, file_pass, ours, passes, &kernel_ns, &ours_ns);
	bench_pair(file_pass, lx, file_pass, ours, passes, &lx_ns, &ours2_ns);
	snprintf(note, sizeof(note), "kernel %.2f us; goal: at most the kernel's and 10x cheaper than lxcfs",
		 kernel_ns / (double)iters / 1000);
	snprintf(name, sizeof(name), "open_read_close_proc_%s", file);
	struct bench_result r = {
		.bench = "fuse", .case_name = name, .unit = "us/file",
		.value = ours_ns / (double)iters / 1000, .baseline = "kernel_proc",
		.baseline_value = kernel_ns / (double)iters / 1000, .note = note,
	};
	bench_report(o, &r);
	snprintf(name, sizeof(name), "open_read_close_proc_%s_vs_lxcfs", file);
	r = (struct bench_result){
		.bench = "fuse", .case_name = name, .unit = "us/file",
		.value = ours2_ns / (double)iters / 1000, .baseline = "lxcfs",
		.baseline_value = lx_ns / (double)iters / 1000, .note = note,
	};
	bench_report(o, &r);
	free(ours);
	free(lx);
	free(kernel);
}

/* Mount a synthetic machine in this process and time files through it. */
static int files_cases(const struct bench_opts *o)
{
	char mnt[] = "/tmp/uprocfs-bench-fuse.XXXXXX", err[512];
	struct pfs_fuse_opts fo = { .caller_proc_fd = -1, .mounted_fd = -1 };
	struct pfs_source *src = NULL;
	struct pfs_fuse *fs = NULL;
	struct mach_machine *m = NULL;
	pthread_t loop;
	pid_t pid = 0;
	int rc;

	if (!mkdtemp(mnt) || mach_from_spec("synth", &m, err, sizeof(err))) {
		fprintf(stderr, "bench fuse: %s\n", err);
		return 1;
	}
	for (size_t i = 0; i < m->nprocs && !pid; i++)
		if (m->procs[i].mm && m->procs[i].nthreads == 1)
			pid = m->procs[i].tgid;
	fo.mountpoint = mnt;
	err[0] = '\0';
	rc = pfs_model_source_new(m, NULL, &src);
	if (!rc)
		rc = pfs_fuse_create(&fs, src, &fo, err, sizeof(err));
	if (rc || pthread_create(&loop, NULL, loop_thread, fs)) {
		fprintf(stderr, "bench fuse: %s\n", rc ? err : "no thread");
		pfs_fuse_destroy(fs);
		pfs_source_free(src);
		rmdir(mnt);
		mach_free(m);
		return 1;
	}
	files_case(o, fs, mnt, pid, "status", o->quick ? 9 : 21, o->quick ? 200 : 1000);
	files_case(o, fs, mnt, pid, "stat", o->quick ? 9 : 21, o->quick ? 200 : 1000);
	other_cpu_case(o, mnt, pid, o->quick ? 5 : 11, o->quick ? 100 : 300);
	char lxdir[] = "/tmp/uprocfs-bench-lxcfs.XXXXXX";
	pid_t lx = mkdtemp(lxdir) ? lxcfs_start(lxdir) : 0;
	if (lx) {
		static const char *const both[] = { "uptime", "loadavg", "meminfo", "stat" };

		for (size_t i = 0; i < sizeof(both) / sizeof(both[0]); i++)
			lxcfs_case(o, mnt, lxdir, both[i], o->quick ? 9 : 21, o->quick ? 200 : 1000);
	} else {
		fprintf(stderr, "bench fuse: lxcfs not installed or not serving; its cases skipped\n");
	}
	lxcfs_stop(lx, lxdir);
	rmdir(lxdir);
	pfs_fuse_unmount(fs);
	pthread_join(loop, NULL);
	pfs_fuse_destroy(fs);
	pfs_source_free(src);
	rmdir(mnt);
	mach_free(m);
	return 0;
}

int bench_time_kill(const char *pid_arg, const char *count)
{
	pid_t pid = (pid_t)atoi(pid_arg);
	long n = atol(count);
	uint64_t t0;
	int fails = 0;

	if (!pid)
		pid = getpid();
	t0 = bench_now_ns();
	for (long i = 0; i < n; i++)
		fails += kill(pid, 0) != 0;
	printf("kill_ns=%.0f fails=%d\n", (double)(bench_now_ns() - t0) / (double)(n > 0 ? n : 1), fails);
	return 0;
}

/* Run @argv and read its "kill_ns=X": -1 when it failed. */
static double time_kill(char *const argv[])
{
	char buf[256] = "";
	double ns = -1;
	int out[2];
	pid_t pid;
	ssize_t n;

	if (pipe(out))
		return -1;
	pid = fork();
	if (pid == 0) {
		dup2(out[1], 1);
		close(out[0]);
		execv(argv[0], argv);
		_exit(127);
	}
	close(out[1]);
	n = read(out[0], buf, sizeof(buf) - 1);
	close(out[0]);
	waitpid(pid, NULL, 0);
	if (n > 0 && sscanf(buf, "kill_ns=%lf", &ns) != 1)
		ns = -1;
	return ns;
}

/*
 * What a supervised syscall costs: kill(pid, 0) of a synthetic task (the
 * supervisor answers), of the command's own process under the same filter
 * (the kernel answers, after the filter), and outside uprocfs.
 */
static void kill_case(const struct bench_opts *o)
{
	const char *iters = o->quick ? "2000" : "20000";
	char *synth_argv[] = { (char *)o->self_exe, "run", "--machine", PS_SPEC, "--", (char *)o->self_exe, "bench",
			       "--time-kill", "1", (char *)iters, NULL };
	char *own_argv[] = { (char *)o->self_exe, "run", "--machine", PS_SPEC, "--", (char *)o->self_exe, "bench",
			     "--time-kill", "0", (char *)iters, NULL };
	char *host_argv[] = { (char *)o->self_exe, "bench", "--time-kill", "0", (char *)iters, NULL };
	double synth = time_kill(synth_argv), own = time_kill(own_argv), host = time_kill(host_argv);
	char note[160];

	snprintf(note, sizeof(note), "goal < 50 us; kill(own pid, 0) under the filter %.0f ns, outside uprocfs %.0f ns",
		 own, host);
	struct bench_result r = {
		.bench = "fuse", .case_name = "kill0_synthetic", .unit = "ns/call", .value = synth,
		.baseline = "kill0_host", .baseline_value = host, .note = note,
	};
	bench_report(o, &r);
}

int bench_fuse(const struct bench_opts *o)
{
	if (geteuid() != 0 || access("/dev/fuse", R_OK | W_OK)) {
		fprintf(stderr, "bench fuse: needs root and /dev/fuse; skipped\n");
		return 0;
	}
	/* the files and kill(2) through the mount: not a transport of run's tools */
	if (!o->transport) {
		bench_progress(o, "fuse: files");
		if (files_cases(o))
			return 1;
	}
	bench_tools(o);
	if (!o->transport)
		kill_case(o);
	bench_progress(o, "%s", "");
	return 0;
}
