// SPDX-License-Identifier: MIT
/*
 * test_synth_files.c - what synthetic machines say about open files and the
 * small files of fs/proc/base.c, checked against the rest of the machine
 * over many seeds and shapes: fd tables within FDSize and the open-file
 * limit, pipes and sockets shared only along the process tree (one inode on
 * both ends), terminals in fd/0..2 agreeing with stat's tty_nr, I/O counts
 * following CPU time, oom_score following the RSS, limits, links and audit
 * ids as the kernel keeps them.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "test_vmas.h"
#include "spec.h"
#include "tap.h"
#include "test_fds.h"
#include "uprocfs/procfs.h"

enum prop { P_TABLE, P_SHARED, P_TTY, P_IO, P_OOM, P_LIMITS, P_LINKS, P_AUDIT, P_RENDER, NR_PROPS };

static const char *const prop_names[NR_PROPS] = {
	[P_TABLE] = "fd tables: ascending, below FDSize (64 or 128 << k), none for zombies, init's for kthreads",
	[P_SHARED] = "a pipe or socket held by several processes: one inode along the tree, same kind",
	[P_TTY] = "fd/0..2 on a /dev/pts/N only where tty_nr is that terminal",
	[P_IO] = "io: whole pages reach the disk, the group sums its threads, more CPU more calls",
	[P_OOM] = "oom_score in 0..2000, 0 for kthreads and init, growing with rss+swap+pte",
	[P_LIMITS] = "limits: soft <= hard, open fds below RLIMIT_NOFILE, SigQ's and stat's limits",
	[P_LINKS] = "cwd and root for every living task, exe is the file mapping the code",
	[P_AUDIT] = "loginuid and sessionid set together, for users' and root's logins only",
	[P_RENDER] = "status FDSize, fd/, fdinfo/, io, limits and oom_score render",
};

static unsigned long fails[NR_PROPS], checks[NR_PROPS];
static const char *cur_label = "";
static unsigned long shared_pipes, shared_socks, tty_tasks;

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
	diag("%s: %s: %s", prop_names[p], cur_label, msg);
}

/* Whether @a is @b or one of its ancestors. */
static bool ancestor(const struct mach_machine *m, pid_t a, pid_t b)
{
	for (int depth = 0; b > 0 && depth < 64; depth++) {
		const struct mach_process *p = mach_find_process(m, b);

		if (b == a)
			return true;
		b = p ? p->ppid : 0;
	}
	return false;
}

static void check_table(const struct mach_machine *m, const struct mach_process *p)
{
	const struct mach_files *f = p->files;
	bool zombie = p->threads[0].state == MACH_TASK_ZOMBIE;
	unsigned int cap = f ? f->max_fds : 0;

	if (zombie || p->threads[0].kthread) {
		check(P_TABLE, zombie ? !f : f && cap == 64 && !f->nfds, "pid %d: table of a %s", p->tgid,
		      zombie ? "zombie" : "kthread");
		return;
	}
	check(P_TABLE, f && (cap == 64 || (cap >= 128 && !(cap & (cap - 1)))) && f->nfds, "pid %d: FDSize %u",
	      p->tgid, cap);
	for (unsigned int i = 0; f && i < f->nfds; i++) {
		const struct mach_fd *d = &f->fds[i];

		check(P_TABLE, (i == 0 || d->fd > f->fds[i - 1].fd) && (unsigned int)d->fd < cap &&
			       d->kind != MACH_FD_UNKNOWN && d->info_known,
		      "pid %d: fd %d (FDSize %u)", p->tgid, d->fd, cap);
		check(P_LIMITS, (uint64_t)d->fd < p->rlim[MACH_RLIMIT_NOFILE].cur, "pid %d: fd %d over NOFILE",
		      p->tgid, d->fd);
	}
	(void)m;
}

struct holder {
	uint64_t ino;
	const struct mach_fd *f;
	const struct mach_process *p;
};

static int by_ino(const void *a, const void *b)
{
	const struct holder *x = a, *y = b;

	return x->ino != y->ino ? (x->ino > y->ino) - (x->ino < y->ino) : (x->p->tgid > y->p->tgid) - (x->p->tgid < y->p->tgid);
}

