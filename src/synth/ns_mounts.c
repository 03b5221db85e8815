// SPDX-License-Identifier: MIT
/*
 * ns_mounts.c - the mount tables of a synthetic machine: a Debian 12 guest
 * as systemd mounts it, and what services and containers see.
 *
 * The host (the initial namespace): sysfs, proc, devtmpfs as udev, devpts,
 * /run and /run/lock, the root filesystem, securityfs, /dev/shm, cgroup2 at
 * /sys/fs/cgroup, pstore, bpf, the binfmt_misc automount, hugetlbfs,
 * mqueue, debugfs, tracefs, configfs, fusectl, then /boot, /boot/efi and
 * /home from the disk (devices.h), and a /run/user/UID per logged-in user;
 * every mount shared, as systemd makes them.  A PrivateTmp service sees
 * the host's boot mounts as slaves of their peer groups, under new ids with
 * / first, and its own /tmp and /var/tmp.  A container sees its overlay
 * root, proc, a small /dev, sysfs read-only, its cgroup namespace's
 * cgroup2, the files the engine binds in (resolv.conf, hostname, hosts),
 * and the /proc and /sys paths the runtime masks.  tmpfs sizes follow RAM
 * as their defaults do (half of it for devtmpfs, a tenth for /run).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ns_int.h"

#define NOSUID MACH_MNT_NOSUID
#define NODEV MACH_MNT_NODEV
#define NOEXEC MACH_MNT_NOEXEC
#define RELATIME MACH_MNT_RELATIME
#define RO MACH_MNT_RDONLY
#define NNNR (NOSUID | NODEV | NOEXEC | RELATIME)
#define CGROUP2_MINOR 26u

/* One mount of a template: ids and devices relative to its table, strings with {X} placeholders. */
struct tpl {
	int id, parent;           /* host: the real ids; others: offsets (parent -1: outside the table) */
	int dev;                  /* >= 0: an anonymous device (host: its minor; others: a slot); DEV_* */
	const char *root, *point;
	unsigned int mnt;
	int shared;               /* host: its peer group */
	const char *fstype, *source;
	unsigned int sb;
	const char *opts;
};

#define DEV_DISK(fs) (-1 - (fs)) /* a partition of sy_blockfs */
#define DEV_CGROUP2 (-10)        /* the host's cgroup2 superblock */

static const struct tpl host_tpl[] = {
	{ 21, 26, 20, "/", "/sys", NNNR, 7, "sysfs", "sysfs", 0, NULL },
	{ 22, 26, 21, "/", "/proc", NNNR, 13, "proc", "proc", 0, NULL },
	{ 23, 26, 5, "/", "/dev", NOSUID | RELATIME, 2, "devtmpfs", "udev", 0, "size={D}k,nr_inodes={d},mode=755,inode64" },
	{ 24, 23, 22, "/", "/dev/pts", NOSUID | NOEXEC | RELATIME, 3, "devpts", "devpts", 0, "gid=5,mode=620,ptmxmode=000" },
	{ 25, 26, 23, "/", "/run", NNNR, 5, "tmpfs", "tmpfs", 0, "size={R}k,mode=755,inode64" },
	{ 26, 1, DEV_DISK(SY_FS_ROOT), "/", "/", RELATIME, 1, "ext4", NULL, 0, NULL },
	{ 27, 21, 6, "/", "/sys/kernel/security", NNNR, 8, "securityfs", "securityfs", 0, NULL },
	{ 28, 23, 24, "/", "/dev/shm", NOSUID | NODEV, 4, "tmpfs", "tmpfs", 0, "inode64" },
	{ 29, 25, 25, "/", "/run/lock", NNNR, 6, "tmpfs", "tmpfs", 0, "size=5120k,inode64" },
	{ 30, 21, CGROUP2_MINOR, "/", "/sys/fs/cgroup", NNNR, 9, "cgroup2", "cgroup2", 0, "nsdelegate,memory_recursiveprot" },
	{ 31, 21, 27, "/", "/sys/fs/pstore", NNNR, 10, "pstore", "pstore", 0, NULL },
	{ 32, 21, 28, "/", "/sys/fs/bpf", NNNR, 11, "bpf", "bpf", 0, "mode=700" },
	{ 33, 22, 29, "/", "/proc/sys/fs/binfmt_misc", RELATIME, 12, "autofs", "systemd-1", 0,
	  "fd=30,pgrp=1,timeout=0,minproto=5,maxproto=5,direct,pipe_ino=15166" },
	{ 34, 23, 30, "/", "/dev/hugepages", RELATIME, 14, "hugetlbfs", "hugetlbfs", 0, "pagesize=2M" },
	{ 35, 23, 19, "/", "/dev/mqueue", NNNR, 15, "mqueue", "mqueue", 0, NULL },
	{ 36, 21, 7, "/", "/sys/kernel/debug", NNNR, 16, "debugfs", "debugfs", 0, NULL },
	{ 37, 21, 12, "/", "/sys/kernel/tracing", NNNR, 17, "tracefs", "tracefs", 0, NULL },
	{ 38, 21, 31, "/", "/sys/kernel/config", NNNR, 18, "configfs", "configfs", 0, NULL },
	{ 39, 21, 32, "/", "/sys/fs/fuse/connections", NNNR, 19, "fusectl", "fusectl", 0, NULL },
	{ 60, 26, DEV_DISK(SY_FS_BOOT), "/", "/boot", RELATIME, 31, "ext4", NULL, 0, NULL },
	{ 61, 60, DEV_DISK(SY_FS_EFI), "/", "/boot/efi", RELATIME, 33, "vfat", NULL, 0, NULL },
	{ 62, 26, DEV_DISK(SY_FS_HOME), "/", "/home", RELATIME, 35, "ext4", NULL, 0, NULL },
	{ 63, 33, 33, "/", "/proc/sys/fs/binfmt_misc", NNNR, 37, "binfmt_misc", "binfmt_misc", 0, NULL },
};
#define NHOST (sizeof(host_tpl) / sizeof(host_tpl[0]))
#define FIRST_SNAP_ID 64 /* snapd mounts its packages after the boot mounts (ns_plan.c HOST_FIRST_FREE_ID) */

