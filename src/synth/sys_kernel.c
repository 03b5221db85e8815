// SPDX-License-Identifier: MIT
/*
 * sys_kernel.c - what a synthetic machine's kernel says of itself: its
 * version banner and command line, the filesystem types, char majors, misc
 * devices and cgroup controllers it registered, and the file locks its
 * daemons hold.
 *
 * The command line names the root device the storage layout chose
 * (/dev/vda, or the root LV by its /dev/mapper name).  The registries are
 * an Ubuntu server's, in the kernel's registration order; a microVM's
 * kernel is the reference VM's, with less built in.  Locks are the ones
 * such daemons take: cron's pid file, multipathd's, containerd's and
 * dockerd's bolt databases, a Python worker's SQLite database.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/vec.h"
#include "devices.h"
#include "synth_int.h"


static int identity(struct synth *s, struct rng *r)
{
	struct mach_sys *sys = &s->m->sys;
	struct mach_kernel_id *k = &sys->kid;
	const struct mach_blkdev *root = sys->root_blk >= 0 ? &sys->blk[sys->root_blk] : NULL;
	static const char *const days[] = { "Mon", "Tue", "Wed", "Thu", "Fri" };
	char line[512];

	snprintf(k->sysname, sizeof(k->sysname), "Linux");
	snprintf(k->compile_by, sizeof(k->compile_by), "buildd");
	snprintf(k->compile_host, sizeof(k->compile_host), "lcy02-amd64-%03u", (unsigned int)rng_range(r, 1, 120));
	snprintf(k->compiler, sizeof(k->compiler), "x86_64-linux-gnu-gcc-15 (Ubuntu 15.2.0-4ubuntu4) 15.2.0, "
		 "GNU ld (GNU Binutils for Ubuntu) 2.45");
	snprintf(k->uts_version, sizeof(k->uts_version), "#%u-Ubuntu SMP PREEMPT_DYNAMIC %s Nov %2u %02u:%02u:%02u UTC 2025",
		 (unsigned int)rng_range(r, 1, 40), days[rng_below(r, 5)], (unsigned int)rng_range(r, 1, 28),
		 (unsigned int)rng_below(r, 24), (unsigned int)rng_below(r, 60), (unsigned int)rng_below(r, 60));
	if (s->storage == ST_MICROVM)
		snprintf(line, sizeof(line), "console=ttyS0 reboot=k panic=1 pci=off root=/dev/%s rw",
			 root ? root->name : "vda");
	else
		snprintf(line, sizeof(line), "BOOT_IMAGE=/vmlinuz-%s root=/dev/mapper/%s ro%s",
			 s->m->profile.kernel_release, root ? root->dm_name : "root",
			 s->storage == ST_CLOUD_LVM ? " console=tty1 console=ttyS0" : rng_chance(r, 0.5) ? " quiet" : "");
	k->cmdline = strdup(line);
	return k->cmdline ? 0 : -ENOMEM;
}

static const char *const fs_ubuntu[] = {
	"-sysfs", "-tmpfs", "-bdev", "-proc", "-cgroup", "-cgroup2", "-cpuset", "-devtmpfs", "-configfs",
	"-debugfs", "-tracefs", "-securityfs", "-sockfs", "-bpf", "-pipefs", "-ramfs", "-hugetlbfs", "-devpts",
	"+ext3", "+ext2", "+ext4", "+squashfs", "+vfat", "-ecryptfs", "+fuseblk", "-fuse", "-fusectl",
	"-efivarfs", "-mqueue", "-pstore", "+btrfs", "-autofs", "-binfmt_misc", "-overlay", NULL,
};
static const char *const fs_microvm[] = {
	"-sysfs", "-tmpfs", "-proc", "-cgroup", "-cgroup2", "-cpuset", "-devtmpfs", "-binfmt_misc", "-debugfs",
	"-tracefs", "-securityfs", "-sockfs", "-bpf", "-pipefs", "-ramfs", "-hugetlbfs", "-devpts", "+ext3",
	"+ext2", "+ext4", "+squashfs", "-autofs", "+fuseblk", "-fuse", "-fusectl", "-overlay", "-mqueue", NULL,
};

/* Char majors, as "NNN name" in /proc/devices order. */
static const char *const chr_ubuntu[] = {
	"1 mem", "4 /dev/vc/0", "4 tty", "4 ttyS", "5 /dev/tty", "5 /dev/console", "5 /dev/ptmx", "5 ttyprintk",
	"7 vcs", "10 misc", "13 input", "21 sg", "29 fb", "89 i2c", "99 ppdev", "108 ppp", "128 ptm", "136 pts",
	"180 usb", "189 usb_device", "202 cpu/msr", "204 ttyMAX", "226 drm", "235 aux", "236 cec",
	"237 lirc", "238 ipmidev", "239 hidraw", "240 ttyDBC", "241 wwan_port", "242 bsg", "243 watchdog",
	"244 remoteproc", "245 ptp", "246 pps", "247 rtc", "248 dma_heap", "249 dax", "250 dimmctl",
	"251 ndctl", "252 tpm", "253 gnss", "254 gpiochip", NULL,
};
static const char *const chr_microvm[] = {
	"1 mem", "4 /dev/vc/0", "4 tty", "4 ttyS", "5 /dev/tty", "5 /dev/console", "5 /dev/ptmx", "7 vcs",
	"10 misc", "13 input", "128 ptm", "136 pts", "203 cpu/cpuid", "245 hidraw", "246 macvtap", "247 mei",
	"248 bsg", "249 watchdog", "250 ptp", "251 pps", "252 dax", "253 dimmctl", "254 ndctl", NULL,
};
/* Misc devices, newest first. */
static const char *const misc_ubuntu[] = {
	"231 snapshot", "183 hw_random", "234 btrfs-control", "235 autofs", "228 hpet", "229 fuse",
	"242 rfkill", "227 mcelog", "236 device-mapper", "237 loop-control", "59 network_throughput",
	"60 network_latency", "61 cpu_dma_latency", "62 ecryptfs", "1 psaux", "200 tun", "223 uinput",
	"196 vfio/vfio", "144 nvram", "238 vhost-net", "241 vhost-vsock", "239 uhid", "240 userio",
	"232 kvm", "63 vga_arbiter", NULL,
};
static const char *const misc_microvm[] = {
	"234 btrfs-control", "259 cpu_dma_latency", "258 vsock", "200 tun", "237 loop-control", "229 fuse",
	"235 autofs", "257 userfaultfd", "232 kvm", "183 hw_random", "256 vga_arbiter", NULL,
};
static const char *const controllers[] = {
	"cpuset", "cpu", "cpuacct", "blkio", "memory", "devices", "freezer", "net_cls", "perf_event",
	"net_prio", "hugetlb", "pids", NULL,
};

