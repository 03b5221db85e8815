// SPDX-License-Identifier: MIT
/*
 * sysfs_checks_cg.c - a synthetic machine's cgroup v2 tree against its
 * /proc and against itself: cgroup.procs lists each process once, in the
 * group its /proc/<pid>/cgroup names, in pid order; pids.current counts
 * the threads /proc/<pid>/status says are in and below the group; a
 * parent's memory and I/O hold its children's; cpu.stat's usage is user +
 * system (to the µs each is cut to), at least the children's and the tasks' own /proc/<pid>/stat
 * time; the root's pressure is /proc/pressure's and its io.stat the
 * disks' counters.  And on a simulated machine, each group's pressure
 * files are what the simulator's PSI group for it prints at that time.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine/sim_testing.h"
#include "../psi/psi_text.h"
#include "spec.h"
#include "sysfs_checks.h"
#include "tap.h"
#include "uprocfs/mach_sysfs.h"

/* Group @g's directory: /sys/fs/cgroup (and /unified on a hybrid machine), then its path. */
static void cg_dir(const struct mach_machine *m, uint32_t g, char *buf, size_t size)
{
	char rel[2048] = "";

	mach_cg_path(m, g, rel, sizeof(rel));
	snprintf(buf, size, "/sys/fs/cgroup%s%s%s", mach_cg_hybrid(m) ? "/unified" : "", *rel ? "/" : "", rel);
}

/* The group /proc/<pid>/cgroup's "0::" line names, as a path below the v2 root ("" for it), or NULL. */
static char *proc_cgroup(const struct mach_machine *m, pid_t pid)
{
	char *t = file(m, "/proc/%d/cgroup", (int)pid), *line, *out = NULL;

	line = t ? (strncmp(t, "0::", 3) ? strstr(t, "\n0::") : t - 1) : NULL;
	if (line) {
		line += 4;
		out = strndup(line + (*line == '/'), strcspn(line + (*line == '/'), "\n"));
	}
	free(t);
	return out;
}

/* Whether group @g is @anc or below it, by their paths. */
static bool under(const char *g, const char *anc)
{
	size_t n = strlen(anc);

	return !n || (!strncmp(g, anc, n) && (!g[n] || g[n] == '/'));
}

/* cgroup.procs of @g: each pid once, ascending, and each /proc/<pid>/cgroup names @g. */
static unsigned int check_procs(const struct mach_machine *m, uint32_t g, const char *dir, const char *rel)
{
	char *t = file(m, "%s/cgroup.procs", dir);
	long prev = 0;
	unsigned int n = 0;

	check(P_PROCS, t != NULL, "%s/cgroup.procs is missing", dir);
	for (char *p = t; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		long pid = strtol(p, NULL, 10);
		char *named = proc_cgroup(m, (pid_t)pid);

		check(P_PROCS, pid > prev, "%s/cgroup.procs: %ld after %ld", dir, pid, prev);
		check(P_PROCS, named && !strcmp(named, rel), "%ld is in %s's cgroup.procs, /proc/%ld/cgroup says /%s", pid,
		      dir, pid, named ? named : "(nothing)");
		prev = pid;
		n++;
		free(named);
	}
	(void)g;
	free(t);
	return n;
}

/* The threads of the processes in and below @rel, by /proc (Threads: of their status). */
static uint64_t threads_below(const struct mach_machine *m, const char *rel)
{
	uint64_t n = 0;

	for (size_t i = 0; i < m->nprocs; i++) {
		char *named = proc_cgroup(m, m->procs[i].tgid);

		if (named && under(named, rel)) {
			char *st = file(m, "/proc/%d/status", (int)m->procs[i].tgid), *th = st ? strstr(st, "\nThreads:") : NULL;

			n += th ? strtoull(th + 9, NULL, 10) : 0;
			free(st);
		}
		free(named);
	}
	return n;
}

/* The user and system time (µs) of the processes in and below @rel, by their /proc/<pid>/stat (ticks of 10 ms). */
static uint64_t stat_time_below(const struct mach_machine *m, const char *rel)
{
	uint64_t us = 0;

	for (size_t i = 0; i < m->nprocs; i++) {
		char *named = proc_cgroup(m, m->procs[i].tgid), *st;
		const char *p;

		if (!named || !under(named, rel)) {
			free(named);
			continue;
		}
		st = file(m, "/proc/%d/stat", (int)m->procs[i].tgid);
		p = st ? strrchr(st, ')') : NULL;
		for (int f = 3; p && f <= 14; f++) /* the space before field f */
			p = strchr(p + 1, ' ');
		if (p)
			us += (strtoull(p + 1, (char **)&p, 10) + strtoull(p, NULL, 10)) * 10000;
		free(st);
		free(named);
	}
	return us;
}