/* Every holder of a pipe or socket inode: related along the tree, and agreeing on what it is. */
static void check_shared(const struct mach_machine *m)
{
	struct holder *h = NULL;
	size_t n = 0, cap = 0;

	for (size_t i = 0; i < m->nprocs; i++) {
		const struct mach_files *f = m->procs[i].files;

		for (unsigned int k = 0; f && k < f->nfds; k++) {
			if (f->fds[k].kind != MACH_FD_PIPE && f->fds[k].kind != MACH_FD_SOCKET)
				continue;
			if (n == cap && !(h = realloc(h, (cap = cap ? 2 * cap : 1024) * sizeof(*h))))
				abort();
			h[n++] = (struct holder){ f->fds[k].ino, &f->fds[k], &m->procs[i] };
		}
	}
	qsort(h, n, sizeof(*h), by_ino);
	for (size_t i = 1; i < n; i++) {
		const struct holder *a = &h[i - 1], *b = &h[i];
		bool related;

		if (a->ino != b->ino || a->p == b->p)
			continue;
		/* or both inherited it from its maker: inodes are 20000000 + 256 * pid + slot (net_int.h) */
		related = ancestor(m, a->p->tgid, b->p->tgid) || ancestor(m, b->p->tgid, a->p->tgid) ||
			  a->p->ppid == b->p->ppid ||
			  (ancestor(m, (pid_t)((a->ino - 20000000) / 256), a->p->tgid) &&
			   ancestor(m, (pid_t)((a->ino - 20000000) / 256), b->p->tgid));
		check(P_SHARED, b->f->kind == a->f->kind && b->f->sock_family == a->f->sock_family &&
				    b->f->sock_type == a->f->sock_type && related,
		      "inode %llu in %d fd %d and %d fd %d", (unsigned long long)a->ino, a->p->tgid, a->f->fd,
		      b->p->tgid, b->f->fd);
		if (a->f->kind == MACH_FD_PIPE)
			shared_pipes++;
		else
			shared_socks++;
	}
	free(h);
}

/* fd/0..2 on /dev/pts/N exactly when tty_nr is pts N (a job's output may go to a pipe) */
static void check_tty(const struct mach_process *p)
{
	unsigned int nr = (unsigned int)p->tty_nr, major = (nr >> 8) & 0xfff;
	unsigned int minor = (nr & 0xff) | ((nr >> 12) & 0xfff00);
	bool pts = major >= 136 && major < 144;
	char want[32];

	if (!p->files)
		return;
	snprintf(want, sizeof(want), "/dev/pts/%u", minor + (major - 136) * 256);
	for (unsigned int i = 0; i < p->files->nfds && p->files->fds[i].fd < 3; i++) {
		const struct mach_fd *f = &p->files->fds[i];
		bool on_pts = f->kind == MACH_FD_PATH && f->name && !strncmp(f->name, "/dev/pts/", 9);

		check(P_TTY, !on_pts || (pts && !strcmp(f->name, want)), "pid %d: fd %d %s, tty_nr %#x", p->tgid,
		      f->fd, f->name ? f->name : "?", nr);
		if (i == 0 && pts && on_pts)
			tty_tasks++;
	}
}

static void check_io(const struct mach_process *p)
{
	struct mach_taskio sum;

	mach_process_io(p, &sum);
	for (unsigned int i = 0; i < p->nthreads; i++) {
		const struct mach_taskio *io = &p->threads[i].io;

		check(P_IO, io->read_bytes % 4096 == 0 && io->write_bytes % 4096 == 0 &&
				    io->cancelled_write_bytes <= io->write_bytes && sum.syscr >= io->syscr &&
				    sum.rchar >= io->rchar && (p->threads[0].kthread || io->syscr > 0),
		      "pid %d tid %d: io", p->tgid, p->threads[i].tid);
	}
}

