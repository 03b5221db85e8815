// SPDX-License-Identifier: MIT
/*
 * sysfs_checks_blk.c - the block devices, CPUs and network devices of a
 * synthetic machine's /sys against its /proc: each device's sysfs stat is
 * its /proc/diskstats line and its size /proc/partitions' blocks, the class
 * links lead to its directory; the online CPUs are /proc/stat's; each
 * interface of /proc/net/dev has /sys/class/net/<if> whose statistics are
 * its columns (drop, frame and carrier as the sums the kernel prints).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sysfs_checks.h"
#include "uprocfs/mach_sysfs.h"

/* The numbers after the name on @name's line of /proc/diskstats (17), or 0 found. */
static int diskstats_line(const char *text, const char *name, uint64_t v[17])
{
	for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		char nm[64];
		int off = 0;

		if (sscanf(p, "%*u %*u %63s%n", nm, &off) != 1 || strcmp(nm, name))
			continue;
		p += off;
		for (int i = 0; i < 17; i++)
			v[i] = strtoull(p, (char **)&p, 10);
		return 17;
	}
	return 0;
}

/* /proc/partitions' #blocks (1 KiB) of @name, or -1 when it is not listed. */
static long long partitions_blocks(const char *text, const char *name)
{
	for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		unsigned long long blocks;
		char nm[64];

		if (sscanf(p, "%*u %*u %llu %63s", &blocks, nm) == 2 && !strcmp(nm, name))
			return (long long)blocks;
	}
	return -1;
}

static void check_link(const struct mach_machine *m, const char *link, const char *up, const char *dir)
{
	char *t = file(m, "%s", link), want[1024];

	bool fits = (size_t)snprintf(want, sizeof(want), "%sdevices/%s", up, dir) < sizeof(want);

	check(P_BLKLINK, fits && t && !strcmp(t, want), "%s -> %s, want %s", link, t ? t : "(none)", want);
	free(t);
}

void check_blocks(const struct mach_machine *m)
{
	char *ds = file(m, "/proc/diskstats"), *parts = file(m, "/proc/partitions");

	for (size_t i = 0; ds && parts && i < m->sys.nblk; i++) {
		const struct mach_blkdev *b = &m->sys.blk[i];
		char dir[1024], path[1200];
		uint64_t want[17], got[17];
		char *st;

		if (mach_blk_dir(&m->sys, i, dir, sizeof(dir)))
			continue;
		snprintf(path, sizeof(path), "/sys/devices/%s/stat", dir);
		st = file(m, "%s", path);
		check(P_BLKSTAT, st && diskstats_line(ds, b->name, want), "%s: no stat, or not in /proc/diskstats", b->name);
		if (st) {
			const char *p = st;

			for (int k = 0; k < 17; k++)
				got[k] = strtoull(p, (char **)&p, 10);
			check(P_BLKSTAT, !memcmp(got, want, sizeof(got)), "%s: stat is not its /proc/diskstats line", b->name);
		}
		free(st);
		/* /proc/partitions leaves zero-size devices out; sysfs size is in 512-byte sectors */
		long long blocks = partitions_blocks(parts, b->name);

		snprintf(path, sizeof(path), "/sys/devices/%s/size", dir);
		check(P_BLKSTAT, number(m, "%s", path) == (blocks < 0 ? 0 : (uint64_t)blocks * 2),
		      "%s: size %" PRIu64 ", /proc/partitions %lld blocks", b->name, number(m, "%s", path), blocks);
		snprintf(path, sizeof(path), "/sys/class/block/%s", b->name);
		check_link(m, path, "../../", dir);
		snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", b->major, b->minor);
		check_link(m, path, "../../", dir);
		if (!b->partno) {
			snprintf(path, sizeof(path), "/sys/block/%s", b->name);
			check_link(m, path, "../", dir);
		}
	}
	free(ds);
	free(parts);
}

/* ------------------------------------------------------------------ */
/* CPUs                                                                 */

/* The number of CPUs in a cpulist ("0-3,8\n"). */
static unsigned int list_count(const char *t)
{
	unsigned int n = 0;

	while (t && *t && *t != '\n') {
		char *end;
		unsigned long lo = strtoul(t, &end, 10), hi = lo;

		if (*end == '-')
			hi = strtoul(end + 1, &end, 10);
		n += (unsigned int)(hi - lo + 1);
		t = *end == ',' ? end + 1 : end;
	}
	return n;
}