/* A container's (docker's, and a pod's with the k8s paths); ids are offsets, devices slots. */
static const struct tpl docker_tpl[] = {
	{ 0, -1, 0, "/", "/", RELATIME, 0, "overlay", "overlay", 0,
	  "lowerdir=/var/lib/docker/overlay2/l/{A}:/var/lib/docker/overlay2/l/{B},"
	  "upperdir=/var/lib/docker/overlay2/{L}/diff,workdir=/var/lib/docker/overlay2/{L}/work,nouserxattr" },
	{ 1, 0, 1, "/", "/proc", NNNR, 0, "proc", "proc", 0, NULL },
	{ 2, 0, 2, "/", "/dev", NOSUID, 0, "tmpfs", "tmpfs", 0, "size=65536k,mode=755,inode64" },
	{ 3, 2, 3, "/", "/dev/pts", NOSUID | NOEXEC | RELATIME, 0, "devpts", "devpts", 0, "gid=5,mode=620,ptmxmode=666" },
	{ 4, 0, 4, "/", "/sys", RO | NNNR, 0, "sysfs", "sysfs", MACH_SB_RDONLY, NULL },
	{ 5, 4, DEV_CGROUP2, "/", "/sys/fs/cgroup", RO | NNNR, 0, "cgroup2", "cgroup", 0, "nsdelegate,memory_recursiveprot" },
	{ 6, 2, 5, "/", "/dev/mqueue", NNNR, 0, "mqueue", "mqueue", 0, NULL },
	{ 7, 2, 6, "/", "/dev/shm", NNNR, 0, "tmpfs", "shm", 0, "size=65536k,inode64" },
	{ 8, 0, DEV_DISK(SY_FS_ROOT), "/var/lib/docker/containers/{C}/resolv.conf", "/etc/resolv.conf", RELATIME, 0, "ext4", NULL, 0, NULL },
	{ 9, 0, DEV_DISK(SY_FS_ROOT), "/var/lib/docker/containers/{C}/hostname", "/etc/hostname", RELATIME, 0, "ext4", NULL, 0, NULL },
	{ 10, 0, DEV_DISK(SY_FS_ROOT), "/var/lib/docker/containers/{C}/hosts", "/etc/hosts", RELATIME, 0, "ext4", NULL, 0, NULL },
};
#define NDOCKER (sizeof(docker_tpl) / sizeof(docker_tpl[0]))

