// SPDX-License-Identifier: MIT
/*
 * test_table.c - the file table is well formed, and its one path parser,
 * node paths, directory listings and inode numbers agree with each other
 * for every entry in every scope it is declared in.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "fuse/node.h"
#include "tap.h"
#include "uprocfs/load.h"
#include "uprocfs/procfs.h"

/* An empty machine: its /proc/sys holds kernel/ostype, osrelease and pid_max. */
static struct mach_machine *mach;

/*
 * A node of @e seen in @scope, at pid 42, tid 43, instance 7; in /proc/sys,
 * the directory kernel or the key kernel/ostype of the empty machine.
 */
static struct pfs_node sample(const struct pfs_entry *e, enum pfs_scope scope)
{
	struct pfs_node n = { .entry = e, .scope = scope };
	bool leaf = strchr(e->path, '*') && e->coll != PFS_COLL_PIDS && e->coll != PFS_COLL_TIDS;

	if (scope == PFS_SCOPE_SYSCTL) {
		n.inst = (uint32_t)mach_sysctl_find(mach->sysctl, e->kind == PFS_DIR ? "kernel" : "kernel/ostype");
		return n;
	}
	if (scope != PFS_SCOPE_GLOBAL || e->coll == PFS_COLL_PIDS)
		n.pid = 42;
	if (scope == PFS_SCOPE_TID || e->coll == PFS_COLL_TIDS)
		n.tid = 43;
	if (leaf)
		n.inst = 7;
	return n;
}

static bool same_node(const struct pfs_node *a, const struct pfs_node *b)
{
	return a->entry == b->entry && a->scope == b->scope && a->pid == b->pid && a->tid == b->tid &&
	       a->inst == b->inst;
}

static void test_shapes(void)
{
	unsigned long bad = 0;

	for (size_t i = 0; i < pfs_nentries; i++) {
		const struct pfs_entry *e = &pfs_entries[i];
		const char *last = strrchr(e->path, '/');
		bool star = !strcmp(last ? last + 1 : e->path, "*");
		bool leaf = e->coll != PFS_COLL_NONE && e->coll != PFS_COLL_PIDS && e->coll != PFS_COLL_TIDS;
		bool fine;

		/* files and links may be the leaves of a collection (fd/3, fdinfo/3) */
		switch (e->kind) {
		case PFS_FILE:
			fine = !!e->show + !!e->ops == 1 && !e->readlink && !(e->mode & 0111) && star == leaf;
			break;
		case PFS_LINK:
			fine = e->readlink && !e->show && !e->ops && star == leaf;
			break;
		default:
			/* a /sys directory may root a subtree the loader walks */
			fine = !e->show && !e->ops && !e->readlink && (e->mode & 0111) &&
			       (e->load == MACH_LD_NONE || mach_ld_kind_sysfs(e->load)) && star == (e->coll != PFS_COLL_NONE);
			break;
		}
		fine = fine && e->scopes && !(e->scopes >> PFS_NR_SCOPES) && e->path[0] && (e->mirrors != NULL) == (e->kind != PFS_DIR);
		if (!fine && bad++ < 5)
			diag("entry %zu \"%s\" is not well formed", i, e->path);
	}
	ok(bad == 0, "every entry has the fields its kind needs, and only those (%lu bad)", bad);
}

static void test_paths(void)
{
	unsigned long bad = 0, nodes = 0;
	struct pfs_ctx ctx = { .mach = mach };

	for (size_t i = 0; i < pfs_nentries; i++) {
		for (int s = 0; s < PFS_NR_SCOPES; s++) {
			const struct pfs_entry *e = &pfs_entries[i];
			struct pfs_node n, back;
			char path[256], err[256];

			if (!(e->scopes & PFS_IN(s)) || s >= PFS_SCOPE_SYS)
				continue; /* /sys: test_sys_tree walks a machine's */
			nodes++;
			n = sample(e, (enum pfs_scope)s);
			if (pfs_node_path(&n, &ctx, path, sizeof(path)) || pfs_parse_path(path, mach, &back, err, sizeof(err)) ||
			    !same_node(&n, &back)) {
				if (bad++ < 5)
					diag("\"%s\" in scope %d: path \"%s\" does not parse back to it", e->path, s, path);
				continue;
			}
			if (node_from_ino(node_ino(&n), &back)) {
				if (bad++ < 5)
					diag("/proc/%s: its inode number does not decode", path);
				continue;
			}
			if (node_needs_tgid(&back))
				back.pid = n.pid; /* a thread's leaf: FUSE asks the source for the tgid */
			if (!same_node(&n, &back) && bad++ < 5)
				diag("/proc/%s: its inode number does not decode to it", path);
		}
	}
	ok(bad == 0 && nodes > 0, "%lu nodes: path, parse and inode number agree (%lu bad)", nodes, bad);
}

