// SPDX-License-Identifier: MIT
/*
 * test_load_sysnet.c - the loader of the network devices' /sys files on a
 * synthetic machine's tree, with files changed as a live machine changes
 * them while it is read, or as nothing but a broken tree would say them:
 *   - the tree loads and every file renders back (the round trip);
 *   - a counter that moved since /proc/net/dev was read is skipped, and
 *     the rest still verifies;
 *   - the parts of a /proc/net/dev sum (drop = rx_dropped +
 *     rx_missed_errors) load into their own fields and render back, with
 *     the column unchanged; a part larger than the column moved, and
 *     the first field still renders as its file said; so does
 *     carrier_changes when a count moved;
 *   - a link that leads elsewhere, an uppercase MAC, a number with a
 *     leading zero and an ifindex other than /proc's are refused, naming
 *     path:line.
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

static char tree[64];
static char dev_dir[1200]; /* the uplink's directory in the tree */
static char uplink[32];

static void put(const char *rel, const char *text)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dev_dir, rel);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void put_link(const char *rel, const char *target)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", tree, rel);
	unlink(path);
	if (symlink(target, path))
		diag("symlink %s: %s", path, strerror(errno));
}

struct counts {
	size_t identical, differ, skipped;
	const char *want_skip; /* a path that must be skipped (for a reason naming @why) */
	const char *why;
	bool skip_seen;
};

static void each(void *arg, const struct pfs_verify_file *v)
{
	struct counts *c = arg;

	if (v->verdict == PFS_DIFFERS)
		diag("differs: %s", v->loaded->path);
	if (c->want_skip && strstr(v->loaded->path, c->want_skip) && v->loaded->status == MACH_LOAD_SKIPPED &&
	    v->loaded->reason && strstr(v->loaded->reason, c->why))
		c->skip_seen = true;
}

/* Load the tree; 0 differ, and @skip (if any) skipped because of @why. */
static void loads(const char *what, const char *skip, const char *why)
{
	struct mach_load_report rep = { 0 };
	struct mach_machine *m = NULL;
	struct pfs_verify_counts n;
	struct counts c = { .want_skip = skip, .why = why };
	char err[512];
	int rc = pfs_load_tree(tree, NULL, &m, &rep, err, sizeof(err));

	if (!ok(rc == 0, "%s: the tree loads", what)) {
		diag("%s", err);
		return;
	}
	pfs_verify(m, &rep, each, &c, &n);
	ok(n.differ == 0 && n.identical > 0 && (!skip || c.skip_seen), "%s: %zu identical, %zu differ%s%s", what,
	   n.identical, n.differ, skip ? ", skipped: " : "", skip ? skip : "");
	mach_load_report_free(&rep);
	mach_free(m);
}

/* Load the tree: refused, the message naming @where and saying @needle. */
static void refused(const char *what, const char *where, const char *needle)
{
	struct mach_machine *m = NULL;
	char err[512] = "";
	int rc = pfs_load_tree(tree, NULL, &m, NULL, err, sizeof(err));

	if (!ok(rc != 0 && strstr(err, where) && strstr(err, needle), "%s: refused at %s", what, where))
		diag("rc %d: %s", rc, err);
	mach_free(m);
}

static unsigned long long column(const char *name, int col)
{
	char path[256], line[512];
	unsigned long long v = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc/1/net/dev", tree);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':'), *p;

		if (!colon || strncmp(colon - strlen(name), name, strlen(name)))
			continue;
		p = colon + 1;
		for (int i = 0; i <= col; i++)
			v = strtoull(p, &p, 10);
	}
	if (f)
		fclose(f);
	return v;
}

int main(void)
{
	const char *spec = "synth:seed=2,cpus=4,tasks=120";
	struct mach_machine *m;
	char err[512], buf[64], link[2048], target[1024];
	unsigned long long drop;
	ssize_t n;

	plan(0);
	snprintf(tree, sizeof(tree), "/tmp/uprocfs-sysnet.XXXXXX");
	if (!mkdtemp(tree) || mach_from_spec(spec, &m, err, sizeof(err)) || tw_write_machine(m, tree, err, sizeof(err))) {
		ok(0, "%s renders into a tree: %s", spec, err);
		return tap_done();
	}
	mach_free(m);
	/* the uplink: the device with a parent */
	snprintf(uplink, sizeof(uplink), "%s", "enp2s0");
	snprintf(link, sizeof(link), "%s/sys/class/net/%s", tree, uplink);
	n = readlink(link, target, sizeof(target) - 1);
	if (!ok(n > 0, "%s has /sys/class/net/%s", spec, uplink))
		return tap_done();
	target[n] = '\0';
	snprintf(dev_dir, sizeof(dev_dir), "%s/sys/class/net/%s", tree, target);
	loads("as rendered", NULL, NULL);

	/* a counter that moved: skipped, the rest verifies */
	snprintf(buf, sizeof(buf), "%llu\n", column(uplink, 0) + 1500);
	put("statistics/rx_bytes", buf);
	loads("rx_bytes moved", "statistics/rx_bytes", "moved");
	snprintf(buf, sizeof(buf), "%llu\n", column(uplink, 0));
	put("statistics/rx_bytes", buf);

	/* drop = rx_dropped + rx_missed_errors: the parts are the model's, the column the same */
	drop = column(uplink, 3);
	if (ok(drop > 9, "%s's drop column has something to split (%llu)", uplink, drop)) {
		snprintf(buf, sizeof(buf), "%llu\n", drop - 9);
		put("statistics/rx_dropped", buf);
		put("statistics/rx_missed_errors", "9\n");
		loads("drop split into rx_dropped and rx_missed_errors", NULL, NULL);
		snprintf(buf, sizeof(buf), "%llu\n", drop + 1);
		put("statistics/rx_missed_errors", buf);
		loads("a part larger than its column", "statistics/rx_missed_errors", "moved");
		snprintf(buf, sizeof(buf), "%llu\n", drop);
		put("statistics/rx_dropped", buf);
		put("statistics/rx_missed_errors", "0\n");
	}

	/* carrier_changes is up + down: a count that no longer adds up moved, changes still renders as read */
	put("carrier_up_count", "5\n");
	loads("carrier_up_count moved", "carrier_up_count", "moved");
	put("carrier_up_count", "1\n");

	put("address", "3C:EC:00:00:00:01\n");
	refused("an uppercase MAC", "/address:1", "lowercase hex");
	put("address", "3c:ec:00:00:00:01\n");
	loads("a lowercase MAC of the same length", NULL, NULL);
	put("mtu", "01500\n");
	refused("a number with a leading zero", "/mtu:1", "number");
	put("mtu", "1500\n");
	put("ifindex", "77\n");
	refused("another ifindex than uevent's", "/", "ifindex");
	put("ifindex", "2\n");
	snprintf(link, sizeof(link), "sys/class/net/%s", uplink);
	put_link(link, "../../devices/virtual/block/loop0");
	refused("a class link to a disk", "class/net/", "not to a directory");

	snprintf(err, sizeof(err), "rm -rf '%s'", tree);
	if (system(err))
		diag("could not remove %s", tree);
	return tap_done();
}
