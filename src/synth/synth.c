// SPDX-License-Identifier: MIT
/*
 * synth.c - the seeded synthetic machine generator (`--machine synth:...`).
 *
 * Builds a whole struct mach_machine the way a Linux 6.18 x86_64 server holds
 * it: kthreadd and its kernel threads (per-CPU sets, rescuers, kworkers),
 * systemd and its daemons, ssh sessions with jobs, services with worker
 * pools, cron jobs and containers, each with the VMAs its ELF files,
 * libraries, heap, thread stacks and stack give it; and the global
 * counters (/proc/stat, meminfo, vmstat, loadavg, pressure, schedstat)
 * agreeing with the tasks the way the kernel's own accounting makes them
 * agree: task_mem and vm_stat_account for the mm counters, cputime fitted
 * into the CPUs' cpustat, meminfo's LRU and slab identities, vmstat's page
 * counts, arch_probe_nr_irqs for nr_irqs.  Constants that the live
 * reference VM shows (capabilities, kthread flags, signal masks of common
 * programs, inodes of libc and ld.so) are taken from it.
 *
 * Everything is derived from the options through splitmix64 streams: the
 * machine-wide stream draws the shape (clock, tree, pid gaps, CPUs), and
 * every process draws its details from its own streams keyed by (seed,
 * index) -- its layout from the stream of the process it was forked from,
 * so forked workers share their master's addresses.  No rand(), no clock:
 * the same options give the same bytes, on any number of threads.
 *
 * Order of the build (mach_synth_build), and where each step lives:
 *   1. clock, topology (SMT siblings, packages, NUMA nodes) and per-CPU
 *      times from the load (cpus.c);
 *   2. the plan: the process tree as program choices from the catalog
 *      (catalog.c), parents first, then states, thread counts and pids
 *      (plan*.c; pid order is fork order, so parents start before children
 *      and start times follow the pids);
 *   3. the processes, in parallel on large machines (parallel.c): threads,
 *      credentials, signals, masks, raw CPU demand (tasks.c), the mm with
 *      its VMAs (mm.c, mmap_area.c, vma.c), cmdline and environment
 *      (cmdline.c);
 *   4. task times fitted into the CPUs' totals, context switches (tasks.c);
 *   5. schedstat (cpus.c), IRQs and softirqs (irqs.c), meminfo and vmstat
 *      from the sums over tasks, load averages and pressure (counters.c);
 *   6. the rest of the machine (sys_*.c): block devices and swap (their
 *      layout chosen before the tasks, whose journal thread names the root
 *      device) and the mount tables on them (ns_*.c), the devices' I/O
 *      under vmstat's pgpgin/pgpgout, zones and free lists under meminfo,
 *      slab caches under its Slab lines, the kernel's identity, registries
 *      and file locks;
 *   7. what /sys shows beyond /proc: the block devices' directories, queues
 *      and hardware (sys_sysfs.c), each cgroup's charges, limits and I/O
 *      summed up the tree (cg_state.c);
 *   8. /proc/sys, sized from the RAM and CPUs as the kernel sizes it (sysctl.c).
 *
 * Dense machines (hundreds of thousands of tasks) are mostly Kubernetes-style
 * pods whose containers run static binaries, as such hosts are; small ones
 * look like a general-purpose server.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "synth_int.h"
#include "uprocfs/machine.h"

/* Options come from the parser or straight from C callers: check them here, with the pid budget. */
static int check_opts(const struct mach_synth_opts *o, char *err, size_t errlen)
{
	uint64_t ids = (uint64_t)o->tasks + o->threads;

	if (o->cpus < 1 || o->cpus > SYNTH_MAX_CPUS || o->tasks < 1 || o->tasks > SYNTH_MAX_TASKS ||
	    o->threads > SYNTH_MAX_THREADS || o->depth > SYNTH_MAX_DEPTH || !(o->load >= 0 && o->load <= 1) ||
	    !(o->io >= 0 && o->io <= 1) || !(o->mem >= 0 && o->mem <= 1)) {
		snprintf(err, errlen, "synth: option out of range");
		return -EINVAL;
	}
	if (o->kernel) {
		size_t i = 0;

		while (i < sy_nkernels && sy_kernels[i] != o->kernel)
			i++;
		if (i == sy_nkernels) {
			snprintf(err, errlen, "synth: no kernel %u.%u (see `kernel=` in uprocfs --help)",
				 o->kernel / 100, o->kernel % 100);
			return -EINVAL;
		}
	}
	/* every task needs a pid below the synthetic limit, with room for the gaps of boot */
	if (ids > SYNTH_PID_TOP - SYNTH_PID_SLACK - 100000) {
		snprintf(err, errlen, "synth: tasks + threads = %llu exceeds the %d pids a synthetic machine numbers",
			 (unsigned long long)ids, SYNTH_PID_TOP);
		return -EINVAL;
	}
	return 0;
}

/*
 * What follows RAM and the thread counts: RLIMIT_SIGPENDING defaults to
 * max_threads / 2, which follows RAM; nr_threads makes the model complete.
 */