/* Every entry is listed exactly once, in its directory; names are unique there. */
static void test_listings(void)
{
	unsigned long bad = 0;

	for (size_t i = 0; i < pfs_nentries; i++) {
		for (int s = 0; s < PFS_NR_SCOPES; s++) {
			const struct pfs_entry *e = &pfs_entries[i];
			struct pfs_node n, dir, child;
			char path[256], err[256], *slash;
			unsigned int pos = 0, seen = 0;
			const char *name;

			if (!(e->scopes & PFS_IN(s)) || strchr(e->path, '*') || s >= PFS_SCOPE_SYS)
				continue;
			n = sample(e, (enum pfs_scope)s);
			pfs_node_path(&n, NULL, path, sizeof(path));
			slash = strrchr(path, '/');
			if (slash)
				*slash = '\0';
			if (pfs_parse_path(slash ? path : "", NULL, &dir, err, sizeof(err))) {
				bad++;
				continue;
			}
			while (pfs_dir_next(&dir, NULL, &pos, &name, &child))
				seen += !strcmp(name, slash ? slash + 1 : path) && child.entry == e;
			if (seen != 1 && bad++ < 5)
				diag("%s listed %u times in its directory", e->path, seen);
		}
	}
	ok(bad == 0, "every entry is listed once in its directory (%lu bad)", bad);
}

static void test_parser_refuses(void)
{
	static const char *const bad_paths[] = {
		"/etc/passwd", "nosuchfile", "42/nosuchfile", "042/status", "0/status", "-1/status",
		"42/task/x/stat", "stat/x", "99999999999/status", "42/task/43/task", "self/../stat",
	};
	struct pfs_node n;
	char err[256];
	unsigned long bad = 0;

	for (size_t i = 0; i < sizeof(bad_paths) / sizeof(bad_paths[0]); i++)
		if (!pfs_parse_path(bad_paths[i], NULL, &n, err, sizeof(err)) && bad++ < 5)
			diag("\"%s\" parsed", bad_paths[i]);
	ok(bad == 0, "paths outside the table are refused");
	ok(!pfs_parse_path("/proc/42/task/43/ns/pid", NULL, &n, err, sizeof(err)) && n.scope == PFS_SCOPE_TID &&
		   n.pid == 42 && n.tid == 43 && n.entry->kind == PFS_LINK,
	   "a thread's ns/pid parses into scope, pid, tid and entry");
}

/*
 * /proc/sys lists its directories and keys together in name order, with
 * the modes of the machine's tree; a key's path parses back to it.
 */
static void test_sysctl_listing(void)
{
	struct pfs_ctx ctx = { .mach = mach };
	struct pfs_node sys, kernel, n;
	char err[256], name[64], path[128], names[256] = "";
	uint64_t pos = 0;

	ok(!pfs_parse_path("/proc/sys", mach, &sys, err, sizeof(err)) && pfs_dir_merged(&sys) &&
		   pfs_dir_next_merged(&sys, &ctx, &pos, &kernel, name, sizeof(name)) && !strcmp(name, "kernel") &&
		   !pfs_dir_next_merged(&sys, &ctx, &pos, &n, name, sizeof(name)),
	   "/proc/sys of an empty machine lists kernel only");
	pos = 0;
	while (pfs_dir_next_merged(&kernel, &ctx, &pos, &n, name, sizeof(name)))
		snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%o ", name,
			 (unsigned int)(pfs_node_mode(&n, &ctx) & 07777));
	ok(!strcmp(names, "osrelease444 ostype444 pid_max644 "), "kernel/: name order, modes from the tree (%s)", names);
	ok(!pfs_parse_path("/proc/sys/kernel/pid_max", mach, &n, err, sizeof(err)) &&
		   !pfs_node_path(&n, &ctx, path, sizeof(path)) && !strcmp(path, "sys/kernel/pid_max") &&
		   n.scope == PFS_SCOPE_SYSCTL && (pfs_node_mode(&n, &ctx) & S_IFMT) == S_IFREG,
	   "sys/kernel/pid_max: a key, its path back");
	ok(pfs_parse_path("/proc/sys/kernel/nosuch", mach, &n, err, sizeof(err)) == -ENOENT &&
		   pfs_parse_path("/proc/sys/kernel/pid_max/x", mach, &n, err, sizeof(err)) == -ENOENT &&
		   pfs_parse_path("/proc/sys/kernel", NULL, &n, err, sizeof(err)) == -ENOENT,
	   "no such key, no key below a key, no names without a machine");
}

/* A group's first file (mach_ld_group) comes before its other files in the loader's list: readers rely on it. */
static void test_load_groups(void)
{
	size_t n, bad = 0, grouped = 0;
	const struct mach_ld_name *files = pfs_load_names(&n);

	for (size_t i = 0; i < n; i++) {
		enum mach_ld_kind lead = mach_ld_group(files[i].kind);
		bool seen = false;

		if (lead == files[i].kind)
			continue;
		grouped++;
		for (size_t j = 0; j < i; j++)
			seen |= files[j].kind == lead;
		if (!seen) {
			diag("%s is read with kind %d, which the list does not name before it", files[i].name,
				 (int)lead);
			bad++;
		}
	}
	ok(!bad && grouped >= 5, "every grouped file follows its group's first (%zu grouped)", grouped);
}