static const struct tpl pod_tpl[] = {
	{ 0, -1, 0, "/", "/", RELATIME, 0, "overlay", "overlay", 0,
	  "lowerdir=/var/lib/containerd/io.containerd.snapshotter.v1.overlayfs/snapshots/{N}/fs,"
	  "upperdir=/var/lib/containerd/io.containerd.snapshotter.v1.overlayfs/snapshots/{M}/fs,"
	  "workdir=/var/lib/containerd/io.containerd.snapshotter.v1.overlayfs/snapshots/{M}/work" },
	{ 1, 0, 1, "/", "/proc", NNNR, 0, "proc", "proc", 0, NULL },
	{ 2, 0, 2, "/", "/dev", NOSUID, 0, "tmpfs", "tmpfs", 0, "size=65536k,mode=755,inode64" },
	{ 3, 2, 3, "/", "/dev/pts", NOSUID | NOEXEC | RELATIME, 0, "devpts", "devpts", 0, "gid=5,mode=620,ptmxmode=666" },
	{ 4, 2, 5, "/", "/dev/mqueue", NNNR, 0, "mqueue", "mqueue", 0, NULL },
	{ 5, 0, 4, "/", "/sys", RO | NNNR, 0, "sysfs", "sysfs", MACH_SB_RDONLY, NULL },
	{ 6, 5, DEV_CGROUP2, "/", "/sys/fs/cgroup", RO | NNNR, 0, "cgroup2", "cgroup", 0, "nsdelegate,memory_recursiveprot" },
	{ 7, 0, DEV_DISK(SY_FS_ROOT), "/var/lib/kubelet/pods/{U}/etc-hosts", "/etc/hosts", RELATIME, 0, "ext4", NULL, 0, NULL },
	{ 8, 2, DEV_DISK(SY_FS_ROOT), "/var/lib/kubelet/pods/{U}/containers/{n}/{T}", "/dev/termination-log", RELATIME, 0, "ext4", NULL, 0, NULL },
	{ 9, 0, DEV_DISK(SY_FS_ROOT), "/var/lib/containerd/io.containerd.grpc.v1.cri/sandboxes/{S}/hostname", "/etc/hostname", RELATIME, 0, "ext4", NULL, 0, NULL },
	{ 10, 0, DEV_DISK(SY_FS_ROOT), "/var/lib/containerd/io.containerd.grpc.v1.cri/sandboxes/{S}/resolv.conf", "/etc/resolv.conf", RELATIME, 0, "ext4", NULL, 0, NULL },
	{ 11, 2, 6, "/", "/dev/shm", NNNR, 0, "tmpfs", "shm", 0, "size=65536k,inode64" },
	{ 12, 0, 9, "/", "/var/run/secrets/kubernetes.io/serviceaccount", RO | RELATIME, 0, "tmpfs", "tmpfs", 0, "size={K}k,inode64" },
};
#define NPOD (sizeof(pod_tpl) / sizeof(pod_tpl[0]))

/*
 * What every runtime masks or makes read-only, after its own mounts: ids
 * count on from there, parents are the table's proc (PARENT_PROC) or sysfs
 * (PARENT_SYS), devices the slots both templates give proc (1), /dev (2)
 * and the two empty tmpfs (7, 8).
 */
#define PARENT_PROC (-2)
#define PARENT_SYS (-3)
static const struct tpl masked_tpl[] = {
	{ 0, PARENT_PROC, 1, "/bus", "/proc/bus", RO | NNNR, 0, "proc", "proc", 0, NULL },
	{ 1, PARENT_PROC, 1, "/fs", "/proc/fs", RO | NNNR, 0, "proc", "proc", 0, NULL },
	{ 2, PARENT_PROC, 1, "/irq", "/proc/irq", RO | NNNR, 0, "proc", "proc", 0, NULL },
	{ 3, PARENT_PROC, 1, "/sys", "/proc/sys", RO | NNNR, 0, "proc", "proc", 0, NULL },
	{ 4, PARENT_PROC, 1, "/sysrq-trigger", "/proc/sysrq-trigger", RO | NNNR, 0, "proc", "proc", 0, NULL },
	{ 5, PARENT_PROC, 7, "/", "/proc/acpi", RO | RELATIME, 0, "tmpfs", "tmpfs", MACH_SB_RDONLY, "inode64" },
	{ 6, PARENT_PROC, 2, "/null", "/proc/kcore", NOSUID, 0, "tmpfs", "tmpfs", 0, "size=65536k,mode=755,inode64" },
	{ 7, PARENT_PROC, 2, "/null", "/proc/keys", NOSUID, 0, "tmpfs", "tmpfs", 0, "size=65536k,mode=755,inode64" },
	{ 8, PARENT_PROC, 2, "/null", "/proc/timer_list", NOSUID, 0, "tmpfs", "tmpfs", 0, "size=65536k,mode=755,inode64" },
	{ 9, PARENT_SYS, 8, "/", "/sys/firmware", RO | RELATIME, 0, "tmpfs", "tmpfs", MACH_SB_RDONLY, "inode64" },
};
#define NMASKED (sizeof(masked_tpl) / sizeof(masked_tpl[0]))