/* The value after "@key=" in @text's first line with @dev ("8:0 "), or 0. */
static uint64_t io_key(const char *text, const char *dev, const char *key)
{
	char k[32];
	size_t dl = strlen(dev);

	snprintf(k, sizeof(k), " %s=", key);
	for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, dev, dl)) {
			const char *v = strstr(p, k), *eol = strchr(p, '\n');

			return v && (!eol || v < eol) ? strtoull(v + strlen(k), NULL, 10) : 0;
		}
	return 0;
}

/* A parent's counters hold its children's: memory.current, memory.stat's anon and file, cpu usage, io bytes. */
static void check_sums(const struct mach_machine *m, uint32_t g, const char *dir)
{
	uint64_t cur = 0, anon = 0, fil = 0, usage = 0;
	char *ps = file(m, "%s/memory.stat", dir), *pc = file(m, "%s/cpu.stat", dir), *pio = file(m, "%s/io.stat", dir);

	for (uint32_t k = 0; k < m->ncgroups; k++) {
		char kd[2300], *s;

		if (m->cgroups[k].parent != g || m->cgroups[k].dead)
			continue;
		cg_dir(m, k, kd, sizeof(kd));
		cur += number(m, "%s/memory.current", kd);
		s = file(m, "%s/memory.stat", kd);
		anon += keyed(s, "anon");
		fil += keyed(s, "file");
		free(s);
		s = file(m, "%s/cpu.stat", kd);
		usage += keyed(s, "usage_usec");
		free(s);
		s = file(m, "%s/io.stat", kd);
		for (const char *p = s; p && *p && pio; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
			char dev[32];

			snprintf(dev, sizeof(dev), "%.*s ", (int)strcspn(p, " \n"), p);
			check(P_IO, io_key(pio, dev, "rbytes") >= io_key(s, dev, "rbytes") &&
				    io_key(pio, dev, "wbytes") >= io_key(s, dev, "wbytes"),
			      "%s io.stat %sholds less than %s's", dir, dev, kd);
		}
		free(s);
	}
	if (ps)
		check(P_MEM, (m->cgroups[g].parent == MACH_NONE || number(m, "%s/memory.current", dir) >= cur) &&
				     keyed(ps, "anon") >= anon && keyed(ps, "file") >= fil,
		      "%s: memory.current/anon/file below its children's (%" PRIu64 "/%" PRIu64 "/%" PRIu64 ")", dir, cur,
		      anon, fil);
	/* user and system split the same nanoseconds (cputime_adjust), each cut to µs: usage is their sum or 1 more */
	uint64_t us = keyed(pc, "usage_usec"), split = keyed(pc, "user_usec") + keyed(pc, "system_usec");

	check(P_CPU, pc && us - split <= 1 && us >= usage,
	      "%s: cpu.stat usage %" PRIu64 " is not user + system (%" PRIu64 "), or below its children's %" PRIu64, dir,
	      us, split, usage);
	free(ps);
	free(pc);
	free(pio);
}

/* The root: pressure is /proc/pressure's, io.stat each disk's counters. */
static void check_root(const struct mach_machine *m, const char *dir)
{
	static const char *const res[] = { "cpu", "io", "memory" };
	char *io = file(m, "%s/io.stat", dir);

	for (int r = 0; r < 3; r++) {
		char *a = file(m, "/proc/pressure/%s", res[r]), *b = file(m, "%s/%s.pressure", dir, res[r]);

		check(P_PSI, (!a && !b) || (a && b && !strcmp(a, b)), "%s.pressure is not /proc/pressure/%s", res[r], res[r]);
		free(a);
		free(b);
	}
	for (size_t i = 0; io && i < m->sys.nblk; i++) {
		const struct mach_blkdev *b = &m->sys.blk[i];
		char dev[32];

		if (b->partno)
			continue;
		snprintf(dev, sizeof(dev), "%u:%u ", b->major, b->minor);
		if (!strstr(io, dev))
			continue;
		check(P_IO, io_key(io, dev, "rbytes") == b->st.sectors[MACH_BLK_READ] * 512 &&
				    io_key(io, dev, "rios") == b->st.ios[MACH_BLK_READ],
		      "root io.stat %s: rbytes %" PRIu64 " rios %" PRIu64 ", the disk's %" PRIu64 " %" PRIu64, dev,
		      io_key(io, dev, "rbytes"), io_key(io, dev, "rios"), b->st.sectors[MACH_BLK_READ] * 512,
		      b->st.ios[MACH_BLK_READ]);
	}
	free(io);
}

