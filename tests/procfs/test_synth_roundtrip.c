// SPDX-License-Identifier: MIT
/*
 * test_synth_roundtrip.c - synthetic machines through the loader.
 *
 * For seeds 1..25 (and a bigger machine): every file renders without error,
 * the whole tree (written to disk for seed 1, kept in memory for the rest)
 * loads back with the loader, and the loaded model renders every file to the
 * same bytes again, and serves the same set of files (a file the loader
 * skipped would otherwise pass unseen).  /proc/schedstat, which
 * the reference VM lacks, is checked against the documented version-17
 * layout: field counts per line.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "served_set.h"
#include "spec.h"
#include "tap.h"
#include "tree_write.h"
#include "uprocfs/load.h"
#include "uprocfs/procfs.h"

static void rm_rf(const char *dir)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		diag("could not remove %s", dir);
}

/* Count whitespace-separated fields of each line of schedstat and check v17's. */
static int check_schedstat(const char *text, size_t len, unsigned int *lines)
{
	const char *p = text, *end = text + len;
	int bad = 0;

	*lines = 0;
	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		unsigned int fields = 0;
		bool in = false;

		if (!eol)
			return 1;
		for (const char *q = p; q < eol; q++) {
			if (*q == ' ') {
				in = false;
			} else if (!in) {
				in = true;
				fields++;
			}
		}
		if (!strncmp(p, "version ", 8) || !strncmp(p, "timestamp ", 10))
			bad |= fields != 2;
		else if (!strncmp(p, "cpu", 3))
			bad |= fields != 10; /* cpuN and 9 numbers */
		else if (!strncmp(p, "domain", 6))
			bad |= fields != 3 + 3 * 11 + 12; /* domainN NAME MASK, 45 numbers */
		else
			bad = 1;
		(*lines)++;
		p = eol + 1;
	}
	return bad;
}

struct rt_check {
	const char *spec;
	size_t shown;
};

/* Each file of the round trip: a difference is shown (the first few); schedstat's shape is checked. */
static void check_file(void *arg, const struct pfs_verify_file *v)
{
	struct rt_check *c = arg;

	if (v->verdict != PFS_IDENTICAL && c->shown++ < 3)
		diag("%s differs after the round trip", v->loaded->path);
	if (v->text && !strcmp(v->loaded->path, "schedstat")) {
		unsigned int lines = 0;
		int bad = check_schedstat(v->text, v->len, &lines);

		ok(!bad && lines > 2, "%s: schedstat has the v17 field counts (%u lines)", c->spec, lines);
	}
}

/*
 * The tree of @dir with an elevator name the kernel could not have (its
 * names fit in 16 bytes) in a disk's queue/scheduler: refused, naming the
 * file, never cut to fit.
 */
static void refuses_long_elevator(const char *dir)
{
	char cmd[512], file[1024] = "", err[512];
	struct mach_machine *m = NULL;
	struct mach_load_report rep = { 0 };
	FILE *f;
	int rc;

	snprintf(cmd, sizeof(cmd), "find '%s/sys/devices' -path '*/queue/scheduler' | sort | head -1", dir);
	f = popen(cmd, "r");
	if (!f || !fgets(file, sizeof(file), f) || !strchr(file, '\n')) {
		ok(0, "the tree has a disk with a scheduler");
		if (f)
			pclose(f);
		return;
	}
	pclose(f);
	*strchr(file, '\n') = '\0';
	f = fopen(file, "w");
	if (!f) {
		ok(0, "%s: %s", file, strerror(errno));
		return;
	}
	fputs("none [mq-deadline-extra] kyber \n", f);
	fclose(f);
	rc = pfs_load_tree(dir, NULL, &m, &rep, err, sizeof(err));
	if (!ok(rc == -EINVAL && strstr(err, "queue/scheduler") && strstr(err, "longer than 15 bytes"),
		"a scheduler name of 17 bytes is refused, naming the file"))
		diag("rc %d: %s", rc, err);
	mach_load_report_free(&rep);
	mach_free(m);
}

/*
 * One machine through a tree and back: the tree written to a directory
 * (@on_disk), or kept in memory, the members the loader reads of an
 * archive.
 */
static void roundtrip(const char *spec, bool on_disk)
{
	/* tmpfs if there is one: 25 trees of 2,700 files are slow on a disk */
	char dir[64] = "", err[512];
	struct mach_load_report rep = { 0 };
	struct mach_machine *m = NULL, *back = NULL;
	size_t same = 0, differ = 0;
	int rc;

	rc = mach_from_spec(spec, &m, err, sizeof(err));
	if (!ok(rc == 0, "%s builds", spec)) {
		diag("%s", err);
		return;
	}
	if (!on_disk) {
		rc = tw_roundtrip_memory(m, &back, &rep, err, sizeof(err));
		if (!ok(rc == 0, "%s: every file renders into a tree in memory, which loads back", spec)) {
			diag("%s", err);
			goto out;
		}
		goto verify;
	}
	snprintf(dir, sizeof(dir), "/dev/shm/uprocfs-synth-rt.XXXXXX");
	if (!mkdtemp(dir)) {
		snprintf(dir, sizeof(dir), "/tmp/uprocfs-synth-rt.XXXXXX");
	}
	if (access(dir, F_OK) && !mkdtemp(dir)) {
		ok(0, "a temporary directory: %s", strerror(errno));
		mach_free(m);
		return;
	}
	rc = tw_write_machine(m, dir, err, sizeof(err));
	if (!ok(rc == 0, "%s: every file renders without error into a tree", spec))
		diag("%s", err);
	rc = pfs_load_tree(dir, NULL, &back, &rep, err, sizeof(err));
	if (!ok(rc == 0, "%s: its rendered tree loads back", spec)) {
		diag("%s", err);
		goto out;
	}
verify:;
	struct rt_check chk = { .spec = spec };
	struct pfs_verify_counts counts;

	pfs_verify(back, &rep, check_file, &chk, &counts);
	same = counts.identical;
	differ = counts.differ + counts.skipped;
	ok(differ == 0 && same == rep.nfiles, "%s: all %zu files re-render to the same bytes (%zu differ)", spec,
	   rep.nfiles, differ);
	ok(served_same(spec, m, back), "%s: the loaded machine serves the same files", spec);
	if (on_disk)
		refuses_long_elevator(dir);
out:
	mach_load_report_free(&rep);
	mach_free(back);
	mach_free(m);
	if (dir[0])
		rm_rf(dir);
}

int main(void)
{
	char spec[64];
	int seeds = tap_seeds(25);

	plan(0);
	diag("seeds 1..%d", seeds);
	for (int seed = 1; seed <= seeds; seed++) {
		snprintf(spec, sizeof(spec), "synth:seed=%d", seed);
		/* a directory for the first, memory for the rest: files on disk were most of the time, in the kernel */
		roundtrip(spec, seed == 1);
	}
	/*
	 * The bigger machine: 380,000 files.  A capped sweep (the sanitizer
	 * run) writes one of a third the size, the same shape: the plain run
	 * has the whole.  In memory: the walk of a directory this size is the
	 * live load's (test_load_live), and on disk it cost a third more.
	 */
	roundtrip(seeds < 25 ? "synth:cpus=64,tasks=700,threads=280,seed=99"
			     : "synth:cpus=64,tasks=2000,threads=800,seed=99", false);
	return tap_done();
}