unsigned int ns_mnt_count(const struct synth *s, enum sy_mnt_kind kind)
{
	(void)s;
	switch (kind) {
	case MP_HOST:
		return NHOST; /* /run/user/UID mounts take their ids when users log in */
	case MP_DEVTMPFS:
		return 1;
	case MP_SERVICE:
		return NHOST + 2;
	case MP_CONTAINER:
		return NDOCKER + NMASKED;
	default:
		return NPOD + NMASKED;
	}
}

/* What a table's placeholders stand for. */
struct fill {
	const struct synth *s;
	char id[65], sandbox[65], layer[65], a[27], b[27], uid[37], hash[9];
	const char *name;
	unsigned long long snap, ram_kb;
	char *strings;             /* the block of strings of the table being filled */
	size_t slen, scap;
};

/*
 * @tpl with its placeholders replaced, appended to the table's block of
 * strings.  Until the block is final (finish_strings) it may move, so what
 * is kept is the offset + 1, disguised as the pointer; NULL stays NULL.
 */
static char *expand(struct fill *f, const char *tpl, bool *fail)
{
	char buf[1024], *out = buf;
	size_t len;

	if (!tpl)
		return NULL;
	for (const char *t = tpl; *t && out < buf + sizeof(buf) - 80; t++) {
		if (*t != '{' || !t[1] || t[2] != '}') {
			*out++ = *t;
			continue;
		}
		switch (t[1]) {
		case 'C': out += sprintf(out, "%s", f->id); break;
		case 'S': out += sprintf(out, "%s", f->sandbox); break;
		case 'L': out += sprintf(out, "%s", f->layer); break;
		case 'A': out += sprintf(out, "%s", f->a); break;
		case 'B': out += sprintf(out, "%s", f->b); break;
		case 'U': out += sprintf(out, "%s", f->uid); break;
		case 'T': out += sprintf(out, "%s", f->hash); break;
		case 'n': out += sprintf(out, "%s", f->name); break;
		case 'N': out += sprintf(out, "%llu", f->snap); break;
		case 'M': out += sprintf(out, "%llu", f->snap + 1); break;
		case 'D': out += sprintf(out, "%llu", f->ram_kb / 2 / 4 * 4); break;
		case 'd': out += sprintf(out, "%llu", f->ram_kb / 2 / 4); break;
		case 'R': out += sprintf(out, "%llu", f->ram_kb / 10 / 4 * 4); break;
		case 'K': out += sprintf(out, "%llu", f->ram_kb < 100000000 ? 1024ull * 1024 : 2048ull * 1024); break;
		}
		t += 2;
	}
	*out = '\0';
	len = (size_t)(out - buf) + 1;
	if (f->slen + len > f->scap) {
		size_t cap = f->scap ? f->scap : 4096;
		char *n;

		while (cap < f->slen + len)
			cap *= 2;
		n = realloc(f->strings, cap);
		if (!n) {
			*fail = true;
			return NULL;
		}
		f->strings = n;
		f->scap = cap;
	}
	memcpy(f->strings + f->slen, buf, len);
	f->slen += len;
	return (char *)(uintptr_t)(f->slen - len + 1);
}

