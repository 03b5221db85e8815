// SPDX-License-Identifier: MIT
/*
 * test_synth_ns.c - the namespaces, control groups and mount tables of
 * synthetic machines hold together, with each other and with the rest.
 *
 * For seeds 1..50 and odd shapes (depth 0..16, dense hosts): every thread
 * points into the tables; the cgroup tree has parents first and no tasks
 * in a group with children (but the root's kernel threads); a task's
 * cpuset css is at or above its group where its parents enable cpuset;
 * mount tables have unique ids, parents inside them (the root's outside),
 * mount points under their parent's; the host has /, /boot, /home and
 * /boot/efi on the disks m->sys holds; every file a process maps lies on
 * the root mount of its own table (so maps and mountinfo agree); a
 * container's tasks have pid 1 for the first and unique pids inside their
 * namespace; no inode names two namespaces of different types; the
 * cgroup, mounts, mountinfo and mountstats files render and agree in lines.
 * With the simulator: each workload task feeds the PSI group of its own
 * cgroup, the PSI tree mirrors the cgroup tree, and the busiest tasks at
 * the depth asked are the ones it moves.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_vmas.h"
#include "machine/sim_testing.h"
#include "spec.h"
#include "tap.h"
#include "uprocfs/procfs.h"
#include "uprocfs/sim.h"

enum prop { P_INDEX, P_TREE, P_CSS, P_MOUNTS, P_HOST, P_MAPS, P_PIDNS, P_INO, P_FILES, P_PSI, P_DEPTH, NR_PROPS };

static const char *const names[NR_PROPS] = {
	[P_INDEX] = "every thread's css_set, nsset and mount table exist",
	[P_TREE] = "cgroup tree: parents first, named, tasks only in leaves (and the root)",
	[P_CSS] = "cpuset css at or above the task's group, where the parents enable cpuset",
	[P_MOUNTS] = "mount tables: unique ids, parents inside (the root's outside), points under the parent's",
	[P_HOST] = "the host mounts /, /boot, /boot/efi, /home and the snaps from the disks of m->sys, cgroup2 on /sys/fs/cgroup",
	[P_MAPS] = "every mapped file lies on the root mount of its process's table",
	[P_PIDNS] = "containers: pids inside from 1, unique in their own pid namespace",
	[P_INO] = "no namespace inode names two types; zombies keep only pid and user",
	[P_FILES] = "cgroup, mounts, mountinfo, mountstats render; the three mount files agree in lines",
	[P_PSI] = "simulator: a task feeds the PSI group of its cgroup; the PSI tree is the cgroup tree",
	[P_DEPTH] = "simulator: the workload is the tasks `depth` levels deep",
};

static unsigned long checks[NR_PROPS], fails[NR_PROPS];
static const char *label;

static void check(enum prop p, int cond, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void check(enum prop p, int cond, const char *fmt, ...)
{
	va_list ap;
	char msg[512];

	checks[p]++;
	if (cond || fails[p]++ >= 5)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	diag("%s: %s: %s", names[p], label, msg);
}

static bool at_or_above(const struct mach_machine *m, uint32_t a, uint32_t b)
{
	for (; b != MACH_NONE; b = m->cgroups[b].parent)
		if (a == b)
			return true;
	return false;
}

static void check_cgroups(const struct mach_machine *m)
{
	bool *has_child = calloc(m->ncgroups, 1);

	check(P_TREE, m->ncg_roots == 1 && m->cg_roots[0].id == 0 && m->ncgroups && m->cgroups[0].parent == MACH_NONE,
	      "one v2 hierarchy, its root first");
	for (size_t i = 1; i < m->ncgroups; i++) {
		const struct mach_cgroup *g = &m->cgroups[i];

		check(P_TREE, g->parent < i && g->name[0] && !strchr(g->name, '/'), "group %zu \"%s\"", i, g->name);
		if (g->parent < i)
			has_child[g->parent] = true;
	}
	for (size_t i = 0; i < m->ncss_sets; i++) {
		const struct mach_css_set *cs = &m->css_sets[i];
		uint32_t cp = cs->css[MACH_SS_CPUSET];

		check(P_TREE, cs->cg[0] == 0 || !has_child[cs->cg[0]], "tasks in group %u, which has children",
		      cs->cg[0]);
		check(P_CSS, cp < m->ncgroups && at_or_above(m, cp, cs->cg[0]) &&
				     (cp == 0 || (m->cgroups[m->cgroups[cp].parent].subtree_control & (1u << MACH_SS_CPUSET))),
		      "css_set %zu: cpuset css %u for group %u", i, cp, cs->cg[0]);
	}
	free(has_child);
}

/* The mount at point "/" of the @n at @mounts, or NULL. */
static const struct mach_mount *root_mount(const struct mach_mount *mounts, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(mounts[i].point, "/"))
			return &mounts[i];
	return NULL;
}

