// SPDX-License-Identifier: MIT
/*
 * test_load_fds.c - the parsers of fd/, fdinfo/, cwd, root, exe, io,
 * limits and the one-number files, and the checks that tie them to status,
 * stat and meminfo.
 *
 * A sleeping child gives real status and stat texts (so the process builds);
 * the files under test are fixed texts in the kernel's formats, each loaded
 * beside them, rendered back, and compared byte for byte; texts the kernel
 * never prints, or files that contradict each other, must fail with a
 * message naming the file.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../src/util/readfile.h"
#include "tap.h"
#include "uprocfs/procfs.h"

static pid_t child;
static char *status_text, *stat_text, *meminfo_text;
static size_t status_len, stat_len, meminfo_len;

struct extra {
	const char *rel;   /* under <pid>/ */
	const char *text;
};

/* Load the child's status and stat and @n extra files; 0 or the first error (message in @err). */
static int load(const struct extra *x, size_t n, struct mach_machine **out, char *err, size_t errlen)
{
	struct mach_machine *m = mach_new();
	struct mach_loader *ld = m ? mach_loader_new(m) : NULL;
	char path[128];
	int rc;

	if (!ld)
		return -ENOMEM;
	rc = pfs_load_text(ld, "meminfo", meminfo_text, meminfo_len, err, errlen);
	snprintf(path, sizeof(path), "%d/status", (int)child);
	if (!rc)
		rc = pfs_load_text(ld, path, status_text, status_len, err, errlen);
	snprintf(path, sizeof(path), "%d/stat", (int)child);
	if (!rc)
		rc = pfs_load_text(ld, path, stat_text, stat_len, err, errlen);
	for (size_t i = 0; i < n && !rc; i++) {
		snprintf(path, sizeof(path), "%d/%s", (int)child, x[i].rel);
		rc = pfs_load_text(ld, path, x[i].text, strlen(x[i].text), err, errlen);
	}
	if (!rc)
		rc = mach_loader_finish(ld, err, errlen);
	mach_loader_free(ld);
	if (rc) {
		mach_free(m);
		return rc;
	}
	*out = m;
	return 0;
}

/* @x loads, and each file renders back to its text. */
static void roundtrip(const char *what, const struct extra *x, size_t n)
{
	struct mach_machine *m = NULL;
	char err[512], path[128];
	size_t same = 0;

	if (!ok(load(x, n, &m, err, sizeof(err)) == 0, "%s: loads", what)) {
		diag("%s", err);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		struct pfs_node node;
		struct pfs_ctx c;
		char *text = NULL;
		size_t len = 0;

		snprintf(path, sizeof(path), "%d/%s", (int)child, x[i].rel);
		if (!pfs_resolve(m, path, &node, &c, err, sizeof(err)) && !pfs_render(&node, &c, &text, &len) &&
		    len == strlen(x[i].text) && !memcmp(text, x[i].text, len))
			same++;
		else
			diag("%s renders as \"%.*s\"", path, text ? (int)len : 0, text ? text : "");
		free(text);
	}
	is_u64(same, n, "%s: every file renders back the same", what);
	mach_free(m);
}

/* @x does not load; the message names @needle. */
static void refused(const char *what, const struct extra *x, size_t n, const char *needle)
{
	struct mach_machine *m = NULL;
	char err[512] = "";
	int rc = load(x, n, &m, err, sizeof(err));

	if (!ok(rc != 0 && strstr(err, needle), "%s: refused (%s)", what, err))
		diag("wanted a message with \"%s\"", needle);
	mach_free(m);
}

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void test_links(void)
{
	static const struct extra ok_links[] = {
		{ "fd/0", "/dev/pts/3" }, { "fd/1", "pipe:[4421]" }, { "fd/2", "socket:[9]" },
		{ "fd/3", "anon_inode:inotify" }, { "fd/4", "net:[4026531840]" }, { "fd/5", "/tmp/x y (deleted)" },
		{ "fd/6", "/memfd:buf (deleted)" }, { "fd/7", "/with\nnewline" }, { "fd/8", "anon_inode:bpf-map" },
		{ "cwd", "/home/a b" }, { "root", "/" }, { "exe", "/usr/bin/sleep (deleted)" },
	};
	static const struct extra bad_link[] = { { "fd/0", "pipe:4421" } };
	static const struct extra bad_rel[] = { { "cwd", "home" } };

	roundtrip("links of every form", ok_links, N(ok_links));
	refused("a pipe without brackets", bad_link, 1, "fd/0");
	refused("a relative cwd", bad_rel, 1, "absolute path");
}