/* The table's block of strings final: the mounts' offsets become pointers into it, and it the table's. */
static int finish_strings(struct fill *f, struct mach_mnt_table *t, bool fail)
{
	char *block = f->strings;
	size_t used = f->slen, cap = f->scap;

	f->strings = NULL;
	f->slen = f->scap = 0;
	if (fail) {
		free(block);
		free(t->mounts);
		t->mounts = NULL;
		t->n = 0;
		return -ENOMEM;
	}
	/* the block grew by doubling from 4 KiB: a namespace's table keeps what it holds */
	if (used && used < cap) {
		char *fit = realloc(block, used);

		if (fit)
			block = fit;
	}
	for (size_t i = 0; i < t->n; i++) {
		char **fields[] = { &t->mounts[i].root, &t->mounts[i].point, &t->mounts[i].fstype,
				    &t->mounts[i].source, &t->mounts[i].fs_opts };

		for (size_t k = 0; k < sizeof(fields) / sizeof(fields[0]); k++)
			if (*fields[k])
				*fields[k] = block + ((uintptr_t)*fields[k] - 1);
	}
	t->strings = block;
	return 0;
}

/* One mount from its template: @id and @parent given, @dev_base the table's first minor. */
static void from_tpl(struct fill *f, const struct tpl *t, int id, int parent, uint32_t dev_base,
		     struct mach_mount *m, bool *fail)
{
	const struct sy_blockfs *fs = t->dev < 0 && t->dev > DEV_CGROUP2 ? &f->s->blockfs[-1 - t->dev] : NULL;

	*m = (struct mach_mount){ .id = id, .parent = parent, .mnt_flags = t->mnt, .sb_flags = t->sb,
				  .shared = t->shared };
	if (fs) {
		m->major = fs->major;
		m->minor = fs->minor;
		m->source = expand(f, fs->dev, fail);
		m->fs_opts = expand(f, fs->opts, fail);
	} else {
		m->minor = t->dev == DEV_CGROUP2 ? CGROUP2_MINOR : dev_base + (uint32_t)t->dev;
		m->source = expand(f, t->source, fail);
		m->fs_opts = expand(f, t->opts, fail);
	}
	m->root = expand(f, t->root, fail);
	m->point = expand(f, t->point, fail);
	m->fstype = expand(f, t->fstype, fail);
}

