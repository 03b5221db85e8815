// SPDX-License-Identifier: MIT
/*
 * sysctl.c - the /proc/sys of a synthetic machine: the keys of Linux 6.18
 * (sysctl_keys_*.c) with their modes, the per-device directories of its
 * network interfaces, and the values the kernel sizes from the machine at
 * boot, computed as the kernel computes them from its RAM and CPUs:
 * file-max, threads-max and the namespace limits, the epoll, inotify and
 * fanotify limits, the TCP and UDP memory and hash sizes, conntrack,
 * min_free_kbytes and the reserves; the dentry and inode counts from the
 * slab; the CPU masks; the host name and boot id from the seed.  vm.*
 * agree with /proc/meminfo: overcommit_ratio is the one CommitLimit was
 * computed with, nr_hugepages is HugePages_Total.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "synth_int.h"
#include "sysctl_keys.h"

#define ARPHRD_LOOPBACK 772 /* a mach_netdev type: the loopback device */

/* Key @k at @dir/@k->path: created, typed, with its mode. */
static int put_key(struct mach_sysctl *t, const char *dir, const struct sy_key *k)
{
	char path[256];
	uint32_t id;
	int rc;

	snprintf(path, sizeof(path), "%s%s%s", dir, *dir ? "/" : "", k->path);
	if ((rc = mach_sysctl_make(t, path, false, &id)))
		return rc;
	t->nodes[id].mode = k->mode;
	switch (k->kind) {
	case SY_NUM:
	case SY_UNUM:
		return mach_sysctl_set_nums(t, id, k->v, k->n, k->kind == SY_NUM);
	case SY_STR:
		return mach_sysctl_set_string(t, id, k->s, strlen(k->s));
	case SY_EMPTY:
		mach_sysctl_set_kind(t, id, MACH_SYSCTL_EMPTY);
		return 0;
	case SY_UNSET:
		mach_sysctl_set_kind(t, id, MACH_SYSCTL_UNSET);
		return 0;
	case SY_WO:
		mach_sysctl_set_kind(t, id, MACH_SYSCTL_WRITE_ONLY);
		return 0;
	default:
		t->nodes[id].src = (uint8_t)mach_sysctl_src_of(path);
		return 0;
	}
}

static int put_keys(struct mach_sysctl *t, const char *dir, const struct sy_key *keys, size_t n, bool dev_neigh)
{
	int rc = 0;

	for (size_t i = 0; i < n && !rc; i++)
		if (!dev_neigh || (strcmp(keys[i].path, "gc_interval") && strncmp(keys[i].path, "gc_thresh", 9)))
			rc = put_key(t, dir, &keys[i]);
	return rc;
}

/* Set the numbers of key @path (which the tables created). */
static int set_nums(struct mach_sysctl *t, const char *path, const uint64_t *v, uint32_t n)
{
	int64_t id = mach_sysctl_find(t, path);

	return id < 0 ? -ENOENT : mach_sysctl_set_nums(t, (uint32_t)id, v, n, t->nodes[id].is_signed);
}

static int set_num(struct mach_sysctl *t, const char *path, uint64_t v)
{
	return set_nums(t, path, &v, 1);
}

static int set_str(struct mach_sysctl *t, const char *path, const char *s)
{
	int64_t id = mach_sysctl_find(t, path);

	return id < 0 ? -ENOENT : mach_sysctl_set_string(t, (uint32_t)id, s, strlen(s));
}

/*
 * The conf and neigh directories: all, default and each interface of the
 * host's namespace (its /proc/net/dev), with what differs per device.
 */