/* More CPU, more system calls: the busiest quarter of processes reads more than the idlest. */
static void check_io_cpu(const struct mach_machine *m)
{
	uint64_t *cpu = calloc(m->nprocs, sizeof(*cpu)), lo_sum = 0, hi_sum = 0, cut_lo, cut_hi;
	size_t n = 0;

	for (size_t i = 0; i < m->nprocs; i++)
		if (m->procs[i].files && !m->procs[i].threads[0].kthread)
			cpu[n++] = m->procs[i].group_utime_ns + m->procs[i].group_stime_ns;
	if (n < 40) {
		free(cpu);
		return;
	}
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && cpu[j - 1] > cpu[j]; j--) {
			uint64_t t = cpu[j];

			cpu[j] = cpu[j - 1];
			cpu[j - 1] = t;
		}
	cut_lo = cpu[n / 4];
	cut_hi = cpu[3 * n / 4];
	for (size_t i = 0; i < m->nprocs; i++) {
		const struct mach_process *p = &m->procs[i];
		uint64_t c = p->group_utime_ns + p->group_stime_ns;
		struct mach_taskio io;

		if (!p->files || p->threads[0].kthread)
			continue;
		mach_process_io(p, &io);
		if (c < cut_lo)
			lo_sum += io.syscr;
		else if (c >= cut_hi)
			hi_sum += io.syscr;
	}
	check(P_IO, hi_sum > lo_sum, "the busiest quarter made %llu calls, the idlest %llu",
	      (unsigned long long)hi_sum, (unsigned long long)lo_sum);
	free(cpu);
}

struct pages_score {
	uint64_t pages, score;
	pid_t pid;
};

static int by_pages(const void *a, const void *b)
{
	const struct pages_score *x = a, *y = b;

	return (x->pages > y->pages) - (x->pages < y->pages);
}

/* oom_score against the counters it is made of: adj 0 processes, sorted by their pages, score in order. */
static void check_oom(const struct mach_machine *m)
{
	struct pages_score *v = calloc(m->nprocs ? m->nprocs : 1, sizeof(*v));
	size_t n = 0;

	for (size_t i = 0; i < m->nprocs; i++) {
		const struct mach_process *p = &m->procs[i];
		uint64_t score = mach_oom_score(m, p);

		check(P_OOM, score <= 2000 && ((!p->threads[0].kthread && p->tgid != 1) || score == 0) &&
				     (p->oom_score_adj != -1000 || score == 0),
		      "pid %d: oom_score %llu", p->tgid, (unsigned long long)score);
		if (p->mm && !p->oom_score_adj && p->tgid != 1)
			v[n++] = (struct pages_score){ p->mm->stat_rss + p->mm->vm_swap / 4 + p->mm->vm_pte / 4, score,
						       p->tgid };
	}
	qsort(v, n, sizeof(*v), by_pages);
	for (size_t i = 1; i < n; i++)
		check(P_OOM, v[i].score >= v[i - 1].score, "pid %d: %llu pages, score %llu below pid %d's %llu",
		      v[i].pid, (unsigned long long)v[i].pages, (unsigned long long)v[i].score, v[i - 1].pid,
		      (unsigned long long)v[i - 1].score);
	free(v);
}