static int finish_procs(struct synth *s)
{
	struct mach_machine *m = s->m;
	uint64_t limit = m->meminfo[MACH_MEMINFO_MEMTOTAL] / 4 / 64;
	/* the builders' interned sets are a few dozen: each is completed and interned again once */
	struct { const struct mach_rlimit *from, *to; } done[64] = { { NULL, NULL } };

	for (size_t i = 0; i < m->nprocs; i++) {
		struct mach_process *p = &m->procs[i];
		size_t k = ((uintptr_t)p->rlim >> 3) % 64;
		struct mach_rlimit r[MACH_RLIM_NLIMITS];

		p->nr_threads = p->nthreads;
		if (done[k].from != p->rlim || !p->rlim) {
			memcpy(r, mach_process_rlim(p), sizeof(r));
			r[MACH_RLIMIT_SIGPENDING] = r[MACH_RLIMIT_NPROC] = (struct mach_rlimit){ limit, limit };
			done[k].from = p->rlim;
			if (!(done[k].to = (const struct mach_rlimit *)sy_intern(s, r, sizeof(r))))
				return -ENOMEM;
		}
		if (!p->rlim_interned)
			free(p->rlim);
		p->rlim = (struct mach_rlimit *)done[k].to;
		p->rlim_interned = true;
	}
	return 0;
}

/* The plan and the scratch belong to the build; the machine goes to the caller. */
static void free_build(struct synth *s)
{
	sy_intern_finish(s);
	sy_vb_drop(s);
	free(s->vb);
	if (!sy_maker_adopt(s)) {
		free(s->gen);
		free(s->share.group);
		free(s->ids);
		free(s->netns_of);
		free(s->first_prog);
	}
	free(s->user_seen);
	sy_ns_free(s);
	for (size_t i = 0; s->sock_fds && i < s->n; i++)
		free(s->sock_fds[i]); /* a build that failed before the network's tables */
	free(s->sock_fds);
}

/* Each step reads what the steps before it built, so the order is fixed (see above). */
/* A host name as a fleet names its machines: a role and a number. */
static void name_host(struct synth *s)
{
	static const char *const roles[] = { "web", "db", "app", "build", "cache", "worker" };
	struct rng r;

	rng_init(&r, s->o->seed, KEY_HOSTNAME);
	snprintf(s->m->hostname, sizeof(s->m->hostname), "%s-%02u",
		 roles[rng_below(&r, sizeof(roles) / sizeof(roles[0]))], (unsigned int)rng_range(&r, 1, 42));
}

int mach_synth_build(const struct mach_synth_opts *o, struct mach_machine **out, char *err, size_t errlen)
{
	struct synth s;
	int rc;

	*out = NULL;
	if ((rc = check_opts(o, err, errlen)))
		return rc;
	memset(&s, 0, sizeof(s));
	s.o = o;
	s.m = mach_new();
	if (!s.m) {
		rc = -ENOMEM;
		goto fail;
	}
	sy_kernel_begin(&s); /* the release string, which /proc/version and osrelease print */
	rng_init(&s.rng, o->seed, KEY_MACHINE);
	name_host(&s); /* its own stream: naming the host changes nothing else */
	sy_init_names(&s);
	sy_build_clock(&s);
	sy_build_topology(&s);
	sy_plan_thp(&s);
	sy_plan_storage(&s);
	if ((rc = sy_build_cpus(&s)) || (rc = sy_plan(&s)) || (rc = sy_net_plan(&s)) || (rc = sy_plan_ids(&s)) ||
	    (rc = sy_plan_sharing(&s)) ||
	    (rc = sy_install_waits(&s)) || (rc = sy_maker_new(&s)) || (rc = sy_share_masks(&s)) ||
	    (rc = sy_build_tasks(&s)) || (rc = sy_build_children(&s)))
		goto fail;
	sy_fit_task_times(&s);
	sy_build_sched_info(&s);
	if ((rc = sy_build_task_io(&s)) || (rc = sy_build_schedstat(&s)) || (rc = sy_build_irqs(&s)))
		goto fail;
	sy_build_meminfo(&s);
	if ((rc = sy_build_storage(&s)))
		goto fail;
	sy_plan_blockfs(&s);
	if ((rc = sy_build_mounts(&s)))
		goto fail;
	if ((rc = finish_procs(&s)) || (rc = sy_build_accounts(&s)))
		goto fail;
	sy_build_vmstat(&s);
	sy_build_disk_io(&s);
	if ((rc = sy_build_zones(&s)) || (rc = sy_build_slabs(&s)) || (rc = sy_build_kernel(&s)) ||
	    (rc = sy_build_sysfs(&s)))
		goto fail;
	if ((rc = sy_build_blk_sysfs(&s)) || (rc = sy_build_cgroup_state(&s)))
		goto fail;
	sy_build_load(&s);
	if ((rc = sy_build_net(&s)) || (rc = sy_build_net_sysfs(&s)) || (rc = sy_build_sysctl(&s)) ||
	    (rc = sy_kernel_finish(&s)))
		goto fail;
	free_build(&s);
	mach_topo_link(s.m);
	*out = s.m;
	return 0;
fail:
	free_build(&s);
	mach_free(s.m);
	snprintf(err, errlen, "synth: %s", rc == -ENOMEM ? "out of memory" : strerror(-rc));
	return rc;
}
