// SPDX-License-Identifier: MIT
/*
 * psi.c - PSI task accounting: groups, per-CPU task counts and state clocks.
 *
 * Mirrors kernel/sched/psi.c of Linux 6.18: test_states, record_times,
 * psi_group_change, psi_task_change, psi_task_switch, psi_memstall_enter/
 * leave, cgroup_move_task, psi_account_irqtime and psi_cgroup_restart, and
 * the enqueue side of kernel/sched/stats.h.  Groups and the engine are
 * made, freed and read in psi_group.c.
 *
 * The clock is read once per task change, before walking the groups, inside
 * one per-CPU write section (6.17's per-CPU psi_seq).  PSI_CLOCK_PER_GROUP
 * moves the read into every group's update, as kernels before 5.13 (inside
 * record_times) and those between the 2024 "fix bogus pressure spikes from
 * aggregation race" and 6.17 (inside the per-group seqcount) had it; the
 * benchmark measures the difference.
 */
#include <errno.h>
#include <string.h>
#include <time.h>

#include "psi_internal.h"

/* The per-CPU write section; compiler barriers as smp_wmb() is on x86. */
static inline void psi_write_begin(struct psi_cpu *pc)
{
	pc->seq++;
	__asm__ volatile("" ::: "memory");
}

static inline void psi_write_end(struct psi_cpu *pc)
{
	__asm__ volatile("" ::: "memory");
	pc->seq++;
}