static void test_fdinfo(void)
{
	static const struct extra kinds[] = {
		{ "fd/3", "/tmp/data" },
		{ "fdinfo/3", "pos:\t7\nflags:\t02100000\nmnt_id:\t27\nino:\t11078369\n"
			      "lock:\t1: FLOCK  ADVISORY  WRITE 17450 fe:00:11078369 0 EOF\n"
			      "lock:\t2: POSIX  ADVISORY  WRITE 17450 fe:00:11078369 10 29\n"
			      "lock:\t3: OFDLCK ADVISORY  READ -1 fe:00:11078369 40 EOF\n" },
		{ "fd/4", "anon_inode:[eventfd]" },
		{ "fdinfo/4", "pos:\t0\nflags:\t02004002\nmnt_id:\t17\nino:\t1038\neventfd-count:                5\n"
			      "eventfd-id: 1\neventfd-semaphore: 0\n" },
		{ "fd/5", "anon_inode:[eventpoll]" },
		{ "fdinfo/5", "pos:\t0\nflags:\t02\nmnt_id:\t17\nino:\t1038\n"
			      "tfd:        4 events:       19 data: 1122334455667788  pos:0 ino:40e sdev:10\n"
			      "tfd:        6 events: 80002019 data:                6  pos:0 ino:a06a0 sdev:f\n" },
		{ "fd/6", "pipe:[657056]" },
		{ "fdinfo/6", "pos:\t0\nflags:\t04000\nmnt_id:\t16\nino:\t657056\n" },
		{ "fd/7", "anon_inode:inotify" },
		{ "fdinfo/7", "pos:\t0\nflags:\t04000\nmnt_id:\t17\nino:\t1038\n"
			      "inotify wd:2 ino:a90ae1 sdev:fe00000 mask:a ignored_mask:0 fhandle-bytes:8 "
			      "fhandle-type:1 f_handle:e10aa90085a7cc00\n"
			      "inotify wd:1 ino:a90a81 sdev:fe00000 mask:300 ignored_mask:0 \n" },
		{ "fd/8", "anon_inode:[fanotify]" },
		{ "fdinfo/8", "pos:\t0\nflags:\t02000002\nmnt_id:\t17\nino:\t1038\nfanotify flags:1 event-flags:8000\n"
			      "fanotify ino:a90a81 sdev:fe00000 mflags:0 mask:28 ignored_mask:0 fhandle-bytes:8 "
			      "fhandle-type:1 f_handle:810aa900f9bd07de\n"
			      "fanotify mnt_id:1b mflags:0 mask:20 ignored_mask:0\n"
			      "fanotify sdev:fe00000 mflags:0 mask:8 ignored_mask:0\n" },
		{ "fd/9", "anon_inode:[signalfd]" },
		{ "fdinfo/9", "pos:\t0\nflags:\t02000002\nmnt_id:\t17\nino:\t1038\nsigmask:\t0000000000000201\n" },
		{ "fd/10", "anon_inode:[timerfd]" },
		{ "fdinfo/10", "pos:\t0\nflags:\t04002\nmnt_id:\t17\nino:\t1038\nclockid: 1\nticks: 1\n"
			       "settime flags: 00\nit_value: (0, 0)\nit_interval: (0, 0)\n" },
		{ "fd/11", "anon_inode:[pidfd]" },
		{ "fdinfo/11", "pos:\t0\nflags:\t02000002\nmnt_id:\t4\nino:\t277079\nPid:\t-1\nNSpid:\t-1\n" },
		{ "fd/12", "socket:[657052]" },
		{ "fdinfo/12", "pos:\t0\nflags:\t02\nmnt_id:\t10\nino:\t657052\nscm_fds: 1\n" },
		{ "fd/13", "anon_inode:[userfaultfd]" },
		{ "fdinfo/13", "pos:\t0\nflags:\t02004000\nmnt_id:\t17\nino:\t657057\npending:\t0\ntotal:\t0\n"
			       "API:\taa:80000000:80000000000001ff\n" },
		{ "fd/14", "/dev/ptmx" },
		{ "fdinfo/14", "pos:\t0\nflags:\t0100002\nmnt_id:\t24\nino:\t91\ntty-index:\t0\n" },
		{ "fd/15", "/dev/fuse" },
		{ "fdinfo/15", "pos:\t0\nflags:\t02\nmnt_id:\t24\nino:\t229\nfuse_connection:\t42\n" },
		{ "fd/16", "anon_inode:[pidfd]" },
		{ "fdinfo/16", "pos:\t0\nflags:\t02000002\nmnt_id:\t4\nino:\t277080\nPid:\t300\nNSpid:\t300\t1\n" },
	};
	static const struct extra ino_differs[] = { { "fd/6", "pipe:[1]" },
						    { "fdinfo/6", "pos:\t0\nflags:\t00\nmnt_id:\t16\nino:\t2\n" } };
	static const struct extra kind_differs[] = {
		{ "fd/4", "anon_inode:[timerfd]" },
		{ "fdinfo/4", "pos:\t0\nflags:\t02\nmnt_id:\t17\nino:\t1038\neventfd-count:                5\n"
			      "eventfd-id: 1\neventfd-semaphore: 0\n" } };
	static const struct extra unknown[] = {
		{ "fdinfo/4", "pos:\t0\nflags:\t02\nmnt_id:\t17\nino:\t1038\nsq entries:\t128\n" } };
	static const struct extra too_high[] = { { "fd/5000", "/dev/null" } };
	static const struct extra lock_order[] = {
		{ "fdinfo/3", "pos:\t0\nflags:\t02\nmnt_id:\t27\nino:\t5\n"
			      "lock:\t2: FLOCK  ADVISORY  WRITE 1 fe:00:5 0 EOF\n" } };

	roundtrip("fdinfo of every kind of file, with locks", kinds, N(kinds));
	refused("a pipe whose link and fdinfo name other inodes", ino_differs, N(ino_differs), "the inode");
	refused("an eventfd's lines under a timerfd's link", kind_differs, N(kind_differs), "another kind");
	refused("lines of a file type not modelled", unknown, N(unknown), "models");
	refused("an fd beyond FDSize", too_high, N(too_high), "FDSize");
	refused("locks numbered out of order", lock_order, N(lock_order), "lock number");
}

