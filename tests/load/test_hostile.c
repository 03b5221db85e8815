// SPDX-License-Identifier: MIT
/*
 * test_hostile.c - trees and destinations somebody else prepared, through
 * the command line (issue 15's findings): a tree whose files or process
 * directories are symlinks, a FIFO where a file should be, a sparse file of
 * 1100 MB, a symlink planted as a capture destination.  Each is skipped or
 * refused with a message naming the file and why, never followed, waited on
 * or read whole; every run here ends within a time limit (a hang fails).
 *
 * TAP.  usage: test_hostile PATH-TO-uprocfs
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tap.h"

#define RUN_LIMIT_S 30

static const char *uprocfs;
static char tmp[64];

struct run {
	int status;        /* exit status, -1: killed (hang or signal) */
	long maxrss_kb;    /* the child's peak resident set (getrusage of wait4) */
	char out[1 << 20];  /* stdout and stderr together */
};

/* Run uprocfs with @argv (NULL-terminated, without the program), at most RUN_LIMIT_S seconds. */
static void run(struct run *r, const char *const *argv)
{
	char outp[128];
	const char *args[16] = { uprocfs };
	struct rusage ru = { 0 };
	pid_t pid, w = 0;
	int st = 0, fd;
	ssize_t n;

	for (int i = 0; argv[i] && i < 14; i++)
		args[i + 1] = argv[i];
	snprintf(outp, sizeof(outp), "%s/out", tmp);
	memset(r, 0, sizeof(*r));
	pid = fork();
	if (pid == 0) {
		fd = open(outp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		dup2(fd, 1);
		dup2(fd, 2);
		execv(uprocfs, (char *const *)args);
		_exit(127);
	}
	for (int t = 0; t < RUN_LIMIT_S * 20 && (w = wait4(pid, &st, WNOHANG, &ru)) == 0; t++)
		nanosleep(&(struct timespec){ .tv_nsec = 50000000 }, NULL);
	if (w == 0) {
		kill(pid, SIGKILL);
		wait4(pid, &st, 0, &ru);
		r->status = -1;
		snprintf(r->out, sizeof(r->out), "(killed after %d s: it hung)", RUN_LIMIT_S);
		return;
	}
	r->status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	r->maxrss_kb = ru.ru_maxrss;
	fd = open(outp, O_RDONLY);
	n = fd >= 0 ? read(fd, r->out, sizeof(r->out) - 1) : 0;
	r->out[n > 0 ? n : 0] = '\0';
	if (fd >= 0)
		close(fd);
}

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(p);
}