static int net_devices(const struct mach_machine *m, struct mach_sysctl *t)
{
	static const char *const neigh[] = { "net/ipv4/neigh", "net/ipv6/neigh" };
	const struct mach_net *host = m->nnets ? &m->nets[0] : NULL;
	size_t ndevs = host ? host->ndevs : 0;
	char dir[128], path[192];
	int rc = 0;

	for (size_t d = 0; d < ndevs + 2 && !rc; d++) {
		const struct mach_netdev *nd = d >= 2 ? &host->devs[d - 2] : NULL;
		bool lo = nd && nd->type == ARPHRD_LOOPBACK;
		const char *name = d == 0 ? "all" : d == 1 ? "default" : nd->name;

		snprintf(dir, sizeof(dir), "net/ipv4/conf/%s", name);
		if ((rc = put_keys(t, dir, sy_keys_conf4, sy_nkeys_conf4, false)))
			break;
		/* conf/all keeps source routes off; a device starts with the default's */
		snprintf(path, sizeof(path), "%s/accept_source_route", dir);
		rc = set_num(t, path, d != 0);
		if (!rc && lo) {
			snprintf(path, sizeof(path), "%s/disable_policy", dir);
			rc = set_num(t, path, 1);
			snprintf(path, sizeof(path), "%s/disable_xfrm", dir);
			rc = rc ? rc : set_num(t, path, 1);
		}
		snprintf(dir, sizeof(dir), "net/ipv6/conf/%s", name);
		if (rc || (rc = put_keys(t, dir, sy_keys_conf6, sy_nkeys_conf6, false)))
			break;
		snprintf(path, sizeof(path), "%s/accept_dad", dir);
		rc = set_num(t, path, d == 0 ? 0 : lo ? (uint64_t)-1 : 1);
		snprintf(path, sizeof(path), "%s/mtu", dir);
		rc = rc ? rc : set_num(t, path, nd ? nd->mtu : 1280);
		snprintf(path, sizeof(path), "%s/use_tempaddr", dir);
		rc = rc ? rc : set_num(t, path, lo ? (uint64_t)-1 : 0);
		for (int v = 0; v < 2 && !rc && d; v++) {
			snprintf(dir, sizeof(dir), "%s/%s", neigh[v], name);
			rc = put_keys(t, dir, sy_keys_neigh, sy_nkeys_neigh, d >= 2);
			if (rc || !v)
				continue;
			/* ndisc's defaults differ from ARP's: no lock time, retrans_time 250 */
			snprintf(path, sizeof(path), "%s/locktime", dir);
			rc = set_num(t, path, 0);
			snprintf(path, sizeof(path), "%s/retrans_time", dir);
			rc = rc ? rc : set_num(t, path, 250);
		}
	}
	return rc;
}

/* A CPU mask as "%*pb" prints nr_cpu_ids bits: 32-bit chunks of hex, comma separated; all clear here. */
static void zero_mask(char *buf, size_t size, unsigned int nbits)
{
	size_t at = 0;
	unsigned int first = (nbits % 32 ? nbits % 32 : 32);

	for (unsigned int bit = nbits; bit > 0 && at + 10 < size;) {
		unsigned int chunk = bit == nbits ? first : 32;

		for (unsigned int k = 0; k < (chunk + 3) / 4; k++)
			buf[at++] = '0';
		bit -= chunk;
		if (bit)
			buf[at++] = ',';
	}
	buf[at] = '\0';
}

