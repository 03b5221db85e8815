// SPDX-License-Identifier: MIT
/*
 * test_sys_roundtrip.c - the block devices' and cgroup v2's files of /sys
 * through the loader, on synthetic machines.
 *
 * For seeds 1..20: the machine's /proc tree is written and loaded back (as
 * test_synth_roundtrip does), then every /sys file of the synthetic
 * machine is rendered and given to the loaded machine (pfs_load_text, in
 * the order the walk finds them, one session); the loaded machine must
 * then list the same /sys files and render each to the same bytes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "spec.h"
#include "tap.h"
#include "tree_write.h"
#include "uprocfs/load.h"
#include "uprocfs/procfs.h"

struct sys_file {
	char *path;
	char *text;
	size_t len;
};

struct collect {
	struct sys_file *v;
	size_t n, cap;
	int rc;
};

static int collect_one(void *arg, const struct pfs_node *n, const struct pfs_ctx *c)
{
	struct collect *col = arg;
	char path[1100], rel[1024];
	char *text = NULL;
	size_t len = 0;

	if (pfs_node_path(n, c, rel, sizeof(rel))) {
		col->rc = -ENAMETOOLONG;
		return 1;
	}
	snprintf(path, sizeof(path), "/sys/%s", rel);
	if (pfs_render(n, c, &text, &len)) {
		diag("%s does not render", path);
		col->rc = -EIO;
		return 1;
	}
	if (col->n == col->cap) {
		col->cap = col->cap ? 2 * col->cap : 256;
		col->v = realloc(col->v, col->cap * sizeof(*col->v));
	}
	col->v[col->n++] = (struct sys_file){ strdup(path), text, len };
	return 0;
}

static void collect_free(struct collect *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->v[i].path);
		free(c->v[i].text);
	}
	free(c->v);
}

static void rm_rf(const char *dir)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		diag("could not remove %s", dir);
}

/* The /proc tree of @m written and loaded back: a machine of tasks and groups, no /sys yet. */
static struct mach_machine *proc_back(const struct mach_machine *m)
{
	char dir[64], err[512];
	struct mach_machine *back = NULL;

	snprintf(dir, sizeof(dir), "/dev/shm/uprocfs-sys-rt.XXXXXX");
	if (!mkdtemp(dir)) {
		snprintf(dir, sizeof(dir), "/tmp/uprocfs-sys-rt.XXXXXX");
		if (!mkdtemp(dir))
			return NULL;
	}
	if (tw_write_machine(m, dir, err, sizeof(err)) || pfs_load_tree(dir, NULL, &back, NULL, err, sizeof(err)))
		diag("%s", err);
	rm_rf(dir);
	return back;
}

static void roundtrip(const char *spec)
{
	struct mach_machine *m = NULL, *back;
	struct collect want = { 0 }, got = { 0 };
	struct mach_loader *ld;
	char err[512];
	size_t loaded = 0, same = 0;

	if (!ok(mach_from_spec(spec, &m, err, sizeof(err)) == 0, "%s builds", spec))
		return;
	pfs_for_each_sys_file(m, 0, collect_one, &want);
	ok(want.rc == 0 && want.n > 100, "%s: all %zu /sys files render", spec, want.n);
	back = proc_back(m);
	if (!ok(back != NULL, "%s: its /proc tree loads back", spec))
		goto out;
	ld = mach_loader_new(back);
	for (size_t i = 0; i < want.n; i++) {
		int rc = pfs_load_text(ld, want.v[i].path, want.v[i].text, want.v[i].len, err, sizeof(err));

		loaded += rc == 0;
		if (rc && loaded + 3 > i)
			diag("%s", err);
	}
	if (!ok(mach_loader_finish(ld, err, sizeof(err)) == 0 && loaded == want.n, "%s: %zu of %zu load", spec,
		loaded, want.n))
		diag("%s", err);
	mach_loader_free(ld);
	pfs_for_each_sys_file(back, 0, collect_one, &got);
	for (size_t i = 0, j = 0; i < want.n && j < got.n; i++, j++) {
		if (strcmp(want.v[i].path, got.v[j].path)) {
			diag("%s: %s where %s was", spec, got.v[j].path, want.v[i].path);
			break;
		}
		if (want.v[i].len == got.v[j].len && !memcmp(want.v[i].text, got.v[j].text, want.v[i].len))
			same++;
		else if (same + 3 > i)
			diag("%s renders differently after the round trip", want.v[i].path);
	}
	ok(got.n == want.n && same == want.n, "%s: the loaded machine lists %zu /sys files, %zu the same",
	   spec, got.n, same);
	mach_free(back);
out:
	collect_free(&want);
	collect_free(&got);
	mach_free(m);
}

int main(void)
{
	char spec[64];

	plan(0);
	for (int seed = 1; seed <= 20; seed++) {
		snprintf(spec, sizeof(spec), "synth:seed=%d", seed);
		roundtrip(spec);
	}
	return tap_done();
}