static void sh(const char *fmt, ...)
{
	char cmd[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	if (system(cmd))
		diag("command failed: %s", cmd);
}

/* A fresh copy of the rendered tree at @name (under tmp). */
static void fresh(const char *name)
{
	sh("rm -rf '%s/%s' && cp -a '%s/T' '%s/%s'", tmp, name, tmp, tmp, name);
}

static void show(const struct run *r)
{
	diag("status %d, peak %ld kB: %.600s", r->status, r->maxrss_kb, r->out);
}

int main(int argc, char **argv)
{
	char path[1024], tree[128], victim[128];
	const char *pid = "4"; /* a process of the rendered machine */
	static struct run r;
	struct stat st;

	if (argc != 2) {
		fprintf(stderr, "usage: test_hostile PATH-TO-uprocfs\n");
		return 2;
	}
	uprocfs = argv[1];
	snprintf(tmp, sizeof(tmp), "/tmp/uprocfs-hostile.XXXXXX");
	if (!mkdtemp(tmp))
		return 1;
	/* render writes proc/ and sys/: the hostile trees are /proc trees, T its proc/ */
	snprintf(tree, sizeof(tree), "%s/R", tmp);
	run(&r, (const char *const[]){ "render", "--tree", tree, "--machine", "synth:cpus=2,tasks=4,seed=3", NULL });
	if (!ok(r.status == 0, "a synthetic machine rendered as a tree"))
		show(&r);
	sh("mv '%s/R/proc' '%s/T' && rm -rf '%s/R'", tmp, tmp, tmp);

	/* a process directory that is a symlink to the live one: skipped, not followed */
	fresh("B");
	sh("rm -rf '%s/B/%s' && ln -s /proc/self '%s/B/%s'", tmp, pid, tmp, pid);
	snprintf(path, sizeof(path), "%s/B", tmp);
	run(&r, (const char *const[]){ "verify", "--proc", path, NULL });
	if (!ok(r.status == 0 && strstr(r.out, "4/task (a symlink (not followed))") && strstr(r.out, " 0 differ"),
		"a symlinked process directory: skipped with the reason, nothing read through it"))
		show(&r);

	/*
	 * a machine-wide file symlinked to the live one: skipped with the
	 * reason, and what renders from it skipped too (per-file loading), never
	 * rendered from a file the tree does not hold
	 */
	fresh("C");
	sh("rm '%s/C/meminfo' && ln -s /proc/meminfo '%s/C/meminfo'", tmp, tmp);
	snprintf(path, sizeof(path), "%s/C", tmp);
	run(&r, (const char *const[]){ "verify", "--proc", path, NULL });
	if (!ok(r.status == 0 && strstr(r.out, "skipped: meminfo (a symlink (not followed))") &&
		strstr(r.out, "oom_score (renders from a file the tree lacks or that was skipped)") && strstr(r.out, " 0 differ"),
		"a symlinked meminfo: skipped naming it, and no file rendered without it"))
		show(&r);
	sh("rm '%s/C/meminfo' && cp '%s/T/meminfo' '%s/C/meminfo' && rm '%s/C/locks' && ln -s /proc/locks '%s/C/locks'",
	   tmp, tmp, tmp, tmp, tmp);
	run(&r, (const char *const[]){ "verify", "--proc", path, NULL });
	if (!ok(r.status == 0 && strstr(r.out, "skipped: locks (a symlink (not followed))") && strstr(r.out, " 0 differ"),
		"a symlinked optional file (locks): skipped with the reason"))
		show(&r);

	/* the tree's own path may be a symlink: the user named it */
	snprintf(path, sizeof(path), "%s/L", tmp);
	(void)!symlink("T", path);
	run(&r, (const char *const[]){ "verify", "--quiet", "--proc", path, NULL });
	if (!ok(r.status == 0 && strstr(r.out, " 0 differ, 0 skipped"), "a tree reached through a symlink loads whole"))
		show(&r);

	/* FIFOs: never opened for reading (that would wait for a writer) */
	fresh("A");
	sh("rm '%s/A/stat' && mkfifo '%s/A/stat'", tmp, tmp);
	snprintf(path, sizeof(path), "%s/A", tmp);
	run(&r, (const char *const[]){ "verify", "--proc", path, NULL });
	if (!ok(r.status == 0 && strstr(r.out, "skipped: stat (not a regular file (FIFO, socket or device))") &&
		strstr(r.out, " 0 differ"),
		"a FIFO as /proc/stat: skipped at once, naming it"))
		show(&r);
	sh("cp '%s/T/stat' '%s/A/stat.new' && mv '%s/A/stat.new' '%s/A/stat' && rm '%s/A/%s/stat' && mkfifo '%s/A/%s/stat'",
	   tmp, tmp, tmp, tmp, tmp, pid, tmp, pid);
	run(&r, (const char *const[]){ "verify", "--proc", path, NULL });
	if (!ok(r.status == 0 && strstr(r.out, "skipped: 4/stat (not a regular file") && strstr(r.out, " 0 differ"),
		"a FIFO as a process's stat: skipped with the reason"))
		show(&r);

	/* a sparse 1100 MB file: refused by its size, before any of it is read */
	fresh("D");
	sh("truncate -s 1100M '%s/D/%s/cmdline'", tmp, pid);
	snprintf(path, sizeof(path), "%s/D", tmp);
	run(&r, (const char *const[]){ "verify", "--proc", path, NULL });
	if (!ok(r.status == 0 && strstr(r.out, "skipped: 4/cmdline (larger than the read limit of 256 MiB") &&
		r.maxrss_kb > 0 && r.maxrss_kb < 100 * 1024,
		"a 1100 MB cmdline: skipped naming the file and the limit, peak memory %ld kB (< 100 MB)", r.maxrss_kb))
		show(&r);

	/* a symlink planted as the capture destination: refused, its target untouched */
	snprintf(victim, sizeof(victim), "%s/victim", tmp);
	mkdir(victim, 0755);
	sh("echo keep > '%s/file'", victim);
	snprintf(path, sizeof(path), "%s/dest", tmp);
	(void)!symlink("victim", path);
	run(&r, (const char *const[]){ "capture", "--pid", "1", path, NULL });
	if (!ok(r.status == 1 && strstr(r.out, "dest: a symlink (not followed)"), "capture to a planted symlink: refused"))
		show(&r);
	run(&r, (const char *const[]){ "capture", "--force", "--pid", "1", path, NULL });
	if (!ok(r.status == 1 && strstr(r.out, "dest: a symlink (not followed)"),
		"capture --force to a planted symlink: refused too"))
		show(&r);
	snprintf(path, sizeof(path), "test \"$(ls '%s')\" = file && grep -qx keep '%s/file'", victim, victim);
	ok(system(path) == 0, "the link's target holds what it held, nothing more");
	/* inside a destination replaced with --force: its links are removed, not followed */
	snprintf(path, sizeof(path), "%s/dest2", tmp);
	mkdir(path, 0755);
	sh("ln -s ../victim/file '%s/stat' && ln -s ../victim '%s/1'", path, path);
	run(&r, (const char *const[]){ "capture", "--force", "--pid", "1", path, NULL });
	if (!ok(r.status == 0, "capture --force over a directory holding planted links"))
		show(&r);
	snprintf(path, sizeof(path), "%s/victim/file", tmp);
	ok(!lstat(path, &st) && S_ISREG(st.st_mode) && st.st_size == 5, "the links' targets are untouched");

	nftw(tmp, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return tap_done();
}
