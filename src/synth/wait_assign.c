// SPDX-License-Identifier: MIT
/*
 * wait_assign.c - where each synthetic task waits (see waits.c), its
 * sched_info, and the children list of every thread.
 *
 * A thread's wait follows from its program and state alone; its syscall
 * registers come from its detail stream (keyed by its tid), so the threads
 * can be built in any order.  Children are listed once the whole machine
 * exists: one pass over the processes, by pid, hands each to the thread
 * that forked it (a multi-threaded parent forks from its workers too).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "waits.h"

/* How the leader and the other threads of each program wait. */
static const uint8_t prog_waits[NR_PROGS][2] = {
	[P_SYSTEMD] = { W_EPOLL, W_EPOLL }, [P_JOURNALD] = { W_EPOLL, W_EPOLL },
	[P_UDEVD] = { W_EPOLL, W_EPOLL }, [P_NETWORKD] = { W_EPOLL, W_EPOLL },
	[P_RESOLVED] = { W_EPOLL, W_EPOLL }, [P_TIMESYNCD] = { W_EPOLL, W_RECV_UDP },
	[P_LOGIND] = { W_EPOLL, W_EPOLL }, [P_DBUS] = { W_EPOLL, W_EPOLL },
	[P_RSYSLOGD] = { W_SELECT, W_FUTEX }, [P_CRON] = { W_NANOSLEEP, W_NANOSLEEP },
	[P_ATD] = { W_SELECT, W_SELECT }, [P_SSHD] = { W_PPOLL, W_PPOLL },
	[P_AGETTY] = { W_TTY_READ, W_TTY_READ }, [P_AGETTY_SERIAL] = { W_TTY_READ, W_TTY_READ },
	[P_IRQBALANCE] = { W_POLL, W_POLL }, [P_MULTIPATHD] = { W_PPOLL, W_FUTEX },
	[P_POLKITD] = { W_POLL, W_POLL }, [P_CONTAINERD] = { W_FUTEX, W_FUTEX },
	[P_DOCKERD] = { W_FUTEX, W_EPOLL_PWAIT }, [P_UNATTENDED] = { W_SELECT, W_FUTEX },
	[P_DNSMASQ] = { W_SELECT, W_SELECT }, [P_SYSTEMD_USER] = { W_EPOLL, W_EPOLL },
	[P_SD_PAM] = { W_SIGTIMEDWAIT, W_SIGTIMEDWAIT }, [P_SSHD_PRIV] = { W_POLL, W_POLL },
	[P_SSHD_USER] = { W_PPOLL, W_PPOLL }, [P_BASH_LOGIN] = { W_WAIT4, W_WAIT4 },
	[P_BASH] = { W_WAIT4, W_WAIT4 }, [P_SH] = { W_WAIT4, W_WAIT4 },
	[P_TMUX] = { W_EPOLL, W_EPOLL }, [P_MAKE] = { W_WAIT4, W_WAIT4 },
	[P_CC1] = { W_IO, W_IO }, [P_VIM] = { W_SELECT, W_SELECT }, [P_TOP] = { W_SELECT, W_SELECT },
	[P_LESS] = { W_POLL, W_POLL }, [P_TAIL] = { W_INOTIFY, W_INOTIFY },
	[P_SLEEP] = { W_NANOSLEEP, W_NANOSLEEP }, [P_PYTHON] = { W_SELECT, W_FUTEX },
	[P_PS] = { W_PIPE_READ, W_PIPE_READ }, [P_SSH] = { W_PPOLL, W_PPOLL },
	[P_RSYNC] = { W_SELECT, W_SELECT }, [P_XZ] = { W_PIPE_READ, W_FUTEX },
	[P_NGINX] = { W_SIGSUSPEND, W_SIGSUSPEND }, [P_NGINX_WORKER] = { W_EPOLL, W_EPOLL },
	[P_POSTMASTER] = { W_EPOLL, W_EPOLL }, [P_PG_AUX] = { W_EPOLL, W_EPOLL },
	[P_PG_BACKEND] = { W_EPOLL, W_EPOLL }, [P_REDIS] = { W_EPOLL, W_FUTEX },
	[P_JAVA] = { W_FUTEX, W_FUTEX }, [P_NODE] = { W_EPOLL_PWAIT, W_FUTEX },
	[P_GUNICORN] = { W_SELECT, W_SELECT }, [P_GUNICORN_WORKER] = { W_POLL, W_FUTEX },
	[P_PHPFPM] = { W_EPOLL, W_EPOLL }, [P_PHPFPM_WORKER] = { W_ACCEPT, W_ACCEPT },
	[P_CRON_CHILD] = { W_WAIT4, W_WAIT4 }, [P_SHIM] = { W_FUTEX, W_EPOLL_PWAIT },
	[P_MEMCACHED] = { W_EPOLL, W_EPOLL }, [P_CELERY] = { W_UNIX_READ, W_FUTEX },
	[P_PAUSE] = { W_PAUSE, W_PAUSE }, [P_COREDNS] = { W_FUTEX, W_EPOLL_PWAIT },
	[P_EXPORTER] = { W_FUTEX, W_EPOLL_PWAIT },
};