void check_cgroups(const struct mach_machine *m)
{
	uint32_t top = mach_cg_v2_top(m);
	unsigned int listed = 0, named = 0;

	if (top == MACH_NONE)
		return;
	for (uint32_t g = 0; g < m->ncgroups; g++) {
		char dir[2300], rel[2048] = "";
		char *pids;

		if (m->cgroups[g].dead || !mach_cg_under(m, g, top))
			continue;
		cg_dir(m, g, dir, sizeof(dir));
		mach_cg_path(m, g, rel, sizeof(rel));
		listed += check_procs(m, g, dir, rel);
		if ((pids = file(m, "%s/pids.current", dir)))
			check(P_PIDS, strtoull(pids, NULL, 10) == threads_below(m, rel), "%s/pids.current %s, /proc says %" PRIu64,
			      dir, pids, threads_below(m, rel));
		free(pids);
		check_sums(m, g, dir);
		if (g != top) {
			char *pc = file(m, "%s/cpu.stat", dir);

			check(P_CPU, keyed(pc, "usage_usec") >= stat_time_below(m, rel),
			      "%s: cpu.stat usage %" PRIu64 "us below its tasks' /proc/<pid>/stat %" PRIu64 "us", dir,
			      keyed(pc, "usage_usec"), stat_time_below(m, rel));
			free(pc);
		} else {
			check_root(m, dir);
		}
	}
	for (size_t i = 0; i < m->nprocs; i++) {
		char *c = proc_cgroup(m, m->procs[i].tgid);

		named += c != NULL && m->procs[i].threads[0].state != MACH_TASK_ZOMBIE;
		free(c);
	}
	check(P_PROCS, listed >= named, "cgroup.procs files list %u processes, /proc/<pid>/cgroup names %u live ones",
	      listed, named);
}

/* ------------------------------------------------------------------ */
/* A simulated machine: each group's pressure is its PSI group's        */

void check_sim_pressure(void)
{
	static const struct {
		const char *file;
		enum psi_res res;
	} files[] = { { "cpu", PSI_CPU }, { "io", PSI_IO }, { "memory", PSI_MEM } };
	const char *spec = "synth:seed=11,cpus=8,tasks=300";
	struct mach_machine *m = NULL;
	struct mach_sim_opts so;
	struct mach_sim *sim = NULL;
	unsigned int groups = 0, same = 0, busy = 0;
	char err[256];

	if (mach_from_spec(spec, &m, err, sizeof(err)) || mach_sim_opts_from_spec(spec, &so, err, sizeof(err)) ||
	    mach_sim_create(m, &so, &sim, err, sizeof(err)) || mach_sim_advance(sim, m->uptime_ns + 30000000000ull)) {
		ok(0, "%s simulates 30 s: %s", spec, err);
		mach_sim_destroy(sim);
		mach_free(m);
		return;
	}
	for (uint32_t g = 0; g < m->ncgroups; g++) {
		const struct psi_group *pg = mach_sim_cgroup_psi(sim, g);
		char dir[2300], want[512];

		if (!pg || m->cgroups[g].parent == MACH_NONE || m->cgroups[g].dead)
			continue;
		cg_dir(m, g, dir, sizeof(dir));
		groups++;
		for (size_t r = 0; r < sizeof(files) / sizeof(files[0]); r++) {
			char *got = file(m, "%s/%s.pressure", dir, files[r].file);

			psi_text(pg, files[r].res, want, sizeof(want));
			same += got && !strcmp(got, want);
			busy += got && strstr(got, "total=0\n") == NULL;
			if (!got || strcmp(got, want))
				diag("%s/%s.pressure: %s, the engine: %s", dir, files[r].file, got ? got : "(none)", want);
			free(got);
		}
	}
	ok(groups && same == 3 * groups && busy,
	   "%s after 30 s: the pressure files of the %u groups the simulator feeds are its PSI groups' (%u of %u "
	   "the same, %u with pressure)", spec, groups, same, 3 * groups, busy);
	mach_sim_destroy(sim);
	mach_free(m);
}