/* What the kernel sized from RAM at boot (mm, fs, ipc, net init code). */
static int memory_sized(struct synth *s, struct mach_sysctl *t)
{
	const uint64_t *mi = s->m->meminfo;
	uint64_t kb = mi[MACH_MEMINFO_MEMTOTAL], bytes = kb * 1024, pages = kb / 4, free_kb = kb / 100 * 97;
	uint64_t threads = kb / 32 > 20 ? kb / 32 : 20, inotify = bytes / 100 / 1312, fanotify = bytes / 100 / 1232;
	uint64_t ehash = 1, uhash = 1, tcp = pages * 96 / 100 / 16, udp = pages * 96 / 100 / 8, ct;
	uint64_t zones = 3 + (s->nnodes - 1), thp_min = 512 * zones * 11 * 4, min_free = 128;
	static const char *const ns[] = { "cgroup", "ipc", "mnt", "net", "pid", "time", "user", "uts" };
	char path[64];
	int rc = 0;

	inotify = inotify < 8192 ? 8192 : inotify > 1048576 ? 1048576 : inotify;
	fanotify = fanotify < 8192 ? 8192 : fanotify > 1048576 ? 1048576 : fanotify;
	while (ehash < (bytes >> 17) && ehash < (1u << 21))
		ehash <<= 1;
	while (uhash < (bytes >> 21) && uhash < 65536)
		uhash <<= 1;
	uhash = uhash < 256 ? 256 : uhash;
	ct = pages > 4 * 262144 ? 262144 : bytes / 16384 / 8 > 1024 ? bytes / 16384 / 8 : 1024;
	tcp = tcp > 128 ? tcp : 128;
	udp = udp > 128 ? udp : 128;
	while ((min_free + 1) * (min_free + 1) <= kb * 16 && min_free < 262144)
		min_free++; /* int_sqrt(lowmem_kbytes * 16) */
	thp_min = thp_min < kb / 20 ? thp_min : kb / 20;
	rc |= set_num(t, "fs/file-max", kb / 10 * 99 / 100 > 8192 ? kb / 10 * 99 / 100 : 8192);
	rc |= set_num(t, "fs/epoll/max_user_watches", bytes / 25 / 184);
	rc |= set_num(t, "fs/inotify/max_user_watches", inotify);
	rc |= set_num(t, "user/max_inotify_watches", inotify);
	rc |= set_num(t, "fs/fanotify/max_user_marks", fanotify);
	rc |= set_num(t, "user/max_fanotify_marks", fanotify);
	rc |= set_num(t, "kernel/threads-max", threads);
	for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
		snprintf(path, sizeof(path), "user/max_%s_namespaces", ns[i]);
		rc |= set_num(t, path, threads / 2);
	}
	rc |= set_nums(t, "net/ipv4/tcp_mem", (uint64_t[]){ tcp / 4 * 3, tcp, tcp / 4 * 3 * 2 }, 3);
	rc |= set_nums(t, "net/ipv4/udp_mem", (uint64_t[]){ udp / 4 * 3, udp, udp / 4 * 3 * 2 }, 3);
	rc |= set_num(t, "net/ipv4/tcp_ehash_entries", ehash);
	rc |= set_num(t, "net/ipv4/tcp_max_orphans", ehash / 2);
	rc |= set_num(t, "net/ipv4/tcp_max_tw_buckets", ehash / 2);
	rc |= set_num(t, "net/ipv4/tcp_max_syn_backlog", ehash / 128 > 128 ? ehash / 128 : 128);
	rc |= set_num(t, "net/ipv4/udp_hash_entries", uhash);
	rc |= set_num(t, "net/netfilter/nf_conntrack_buckets", ct);
	rc |= set_num(t, "net/netfilter/nf_conntrack_max", ct);
	rc |= set_num(t, "net/nf_conntrack_max", ct);
	rc |= set_num(t, "vm/min_free_kbytes", min_free > thp_min ? min_free : thp_min);
	rc |= set_num(t, "vm/user_reserve_kbytes", free_kb / 32 < 131072 ? free_kb / 32 : 131072);
	rc |= set_num(t, "vm/admin_reserve_kbytes", free_kb / 32 < 8192 ? free_kb / 32 : 8192);
	rc |= set_num(t, "vm/nr_hugepages", mi[MACH_MEMINFO_HUGEPAGES_TOTAL]);
	rc |= set_num(t, "vm/overcommit_ratio", 50); /* what CommitLimit was computed with (counters.c) */
	return rc ? -ENOENT : 0;
}

