// SPDX-License-Identifier: MIT
/*
 * test_load_sys.c - the loader of the system files on fixed texts: what
 * Linux 6.18 printed on the reference machine (a partitioned loop device, a
 * swap file, locks with waiters) loads and renders back; a file read alone
 * (partitions without diskstats, buddyinfo without zoneinfo) still does;
 * every refusal names path:line; and the files that say things of each
 * other must agree.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "tap.h"
#include "test_load.h"
#include "uprocfs/load.h"
#include "uprocfs/machine.h"
#include "uprocfs/procfs.h"

static const char diskstats[] =
	"   7       0 loop0 5 0 3072 1 10 0 80 0 0 0 2 0 0 0 0 0 0\n"
	" 259       0 loop0p1 5 0 3072 1 0 0 0 0 0 0 1 0 0 0 0 0 0\n"
	" 259       1 loop0p2 0 0 0 0 10 0 80 0 0 0 0 0 0 0 0 0 0\n"
	"   7       1 loop1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
	" 254       0 vda 925164 55438 11435810 113214 210148 8076436 81023184 997902 0 502068 1560966 "
	"6129846 79 62325576 449789 957 60\n"
	" 253       0 zram0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n";
static const char partitions[] =
	"major minor  #blocks  name\n\n"
	"   7        0      65536 loop0\n"
	" 259        0      20480 loop0p1\n"
	" 259        1      10240 loop0p2\n"
	" 254        0  268435456 vda\n";
static const char swaps[] = "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"
			    "/tmp/r/swap\\040file                     file\t\t16380\t\t0\t\t-2\n"
			    "/dev/dm-1                               partition\t33554428\t1024\t\t-3\n";
static const char locks[] = "1: LEASE  ACTIVE    READ 13512 fe:00:10996162 0 EOF\n"
			    "2: FLOCK  ADVISORY  READ 13512 fe:00:10996160 0 EOF\n"
			    "3: OFDLCK ADVISORY  READ -1 fe:00:10996160 100 EOF\n"
			    "4: POSIX  ADVISORY  WRITE 13512 fe:00:10996160 5 14\n"
			    "4: -> POSIX  ADVISORY  WRITE 13513 fe:00:10996160 5 14\n"
			    "4:  -> POSIX  ADVISORY  WRITE 13514 fe:00:10996160 5 14\n"
			    "6: POSIX  *NOINODE* READ 12 <none>:0 0 EOF\n"
			    "7: DELEG  BREAKING  UNLCK 40 103:02:77 0 EOF\n";
static const char buddyinfo[] =
	"Node 0, zone      DMA      0      0      0      0      0      0      0      0      1      1      3 \n"
	"Node 0, zone    DMA32      2      3      0      2      3      2      1      4      4      2    752 \n";
static const char version[] = "Linux version 6.18.44-fc-v769 (builder@sandboxing) (gcc (GCC) 15.3.0, GNU ld (GNU "
			      "Binutils) 2.46) #1 SMP PREEMPT_DYNAMIC @0\n";
static const char devices[] = "Character devices:\n  1 mem\n  4 /dev/vc/0\n  4 tty\n 10 misc\n\n"
			      "Block devices:\n  7 loop\n254 virtblk\n259 blkext\n";
static const char cgroups[] = "#subsys_name\thierarchy\tnum_cgroups\tenabled\ncpuset\t3\t1\t1\nmemory\t4\t42\t1\n"
			      "net_cls\t0\t1\t0\n";
static const char slabinfo[] =
	"slabinfo - version: 2.1\n"
	"# name            <active_objs> <num_objs> <objsize> <objperslab> <pagesperslab> : tunables <limit> "
	"<batchcount> <sharedfactor> : slabdata <active_slabs> <num_slabs> <sharedavail>\n"
	"btrfs_ordered_extent      0      0    416   19    2 : tunables    0    0    0 : slabdata      0      0      0\n"
	"ext4_inode_cache  332556 332556   1128   14    4 : tunables    0    0    0 : slabdata  23754  23754      0\n";

static struct mach_machine *load_pairs(const char *const *files, int *rc, char *err)
{
	struct mach_machine *m = mach_new();

	*rc = m ? load_set(m, files, err) : -ENOMEM;
	return m;
}

/* Every (path, text) of @files loads into one machine and renders back as it was. */
static void same_back(const char *what, const char *const *files)
{
	char err[ERRLEN];
	int rc, same = 1;
	struct mach_machine *m = load_pairs(files, &rc, err);

	for (size_t i = 0; files[i] && !rc; i += 2)
		same &= roundtrip(m, files[i], files[i + 1], strlen(files[i + 1]), 1);
	if (!ok(!rc && same, "%s: load and render back", what))
		diag("%s", err);
	mach_free(m);
}

/* Loading @files fails with a message that names @path_line and contains @needle. */
static void refused(const char *what, const char *const *files, const char *path_line, const char *needle)
{
	char err[ERRLEN];
	int rc;
	struct mach_machine *m = load_pairs(files, &rc, err);

	if (!ok(rc == -EINVAL && err_is(err, path_line, needle), "%s is refused", what))
		diag("rc %d: %s", rc, err);
	mach_free(m);
}