/* Each kind of kernel thread in its loop. */
static const uint8_t kthread_waits[NR_KTS] = {
	[K_KTHREADD] = W_KTHREADD, [K_POOL_RELEASE] = W_KWORKER_FN, [K_RESCUER] = W_RESCUER,
	[K_PERCPU_H] = W_WORKER, [K_UNBOUND] = W_WORKER, [K_KSOFTIRQD] = W_SMPBOOT,
	[K_RCU_PREEMPT] = W_RCU_GP, [K_RCU_EXP_PAR] = W_KWORKER_FN, [K_RCU_EXP] = W_KWORKER_FN,
	[K_MIGRATION] = W_SMPBOOT, [K_CPUHP] = W_SMPBOOT, [K_PERCPU_EVENTS] = W_WORKER,
	[K_PERCPU_HIGHPRI] = W_WORKER, [K_KDEVTMPFS] = W_DEVTMPFS, [K_RCU_TASKS] = W_RCU_TASKS,
	[K_RCU_TASKS_RUDE] = W_RCU_TASKS, [K_RCU_TASKS_TRACE] = W_RCU_TASKS, [K_KAUDITD] = W_KAUDITD,
	[K_KHUNGTASKD] = W_WATCHDOG, [K_OOM_REAPER] = W_OOM_REAPER, [K_UNBOUND_WB] = W_WORKER,
	[K_UNBOUND_FLUSH] = W_WORKER, [K_KCOMPACTD] = W_KCOMPACTD, [K_KSMD] = W_KSMD,
	[K_KHUGEPAGED] = W_KHUGEPAGED, [K_WATCHDOGD] = W_KWORKER_FN, [K_KSWAPD] = W_KSWAPD,
	[K_HWRNG] = W_HWRNG, [K_UNBOUND_HI] = W_WORKER, [K_JBD2] = W_JBD2, [K_IRQ_ACPI] = W_IRQ_THREAD,
	[K_LATE_EVENTS] = W_WORKER, [K_LATE_POWER] = W_WORKER, [K_LATE_UNBOUND] = W_WORKER,
};

int sy_install_waits(struct synth *s)
{
	struct mach_machine *m = s->m;
	uint32_t id;
	int rc;

	for (unsigned int k = 1; k < NR_KSYMS; k++) {
		if ((rc = mach_ksym_intern(m, sy_ksyms[k].name, strlen(sy_ksyms[k].name), sy_ksyms[k].size, NULL,
					   &id)))
			return rc;
		if (id != k)
			return -EINVAL; /* a fresh machine numbers them in table order */
	}
	for (unsigned int w = 1; w < NR_WAITS; w++) {
		struct mach_kframe fr[SY_MAX_FRAMES];
		unsigned int n = 0;

		while (n < SY_MAX_FRAMES && sy_waits[w].frames[n].sym) {
			fr[n].sym = sy_waits[w].frames[n].sym;
			fr[n].off = sy_waits[w].frames[n].off;
			n++;
		}
		if ((rc = mach_kstack_intern(m, fr, n, &id)))
			return rc;
		if (id != w)
			return -EINVAL;
	}
	return 0;
}

/* Put thread @t in wait @w (W_NONE: none). */
static void set_wait(struct mach_thread *t, enum sy_wait w)
{
	t->kstack = w;
	t->wchan_sym = w ? sy_waits[w].frames[0].sym : 0;
}

void sy_kthread_wait(const struct gen *g, struct mach_thread *t)
{
	set_wait(t, t->state == MACH_TASK_RUNNING ? W_NONE : (enum sy_wait)kthread_waits[g->prog]);
	/* a kernel thread's saved user registers are all zero: syscall 0, no arguments */
	memset(&t->syscall, 0, sizeof(t->syscall));
}

/*
 * The argument registers of each wait, one letter per register, as such
 * syscalls are entered: f an fd, s a pointer into the stack, h one into
 * the heap, l one into libc's data, n a small count, t a timeout of -1 (32
 * bits), m -1, 8 the size of a sigset, c a clock id, o a futex op, v a
 * futex value, j leftover bits of a previous computation, 0 zero.
 */
