// SPDX-License-Identifier: MIT
/*
 * perm_diff.c - a differential test of permissions: for every file,
 * directory and symlink the table serves under /proc/<pid>, of processes
 * with mixed owners, dumpability and real/effective/saved ids, the outcome
 * of reading it as root and as an unprivileged user through a live uprocfs
 * mount must equal the outcome through the kernel's /proc: data, or the
 * same errno at the same step (open, read, readlink, opendir).
 *
 * TAP.  usage: perm_diff PATH-TO-uprocfs
 * Every process and mount this starts is ended by pid / unmounted on exit.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"
#include "uprocfs/procfs.h"

#define NOBODY 65534
#define OTHER 1000
#define MAX_TARGETS 32

struct target {
	const char *name;
	pid_t pid;
	bool ours;          /* started here: ended here */
	uid_t r, e, s;      /* ids to take (ours only) */
	gid_t gr, ge, gs;
	bool dumpable;
	bool set_ids;       /* started by start(): ids and dumpability as given */
};

static struct target targets[MAX_TARGETS];
static unsigned int ntargets;
static char mnt[64];
static pid_t daemon_pid;

static void cleanup(void)
{
	for (unsigned int i = 0; i < ntargets; i++)
		if (targets[i].ours && targets[i].pid > 0) {
			kill(targets[i].pid, SIGKILL);
			waitpid(targets[i].pid, NULL, 0);
			targets[i].pid = 0;
		}
	if (mnt[0]) {
		if (umount2(mnt, MNT_DETACH) && errno != EINVAL)
			fprintf(stderr, "perm_diff: unmount %s: %s\n", mnt, strerror(errno));
		rmdir(mnt);
		mnt[0] = '\0';
	}
	if (daemon_pid > 0) {
		kill(daemon_pid, SIGTERM);
		waitpid(daemon_pid, NULL, 0);
		daemon_pid = 0;
	}
}

static void on_signal(int sig)
{
	cleanup();
	signal(sig, SIG_DFL);
	raise(sig);
}