static void test_samples(void)
{
	const char *const all[] = { "diskstats", diskstats, "partitions", partitions, "locks", locks, "version",
				    version, "devices", devices, "cgroups", cgroups, "slabinfo", slabinfo, NULL };
	const char *const alone[] = { "partitions", partitions, NULL };
	const char *const reverse[] = { "partitions", partitions, "diskstats", diskstats, NULL };
	const char *const buddy[] = { "buddyinfo", buddyinfo, NULL };
	const char *const meminfo_swaps[] = { "meminfo", "SwapTotal:      33570808 kB\n", "swaps", swaps, NULL };
	const char *const empty[] = { "locks", "", "swaps", "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n", NULL };
	char err[ERRLEN];
	int rc;
	struct mach_machine *m;

	same_back("devices, sizes, locks, version, registries, slabs of Linux 6.18", all);
	same_back("partitions without diskstats", alone);
	same_back("partitions before diskstats", reverse);
	same_back("buddyinfo without zoneinfo", buddy);
	same_back("swaps that make meminfo's SwapTotal", meminfo_swaps);
	same_back("no locks, no swap", empty);
	m = load_pairs(all, &rc, err);
	ok(!rc && m->sys.nblk == 6 && m->sys.blk[1].partno == 1 && m->sys.blk[1].disk == 0 &&
		   m->sys.blk[4].nr_sects == 536870912 && m->sys.blk[0].nr_sects == 131072 && !m->sys.blk[3].nr_sects,
	   "diskstats and partitions: partitions under their disk, sizes in sectors, no medium is 0");
	ok(!rc && m->sys.blk[4].st.io_ticks == 502068 / 4 && m->sys.blk[4].st.nsecs[MACH_BLK_READ] / 1000000 == 113214,
	   "io_ticks in jiffies (HZ=250), times in ns");
	ok(!rc && m->sys.nlocks == 8 && m->sys.locks[5].level == 2 && m->sys.locks[5].id == 4 &&
		   m->sys.locks[2].pid == -1 && m->sys.locks[7].dev_major == 0x103,
	   "locks: waiters' depth and id, OFD pid -1, hex devices");
	ok(!rc && !strcmp(m->profile.kernel_release, "6.18.44-fc-v769") &&
		   !strcmp(m->sys.kid.compiler, "gcc (GCC) 15.3.0, GNU ld (GNU Binutils) 2.46"),
	   "version: the release goes to the profile, the compiler keeps its parentheses");
	mach_free(m);
}

static void test_refusals(void)
{
	const char *const bad_total[] = { "diskstats", "   8       0 sda 1 0 8 5 1 0 8 5 0 4 15 0 0 0 0 0 0\n", NULL };
	const char *const bad_ticks[] = { "diskstats", "   8       0 sda 1 0 8 5 1 0 8 5 0 3 10 0 0 0 0 0 0\n", NULL };
	const char *const short_line[] = { "diskstats", "   8       0 sda 1 0 8 5 1 0 8 5 0 4 10 0 0 0 0\n", NULL };
	const char *const twice[] = { "diskstats", "   8       0 sda 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
						   "   8       0 sda 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n", NULL };
	const char *const stranger[] = { "diskstats", diskstats, "partitions",
					  "major minor  #blocks  name\n\n   8        0      65536 sda\n", NULL };
	const char *const swap_sum[] = { "meminfo", "SwapTotal:             1 kB\n", "swaps", swaps, NULL };
	const char *const swap_odd[] = { "swaps", "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"
						  "/swap                                   file\t\t1001\t\t0\t\t-2\n", NULL };
	const char *const waiter[] = { "locks", "1: -> POSIX  ADVISORY  WRITE 1 fe:00:1 0 EOF\n", NULL };
	const char *const tunables[] = { "slabinfo", "slabinfo - version: 2.1\n"
		"# name            <active_objs> <num_objs> <objsize> <objperslab> <pagesperslab> : tunables <limit> "
		"<batchcount> <sharedfactor> : slabdata <active_slabs> <num_slabs> <sharedavail>\n"
		"x                      0      0    416   19    2 : tunables   54   27    8 : slabdata      0      0      0\n",
		NULL };
	const char *const buddy_unpop[] = { "zoneinfo", "Node 0, zone      DMA\n  pages free     0\n        boost    0\n"
		"        min      0\n        low      0\n        high     0\n        promo    0\n        spanned  0\n"
		"        present  0\n        managed  0\n        cma      0\n        protection: (0, 0)\n"
		"Node 0, zone    DMA32\n  pages free     0\n        boost    0\n        min      0\n        low      0\n"
		"        high     0\n        promo    0\n        spanned  0\n        present  0\n        managed  0\n"
		"        cma      0\n        protection: (0, 0)\n", "buddyinfo", buddyinfo, NULL };

	refused("a time in queue more than 3 past the four times", bad_total, "diskstats:1:", "time in queue");
	refused("io_ticks that are no whole jiffy", bad_ticks, "diskstats:1:", "jiffies");
	refused("a diskstats line of 15 counters", short_line, "diskstats:1:", "expected \" \"");
	refused("a device listed twice", twice, "diskstats:2:", "twice");
	refused("partitions naming a device diskstats lacks", stranger, "partitions:3:", "sda");
	refused("swaps that do not make SwapTotal", swap_sum, "swaps:", "SwapTotal");
	refused("a swap size of no whole page", swap_odd, "swaps:2:", "pages");
	refused("a waiter without a lock", waiter, "locks:1:", "does not follow");
	refused("SLAB tunables", tunables, "slabinfo:3:", "SLUB");
	refused("buddyinfo of zones zoneinfo calls empty", buddy_unpop, "buddyinfo:1:", "populated");
}

void test_system_files(void)
{
	test_samples();
	test_refusals();
}