void check_cpus(const struct mach_machine *m)
{
	char *stat = file(m, "/proc/stat"), *cpuinfo = file(m, "/proc/cpuinfo");
	char *online = file(m, "/sys/devices/system/cpu/online"), *present = file(m, "/sys/devices/system/cpu/present");
	unsigned int in_stat = 0, in_cpuinfo = 0, dirs = 0, links = 0;

	for (const char *p = stat; p && (p = strstr(p, "\ncpu")); p++)
		in_stat += p[4] >= '0' && p[4] <= '9';
	for (const char *p = cpuinfo; p && (p = strstr(p, "processor\t:")); p++)
		in_cpuinfo++;
	for (size_t i = 0; i < m->ncpus; i++) {
		char *t = file(m, "/sys/devices/system/cpu/cpu%u/topology/core_id", m->cpus[i].id);
		char *l = file(m, "/sys/bus/cpu/devices/cpu%u", m->cpus[i].id);

		dirs += t != NULL;
		links += l != NULL;
		free(t);
		free(l);
	}
	check(P_CPUS, list_count(online) == in_stat, "online lists %u CPUs, /proc/stat %u", list_count(online), in_stat);
	check(P_CPUS, in_cpuinfo == in_stat, "/proc/cpuinfo has %u processors, /proc/stat %u", in_cpuinfo, in_stat);
	check(P_CPUS, dirs == in_stat && list_count(present) >= in_stat,
	      "%u CPUs have a topology/, present lists %u, /proc/stat %u", dirs, list_count(present), in_stat);
	check(P_CPUS, links == list_count(present), "/sys/bus/cpu/devices links %u CPUs, present lists %u", links,
	      list_count(present));
	free(stat);
	free(cpuinfo);
	free(online);
	free(present);
}

/* ------------------------------------------------------------------ */
/* Network devices                                                      */

/* /proc/net/dev's 16 columns in order, as sums of statistics/ files. */
static const char *const columns[16][4] = {
	{ "rx_bytes" }, { "rx_packets" }, { "rx_errors" }, { "rx_dropped", "rx_missed_errors" }, { "rx_fifo_errors" },
	{ "rx_length_errors", "rx_over_errors", "rx_crc_errors", "rx_frame_errors" }, { "rx_compressed" },
	{ "multicast" }, { "tx_bytes" }, { "tx_packets" }, { "tx_errors" }, { "tx_dropped" }, { "tx_fifo_errors" },
	{ "collisions" },
	{ "tx_carrier_errors", "tx_aborted_errors", "tx_window_errors", "tx_heartbeat_errors" },
	{ "tx_compressed" },
};

void check_net(const struct mach_machine *m)
{
	char *dev = file(m, "/proc/1/net/dev");
	unsigned int listed = 0, known = 0;
	const struct mach_net *n = mach_sys_net(m);

	for (unsigned int i = 0; n && i < n->ndevs; i++)
		known += n->devs[i].sys.known;
	for (const char *p = dev ? strchr(strchr(dev, '\n') + 1, '\n') : NULL; p && p[1]; p = strchr(p + 1, '\n')) {
		char name[32], *link, dir[512] = "", want[600];
		const char *q = p + 1;
		int i;
		uint64_t col;

		if (sscanf(q, " %31[^:]:", name) != 1)
			break;
		listed++;
		i = n ? mach_net_dev_by_name(n, name) : -1;
		link = file(m, "/sys/class/net/%s", name);
		if (i >= 0)
			mach_netdev_dir(&n->devs[i], dir, sizeof(dir));
		snprintf(want, sizeof(want), "../../devices/%s", dir);
		check(P_NET, link && !strcmp(link, want), "%s of /proc/net/dev: /sys/class/net/%s -> %s", name, name,
		      link ? link : "(none)");
		free(link);
		q = strchr(q, ':') + 1;
		for (int c = 0; c < 16; c++) {
			uint64_t sum = 0;

			col = strtoull(q, (char **)&q, 10);
			for (int k = 0; k < 4 && columns[c][k]; k++) {
				char path[700];

				snprintf(path, sizeof(path), "/sys/devices/%s/statistics/%s", dir, columns[c][k]);
				sum += number(m, "%s", path);
			}
			check(P_NET, sum == col, "%s: statistics/%s... %" PRIu64 ", /proc/net/dev %" PRIu64, name, columns[c][0],
			      sum, col);
		}
	}
	check(P_NET, listed && listed == known, "/proc/net/dev lists %u devices, /sys/class/net %u", listed, known);
	free(dev);
}