/* A process with the given ids and dumpability, asleep until killed. */
static void start(const char *name, uid_t r, uid_t e, uid_t s, gid_t gr, gid_t ge, gid_t gs, bool dumpable)
{
	struct target *t = &targets[ntargets++];
	int ready[2];
	char c;

	*t = (struct target){ .name = name, .ours = true, .r = r, .e = e, .s = s, .gr = gr, .ge = ge, .gs = gs,
			      .dumpable = dumpable, .set_ids = true };
	if (pipe(ready))
		return;
	t->pid = fork();
	if (t->pid == 0) {
		close(ready[0]);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (setgroups(0, NULL) || setresgid(gr, ge, gs) || setresuid(r, e, s) ||
		    prctl(PR_SET_DUMPABLE, dumpable ? 1 : 0))
			_exit(1);
		if (write(ready[1], "x", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(ready[1]);
	if (read(ready[0], &c, 1) != 1)
		t->pid = -1;
	close(ready[0]);
}

static void adopt(const char *name, pid_t pid)
{
	targets[ntargets++] = (struct target){ .name = name, .pid = pid };
}

/* "ok", or "STEP:ERRNO" for the step that failed with errno. */
static void result(char *out, size_t size, const char *failed_step)
{
	if (failed_step)
		snprintf(out, size, "%s:%s", failed_step, strerrorname_np(errno));
	else
		snprintf(out, size, "ok");
}

/* What reading @path gives: "ok", or the step and errno that stopped it. */
static void outcome(const char *path, enum pfs_kind kind, char *out, size_t size)
{
	char buf[65536];
	ssize_t n;
	int fd;

	if (kind == PFS_LINK) {
		n = readlink(path, buf, sizeof(buf));
		result(out, size, n < 0 ? "readlink" : NULL);
		return;
	}
	if (kind == PFS_DIR) {
		DIR *d = opendir(path);

		if (!d) {
			snprintf(out, size, "opendir:%s", strerrorname_np(errno));
			return;
		}
		errno = 0;
		while (readdir(d))
			;
		result(out, size, errno ? "readdir" : NULL);
		closedir(d);
		return;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		result(out, size, "open");
		return;
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		;
	result(out, size, n < 0 ? "read" : NULL);
	close(fd);
}

/*
 * A zombie of @uid: a parent (ours, ended at cleanup, taking its zombie
 * with it) that never reaps its exited child.  Both become targets: the
 * zombie's mount files fail with EINVAL, its ns/ links but pid and user
 * with ENOENT.
 */
static void start_zombie(const char *name, uid_t uid)
{
	struct target *parent = &targets[ntargets++], *z = &targets[ntargets++];
	int p[2];
	pid_t zpid = -1;

	*parent = (struct target){ .name = "a zombie's parent", .ours = true };
	*z = (struct target){ .name = name };
	if (pipe(p))
		return;
	parent->pid = fork();
	if (parent->pid == 0) {
		close(p[0]);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (uid && (setgroups(0, NULL) || setresgid(uid, uid, uid) || setresuid(uid, uid, uid)))
			_exit(1);
		zpid = fork();
		if (zpid == 0)
			_exit(0);
		if (write(p[1], &zpid, sizeof(zpid)) != sizeof(zpid))
			_exit(1);
		for (;;)
			pause();
	}
	close(p[1]);
	if (parent->pid > 0 && read(p[0], &zpid, sizeof(zpid)) == sizeof(zpid))
		z->pid = zpid;
	close(p[0]);
	/* settled once its state is Z */
	for (int i = 0; i < 200 && z->pid > 0; i++) {
		char path[64], buf[256];
		FILE *f;

		snprintf(path, sizeof(path), "/proc/%d/stat", (int)z->pid);
		f = fopen(path, "re");
		if (f && fgets(buf, sizeof(buf), f) && strstr(buf, ") Z ")) {
			fclose(f);
			break;
		}
		if (f)
			fclose(f);
		usleep(5000);
	}
}

/*
 * Every outcome for one reader, one line per (target, entry): "kernel
 * uprocfs".  The unprivileged reader runs in a child with nobody's ids.
 */
static char *outcomes(uid_t reader)
{
	int p[2];
	pid_t child;
	char *all = NULL;
	size_t len = 0;
	FILE *mem;

	if (pipe(p))
		return NULL;
	child = fork();
	if (child == 0) {
		FILE *w = fdopen(p[1], "w");

		close(p[0]);
		if (reader && (setgroups(0, NULL) || setresgid(reader, reader, reader) ||
			       setresuid(reader, reader, reader)))
			_exit(1);
		for (unsigned int t = 0; t < ntargets; t++) {
			for (size_t i = 0; i < pfs_nentries; i++) {
				const struct pfs_entry *e = &pfs_entries[i];
				char kpath[256], upath[256], k[64], u[64];

				if (!(e->scopes & PFS_IN(PFS_SCOPE_TGID)) || strchr(e->path, '*'))
					continue;
				snprintf(kpath, sizeof(kpath), "/proc/%d/%s", (int)targets[t].pid, e->path);
				snprintf(upath, sizeof(upath), "%s/%d/%s", mnt, (int)targets[t].pid, e->path);
				outcome(kpath, e->kind, k, sizeof(k));
				outcome(upath, e->kind, u, sizeof(u));
				fprintf(w, "%u %zu %s %s\n", t, i, k, u);
			}
		}
		fclose(w);
		_exit(0);
	}
	close(p[1]);
	mem = open_memstream(&all, &len);
	if (mem) {
		char buf[4096];
		ssize_t n;

		while ((n = read(p[0], buf, sizeof(buf))) > 0)
			fwrite(buf, 1, (size_t)n, mem);
		fclose(mem);
	}
	close(p[0]);
	waitpid(child, NULL, 0);
	return all;
}

/* Per target and reader (0: root, 1: nobody): outcomes that are data, refusals, and differences. */
static unsigned long tally[MAX_TARGETS][2][3];

/* Compare and count one reader's outcomes (@reader: 0 root, 1 nobody) into tally. */
static void compare(unsigned int reader, const char *reader_name, const char *lines)
{
	unsigned long same = 0, differ = 0, denied = 0;

	for (const char *l = lines; l && *l;) {
		unsigned int t;
		size_t i;
		char k[64], u[64];
		const char *eol = strchr(l, '\n');

		if (sscanf(l, "%u %zu %63s %63s", &t, &i, k, u) == 4 && t < ntargets && i < pfs_nentries) {
			if (!strcmp(k, u)) {
				same++;
				denied += strcmp(k, "ok") != 0;
				tally[t][reader][strcmp(k, "ok") != 0]++;
			} else {
				tally[t][reader][2]++;
				if (differ++ < 10)
					diag("%s reading %s's /proc/%d/%s: kernel %s, uprocfs %s", reader_name,
					     targets[t].name, (int)targets[t].pid, pfs_entries[i].path, k, u);
			}
		}
		l = eol ? eol + 1 : l + strlen(l);
	}
	ok(differ == 0 && same > 0, "as %s: %lu outcomes identical (%lu of them refusals), %lu differ", reader_name,
	   same, denied, differ);
}

/* The table of outcomes: one row per process, data/refused/differ per reader. */
static void print_table(void)
{
	diag("%-44s %7s %17s %5s  %-18s %-18s", "process", "pid", "uid r/e/s", "dump", "root: data/ref/diff",
	     "nobody: data/ref/diff");
	for (unsigned int t = 0; t < ntargets; t++) {
		const struct target *x = &targets[t];
		char ids[32] = "-";

		if (x->set_ids)
			snprintf(ids, sizeof(ids), "%u/%u/%u", (unsigned int)x->r, (unsigned int)x->e,
				 (unsigned int)x->s);
		diag("%-44s %7d %17s %5s  %5lu/%5lu/%5lu  %5lu/%5lu/%5lu", x->name, (int)x->pid, ids,
		     x->set_ids ? (x->dumpable ? "yes" : "no") : "-", tally[t][0][0], tally[t][0][1], tally[t][0][2],
		     tally[t][1][0], tally[t][1][1], tally[t][1][2]);
	}
}

int main(int argc, char **argv)
{
	char *root_lines, *user_lines;

	if (argc != 2)
		skip_all("usage: perm_diff PATH-TO-uprocfs");
	if (geteuid() != 0 || access("/dev/fuse", R_OK | W_OK))
		skip_all("needs root and /dev/fuse");
	atexit(cleanup);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);

	start("root", 0, 0, 0, 0, 0, 0, true);
	start("root, not dumpable", 0, 0, 0, 0, 0, 0, false);
	start("nobody", NOBODY, NOBODY, NOBODY, NOBODY, NOBODY, NOBODY, true);
	start("nobody, not dumpable", NOBODY, NOBODY, NOBODY, NOBODY, NOBODY, NOBODY, false);
	start("user 1000", OTHER, OTHER, OTHER, OTHER, OTHER, OTHER, true);
	start("setuid-style: real root, effective nobody", 0, NOBODY, 0, NOBODY, NOBODY, NOBODY, true);
	start("nobody with a saved root uid", NOBODY, NOBODY, 0, NOBODY, NOBODY, NOBODY, true);
	start("real nobody, effective root", NOBODY, 0, NOBODY, NOBODY, NOBODY, NOBODY, true);
	start("nobody with gid 0", NOBODY, NOBODY, NOBODY, 0, 0, 0, true);
	start("nobody with a saved gid 0", NOBODY, NOBODY, NOBODY, NOBODY, NOBODY, 0, true);
	start("effective gid root only", NOBODY, NOBODY, NOBODY, NOBODY, 0, NOBODY, true);
	start("user 1000, not dumpable", OTHER, OTHER, OTHER, OTHER, OTHER, OTHER, false);
	start("nobody as user 1000's group", NOBODY, NOBODY, NOBODY, OTHER, OTHER, OTHER, true);
	start("root with nobody's gids", 0, 0, 0, NOBODY, NOBODY, NOBODY, true);
	start("real 1000, effective nobody", OTHER, NOBODY, NOBODY, NOBODY, NOBODY, NOBODY, true);
	start("effective 1000, saved nobody", NOBODY, OTHER, NOBODY, NOBODY, NOBODY, NOBODY, true);
	start_zombie("a zombie of root", 0);
	start_zombie("a zombie of nobody", NOBODY);
	adopt("init", 1);
	adopt("kthreadd", 2);
	adopt("this test", getpid());
	adopt("the mounting shell's parent", getppid());
	for (unsigned int i = 0; i < ntargets; i++)
		if (targets[i].pid <= 0)
			skip_all("could not start %s", targets[i].name);

	snprintf(mnt, sizeof(mnt), "/tmp/uprocfs-perm.XXXXXX");
	if (!mkdtemp(mnt)) {
		mnt[0] = '\0';
		skip_all("a temporary directory: %s", strerror(errno));
	}
	daemon_pid = fork();
	if (daemon_pid == 0) {
		execl(argv[1], argv[1], "mount", "--machine", "live", "--allow-other", "--foreground", mnt,
		      (char *)NULL);
		_exit(127);
	}
	for (int i = 0; i < 100; i++) {
		char probe[96];

		snprintf(probe, sizeof(probe), "%s/loadavg", mnt);
		if (!access(probe, F_OK))
			break;
		usleep(50000);
	}
	root_lines = outcomes(0);
	user_lines = outcomes(NOBODY);
	compare(0, "root", root_lines);
	compare(1, "nobody", user_lines);
	print_table();
	free(root_lines);
	free(user_lines);
	diag("%u processes x every /proc/<pid> entry of the table, through /proc and through the live mount",
	     ntargets);
	return tap_done();
}
