// SPDX-License-Identifier: MIT
/* sysctl_checks.c - a synthetic machine's /proc/sys against the rest of it (sysctl_checks.h). */
#include <stdio.h>
#include <string.h>

#include "sysctl_checks.h"

static const struct mach_sysctl_node *at(const struct mach_machine *m, const char *path)
{
	int64_t id = mach_sysctl_find(m->sysctl, path);

	return id > 0 ? &m->sysctl->nodes[id] : NULL;
}

/* The first number of key @path, or ~0 when it has none. */
static uint64_t num(const struct mach_machine *m, const char *path, uint32_t i)
{
	const struct mach_sysctl_node *n = at(m, path);

	return n && n->kind == MACH_SYSCTL_NUMS && i < n->nvals ? n->vals[i] : ~0ull;
}

static int fail(char *why, size_t n, const char *what)
{
	snprintf(why, n, "%s", what);
	return -1;
}

int sysctl_check(const struct mach_machine *m, char *why, size_t n)
{
	static const struct { const char *path; unsigned int mode; } modes[] = {
		{ "vm/drop_caches", 0200 }, { "kernel/ns_last_pid", 0666 }, { "kernel/cad_pid", 0600 },
		{ "kernel/osrelease", 0444 }, { "fs/file-nr", 0444 }, { "net/ipv4/conf/lo/mc_forwarding", 0444 },
		{ "net/ipv6/conf/lo/stable_secret", 0600 }, { "kernel/hostname", 0644 },
	};
	const uint64_t *mi = m->meminfo;
	uint64_t keys = 0, commit = mi[MACH_MEMINFO_MEMTOTAL] / 4 * num(m, "vm/overcommit_ratio", 0) / 100 * 4;
	char cpus[32];

	if (!m->sysctl)
		return fail(why, n, "no /proc/sys");
	for (uint32_t i = 0; i < m->sysctl->n; i++)
		keys += m->sysctl->nodes[i].kind != MACH_SYSCTL_DIR;
	if (keys < 1000)
		return fail(why, n, "fewer than 1000 keys");
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if (!at(m, modes[i].path) || at(m, modes[i].path)->mode != modes[i].mode)
			return fail(why, n, modes[i].path);
	if (!at(m, "net/ipv4/conf/all/forwarding") || !at(m, "net/ipv6/conf/default/mtu") ||
	    !at(m, "net/ipv4/neigh/lo/ucast_solicit") || at(m, "net/ipv4/neigh/lo/gc_thresh1") ||
	    num(m, "net/ipv4/neigh/default/gc_thresh3", 0) != 1024)
		return fail(why, n, "the interfaces' conf and neigh directories");
	if (commit + mi[MACH_MEMINFO_SWAPTOTAL] != mi[MACH_MEMINFO_COMMITLIMIT] ||
	    num(m, "vm/overcommit_memory", 0) != 0)
		return fail(why, n, "CommitLimit is not what vm.overcommit_ratio makes it");
	if (num(m, "vm/nr_hugepages", 0) != mi[MACH_MEMINFO_HUGEPAGES_TOTAL])
		return fail(why, n, "vm.nr_hugepages is not HugePages_Total");
	if (num(m, "fs/file-max", 0) > mi[MACH_MEMINFO_MEMTOTAL] / 10 || m->sysctl->nr_files > num(m, "fs/file-max", 0) ||
	    at(m, "fs/file-nr")->src != MACH_SYSCTL_SRC_FILE_NR)
		return fail(why, n, "file-max is not 10% of RAM, or more files are in use");
	if (num(m, "user/max_pid_namespaces", 0) != num(m, "kernel/threads-max", 0) / 2 ||
	    num(m, "net/ipv4/tcp_max_orphans", 0) != num(m, "net/ipv4/tcp_ehash_entries", 0) / 2 ||
	    num(m, "net/ipv4/tcp_mem", 2) != num(m, "net/ipv4/tcp_mem", 0) * 2)
		return fail(why, n, "the limits the kernel derives from others");
	if (num(m, "vm/min_free_kbytes", 0) < 128 || num(m, "vm/min_free_kbytes", 0) > mi[MACH_MEMINFO_MEMTOTAL] / 10)
		return fail(why, n, "vm.min_free_kbytes");
	snprintf(cpus, sizeof(cpus), m->ncpus > 1 ? "0-%u" : "0", m->ncpus - 1);
	if (!at(m, "kernel/watchdog_cpumask") || strcmp(at(m, "kernel/watchdog_cpumask")->str, cpus))
		return fail(why, n, "kernel.watchdog_cpumask is not the CPUs");
	return 0;
}