static size_t count(const char *const *list)
{
	size_t n = 0;

	while (list[n])
		n++;
	return n;
}

static int registries(struct synth *s)
{
	struct mach_sys *sys = &s->m->sys;
	bool vm = s->storage == ST_MICROVM;
	const char *const *fs = vm ? fs_microvm : fs_ubuntu, *const *chr = vm ? chr_microvm : chr_ubuntu;
	const char *const *misc = vm ? misc_microvm : misc_ubuntu;

	sys->fstypes = calloc(count(fs), sizeof(*sys->fstypes));
	sys->chrdevs = calloc(count(chr), sizeof(*sys->chrdevs));
	sys->misc = calloc(count(misc), sizeof(*sys->misc));
	if (!sys->fstypes || !sys->chrdevs || !sys->misc)
		return -ENOMEM;
	for (; fs[sys->nfstypes]; sys->nfstypes++) {
		sys->fstypes[sys->nfstypes].requires_dev = fs[sys->nfstypes][0] == '+';
		snprintf(sys->fstypes[sys->nfstypes].name, sizeof(sys->fstypes[0].name), "%s", fs[sys->nfstypes] + 1);
	}
	for (; chr[sys->nchrdevs]; sys->nchrdevs++) {
		struct mach_devmajor *d = &sys->chrdevs[sys->nchrdevs];
		const char *sp = strchr(chr[sys->nchrdevs], ' ');

		d->major = (unsigned int)strtoul(chr[sys->nchrdevs], NULL, 10);
		snprintf(d->name, sizeof(d->name), "%s", sp + 1);
	}
	for (; misc[sys->nmisc]; sys->nmisc++) {
		struct mach_miscdev *d = &sys->misc[sys->nmisc];

		d->minor = (unsigned int)strtoul(misc[sys->nmisc], NULL, 10);
		snprintf(d->name, sizeof(d->name), "%s", strchr(misc[sys->nmisc], ' ') + 1);
	}
	return 0;
}