static void check_limits_links(const struct mach_process *p)
{
	const struct mach_thread *t = &p->threads[0];
	bool zombie = t->state == MACH_TASK_ZOMBIE;
	const struct mach_mm *mm = p->mm;

	for (int i = 0; i < MACH_RLIM_NLIMITS; i++)
		check(P_LIMITS, p->rlim[i].cur <= p->rlim[i].max, "pid %d: limit %d", p->tgid, i);
	check(P_LIMITS, p->rlim[MACH_RLIMIT_SIGPENDING].cur > 0 &&
			      p->rlim[MACH_RLIMIT_NPROC].cur == p->rlim[MACH_RLIMIT_SIGPENDING].cur,
	      "pid %d: sigpending %llu", p->tgid, (unsigned long long)p->rlim[MACH_RLIMIT_SIGPENDING].cur);
	check(P_LINKS, zombie ? !p->fs : p->fs && p->fs->cwd && p->fs->cwd[0] == '/' && p->fs->root, "pid %d: fs",
	      p->tgid);
	if (mm) {
		const char *code = NULL;
		const struct mach_vma *vmas = test_vmas(mm);

		for (size_t i = 0; i < mm->nvmas; i++)
			if (vmas[i].kind == MACH_VMA_FILE && vmas[i].start <= mm->start_code && mm->start_code < vmas[i].end)
				code = vmas[i].name;
		check(P_LINKS, mm->exe && code && !strcmp(mm->exe, code), "pid %d: exe %s, code in %s", p->tgid,
		      mm->exe ? mm->exe : "-", code ? code : "-");
	}
	for (unsigned int i = 0; i < p->nthreads; i++) {
		const struct mach_thread *x = &p->threads[i];
		bool lset = mach_thread_cred(x)->loginuid != 4294967295u, sset = mach_thread_cred(x)->sessionid != 4294967295u;

		check(P_AUDIT, lset == sset && (!lset || mach_thread_cred(x)->loginuid == 0 || mach_thread_cred(x)->loginuid >= 1000) &&
				       mach_thread_cred(x)->loginuid == mach_thread_cred(t)->loginuid && !(t->kthread && lset),
		      "pid %d tid %d: loginuid %u sessionid %u", p->tgid, x->tid, mach_thread_cred(x)->loginuid, mach_thread_cred(x)->sessionid);
	}
}

/* The files render, and status's FDSize is the table's. */
static void check_render(const struct mach_machine *m, const struct mach_process *p)
{
	static const char *const files[] = { "status", "io", "limits", "oom_score", "fd/0", "fdinfo/0" };
	char path[64], err[256], *text;

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		struct pfs_node n;
		struct pfs_ctx c;
		size_t len;
		int rc;

		if (i >= 4 && (!p->files || !p->files->nfds || p->files->fds[0].fd != 0))
			continue;
		snprintf(path, sizeof(path), "/proc/%d/%s", (int)p->tgid, files[i]);
		rc = pfs_resolve(m, path, &n, &c, err, sizeof(err));
		if (!rc)
			rc = pfs_render(&n, &c, &text, &len);
		check(P_RENDER, !rc, "%s: %s", path, rc ? err : "");
		if (rc)
			continue;
		if (i == 0) {
			char want[32];

			snprintf(want, sizeof(want), "\nFDSize:\t%u\n", p->files ? p->files->max_fds : 0);
			check(P_RENDER, strstr(text, want) != NULL, "%s: FDSize", path);
		}
		free(text);
	}
}

int main(void)
{
	static const char *const shapes[] = { "cpus=64,tasks=2000", "tasks=5,threads=20", "depth=16,tasks=400",
					      "cpus=96,tasks=5000,threads=20000,seed=99" };
	char spec[64], err[256];

	plan(0);
	for (int seed = 1; seed <= 50 + (int)(sizeof(shapes) / sizeof(shapes[0])); seed++) {
		struct mach_machine *m = NULL;

		if (seed <= 50)
			snprintf(spec, sizeof(spec), "synth:seed=%d", seed);
		else
			snprintf(spec, sizeof(spec), "synth:%s", shapes[seed - 51]);
		cur_label = spec;
		if (mach_from_spec(spec, &m, err, sizeof(err)) || test_store_fds(m)) {
			ok(0, "%s builds and makes its fd tables: %s", spec, err);
			mach_free(m);
			continue;
		}
		for (size_t i = 0; i < m->nprocs; i++) {
			check_table(m, &m->procs[i]);
			check_tty(&m->procs[i]);
			check_io(&m->procs[i]);
			check_limits_links(&m->procs[i]);
			if (seed <= 50)
				check_render(m, &m->procs[i]);
		}
		check_shared(m);
		check_io_cpu(m);
		check_oom(m);
		mach_free(m);
	}
	for (int p = 0; p < NR_PROPS; p++)
		ok(fails[p] == 0 && checks[p] > 0, "%s (%lu checks, %lu failed)", prop_names[p], checks[p], fails[p]);
	ok(shared_pipes > 0 && shared_socks > 0 && tty_tasks > 0,
	   "pipes (%lu) and sockets (%lu) shared between parents and children; %lu tasks on terminals", shared_pipes,
	   shared_socks, tty_tasks);
	return tap_done();
}