/* 26 characters of docker's short layer names. */
static void short_id(struct rng *r, char out[27])
{
	static const char set[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

	for (int i = 0; i < 26; i++)
		out[i] = set[rng_below(r, 32)];
	out[26] = '\0';
}

/* Whether host mount @h is on this machine: a disk's filesystem only when the layout has it. */
static bool host_has(const struct synth *s, const struct tpl *h)
{
	return !(h->dev < 0 && h->dev > DEV_CGROUP2) || s->blockfs[-1 - h->dev].present;
}

/* The snap package loop device @b mounts, "/snap/NAME/REV"; false when it backs none. */
static bool snap_point(const struct mach_blkdev *b, char *point, size_t size)
{
	const char *file = b->backing_file, *under = "/var/lib/snapd/snaps/", *us, *dot;

	if (b->kind != MACH_BLK_LOOP || !file || strncmp(file, under, strlen(under)))
		return false;
	file += strlen(under);
	us = strrchr(file, '_');
	dot = strrchr(file, '.');
	if (!us || !dot || dot < us)
		return false;
	snprintf(point, size, "/snap/%.*s/%.*s", (int)(us - file), file, (int)(dot - us - 1), us + 1);
	return true;
}

/* The snaps' squashfs mounts: ids after the host's boot mounts, on /, shared. */
static size_t snap_mounts(struct fill *f, struct mach_mount *out, bool *fail)
{
	const struct mach_sys *sys = &f->s->m->sys;
	size_t n = 0;

	for (size_t i = 0; i < sys->nblk; i++) {
		char point[128], source[48];

		if (!snap_point(&sys->blk[i], point, sizeof(point)))
			continue;
		if (out) {
			snprintf(source, sizeof(source), "/dev/%s", sys->blk[i].name);
			from_tpl(f, &(struct tpl){ 0, 0, 0, "/", point, NODEV | RO | RELATIME, 0, "squashfs", source,
						   MACH_SB_RDONLY, "errors=continue,threads=single" },
				 FIRST_SNAP_ID + (int)n, 26, 0, &out[n], fail);
			out[n].major = sys->blk[i].major;
			out[n].minor = sys->blk[i].minor;
			out[n].shared = FIRST_SNAP_ID + (int)n;
		}
		n++;
	}
	return n;
}

static int host_table(struct fill *f, struct mach_mnt_table *t)
{
	const struct sy_ns_state *ns = f->s->ns;
	size_t n = 0, nsnaps = snap_mounts(f, NULL, NULL);
	bool fail = false;

	t->n = NHOST + nsnaps + ns->nrun_users;
	t->mounts = calloc(t->n, sizeof(*t->mounts));
	if (!t->mounts)
		return -ENOMEM;
	for (size_t i = 0; i < NHOST; i++)
		if (host_has(f->s, &host_tpl[i]))
			from_tpl(f, &host_tpl[i], host_tpl[i].id, host_tpl[i].parent, 0, &t->mounts[n++], &fail);
	n += snap_mounts(f, &t->mounts[n], &fail);
	t->n = n + ns->nrun_users;
	for (size_t k = 0; k < ns->nrun_users; k++) {
		const struct sy_run_user *u = &ns->run_users[k];
		struct mach_mount *m = &t->mounts[n + k];
		char point[64], opts[160];

		snprintf(point, sizeof(point), "/run/user/%u", u->uid);
		snprintf(opts, sizeof(opts), "size=%lluk,nr_inodes=%llu,mode=700,uid=%u,gid=%u,inode64",
			 f->ram_kb / 10 / 4 * 4, f->ram_kb / 10 / 4, u->uid, u->uid);
		from_tpl(f, &(struct tpl){ 0, 0, 0, "/", point, NOSUID | NODEV | RELATIME, 0, "tmpfs", "tmpfs", 0, opts },
			 u->id, 25, u->minor, m, &fail);
		m->shared = 100 + (int)k;
	}
	return finish_strings(f, t, fail);
}

/*
 * The host's boot mounts as a copy of the namespace holds them: the root
 * first, the others in order, those of disks the layout lacks left out.
 * Their host_tpl indices into @idx; how many.
 */
static size_t service_order(const struct synth *s, size_t idx[NHOST])
{
	size_t n = 0;

	for (size_t j = 0; j < NHOST; j++)
		if (host_tpl[j].parent == 1)
			idx[n++] = j;
	for (size_t j = 0; j < NHOST; j++)
		if (host_tpl[j].parent != 1 && host_has(s, &host_tpl[j]))
			idx[n++] = j;
	return n;
}

/* A PrivateTmp service: / first, then the host's other boot mounts, as slaves; its /tmp and /var/tmp. */
static int service_table(struct fill *f, const struct sy_mnt_plan *mp, struct mach_mnt_table *t)
{
	static const char *const units[NR_PROGS] = {
		[P_UDEVD] = "systemd-udevd", [P_NETWORKD] = "systemd-networkd", [P_RESOLVED] = "systemd-resolved",
		[P_TIMESYNCD] = "systemd-timesyncd", [P_LOGIND] = "systemd-logind",
	};
	const char *unit = units[f->s->gen[mp->owner].prog] ? units[f->s->gen[mp->owner].prog] : "service";
	struct rng r;
	char boot[33], root[200];
	size_t idx[NHOST], nh = service_order(f->s, idx);
	bool fail = false;

	t->n = nh + 2;
	t->mounts = calloc(t->n, sizeof(*t->mounts));
	if (!t->mounts)
		return -ENOMEM;
	for (size_t i = 0; i < nh; i++) {
		const struct tpl *h = &host_tpl[idx[i]];
		int parent = mp->first_id - 1; /* the root's: outside the table */

		for (size_t j = 0; j < nh; j++)
			if (host_tpl[idx[j]].id == h->parent)
				parent = mp->first_id + (int)j;
		from_tpl(f, h, mp->first_id + (int)i, parent, 0, &t->mounts[i], &fail);
		t->mounts[i].shared = 0;
		t->mounts[i].master = h->shared;
	}
	rng_init(&r, f->s->o->seed, KEY_CONTAINER + mp->owner);
	snprintf(boot, sizeof(boot), "%016llx%016llx", (unsigned long long)rng_next(&r), (unsigned long long)rng_next(&r));
	for (int j = 0; j < 2; j++) {
		const char *dir = j ? "/var/tmp" : "/tmp";

		snprintf(root, sizeof(root), "%s/systemd-private-%s-%s.service-%06llx/tmp", dir, boot, unit,
			 (unsigned long long)(rng_next(&r) & 0xffffff));
		from_tpl(f, &(struct tpl){ 0, 0, DEV_DISK(SY_FS_ROOT), root, dir, RELATIME, 0, "ext4", NULL, 0, NULL },
			 mp->first_id + (int)nh + j, mp->first_id, 0, &t->mounts[nh + j], &fail);
	}
	return finish_strings(f, t, fail);
}

size_t ns_container_shim(const struct synth *s, size_t owner)
{
	pid_t shim = s->m->procs[owner].ppid; /* a pid by now: the shim was planned just before its children */
	size_t sidx = owner;

	while (sidx > 0 && s->m->procs[sidx].tgid != shim)
		sidx--;
	return sidx;
}

/* A container's placeholders: its id, its pod's and sandbox's (@sidx: its shim), layer names from its stream. */
static void container_fill(struct fill *f, size_t owner, size_t sidx, bool pod)
{
	const struct synth *s = f->s;
	struct rng r;

	sy_container_id(s, owner, f->id);
	sy_container_id(s, sidx + 1, f->sandbox);
	rng_init(&r, s->o->seed, KEY_CONTAINER + owner);
	for (int k = 0; k < 8; k++) /* past the container id's draws */
		rng_next(&r);
	snprintf(f->layer, sizeof(f->layer), "%016llx%016llx%016llx%016llx", (unsigned long long)rng_next(&r),
		 (unsigned long long)rng_next(&r), (unsigned long long)rng_next(&r), (unsigned long long)rng_next(&r));
	short_id(&r, f->a);
	short_id(&r, f->b);
	snprintf(f->hash, sizeof(f->hash), "%08llx", (unsigned long long)(rng_next(&r) & 0xffffffff));
	f->snap = 10 + rng_below(&r, 4000);
	f->name = s->gen[owner].prog == P_PAUSE ? "pause" : "app";
	if (pod)
		ns_pod_uid(s, sidx, '-', f->uid);
}

static int container_table(struct fill *f, const struct sy_mnt_plan *mp, size_t shim, struct mach_mnt_table *t)
{
	bool pod = mp->kind == MP_POD;
	const struct tpl *tpl = pod ? pod_tpl : docker_tpl;
	size_t n = pod ? NPOD : NDOCKER;
	int proc = -1, sys = -1;
	bool fail = false;

	container_fill(f, mp->owner, shim, pod);
	t->n = n + NMASKED;
	t->mounts = calloc(t->n, sizeof(*t->mounts));
	if (!t->mounts)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		from_tpl(f, &tpl[i], mp->first_id + tpl[i].id, mp->first_id + tpl[i].parent, mp->first_minor,
			 &t->mounts[i], &fail);
		if (!strcmp(tpl[i].point, "/proc"))
			proc = tpl[i].id;
		else if (!strcmp(tpl[i].point, "/sys"))
			sys = tpl[i].id;
	}
	for (size_t i = 0; i < NMASKED; i++) {
		const struct tpl *m = &masked_tpl[i];

		from_tpl(f, m, mp->first_id + (int)n + m->id, mp->first_id + (m->parent == PARENT_PROC ? proc : sys),
			 mp->first_minor, &t->mounts[n + i], &fail);
	}
	return finish_strings(f, t, fail);
}