/* Table @ti, stored or made (a container's), as a namespace's mounts are. */
static void check_table(const struct mach_mnt_table *t, size_t ti)
{
	const struct mach_mount *mounts = NULL, *root;

	check(P_MOUNTS, !mach_mnt_table_mounts(t, &mounts) && mounts, "table %zu: its mounts", ti);
	if (!mounts)
		return;
	root = root_mount(mounts, t->n);
	check(P_MOUNTS, root != NULL, "table %zu has no /", ti);
	for (size_t i = 0; i < t->n; i++) {
		const struct mach_mount *mt = &mounts[i], *parent = NULL;

		for (size_t j = 0; j < t->n; j++) {
			check(P_MOUNTS, j == i || mounts[j].id != mt->id, "table %zu: id %d twice", ti, mt->id);
			if (mounts[j].id == mt->parent)
				parent = &mounts[j];
		}
		check(P_MOUNTS, mt->point[0] == '/' && mt->root[0] == '/' && mt->fstype[0], "table %zu: mount %d", ti,
		      mt->id);
		if (mt == root)
			check(P_MOUNTS, !parent, "table %zu: / has a parent inside", ti);
		else
			check(P_MOUNTS, parent && !strncmp(mt->point, parent->point, strlen(parent->point)),
			      "table %zu: %s not under its parent", ti, mt->point);
	}
}

/* Whether the host table mounts @point from block device @b (NULL: nothing is mounted there). */
static void check_mounted(const struct mach_mnt_table *host, const char *point, const struct mach_blkdev *b)
{
	bool found = false;

	for (size_t i = 0; i < host->n; i++)
		if (!strcmp(host->mounts[i].point, point))
			found |= b && host->mounts[i].major == b->major && host->mounts[i].minor == b->minor;
	if (b)
		check(P_HOST, found, "no %s on %s (%u:%u)", point, b->name, b->major, b->minor);
	else
		check(P_HOST, !found, "%s mounted, but the layout has no disk for it", point);
}

/*
 * The host's disk mounts are the disks of m->sys: / on the root device,
 * /boot and /boot/efi on partitions 2 and 1 of the partitioned disk under
 * it (a microVM's whole-disk root has none), /home on a data disk (vdb or
 * sdb1) when there is one; every snap's loop device on /snap/NAME/REV.
 */
