// SPDX-License-Identifier: MIT
/*
 * test_verify_live.c - `uprocfs verify` against this machine's kernel.
 *
 * Starts the hard cases (hardcases.c, hardcases_sys.c for the machine-wide
 * files, hardcases_net.c for /sys/class/net), then: verify of the whole live
 * /proc (kernel threads included) reports no difference, nor does verify
 * --sys of /sys, whose veth pair's files verify; verify of just those
 * processes compares every one of their files and skips none; a capture of
 * them verifies too; and a number whose text is altered without changing its
 * value (a leading zero, a wider pad) is reported as a difference, which
 * proves the output comes from typed values, not from the text read.
 *
 * usage: test_verify_live PATH-TO-uprocfs
 *        test_verify_live PATH-TO-uprocfs --capture DIR [PID...]
 *                 (write a golden tree of the hard cases and PIDs to DIR)
 */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hardcases.h"
#include "hardcases_net.h"
#include "hardcases_sys.h"
#include "tap.h"

static struct hardcases hc;
static struct hardcases_sys hcs; /* locks, a swap file, a partitioned loop device */
static struct hardcases_net hcn; /* a veth pair, one end up without a carrier, one down */
static const char *uprocfs;
static char capdir[64];

static void cleanup(void)
{
	char cmd[128];

	hardcases_stop(&hc);
	hardcases_sys_stop(&hcs);
	hardcases_net_stop(&hcn);
	if (capdir[0]) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", capdir);
		if (system(cmd))
			fprintf(stderr, "could not remove %s\n", capdir);
		capdir[0] = '\0';
	}
}