int ns_fill_table(const struct synth *s, const struct sy_mnt_plan *mp, struct mach_mnt_table *t)
{
	struct fill f = { .s = s, .ram_kb = s->m->meminfo[MACH_MEMINFO_MEMTOTAL] };
	bool fail = false;
	int rc;

	switch ((enum sy_mnt_kind)mp->kind) {
	case MP_HOST:
		rc = host_table(&f, t);
		break;
	case MP_DEVTMPFS:
		t->n = 1;
		t->mounts = calloc(1, sizeof(*t->mounts));
		if (!t->mounts)
			return -ENOMEM;
		from_tpl(&f, &(struct tpl){ 0, 0, 5, "/", "/", RELATIME, 0, "devtmpfs", "devtmpfs", 0,
					    "size={D}k,nr_inodes={d},mode=755,inode64" },
			 7, 6, 0, t->mounts, &fail);
		rc = finish_strings(&f, t, fail);
		break;
	case MP_SERVICE:
		rc = service_table(&f, mp, t);
		break;
	default:
		rc = container_table(&f, mp, ns_container_shim(s, mp->owner), t);
		break;
	}
	return rc;
}

int ns_fill_container(const struct synth *s, const struct sy_mnt_plan *mp, size_t shim, uint64_t ram_kb,
		      struct mach_mnt_table *t)
{
	struct fill f = { .s = s, .ram_kb = ram_kb };

	return container_table(&f, mp, shim, t);
}