/* What a walk of a machine's /sys saw. */
struct sys_walk {
	const struct mach_machine *m;
	unsigned long nodes, bad;
	unsigned char *seen;      /* per table entry */
};

/* One directory of /sys: each child's path parses back to it, its inode decodes to it, listed in hash order. */
static void walk_sys_dir(struct sys_walk *w, const struct pfs_node *dir, unsigned int depth)
{
	struct pfs_ctx c = { .mach = w->m };
	struct pfs_listing l;

	if (depth > 16 || pfs_bind(w->m, dir, &c) || pfs_dir_list(dir, &c, &l)) {
		w->bad++;
		return;
	}
	for (size_t i = 0; i < l.n; i++) {
		const struct pfs_node *n = &l.ents[i].node;
		struct pfs_ctx nc = { .mach = w->m };
		struct pfs_node back;
		char path[512] = "/sys/", err[256];

		w->nodes++;
		w->seen[pfs_entry_index(n->entry)] = 1;
		if (pfs_bind(w->m, n, &nc) || pfs_node_path(n, &nc, path + 5, sizeof(path) - 5) ||
		    pfs_parse_path(path, w->m, &back, err, sizeof(err)) || !same_node(n, &back) ||
		    strcmp(strrchr(path, '/') + 1, l.names + l.ents[i].name) || node_from_ino(node_ino(n), &back) ||
		    !same_node(n, &back) || (i && l.ents[i].hash < l.ents[i - 1].hash) ||
		    (i && l.ents[i].hash == l.ents[i - 1].hash)) {
			if (w->bad++ < 5)
				diag("%s (%s): path, name, inode or listing order do not agree", path, n->entry->path);
			continue;
		}
		if (n->entry->kind == PFS_DIR)
			walk_sys_dir(w, n, depth + 1);
	}
	pfs_listing_free(&l);
}

/*
 * /sys of a synthetic machine: every node a listing gives parses back from
 * its path and decodes from its inode; every /sys entry of the table shows
 * up (but ppin, which these CPUs lack); kernfs order is the kernel's.
 */
static void test_sys_tree(void)
{
	static const char *const cpu_dir[] = { "cpuidle", "uevent", "hotplug", "enabled", "possible", "offline",
					       "present", "power", "online", "cpu1", "smt", "vulnerabilities",
					       "cpufreq", "isolated", "kernel_max", "cpu0", "modalias" };
	struct mach_synth_opts o;
	struct mach_machine *m = NULL;
	struct pfs_node root = pfs_tree_root(PFS_SCOPE_SYS);
	unsigned char seen[4096] = { 0 };
	struct sys_walk w = { .seen = seen };
	unsigned long missing = 0, order = 0;
	char err[256];

	mach_synth_defaults(&o);
	o.cpus = 16;
	o.tasks = 40;
	ok(!mach_synth_build(&o, &m, err, sizeof(err)), "a synthetic machine for /sys");
	if (!m)
		return;
	w.m = m;
	walk_sys_dir(&w, &root, 0);
	for (size_t i = 0; i < pfs_nentries; i++)
		/* devices/ *: the synthetic disks' top directories are all literal ones (pci0000:00, virtual) */
		if ((pfs_entries[i].scopes & PFS_IN(PFS_SCOPE_SYS)) && !seen[i] && !strstr(pfs_entries[i].path, "ppin") &&
		    strcmp(pfs_entries[i].path, "devices/*") && missing++ < 5)
			diag("%s: never seen in the synthetic machine's /sys", pfs_entries[i].path);
	ok(w.bad == 0 && w.nodes > 1000, "%lu nodes of /sys: paths, names, inodes and hash order agree (%lu bad)",
	   w.nodes, w.bad);
	ok(missing == 0, "every /sys entry of the table is on the machine (%lu missing)", missing);
	/* the order of the reference VM's /sys/devices/system/cpu, from ls -f */
	for (size_t i = 1; i < sizeof(cpu_dir) / sizeof(cpu_dir[0]); i++) {
		uint32_t a = pfs_kernfs_hash(cpu_dir[i - 1]), b = pfs_kernfs_hash(cpu_dir[i]);

		order += a > b || (a == b && strcmp(cpu_dir[i - 1], cpu_dir[i]) > 0);
	}
	ok(order == 0, "kernfs_name_hash orders /sys/devices/system/cpu as the kernel lists it");
	mach_free(m);
}

int main(void)
{
	mach = mach_new();
	test_shapes();
	test_paths();
	test_listings();
	test_sys_tree();
	test_parser_refuses();
	test_sysctl_listing();
	test_load_groups();
	mach_free(mach);
	return tap_done();
}