static void test_small_files(void)
{
	static const struct extra files[] = {
		{ "io", "rchar: 18106\nwchar: 353\nsyscr: 27\nsyscw: 3\nread_bytes: 0\nwrite_bytes: 4096\n"
			"cancelled_write_bytes: 0\n" },
		{ "oom_score_adj", "500\n" }, { "oom_adj", "8\n" }, { "loginuid", "1000" }, { "sessionid", "3" },
		{ "personality", "00040000\n" }, { "timerslack_ns", "123456\n" }, { "autogroup", "/autogroup-17 nice 5\n" },
	};
	static const struct extra root_group[] = { { "autogroup", "" } };
	static const struct extra adj_differs[] = { { "oom_score_adj", "500\n" }, { "oom_adj", "9\n" } };
	static const struct extra score_differs[] = { { "oom_score_adj", "0\n" }, { "oom_score", "1999\n" } };
	static const struct extra skipped[] = { { "oom_score_adj", "0\n" }, { "oom_score", "0\n" } };
	static const struct extra bad_io[] = { { "io", "rchar: 1\nwchar: 2\n" } };

	roundtrip("io, oom_score_adj, oom_adj, loginuid, sessionid, personality, timerslack_ns, autogroup", files,
		  N(files));
	roundtrip("the root autogroup's empty file", root_group, 1);
	refused("oom_adj that oom_score_adj does not give", adj_differs, N(adj_differs), "oom_adj");
	refused("oom_score that the counters do not give", score_differs, N(score_differs), "oom_score");
	roundtrip("oom_score 0 for a task the OOM killer skips", skipped, N(skipped));
	refused("io cut short", bad_io, N(bad_io), "syscr");
}

/* limits must agree with stat's rsslim and status's SigQ limit, which are the child's own */
static void test_limits(void)
{
	char *limits;
	size_t len;
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/limits", (int)child);
	if (uf_read(AT_FDCWD, path, 0, 1 << 20, &limits, &len)) {
		ok(0, "read %s", path);
		return;
	}
	{
		const struct extra x[] = { { "limits", limits } };
		char *edited = strdup(limits), *at = strstr(edited, "Max pending signals       ");

		roundtrip("the child's limits", x, 1);
		if (at) {
			memcpy(at + 26, "1        ", 9); /* a SigQ limit other than status's */
			const struct extra y[] = { { "limits", edited } };

			refused("limits whose pending signals differ from status's SigQ", y, 1, "RLIMIT_SIGPENDING");
		}
		free(edited);
	}
	free(limits);
}

int main(void)
{
	char path[64];

	plan(0);
	child = fork();
	if (child == 0) {
		for (;;)
			pause();
	}
	usleep(100000);
	snprintf(path, sizeof(path), "/proc/%d/status", (int)child);
	if (uf_read(AT_FDCWD, path, 0, 1 << 20, &status_text, &status_len))
		skip_all("cannot read %s", path);
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)child);
	if (uf_read(AT_FDCWD, path, 0, 1 << 20, &stat_text, &stat_len))
		skip_all("cannot read %s", path);
	if (uf_read(AT_FDCWD, "/proc/meminfo", 0, 1 << 20, &meminfo_text, &meminfo_len))
		skip_all("cannot read /proc/meminfo");
	test_links();
	test_fdinfo();
	test_small_files();
	test_limits();
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	free(status_text);
	free(stat_text);
	free(meminfo_text);
	return tap_done();
}