static void check_host(const struct mach_machine *m)
{
	const struct mach_mnt_table *host = m->nmnt_tables ? &m->mnt_tables[0] : NULL;
	const struct mach_sys *sys = &m->sys;
	const struct mach_blkdev *root = sys->root_blk >= 0 ? &sys->blk[sys->root_blk] : NULL, *under = root;
	const struct mach_blkdev *boot = NULL, *efi = NULL, *data = NULL;

	check(P_HOST, host && host->ns_ino == MACH_NS_INO_INIT_MNT, "table 0 is the initial namespace's");
	check(P_HOST, root != NULL, "the machine has a root device");
	if (!host || !root)
		return;
	if (root->kind == MACH_BLK_DM && root->slave >= 0)
		under = &sys->blk[root->slave];
	for (size_t i = 0; i < sys->nblk; i++) {
		const struct mach_blkdev *b = &sys->blk[i];

		if (under->partno && b->disk == under->disk && b != &sys->blk[under->disk])
			boot = b->partno == 2 ? b : boot, efi = b->partno == 1 ? b : efi;
		if (!strcmp(b->name, "vdb") || !strcmp(b->name, "sdb1"))
			data = b;
		if (b->kind == MACH_BLK_LOOP && b->backing_file && strstr(b->backing_file, "/snapd/snaps/")) {
			char point[128];
			const char *f = strrchr(b->backing_file, '/') + 1, *us = strrchr(f, '_'), *dot = strrchr(f, '.');

			snprintf(point, sizeof(point), "/snap/%.*s/%.*s", (int)(us - f), f, (int)(dot - us - 1), us + 1);
			check_mounted(host, point, b);
		}
	}
	check_mounted(host, "/", root);
	check_mounted(host, "/boot", boot);
	check_mounted(host, "/boot/efi", efi);
	check_mounted(host, "/home", data);
	bool cgroup2 = false;

	for (size_t i = 0; i < host->n; i++)
		cgroup2 |= !strcmp(host->mounts[i].point, "/sys/fs/cgroup") && !strcmp(host->mounts[i].fstype, "cgroup2");
	check(P_HOST, cgroup2, "no cgroup2 on /sys/fs/cgroup");
}

/* Files a process maps from its root filesystem: named, not the SysV or /dev/zero ones on 0:1. */
static void check_maps(const struct mach_machine *m, const struct mach_process *p)
{
	const struct mach_mnt_table *t = mach_thread_mounts(m, &p->threads[0]);
	const struct mach_mount *mounts = NULL;
	/* made mounts and made VMAs are kept apart: this stays valid while the VMAs are read */
	const struct mach_mount *root = t && !mach_mnt_table_mounts(t, &mounts) ? root_mount(mounts, t->n) : NULL;

	if (!p->mm || !root)
		return;
	for (size_t v = 0; v < p->mm->nvmas; v++) {
		const struct mach_vma *vma = &test_vmas(p->mm)[v];

		if (vma->kind != MACH_VMA_FILE || (vma->dev_major == 0 && vma->dev_minor == 1))
			continue;
		check(P_MAPS, vma->dev_major == root->major && vma->dev_minor == root->minor,
		      "pid %d maps %s on %u:%u, its / is %u:%u", (int)p->tgid, vma->name, vma->dev_major,
		      vma->dev_minor, root->major, root->minor);
	}
}

/* Rendered lines of @path, or -1. */
static long lines_of(const struct mach_machine *m, const char *path)
{
	struct pfs_node n;
	struct pfs_ctx c;
	char err[256], *text;
	size_t len;
	long lines = 0;

	if (pfs_resolve(m, path, &n, &c, err, sizeof(err)) || pfs_render(&n, &c, &text, &len))
		return -1;
	for (size_t i = 0; i < len; i++)
		lines += text[i] == '\n';
	free(text);
	return lines;
}

/* readlink of /proc/<pid>/ns/@name: 0 or -errno. */
static int ns_link(const struct mach_machine *m, pid_t pid, const char *name)
{
	char path[64], err[256], target[128];
	struct pfs_node n;
	struct pfs_ctx c;

	snprintf(path, sizeof(path), "/proc/%d/ns/%s", (int)pid, name);
	if (pfs_resolve(m, path, &n, &c, err, sizeof(err)))
		return -EINVAL;
	return n.entry->readlink(&c, target, sizeof(target));
}