/* How many cgroups the unified hierarchy has: its live groups (the tree of ns_cgroups.c). */
static int sy_cgroup_count(const struct synth *s)
{
	int n = 0;

	for (size_t i = 0; i < s->m->ncgroups; i++)
		n += !s->m->cgroups[i].dead;
	return n ? n : 1;
}

static int cgroup_controllers(struct synth *s)
{
	struct mach_sys *sys = &s->m->sys;
	size_t n = count(controllers);
	int groups = sy_cgroup_count(s);

	sys->cgroup_subsys = calloc(n, sizeof(*sys->cgroup_subsys));
	if (!sys->cgroup_subsys)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		struct mach_cgroup_subsys *ss = &sys->cgroup_subsys[i];

		snprintf(ss->name, sizeof(ss->name), "%s", controllers[i]);
		ss->num_cgroups = groups; /* v2 only: every controller sits on the default hierarchy (id 0) */
		ss->enabled = true;
	}
	sys->ncgroup_subsys = n;
	return 0;
}

/*
 * The machine's lock list, from the fd tables: every lock is held through
 * an open file of its owner (fdinfo prints it), and /proc/locks lists them
 * all, plus the requests blocked on them (which no fdinfo shows).
 */
struct lock_list {
	struct mach_file_lock *v;
	size_t n, cap;
	struct synth *s;
	uint32_t root_major, root_minor; /* the root filesystem's device */
};

/* Append a copy of @k to the list, numbered as the kernel numbers: waiters share their holder's id. */
static int push_lock(struct lock_list *l, const struct mach_file_lock *k)
{
	struct mach_file_lock *n = VEC_PUSH(l->v, l->n, l->cap);

	if (!n)
		return -ENOMEM;
	*n = *k;
	n->id = k->level ? l->v[l->n - 2].id : (l->n > 1 ? l->v[l->n - 2].id + 1 : 1);
	return 0;
}

/* Locks the fd tables already hold (a daemon's pid file), in process order. */
static int held_locks(struct lock_list *l)
{
	const struct mach_machine *m = l->s->m;
	int rc = 0;

	for (size_t i = 0; i < m->nprocs && !rc; i++) {
		const struct mach_files *t = m->procs[i].files;

		/* a table the maker makes holds no lock: the build stores those that do (sy_build_files) */
		for (unsigned int j = 0; t && t->fds && j < t->nfds && !rc; j++)
			for (unsigned int k = 0; k < mach_fd_info(&t->fds[j])->nlocks && !rc; k++)
				rc = push_lock(l, &mach_fd_info(&t->fds[j])->locks[k]);
	}
	return rc;
}

/*
 * Lock @path for @p: through the fd its table has on the file (opened if
 * none), which then shows the lock in fdinfo; @level > 0 is a request
 * blocked behind the lock before it, which no fdinfo shows.  A lock the
 * table already holds is not taken twice.
 */
static int add_lock(struct lock_list *l, struct mach_process *p, enum mach_lock_class cls,
		    enum mach_lock_type type, bool on_run, const char *path, int64_t start, int64_t end,
		    unsigned int level)
{
	/* a kernel thread's table is init's, a zombie has none: only user processes lock */
	struct mach_fd *f = p->mm ? sy_files_open_path(l->s, p, path, on_run) : NULL;
	struct mach_file_lock k = {
		.level = level, .cls = cls, .type = type, .pid = cls == MACH_LOCK_OFDLCK ? -1 : p->tgid,
		.has_inode = true, .start = start, .end = end, .fd = f ? f->fd : -1,
		/* files under /run are on its tmpfs, the others on the root filesystem */
		.dev_major = on_run ? 0 : l->root_major, .dev_minor = on_run ? SY_RUN_DEV_MINOR : l->root_minor,
	};
	const struct mach_fd_info *held;
	int rc;

	if (!f)
		return p->mm && p->files ? -ENOMEM : 0;
	k.ino = f->ino;
	held = mach_fd_info(f);
	for (unsigned int i = 0; i < held->nlocks; i++)
		if (held->locks[i].cls == cls && held->locks[i].start == start && held->locks[i].end == end)
			return 0;
	if (!level) {
		struct mach_file_lock own = k;

		own.id = held->nlocks + 1;
		if ((rc = mach_fd_add_lock(f, &own)))
			return rc;
	}
	return push_lock(l, &k);
}