static const char *const wait_regs[NR_WAITS] = {
	[W_EPOLL] = "fsntj0", [W_EPOLL_PWAIT] = "fsnt08", [W_SELECT] = "fs0000", [W_POLL] = "sntlj0",
	[W_PPOLL] = "sns080", [W_NANOSLEEP] = "c0s0j0", [W_PIPE_READ] = "fsnlj0", [W_UNIX_READ] = "fsnlj0",
	[W_FUTEX] = "hov00t", [W_PAUSE] = "00nl0s", [W_WAIT4] = "m00000", [W_ACCEPT] = "f00lj0",
	[W_INOTIFY] = "fsnlj0", [W_TTY_READ] = "fsnls0", [W_SIGSUSPEND] = "s8hlj0", [W_RECV_UDP] = "fsn000",
	[W_SIGTIMEDWAIT] = "s008j0", [W_STOPPED] = "c0ss00", [W_IO] = "fhnlj0",
};

/* The mapping holding @addr, or NULL. */
static const struct mach_vma *vma_at(const struct mach_mm *mm, uint64_t addr)
{
	for (size_t i = 0; i < mm->nvmas; i++)
		if (mm->vmas[i].start <= addr && addr < mm->vmas[i].end)
			return &mm->vmas[i];
	return NULL;
}

/* Where the task's user code enters the kernel: libc's text, or the executable's (Go, static). */
static const struct mach_vma *entry_text(const struct mach_mm *mm)
{
	for (size_t i = 0; i < mm->nvmas; i++) {
		const struct mach_vma *v = &mm->vmas[i];

		if (v->kind == MACH_VMA_FILE && (v->flags & MACH_VM_EXEC) && v->name &&
		    !strcmp(v->name, LIBC_PATH))
			return v;
	}
	return vma_at(mm, mm->start_code);
}

/* The top of thread @j's stack: below the arguments for the leader, its own mapping's end for the others. */
static uint64_t stack_top(const struct mach_mm *mm, unsigned int j)
{
	unsigned int k = 0;

	for (size_t i = 1; j && i < mm->nvmas; i++) {
		const struct mach_vma *g = &mm->vmas[i - 1], *v = &mm->vmas[i];

		/* a thread's stack: private read-write memory right above its PROT_NONE guard */
		if (v->kind == MACH_VMA_ANON && g->kind == MACH_VMA_ANON && g->end == v->start &&
		    !(g->flags & (MACH_VM_READ | MACH_VM_WRITE | MACH_VM_EXEC)) &&
		    (v->flags & MACH_VM_WRITE) && ++k == j)
			return v->end;
	}
	return mm->start_stack;
}

/* The registers of a task of @p entered into wait @w, from its detail stream @r. */

/* The fd a blocked syscall waits on: one of the process's own above stdio when its table is known. */
static uint64_t wait_fd(const struct mach_process *p, struct rng *r)
{
	const struct mach_files *f = p->files;
	const struct mach_fd *fds = NULL;
	unsigned int above = 0;

	if (f && mach_files_fds(f, &fds))
		f = NULL;
	for (unsigned int i = 0; f && i < f->nfds; i++)
		above += fds[i].fd >= 3;
	if (!above)
		return 3 + rng_below(r, 4);
	above = (unsigned int)rng_below(r, above);
	for (unsigned int i = 0; i < f->nfds; i++)
		if (fds[i].fd >= 3 && !above--)
			return (uint64_t)fds[i].fd;
	return 3;
}

static void user_regs(const struct mach_process *p, unsigned int j, enum sy_wait w, struct rng *r,
		      struct mach_syscall *sc)
{
	const struct mach_mm *mm = p->mm;
	const struct mach_vma *text = entry_text(mm);
	uint64_t sp = (stack_top(mm, j) - 0x200 - 16 * rng_below(r, 256)) & ~(uint64_t)15;
	uint64_t lib = text ? text->end + 0x1000 * rng_range(r, 1, 64) + 8 * rng_below(r, 512) : 0;
	uint64_t *reg = sc->args;

	sc->nr = sy_waits[w].nr;
	sc->sp = sp;
	sc->pc = text ? text->start + rng_below(r, (text->end - text->start) / 2) + 0x10 : 0;
	for (const char *c = wait_regs[w]; *c; c++, reg++) {
		switch (*c) {
		case 'f': *reg = wait_fd(p, r); break;
		case 's': *reg = sp + 16 * rng_range(r, 2, 64); break;
		case 'h': *reg = mm->start_brk + 16 * rng_below(r, 4096); break;
		case 'l': *reg = lib; break;
		case 'n': *reg = rng_range(r, 1, 64); break;
		case 't': *reg = 0xffffffffull; break;
		case 'm': *reg = ~0ull; break;
		case '8': *reg = 8; break;
		case 'c': *reg = rng_below(r, 2); break;
		case 'o': *reg = 0x189; break;
		case 'v': *reg = rng_below(r, 4) * 2; break;
		case 'j': *reg = 0x1999999999999999ull; break;
		default: *reg = 0; break;
		}
	}
}