static void check_files(const struct mach_machine *m, const struct mach_process *p)
{
	char path[64];
	long a, b, c, g;

	snprintf(path, sizeof(path), "/proc/%d/cgroup", (int)p->tgid);
	g = lines_of(m, path);
	check(P_FILES, g == 1, "%s: %ld lines", path, g);
	if (!mach_thread_has_nsproxy(&p->threads[0])) {
		check(P_INO, ns_link(m, p->tgid, "pid") == 0 && ns_link(m, p->tgid, "user") == 0 &&
				     ns_link(m, p->tgid, "net") == -ENOENT && ns_link(m, p->tgid, "mnt") == -ENOENT,
		      "zombie %d: its ns/ links", (int)p->tgid);
		snprintf(path, sizeof(path), "/proc/%d/mountinfo", (int)p->tgid);
		check(P_FILES, lines_of(m, path) == -1, "zombie %d: mountinfo opens", (int)p->tgid);
		return;
	}
	snprintf(path, sizeof(path), "/proc/%d/mounts", (int)p->tgid);
	a = lines_of(m, path);
	snprintf(path, sizeof(path), "/proc/%d/mountinfo", (int)p->tgid);
	b = lines_of(m, path);
	snprintf(path, sizeof(path), "/proc/%d/mountstats", (int)p->tgid);
	c = lines_of(m, path);
	check(P_FILES, a > 0 && a == b && b == c, "pid %d: mounts %ld, mountinfo %ld, mountstats %ld lines",
	      (int)p->tgid, a, b, c);
}

/* Namespaces of the threads: inodes by type, container pids. */
static void check_namespaces(const struct mach_machine *m)
{
	uint32_t *ino_type = calloc(MACH_NR_NS * m->nnssets + 1, sizeof(uint32_t) * 2);
	size_t nino = 0;

	for (size_t i = 0; i < m->nnssets; i++)
		for (int t = 0; t < MACH_NR_NS; t++) {
			enum mach_ns_type ty = t == MACH_NS_PID_FOR_CHILDREN ? MACH_NS_PID :
					       t == MACH_NS_TIME_FOR_CHILDREN ? MACH_NS_TIME : (enum mach_ns_type)t;
			uint32_t ino = m->nssets[i].ino[t];

			for (size_t k = 0; k < nino; k++)
				check(P_INO, ino_type[2 * k] != ino || ino_type[2 * k + 1] == (uint32_t)ty,
				      "inode %u is a %s and a %s", ino, mach_ns_type_name((enum mach_ns_type)ino_type[2 * k + 1]),
				      mach_ns_type_name(ty));
			ino_type[2 * nino] = ino;
			ino_type[2 * nino++ + 1] = ty;
		}
	free(ino_type);
	for (size_t i = 0; i < m->nprocs; i++) {
		const struct mach_process *p = &m->procs[i];

		for (unsigned int j = 0; j < p->nthreads; j++) {
			const struct mach_thread *t = &p->threads[j];
			const struct mach_nsset *ns = mach_thread_nsset(m, t);
			bool inside = ns && ns->ino[MACH_NS_PID] != MACH_NS_INO_INIT_PID;

			const pid_t *pid = mach_thread_ns_ids(t, MACH_NSID_PID), *tgid = mach_thread_ns_ids(t, MACH_NSID_TGID);
			const pid_t *leader = mach_thread_ns_ids(&p->threads[0], MACH_NSID_PID);

			check(P_PIDNS, ns && (t->ns_levels == 2) == inside &&
					       ns->ino[MACH_NS_PID] == ns->ino[MACH_NS_PID_FOR_CHILDREN] &&
					       (!inside || (pid[1] >= 1 && tgid[1] == leader[1])),
			      "tid %d: levels %u", (int)t->tid, t->ns_levels);
			for (size_t k = 0; inside && k < m->nprocs; k++) {
				const struct mach_process *q = &m->procs[k];
				const struct mach_nsset *qs = mach_thread_nsset(m, &q->threads[0]);

				if (q != p && qs && qs->ino[MACH_NS_PID] == ns->ino[MACH_NS_PID])
					check(P_PIDNS, mach_thread_ns_ids(&q->threads[0], MACH_NSID_PID)[1] != pid[1],
					      "pid %d twice inside", pid[1]);
			}
		}
	}
}