/* The locks the daemons of the machine hold, in the order they took them. */
static int file_locks(struct synth *s, struct rng *r)
{
	struct lock_list l = { .s = s };
	bool waiter = rng_chance(r, 0.3);
	unsigned int sqlite = 0;
	int rc;

	sy_root_dev(s, 0, &l.root_major, &l.root_minor); /* plan 0: a host process */
	rc = held_locks(&l);
	for (size_t i = 0; i < s->m->nprocs && !rc; i++) {
		struct mach_process *p = &s->m->procs[i];
		const char *comm = p->nthreads ? mach_thread_comm(&p->threads[0]) : "";

		if (!p->mm)
			continue;
		if (!strcmp(comm, "cron") && p->ppid == 1)
			rc = add_lock(&l, p, MACH_LOCK_FLOCK, MACH_LOCK_WRITE, true, "/run/crond.pid", 0, MACH_LOCK_EOF, 0);
		else if (!strcmp(comm, "multipathd"))
			rc = add_lock(&l, p, MACH_LOCK_POSIX, MACH_LOCK_WRITE, true, "/run/multipathd.pid", 0,
				      MACH_LOCK_EOF, 0);
		else if (!strcmp(comm, "containerd"))
			rc = add_lock(&l, p, MACH_LOCK_FLOCK, MACH_LOCK_WRITE, false,
				      "/var/lib/containerd/io.containerd.metadata.v1.bolt/meta.db", 0, MACH_LOCK_EOF, 0);
		else if (!strcmp(comm, "dockerd"))
			rc = add_lock(&l, p, MACH_LOCK_FLOCK, MACH_LOCK_WRITE, false, "/var/lib/docker/volumes/metadata.db",
				      0, MACH_LOCK_EOF, 0) ||
			     add_lock(&l, p, MACH_LOCK_FLOCK, MACH_LOCK_WRITE, false,
				      "/var/lib/docker/network/files/local-kv.db", 0, MACH_LOCK_EOF, 0);
		else if (!strcmp(comm, "python3") && sqlite < 2 && rng_chance(r, 0.4)) {
			sqlite++;
			/* SQLite's shared lock: the byte range past its pending byte */
			rc = add_lock(&l, p, MACH_LOCK_POSIX, MACH_LOCK_READ, false, "/opt/app/data/app.db", 1073741826,
				      1073742335, 0);
			if (!rc && waiter && i + 1 < s->m->nprocs && s->m->procs[i + 1].files) {
				/* another worker waits to write: blocked on the pending byte */
				rc = add_lock(&l, p + 1, MACH_LOCK_POSIX, MACH_LOCK_WRITE, false, "/opt/app/data/app.db",
					      1073741824, 1073741824, 1);
				waiter = false;
			}
		}
	}
	if (!rc && rng_chance(r, 0.5)) {
		/* an OFD lock (owned by the open file, pid -1): a container runtime's state file, by the last process */
		size_t last = s->m->nprocs;

		while (last > 0 && !s->m->procs[last - 1].mm)
			last--;
		if (last)
			rc = add_lock(&l, &s->m->procs[last - 1], MACH_LOCK_OFDLCK, MACH_LOCK_WRITE, true,
				      "/run/containerd/runc/k8s.io/state.json", 0, MACH_LOCK_EOF, 0);
	}
	s->m->sys.locks = l.v;
	s->m->sys.nlocks = l.n;
	return rc;
}

int sy_build_kernel(struct synth *s)
{
	struct rng r;
	int rc;

	rng_init(&r, s->o->seed, KEY_KERNEL);
	if ((rc = identity(s, &r)) || (rc = registries(s)) || (rc = cgroup_controllers(s)))
		return rc;
	return file_locks(s, &r);
}