uint64_t psi_clock_boottime(void *ctx, int cpu)
{
	struct timespec ts;

	(void)ctx;
	(void)cpu;
	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

/* ------------------------------------------------------------------ */
/* State derivation and time accounting                                */

/*
 * The group's stall states from its task counts (the NR_* slots of
 * tasks[], passed by value); @state_mask holds only the ONCPU bit.
 */
static inline uint32_t test_states(unsigned int iowait, unsigned int memstall,
				   unsigned int running, unsigned int memstall_running,
				   uint32_t state_mask)
{
	const unsigned int oncpu = !!(state_mask & PSI_ONCPU);

	if (iowait) {
		state_mask |= 1u << PSI_IO_SOME;
		if (!running)
			state_mask |= 1u << PSI_IO_FULL;
	}

	if (memstall) {
		state_mask |= 1u << PSI_MEM_SOME;
		/* Every runnable task is itself reclaiming: nobody makes progress. */
		if (running == memstall_running)
			state_mask |= 1u << PSI_MEM_FULL;
	}

	/* More runnable tasks than the one on the CPU: someone waits for it. */
	if (running > oncpu)
		state_mask |= 1u << PSI_CPU_SOME;

	/* Runnable but none of ours on the CPU (only meaningful in a cgroup). */
	if (running && !oncpu)
		state_mask |= 1u << PSI_CPU_FULL;

	if (iowait || memstall || running)
		state_mask |= 1u << PSI_NONIDLE;

	return state_mask;
}

/* One count: -1 if @t is in @clear (never below 0), +1 if in @set. */
static inline unsigned int psi_count(struct psi_engine *eng, unsigned int cur, unsigned int t,
				     unsigned int clear, unsigned int set)
{
	unsigned int dec = (clear >> t) & 1;

	if (unlikely(dec > cur)) {
		eng->stats.underflows++;	/* the kernel's "psi: task underflow!" */
		dec = 0;
	}
	return cur - dec + ((set >> t) & 1);
}

/*
 * Close the state that held since state_start: add the elapsed time to the
 * clocks of every state in the *old* mask.  The delta is u32 like the
 * kernel's; changes come far more often than every 4.29 s.
 */
static inline void record_times(struct psi_group_cpu *groupc, uint64_t now)
{
	uint32_t delta = (uint32_t)(now - groupc->state_start);
	uint32_t mask = groupc->state_mask;

	groupc->state_start = now;

	if (mask & (1u << PSI_IO_SOME)) {
		groupc->times[PSI_IO_SOME] += delta;
		if (mask & (1u << PSI_IO_FULL))
			groupc->times[PSI_IO_FULL] += delta;
	}

	if (mask & (1u << PSI_MEM_SOME)) {
		groupc->times[PSI_MEM_SOME] += delta;
		if (mask & (1u << PSI_MEM_FULL))
			groupc->times[PSI_MEM_FULL] += delta;
	}

	if (mask & (1u << PSI_CPU_SOME)) {
		groupc->times[PSI_CPU_SOME] += delta;
		if (mask & (1u << PSI_CPU_FULL))
			groupc->times[PSI_CPU_FULL] += delta;
	}

	if (mask & (1u << PSI_NONIDLE))
		groupc->times[PSI_NONIDLE] += delta;
}

/*
 * Apply one task's clear/set to one group on one CPU and account the time
 * of the state that just ended.  @curr_in_memstall: the task on the CPU is
 * reclaiming, which makes any group holding it MEM_FULL.
 */
static inline __attribute__((always_inline)) void
psi_group_change(struct psi_engine *eng, struct psi_group *group, int cpu,
		 unsigned int clear, unsigned int set, uint64_t now, bool wake_clock,
		 bool curr_in_memstall)
{
	struct psi_group_cpu *groupc = &group->pcpu[cpu];
	unsigned int iowait, memstall, running, memstall_running;
	uint32_t state_mask;

	/* ONCPU has no count: it is carried in the mask itself. */
	if (unlikely(clear & PSI_TSK_ONCPU)) {
		state_mask = 0;
		clear &= ~PSI_TSK_ONCPU;
	} else if (unlikely(set & PSI_TSK_ONCPU)) {
		state_mask = PSI_ONCPU;
		set &= ~PSI_TSK_ONCPU;
	} else {
		state_mask = groupc->state_mask & PSI_ONCPU;
	}

	/*
	 * The counts, updated in registers: four fixed slots instead of the
	 * kernel's bit loops, so the state test below reads no store it just
	 * made.  Same result, underflow included.
	 */
	iowait = psi_count(eng, groupc->tasks[PSI_NR_IOWAIT], PSI_NR_IOWAIT, clear, set);
	memstall = psi_count(eng, groupc->tasks[PSI_NR_MEMSTALL], PSI_NR_MEMSTALL, clear, set);
	running = psi_count(eng, groupc->tasks[PSI_NR_RUNNING], PSI_NR_RUNNING, clear, set);
	memstall_running = psi_count(eng, groupc->tasks[PSI_NR_MEMSTALL_RUNNING],
				     PSI_NR_MEMSTALL_RUNNING, clear, set);
	groupc->tasks[PSI_NR_IOWAIT] = iowait;
	groupc->tasks[PSI_NR_MEMSTALL] = memstall;
	groupc->tasks[PSI_NR_RUNNING] = running;
	groupc->tasks[PSI_NR_MEMSTALL_RUNNING] = memstall_running;

	if (unlikely(!group->enabled)) {
		/*
		 * cgroup.pressure=0: keep counting tasks but stop the clocks.
		 * Conclude a running state once so the aggregator's snapshot
		 * (which extrapolates it) never sees the clock go back.
		 */
		if (groupc->state_mask & (1u << PSI_NONIDLE))
			record_times(groupc, now);
		groupc->state_mask = state_mask;
		return;
	}

	state_mask = test_states(iowait, memstall, running, memstall_running, state_mask);

	/*
	 * A memstall is also FULL when the CPU is busy reclaiming: nothing
	 * productive could run here even if it were runnable.
	 */
	if (unlikely((state_mask & PSI_ONCPU) && curr_in_memstall))
		state_mask |= 1u << PSI_MEM_FULL;

	record_times(groupc, now);
	groupc->state_mask = state_mask;

	if (wake_clock && !group->avgs_pending)
		psi_arm_avgs_work(group, now, eng->psi_freq);
}

/*
 * Apply clear/set from @group up to, not including, @stop (NULL: the root),
 * as the configured clock mode does it: with the caller's single @now, or
 * (the baseline) with a clock read and a write section per group, as the
 * pre-2021 and 2024-2025 kernels did.  The mode test sits outside the loop.
 */
static void psi_walk(struct psi_engine *eng, struct psi_cpu *pc, struct psi_group *group,
		     struct psi_group *stop, int cpu, unsigned int clear, unsigned int set,
		     uint64_t now, bool curr_in_memstall)
{
	uint64_t n = 0;

	if (likely(eng->clock_mode == PSI_CLOCK_ONCE)) {
		for (; group != stop; group = group->parent, n++)
			psi_group_change(eng, group, cpu, clear, set, now, true, curr_in_memstall);
	} else {
		for (; group != stop; group = group->parent, n++) {
			psi_write_begin(pc);
			now = psi_change_clock(eng, cpu);
			psi_group_change(eng, group, cpu, clear, set, now, true, curr_in_memstall);
			psi_write_end(pc);
		}
	}
	eng->stats.group_changes += n;
}

/* Open the change: in the default mode, the write section and the one read. */
static inline uint64_t psi_change_begin(struct psi_engine *eng, struct psi_cpu *pc, int cpu)
{
	if (eng->clock_mode == PSI_CLOCK_PER_GROUP)
		return 0;
	psi_write_begin(pc);
	return psi_change_clock(eng, cpu);
}

static inline void psi_change_end(struct psi_engine *eng, struct psi_cpu *pc)
{
	if (eng->clock_mode != PSI_CLOCK_PER_GROUP)
		psi_write_end(pc);
}

/* ------------------------------------------------------------------ */
/* Tasks                                                               */

int psi_task_init(struct psi_task *task, struct psi_group *group, int cpu)
{
	if (!task || !group || cpu < 0 || (unsigned int)cpu >= group->eng->ncpus)
		return -EINVAL;
	memset(task, 0, sizeof(*task));
	task->group = group;
	task->cpu = cpu;
	return 0;
}

/* The kernel's psi_flags_change test: set only what is clear, clear only what is set. */
static inline bool psi_flags_ok(unsigned int flags, unsigned int clear, unsigned int set)
{
	return !(flags & set) && (flags & clear) == clear;
}

int psi_task_change(struct psi_task *task, unsigned int clear, unsigned int set)
{
	struct psi_engine *eng;
	struct psi_cpu *pc;
	bool curr_in_memstall;
	uint64_t now;
	int cpu;

	if (unlikely(!task || !task->group))
		return -EINVAL;
	eng = task->group->eng;
	cpu = task->cpu;
	if (unlikely(cpu < 0 || (unsigned int)cpu >= eng->ncpus ||
		     ((clear | set) & ~PSI_TSK_ALL) ||
		     !psi_flags_ok(task->psi_flags, clear, set)))
		return -EINVAL;
	pc = &eng->cpus[cpu];
	if (unlikely(set & PSI_TSK_ONCPU)) {
		/* Only one task is on a CPU at a time. */
		if (pc->curr && pc->curr != task)
			return -EINVAL;
		pc->curr = task;
	} else if (unlikely(clear & PSI_TSK_ONCPU) && pc->curr == task) {
		pc->curr = NULL;
	}

	task->psi_flags = (task->psi_flags & ~clear) | set;
	curr_in_memstall = pc->curr && pc->curr->in_memstall;

	now = psi_change_begin(eng, pc, cpu);
	psi_walk(eng, pc, task->group, NULL, cpu, clear, set, now, curr_in_memstall);
	psi_change_end(eng, pc);

	eng->stats.task_changes++;
	return 0;
}

int psi_task_switch(struct psi_task *prev, struct psi_task *next, bool sleep)
{
	struct psi_task *any = prev ? prev : next;
	struct psi_group *common = NULL;
	unsigned int clear = PSI_TSK_ONCPU, set = 0;
	struct psi_engine *eng;
	struct psi_cpu *pc;
	bool curr_in_memstall;
	uint64_t now;
	int cpu;

	if (unlikely(!any || prev == next || !any->group))
		return -EINVAL;
	eng = any->group->eng;
	cpu = any->cpu;
	if (unlikely(cpu < 0 || (unsigned int)cpu >= eng->ncpus))
		return -EINVAL;
	pc = &eng->cpus[cpu];
	/* Validate everything first so a refused switch changes nothing. */
	if (next && (!next->group || next->group->eng != eng || next->cpu != cpu ||
		     (next->psi_flags & PSI_TSK_ONCPU)))
		return -EINVAL;
	if (pc->curr != prev)
		return -EINVAL;
	if (prev) {
		if (!prev->group || prev->group->eng != eng || !(prev->psi_flags & PSI_TSK_ONCPU))
			return -EINVAL;
		/*
		 * Going to sleep: psi_dequeue left PSI_TSK_RUNNING (and the
		 * memstall/iowait transitions) to us so that the common
		 * ancestors are walked once for both.
		 */
		if (sleep) {
			clear |= PSI_TSK_RUNNING;
			if (prev->in_memstall)
				clear |= PSI_TSK_MEMSTALL_RUNNING;
			if (prev->in_iowait)
				set |= PSI_TSK_IOWAIT;
		}
		if (!psi_flags_ok(prev->psi_flags, clear, set))
			return -EINVAL;
	}

	pc->curr = next;
	curr_in_memstall = next && next->in_memstall;

	now = psi_change_begin(eng, pc, cpu);

	if (next) {
		next->psi_flags |= PSI_TSK_ONCPU;
		/*
		 * Set ONCPU on next's groups.  A group that already has it is
		 * an ancestor of prev too: from there up nothing changes for
		 * ONCPU, so stop.  Setting ONCPU below never changes an
		 * ancestor's mask, so finding that group first is the same as
		 * the kernel's test-then-change loop.
		 */
		for (common = next->group; common; common = common->parent)
			if (common->pcpu[cpu].state_mask & PSI_ONCPU)
				break;
		psi_walk(eng, pc, next->group, common, cpu, 0, PSI_TSK_ONCPU, now, curr_in_memstall);
	}

	if (prev) {
		prev->psi_flags = (prev->psi_flags & ~clear) | set;

		psi_walk(eng, pc, prev->group, common, cpu, clear, set, now, curr_in_memstall);

		/*
		 * Above the common ancestor ONCPU is settled, but other
		 * differences between the two tasks (prev sleeping, one of
		 * them in a memstall) still go all the way up.
		 */
		if (common && ((prev->psi_flags ^ (next ? next->psi_flags : 0)) & ~PSI_TSK_ONCPU))
			psi_walk(eng, pc, common, NULL, cpu, clear & ~PSI_TSK_ONCPU, set, now,
				 curr_in_memstall);
	}

	psi_change_end(eng, pc);
	eng->stats.task_switches++;
	return 0;
}

int psi_task_wakeup(struct psi_task *task)
{
	unsigned int clear = 0, set = PSI_TSK_RUNNING;

	if (!task)
		return -EINVAL;
	if (task->in_iowait)
		clear |= PSI_TSK_IOWAIT;
	if (task->in_memstall)
		set |= PSI_TSK_MEMSTALL_RUNNING;
	return psi_task_change(task, clear, set);
}

int psi_memstall_enter(struct psi_task *task)
{
	int ret;

	if (!task)
		return -EINVAL;
	if (task->in_memstall)
		return 0;	/* nested section: the outer one accounts */
	/* Only a running task can enter reclaim or fault on a page. */
	if (!(task->psi_flags & PSI_TSK_RUNNING))
		return -EINVAL;
	task->in_memstall = true;
	ret = psi_task_change(task, 0, PSI_TSK_MEMSTALL | PSI_TSK_MEMSTALL_RUNNING);
	if (ret)
		task->in_memstall = false;
	return ret;
}

int psi_memstall_leave(struct psi_task *task)
{
	int ret;

	if (!task)
		return -EINVAL;
	if (!task->in_memstall)
		return 0;
	task->in_memstall = false;
	ret = psi_task_change(task, PSI_TSK_MEMSTALL | PSI_TSK_MEMSTALL_RUNNING, 0);
	if (ret)
		task->in_memstall = true;
	return ret;
}

int psi_task_move(struct psi_task *task, struct psi_group *group)
{
	unsigned int flags;
	int ret;

	if (!task || !task->group || !group || group->eng != task->group->eng)
		return -EINVAL;
	/* Use psi_flags, not the scheduling state: see cgroup_move_task. */
	flags = task->psi_flags;
	if (flags) {
		ret = psi_task_change(task, flags, 0);
		if (ret)
			return ret;
	}
	task->group = group;
	if (flags)
		return psi_task_change(task, 0, flags);
	return 0;
}

int psi_task_migrate(struct psi_task *task, int cpu)
{
	unsigned int flags;
	int ret;

	if (!task || !task->group || cpu < 0 || (unsigned int)cpu >= task->group->eng->ncpus)
		return -EINVAL;
	flags = task->psi_flags;
	if (flags & PSI_TSK_ONCPU)
		return -EBUSY;
	if (flags) {
		ret = psi_task_change(task, flags, 0);
		if (ret)
			return ret;
	}
	task->cpu = cpu;
	if (flags)
		return psi_task_change(task, 0, flags);
	return 0;
}

int psi_account_irqtime(struct psi_task *task, uint32_t delta_ns)
{
	struct psi_engine *eng;
	struct psi_group *group;
	struct psi_cpu *pc;
	uint64_t now;
	int cpu;

	if (!task || !task->group)
		return -EINVAL;
	eng = task->group->eng;
	cpu = task->cpu;
	if (cpu < 0 || (unsigned int)cpu >= eng->ncpus)
		return -EINVAL;
	if (!eng->irq_accounting)
		return -EOPNOTSUPP;
	pc = &eng->cpus[cpu];

	now = psi_change_begin(eng, pc, cpu);
	for (group = task->group; group; group = group->parent) {
		struct psi_group_cpu *groupc = &group->pcpu[cpu];

		if (!group->enabled)
			continue;
		if (eng->clock_mode == PSI_CLOCK_PER_GROUP) {
			psi_write_begin(pc);
			now = psi_change_clock(eng, cpu);
		}
		/* Conclude the task state first: irq time is not part of it. */
		record_times(groupc, now);
		groupc->times[PSI_IRQ_FULL] += delta_ns;
		if (eng->clock_mode == PSI_CLOCK_PER_GROUP)
			psi_write_end(pc);
	}
	psi_change_end(eng, pc);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Groups: turning pressure accounting back on                          */

/*
 * Here rather than with the other group calls (psi_group.c): the restart
 * is a group change on every CPU, and psi_group_change stays a static
 * always_inline function of the task-change path.
 */
int psi_group_set_enabled(struct psi_group *group, bool enabled)
{
	struct psi_engine *eng;

	if (!group || !group->parent)
		return -EINVAL;
	if (group->enabled == enabled)
		return 0;
	group->enabled = enabled;
	if (!enabled)
		return 0;

	/*
	 * psi_cgroup_restart: recompute each CPU's mask from the counts kept
	 * while disabled and restart its clock now; no task changed.
	 */
	eng = group->eng;
	for (unsigned int cpu = 0; cpu < eng->ncpus; cpu++) {
		struct psi_cpu *pc = &eng->cpus[cpu];
		bool curr_in_memstall = pc->curr && pc->curr->in_memstall;
		uint64_t now;

		psi_write_begin(pc);
		now = psi_change_clock(eng, (int)cpu);
		psi_group_change(eng, group, (int)cpu, 0, 0, now, true, curr_in_memstall);
		psi_write_end(pc);
		eng->stats.group_changes++;
	}
	return 0;
}