void sy_user_wait(struct synth *s, const struct gen *g, struct mach_process *p, unsigned int j)
{
	struct mach_thread *t = &p->threads[j];
	enum sy_wait w = prog_waits[g->prog][j != 0];
	struct rng r;

	if (t->state == MACH_TASK_STOPPED || t->state == MACH_TASK_TRACED)
		w = W_STOPPED;
	else if (t->state == MACH_TASK_DISK_SLEEP)
		w = W_IO;
	else if (t->state == MACH_TASK_RUNNING || t->state == MACH_TASK_ZOMBIE || t->state == MACH_TASK_DEAD)
		w = W_NONE;
	set_wait(t, w);
	memset(&t->syscall, 0, sizeof(t->syscall));
	if (!p->mm) {
		t->syscall.nr = -1; /* the stack is gone: "-1 0x0 0x0" */
		return;
	}
	rng_init(&r, s->o->seed, KEY_DETAIL + (uint64_t)(uint32_t)t->tid);
	r.s ^= 0x5ca11ull;
	/* a running task reads "running"; it still holds the registers of its last syscall */
	user_regs(p, j, w ? w : prog_waits[g->prog][j != 0], &r, &t->syscall);
}

/*
 * sched_info from the fitted times: the run time is what utime and stime
 * add up to (cputime_adjust splits sum_exec_runtime so); every switch in
 * began a timeslice; each waited on a runqueue for a few microseconds,
 * busier tasks (more run time per slice) longer.
 */
void sy_build_sched_info(struct synth *s)
{
	struct mach_machine *m = s->m;

	for (size_t i = 0; i < m->nprocs; i++)
		for (unsigned int j = 0; j < m->procs[i].nthreads; j++) {
			struct mach_thread *t = &m->procs[i].threads[j];
			struct rng r;

			rng_init(&r, s->o->seed, KEY_DETAIL + (uint64_t)(uint32_t)t->tid);
			r.s ^= 0x5ced5ull;
			t->sum_exec_runtime_ns = t->utime_ns + t->stime_ns;
			t->pcount = t->nvcsw + t->nivcsw;
			t->run_delay_ns = t->pcount * rng_range(&r, 2000, 40000) +
					  (uint64_t)((double)t->sum_exec_runtime_ns * rng_uniform(&r, 0.002, 0.08));
		}
}

/* The thread of @p that forked child @child: mostly the leader, now and then a worker. */
static unsigned int forker(const struct mach_process *p, pid_t child)
{
	uint64_t h = (uint64_t)(uint32_t)child * 0x9e3779b97f4a7c15ull;

	if (p->nthreads < 2 || (h >> 62))
		return 0;
	return 1 + (unsigned int)((h >> 20) % (p->nthreads - 1));
}

/*
 * Each thread's children, from the plan's parents: the children are
 * grouped by parent first (a counting sort over plan indices, which keeps
 * them by pid), then each parent's threads get theirs in one visit.
 * Walking the processes and reaching into each one's parent made three
 * passes of random misses into the threads: 0.5-0.7 s at a million tasks.
 */
int sy_build_children(struct synth *s)
{
	struct mach_machine *m = s->m;
	size_t n = m->nprocs;
	/* the children of process i are kids[first[i]] .. kids[first[i + 1] - 1] */
	uint32_t *first = calloc(n + 2, sizeof(*first)), *kids = malloc((n ? n : 1) * sizeof(*kids));
	int rc = 0;

	if (!first || !kids) {
		rc = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		if (s->ids[i].parent >= 0)
			first[s->ids[i].parent + 2]++;
	for (size_t i = 2; i <= n + 1; i++)
		first[i] += first[i - 1];
	/* placing child i moves its parent's cursor, first[parent + 1], to where the next goes */
	for (size_t i = 0; i < n; i++)
		if (s->ids[i].parent >= 0)
			kids[first[s->ids[i].parent + 1]++] = (uint32_t)i;
	for (size_t i = 0; i < n && !rc; i++) {
		struct mach_process *p = &m->procs[i];

		if (first[i] == first[i + 1])
			continue;
		for (uint32_t k = first[i]; k < first[i + 1]; k++)
			p->threads[forker(p, m->procs[kids[k]].tgid)].nchildren++;
		for (unsigned int j = 0; j < p->nthreads; j++) {
			struct mach_thread *t = &p->threads[j];

			if (t->nchildren && !(t->children = malloc(t->nchildren * sizeof(pid_t))))
				rc = -ENOMEM;
			t->nchildren = 0;
		}
		for (uint32_t k = first[i]; k < first[i + 1] && !rc; k++) {
			pid_t child = m->procs[kids[k]].tgid;
			struct mach_thread *t = &p->threads[forker(p, child)];

			t->children[t->nchildren++] = child;
		}
	}
out:
	free(first);
	free(kids);
	return rc;
}