static void on_signal(int sig)
{
	cleanup();
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Run a command, return its output (malloc'd) and exit status. */
static char *run(const char *cmd, int *status)
{
	FILE *p = popen(cmd, "r");
	size_t cap = 1 << 16, len = 0;
	char *out = malloc(cap);

	if (!p || !out) {
		*status = -1;
		return out;
	}
	for (;;) {
		size_t n;
		if (len + 4096 > cap)
			out = realloc(out, cap *= 2);
		n = fread(out + len, 1, cap - len - 1, p);
		if (!n)
			break;
		len += n;
	}
	out[len] = '\0';
	*status = pclose(p);
	return out;
}

/* The summary line of verify's output, without its newline, for messages. */
static const char *summary_line(const char *out)
{
	static char line[160];
	const char *s = strstr(out, "verify: ");

	snprintf(line, sizeof(line), "%.*s", s ? (int)strcspn(s, "\n") : 10, s ? s : "no summary");
	return line;
}

static bool summary(const char *out, unsigned long *same, unsigned long *differ, unsigned long *skipped)
{
	const char *s = strstr(out, "verify: ");

	return s && sscanf(s, "verify: %lu files identical, %lu differ, %lu skipped", same, differ,
			   skipped) == 3;
}

/* Lines of @out that start with @prefix. */
static unsigned long count_lines(const char *out, const char *prefix)
{
	unsigned long n = 0;

	for (const char *l = out; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		n += !strncmp(l, prefix, strlen(prefix));
	return n;
}

/*
 * Skips of net/ files that kept changing while read: a hard case's network
 * namespace is the host's, whose counters move with any traffic on the
 * machine (other tests run beside this one), not with the hard case.
 */
static unsigned long count_net_moving(const char *out)
{
	unsigned long n = 0;

	for (const char *l = out; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		const char *end = strchr(l, '\n') ? strchr(l, '\n') : l + strlen(l), *net = strstr(l, "/net/");

		n += !strncmp(l, "skipped: ", 9) && net && net < end && strstr(l, "kept changing while read") &&
		     strstr(l, "kept changing while read") < end;
	}
	return n;
}

static void show_problems(const char *out)
{
	int shown = 0;

	for (const char *l = out; *l && shown < 12; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l)) {
		/* and skips, but not /proc/sys's keys that can never be compared */
		if (!strncmp(l, "differs:", 8) || !strncmp(l, "    ", 4) ||
		    (!strncmp(l, "skipped: ", 9) && strncmp(l, "skipped: sys/", 13))) {
			const char *e = strchr(l, '\n');
			diag("%.*s", (int)(e ? e - l : (long)strlen(l)), l);
			shown++;
		}
	}
}

static void test_whole_live(void)
{
	unsigned long same, differ, skipped;
	char cmd[512];
	int status;
	char *out;

	snprintf(cmd, sizeof(cmd), "%s verify 2>&1", uprocfs);
	out = run(cmd, &status);
	if (!ok(summary(out, &same, &differ, &skipped) && differ == 0 && same > 200 && status == 0,
		"verify of the whole live /proc: nothing differs (%s)", summary_line(out)))
		show_problems(out);
	free(out);
}

static void test_hard_cases(void)
{
	unsigned long same, differ, skipped;
	char cmd[1024], *p = cmd;
	int status;
	char *out = NULL;

	p += sprintf(p, "%s verify", uprocfs);
	for (unsigned int i = 0; i < hc.n; i++)
		p += sprintf(p, " %d", (int)hc.pids[i]);
	strcpy(p, " 2>&1");
	/*
	 * The whole live machine moves while a loaded 2-CPU host reads it (an
	 * mm's pages between two threads' smaps): a second verify, as a user
	 * would run it, before a skip counts.
	 */
	for (int attempt = 0; attempt < 2; attempt++) {
		if (attempt)
			free(out);
		out = run(cmd, &status);
		/* /proc/sys always has keys that cannot be compared: write-only, unset, a new UUID each read */
		skipped = 0;
		if (summary(out, &same, &differ, &skipped))
			skipped -= count_lines(out, "skipped: sys/") + count_net_moving(out);
		if (!skipped)
			break;
	}
	/* globals + 6 files per task, and per thread */
	if (!ok(summary(out, &same, &differ, &(unsigned long){ 0 }) && differ == 0 && skipped == 0 && status == 0 &&
		    same >= 10 + 12 * hc.n,
		"verify of the hard cases: every file identical, none skipped (%s)", summary_line(out)))
		show_problems(out);
	for (unsigned int i = 0; i < hc.n; i++)
		diag("  %-18s pid %d", hc.names[i], (int)hc.pids[i]);
	free(out);
}

/* Whether the live /proc/@name holds @what. */
static bool live_has(const char *name, const char *what)
{
	char path[64], buf[65536];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%s", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
	if (fd >= 0)
		close(fd);
	if (n < 0)
		return false;
	buf[n] = '\0';
	return strstr(buf, what) != NULL;
}

/*
 * The machine-wide hard cases are in the kernel's files, and verify loads
 * those files (a changing group is read again, never reported as differing).
 */
static void test_system_files(void)
{
	static const char *const files[] = { "locks", "swaps", "diskstats", "partitions", "zoneinfo",
					      "buddyinfo", "slabinfo", "meminfo" };
	char part[32], cmd[256], skipped_line[64];
	unsigned long same, differ, skipped;
	int status;
	char *out;

	snprintf(part, sizeof(part), "loop%dp2", hcs.loop);
	ok(live_has("locks", ": -> POSIX  ADVISORY  WRITE") && live_has("locks", ":  -> POSIX  ADVISORY  WRITE") &&
		   live_has("locks", "OFDLCK ADVISORY  READ -1 ") && live_has("locks", "LEASE  ACTIVE    READ") &&
		   live_has("locks", "FLOCK  ADVISORY  READ"),
	   "the kernel shows the locks: waiters at depth 1 and 2, OFD, lease, flock");
	if (!ok(live_has("swaps", "swap\\040file") && live_has("partitions", part) && live_has("diskstats", part),
		"the swap file (escaped name) and %s are there", part)) {
		out = run("cat /proc/swaps /proc/partitions", &status);
		diag("%s", out);
		free(out);
	}
	snprintf(cmd, sizeof(cmd), "%s verify 1 2>&1", uprocfs);
	out = run(cmd, &status);
	ok(summary(out, &same, &differ, &skipped) && differ == 0 && status == 0,
	   "verify with them: nothing differs (%s)", summary_line(out));
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(skipped_line, sizeof(skipped_line), "skipped: %s ", files[i]);
		if (strstr(out, skipped_line))
			diag("%s was skipped (it kept changing)", files[i]);
	}
	free(out);
}

/* The lines of @out starting "identical " and naming @what. */
static unsigned long count_identical(const char *out, const char *what)
{
	unsigned long n = 0;

	for (const char *l = out; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		const char *end = strchr(l, '\n') ? strchr(l, '\n') : l + strlen(l), *hit = strstr(l, what);

		n += !strncmp(l, "identical ", 10) && hit && hit < end;
	}
	return n;
}

/*
 * /sys beside /proc: nothing of it differs, and the veth pair's files are
 * among the identical ones (the up end's carrier 0 and lowerlayerdown, the
 * down end's attributes beside its refusals).
 */
static void test_sys_files(void)
{
	char cmd[256], want[96];
	unsigned long same, differ, skipped, up, down;
	int status;
	char *out;

	if (!hcn.up[0]) {
		ok(1, "# SKIP /sys: no veth pair (ip link add failed)");
		return;
	}
	snprintf(cmd, sizeof(cmd), "%s verify --sys --list 2>&1", uprocfs);
	out = run(cmd, &status);
	snprintf(want, sizeof(want), "/net/%s/", hcn.up);
	up = count_identical(out, want);
	snprintf(want, sizeof(want), "/net/%s/", hcn.down);
	down = count_identical(out, want);
	snprintf(want, sizeof(want), "identical /sys/devices/virtual/net/%s/carrier\n", hcn.up);
	if (!ok(summary(strstr(out, "verify: ") ? strstr(out, "verify: ") : out, &same, &differ, &skipped) &&
			!strstr(out, "\ndiffer ") && strstr(out, want) && up >= 50 && down >= 45 && status == 0,
		"verify --sys: nothing in /sys differs; the veth pair's files are identical (%lu and %lu, its up end's "
		"carrier without a link among them)", up, down)) {
		diag("%s", summary_line(out));
		for (const char *l = strstr(out, "\ndiffer "); l; l = strstr(l + 1, "\ndiffer "))
			diag("%.*s", (int)strcspn(l + 1, "\n"), l + 1);
	}
	free(out);
}

/* Replace the first @from in @path's text by @to. */
static int edit_file(const char *path, const char *from, const char *to)
{
	char buf[65536], *hit;
	ssize_t n;
	int fd = open(path, O_RDWR);

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	if (n <= 0) {
		close(fd);
		return -1;
	}
	buf[n] = '\0';
	hit = strstr(buf, from);
	if (!hit) {
		close(fd);
		return -1;
	}
	size_t head = (size_t)(hit - buf), flen = strlen(from), tlen = strlen(to);
	if (ftruncate(fd, 0) || lseek(fd, 0, SEEK_SET) || write(fd, buf, head) != (ssize_t)head ||
	    write(fd, to, tlen) != (ssize_t)tlen ||
	    write(fd, hit + flen, (size_t)n - head - flen) != (ssize_t)((size_t)n - head - flen)) {
		close(fd);
		return -1;
	}
	return close(fd);
}

static void test_captured_and_altered(void)
{
	unsigned long same, differ, skipped;
	char cmd[1024], *p = cmd, path[128];
	pid_t threads = hc.pids[2];
	int status;
	char *out;

	snprintf(capdir, sizeof(capdir), "/tmp/uprocfs-cap.XXXXXX");
	if (!mkdtemp(capdir)) {
		ok(0, "a temporary directory: %s", strerror(errno));
		capdir[0] = '\0';
		return;
	}
	p += sprintf(p, "%s capture", uprocfs);
	for (unsigned int i = 0; i < hc.n; i++)
		p += sprintf(p, " --pid %d", (int)hc.pids[i]);
	sprintf(p, " %s 2>&1", capdir);
	out = run(cmd, &status);
	ok(status == 0, "capture of the hard cases");
	free(out);

	snprintf(cmd, sizeof(cmd), "%s verify --proc %s 2>&1", uprocfs, capdir);
	out = run(cmd, &status);
	if (!ok(summary(out, &same, &differ, &skipped) && differ == 0 && status == 0 && same > 50,
		"verify of the captured tree"))
		show_problems(out);
	free(out);

	/*
	 * The same value, other text (a leading zero, a wider pad): the loader
	 * reads no text by value: the file is skipped, naming the file and
	 * line, and the rest of the tree still verifies (per-file loading).
	 */
	snprintf(path, sizeof(path), "%s/proc/%d/status", capdir, (int)threads);
	ok(!edit_file(path, "\nThreads:\t4\n", "\nThreads:\t04\n"), "alter Threads: to 04 in the captured status");
	snprintf(cmd, sizeof(cmd), "%s verify --proc %s 2>&1", uprocfs, capdir);
	out = run(cmd, &status);
	char want[96];
	snprintf(want, sizeof(want), "%d/status:", (int)threads);
	if (!ok(strstr(out, "skipped: ") && strstr(out, want) && strstr(out, "leading zero") &&
		strstr(out, " 0 differ") && WIFEXITED(status),
		"a leading zero in status is refused, naming the file and line"))
		diag("%s", out);
	free(out);
	ok(!edit_file(path, "\nThreads:\t04\n", "\nThreads:\t4\n"), "restore Threads:");
	snprintf(path, sizeof(path), "%s/proc/%d/statm", capdir, (int)threads);
	ok(!edit_file(path, " 0 ", "  0 "), "widen a space in the captured statm");
	snprintf(cmd, sizeof(cmd), "%s verify --proc %s 2>&1", uprocfs, capdir);
	out = run(cmd, &status);
	snprintf(want, sizeof(want), "%d/statm:1:", (int)threads);
	if (!ok(strstr(out, "skipped: ") && strstr(out, want) && strstr(out, " 0 differ") && WIFEXITED(status),
		"a wider pad in statm is refused, naming the file and line"))
		diag("%s", out);
	free(out);
}

int main(int argc, char **argv)
{
	int rc;

	plan(0);
	if (argc < 2)
		skip_all("usage: test_verify_live PATH-TO-uprocfs");
	uprocfs = argv[1];
	if (geteuid() != 0)
		skip_all("the hard cases need root (nobody with supplementary groups)");
	atexit(cleanup);
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	rc = hardcases_start(&hc);
	if (!ok(rc == 0, "start the hard cases"))
		return tap_done();
	rc = hardcases_sys_start(&hcs);
	if (!ok(rc == 0, "start the machine-wide hard cases (locks, swap file, partitioned loop device): %s",
		strerror(-rc)))
		return tap_done();
	if (argc >= 4 && !strcmp(argv[2], "--capture")) {
		char cmd[2048], *p = cmd;
		int status;
		char *out;

		p += sprintf(p, "%s capture", uprocfs);
		for (unsigned int i = 0; i < hc.n; i++)
			p += sprintf(p, " --pid %d", (int)hc.pids[i]);
		for (int i = 4; i < argc; i++)
			p += sprintf(p, " --pid %s", argv[i]);
		sprintf(p, " %s 2>&1", argv[3]);
		out = run(cmd, &status);
		ok(status == 0, "captured the hard cases to %s", argv[3]);
		diag("%s", out);
		free(out);
		cleanup();
		return tap_done();
	}
	if (hardcases_net_start(&hcn))
		diag("no veth pair: ip link add failed");
	test_whole_live();
	test_system_files();
	test_sys_files();
	test_hard_cases();
	test_captured_and_altered();
	cleanup();
	return tap_done();
}