/* The counts that move: files, dentries and inodes from the slab, ptys, connections. */
static int counts(struct synth *s, struct mach_sysctl *t)
{
	const struct mach_machine *m = s->m;
	uint64_t sreclaim = m->meminfo[MACH_MEMINFO_SRECLAIMABLE], dentries = sreclaim * 1024 / 2 / 192;
	uint64_t inodes = dentries / 10 * 9;
	int rc = 0;

	/*
	 * nr_files counts struct files: every open fd of every process (a
	 * forked copy's shares its parent's, which only over-counts a little)
	 * and the kernel's own (each mm's exe, mapped files), so never fewer
	 * than the fd tables hold.  The builders counted both as they made
	 * the processes (and a lock's open counts its fd): a walk here read
	 * every table's header, a cache miss each, 0.5 s at a million tasks.
	 */
	t->nr_files = s->sum.fds + s->sum.mms * 9 + 64 + rng_below(&s->rng, 64);
	rc |= set_nums(t, "fs/dentry-state", (uint64_t[]){ dentries, dentries / 20 * 19, 45, 0, dentries / 15, 0 }, 6);
	rc |= set_nums(t, "fs/inode-nr", (uint64_t[]){ inodes, 0 }, 2);
	rc |= set_nums(t, "fs/inode-state", (uint64_t[]){ inodes, 0, 0, 0, 0, 0, 0 }, 7);
	rc |= set_num(t, "kernel/pty/nr", s->next_pts);
	rc |= set_num(t, "net/netfilter/nf_conntrack_count", (uint64_t)(s->o->load * 40) + rng_below(&s->rng, 20));
	return rc ? -ENOENT : 0;
}

/* The CPU masks, the host's name, its boot id, the RSS key a multiqueue NIC set. */
static int identity(struct synth *s, struct mach_sysctl *t)
{
	struct rng r;
	char buf[4096];
	unsigned char id[16];
	int rc = 0;

	rng_init(&r, s->o->seed, KEY_SYSCTL);
	if (s->o->cpus > 1)
		snprintf(buf, sizeof(buf), "0-%u", s->o->cpus - 1);
	else
		snprintf(buf, sizeof(buf), "0");
	rc |= set_str(t, "kernel/watchdog_cpumask", buf);
	zero_mask(buf, sizeof(buf), s->m->nr_cpu_ids);
	rc |= set_str(t, "net/core/flow_limit_cpu_bitmap", buf);
	rc |= set_str(t, "net/core/rps_default_mask", buf);
	snprintf(buf, sizeof(buf), "%s-%04llx", s->virt ? "vm" : "srv", (unsigned long long)rng_below(&r, 0x10000));
	rc |= set_str(t, "kernel/hostname", buf);
	for (int i = 0; i < 16; i++)
		id[i] = (unsigned char)rng_next(&r);
	id[6] = (id[6] & 0x0f) | 0x40;
	id[8] = (id[8] & 0x3f) | 0x80;
	snprintf(buf, sizeof(buf), "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", id[0], id[1],
		 id[2], id[3], id[4], id[5], id[6], id[7], id[8], id[9], id[10], id[11], id[12], id[13], id[14], id[15]);
	rc |= set_str(t, "kernel/random/boot_id", buf);
	if (!s->virt) {
		/* netdev_rss_key_fill: random bytes once a NIC with RSS asked */
		for (int i = 0, at = 0; i < 52; i++)
			at += snprintf(buf + at, sizeof(buf) - (size_t)at, i ? ":%02x" : "%02x",
				       (unsigned int)(rng_next(&r) & 0xff));
		rc |= set_str(t, "net/core/netdev_rss_key", buf);
	}
	rc |= set_num(t, "kernel/bootloader_type", 0x72); /* GRUB 2 */
	rc |= set_num(t, "kernel/bootloader_version", 2);
	return rc ? -ENOENT : 0;
}

int sy_build_sysctl(struct synth *s)
{
	struct mach_sysctl *t = s->m->sysctl;
	int rc;

	if (!t)
		return -EINVAL;
	if ((rc = put_keys(t, "", sy_keys_sys, sy_nkeys_sys, false)) ||
	    (rc = put_keys(t, "", sy_keys_net, sy_nkeys_net, false)) || (rc = net_devices(s->m, t)) ||
	    (rc = memory_sized(s, t)) || (rc = counts(s, t)) || (rc = identity(s, t)))
		return rc;
	return 0;
}