static void check_sim(struct mach_machine *m, const char *spec, unsigned int depth)
{
	struct mach_sim_opts so;
	struct mach_sim *sim;
	char err[256];
	unsigned int deep = 0, n;

	if (mach_sim_opts_from_spec(spec, &so, err, sizeof(err)) || mach_sim_create(m, &so, &sim, err, sizeof(err))) {
		check(P_PSI, 0, "simulator: %s", err);
		return;
	}
	n = mach_sim_nr_tasks(sim);
	for (unsigned int i = 0; i < n; i++) {
		const struct psi_group *g, *pg;
		uint32_t cg;
		const struct mach_thread *t = mach_sim_task(sim, i, &g, &cg);
		const struct mach_css_set *cs = mach_thread_css_set(m, t);
		unsigned int level = cg == MACH_NONE ? 0 : mach_cgroup_level(m, cg);

		check(P_PSI, cs && (cg == MACH_NONE ? cs->cg[0] == 0 : cs->cg[0] == cg) && psi_group_depth(g) == level,
		      "task %d: its PSI group is not its cgroup's", (int)t->tid);
		/* walk both trees up together */
		for (pg = g; cg != MACH_NONE && m->cgroups[cg].parent != MACH_NONE; cg = m->cgroups[cg].parent) {
			check(P_PSI, pg == mach_sim_cgroup_psi(sim, cg), "task %d: group %u", (int)t->tid, cg);
			pg = psi_group_parent(pg);
		}
		deep += level == depth;
	}
	/* a tiny machine may have too few tasks there */
	check(P_DEPTH, n == 0 || m->nprocs < 100 || deep * 10 >= n * 9, "%u of %u workload tasks at depth %u", deep,
	      n, depth);
	mach_sim_destroy(sim);
}

static void check_machine(const char *spec, unsigned int depth, bool sim)
{
	struct mach_machine *m;
	char err[256];

	label = spec;
	if (mach_from_spec(spec, &m, err, sizeof(err))) {
		check(P_INDEX, 0, "%s", err);
		return;
	}
	for (size_t i = 0; i < m->nprocs; i++)
		for (unsigned int j = 0; j < m->procs[i].nthreads; j++) {
			const struct mach_thread *t = &m->procs[i].threads[j];
			const struct mach_nsset *ns = mach_thread_nsset(m, t);

			check(P_INDEX, mach_thread_css_set(m, t) && ns && ns->mounts < m->nmnt_tables, "tid %d", (int)t->tid);
		}
	check_cgroups(m);
	for (size_t i = 0; i < m->nmnt_tables; i++)
		check_table(&m->mnt_tables[i], i);
	check_host(m);
	check_namespaces(m);
	for (size_t i = 0; i < m->nprocs; i++) {
		check_maps(m, &m->procs[i]);
		if (m->nprocs <= 2000 || i % 50 == 0)
			check_files(m, &m->procs[i]);
	}
	if (sim)
		check_sim(m, spec, depth);
	mach_free(m);
}

int main(void)
{
	static const struct { const char *spec; unsigned int depth; } shapes[] = {
		{ "synth:depth=0,tasks=300", 0 }, { "synth:depth=1,tasks=300", 1 }, { "synth:depth=3", 3 },
		{ "synth:depth=4,tasks=600", 4 }, { "synth:depth=5,tasks=600", 5 }, { "synth:depth=16,tasks=400", 16 },
		{ "synth:cpus=32,tasks=25000,seed=12", 2 }, { "synth:tasks=3", 2 }, { "synth:cpus=2,tasks=600,threads=0,seed=4,depth=3", 3 },
	};
	char spec[64];

	plan(0);
	for (int seed = 1; seed <= 50; seed++) {
		snprintf(spec, sizeof(spec), "synth:seed=%d", seed);
		check_machine(spec, 2, true);
	}
	for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++)
		check_machine(shapes[i].spec, shapes[i].depth, true);
	for (int p = 0; p < NR_PROPS; p++)
		ok(fails[p] == 0 && checks[p] > 0, "%s (%lu checks, %lu failed)", names[p], checks[p], fails[p]);
	return tap_done();
}
