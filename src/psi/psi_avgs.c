// SPDX-License-Identifier: MIT
/*
 * psi_avgs.c - PSI aggregation: per-CPU clocks into totals and averages.
 *
 * Mirrors kernel/sched/psi.c of Linux 6.18: get_recent_times,
 * collect_percpu_times, update_averages, calc_avgs and psi_avgs_work (the
 * PSI_AVGS aggregator; triggers and the PSI_POLL aggregator are not modelled).
 *
 * The per-CPU stall clocks are weighted by each CPU's non-idle time in the
 * sample, so an idle CPU neither dilutes nor inflates the result:
 *
 *	total[s] += sum(delta_s[cpu] * nonidle_jiffies[cpu]) / sum(nonidle_jiffies[cpu])
 *
 * and every period (2*HZ+1 jiffies) the growth of total, as an integer
 * percentage of the period, feeds three calc_load averages.
 */
#include <errno.h>
#include <string.h>

#include "psi_internal.h"

void psi_arm_avgs_work(struct psi_group *group, uint64_t now, uint64_t delay_jiffies)
{
	struct psi_engine *eng = group->eng;

	/*
	 * schedule_delayed_work(delay): the timer fires on the tick where
	 * jiffies reaches jiffies + delay.  The timer wheel's coarser buckets
	 * for long timeouts and the workqueue's latency are not modelled.
	 */
	group->avgs_pending = true;
	group->avgs_due = (psi_nsecs_to_jiffies(eng, now) + delay_jiffies) * eng->tick_nsec;
}

/*
 * This CPU's stall time per state since this aggregator last looked,
 * counting the state that is still running up to now.  Keeping the deltas
 * u32 is what makes the aggregation cheap; it requires a look at least
 * every 4.29 s while a state lasts, which the averaging work provides.
 */
static void get_recent_times(struct psi_group *group, int cpu, uint32_t *times,
			     uint32_t *pchanged_states)
{
	struct psi_group_cpu *groupc = &group->pcpu[cpu];
	uint64_t now, state_start;
	uint32_t state_mask;

	*pchanged_states = 0;

	/* The kernel snapshots under psi_seq; we are the only thread. */
	now = psi_aggr_clock(group->eng, cpu);
	memcpy(times, groupc->times, sizeof(groupc->times));
	state_mask = groupc->state_mask;
	state_start = groupc->state_start;

	for (int s = 0; s < PSI_NR_STATES; s++) {
		uint32_t delta;

		if (state_mask & (1u << s))
			times[s] += (uint32_t)(now - state_start);

		delta = times[s] - groupc->times_prev[s];
		groupc->times_prev[s] = times[s];

		times[s] = delta;
		if (delta)
			*pchanged_states |= 1u << s;
	}

	/*
	 * Keep the work going while this CPU was busy.  The kernel judges the
	 * CPU the worker itself runs on by its task counts instead, because
	 * the worker keeps that one non-idle; we have no worker task, so every
	 * CPU is judged by its non-idle time.
	 */
	if (*pchanged_states & (1u << PSI_NONIDLE))
		*pchanged_states |= PSI_STATE_RESCHEDULE;
}

static void collect_percpu_times(struct psi_group *group, uint32_t *pchanged_states)
{
	struct psi_engine *eng = group->eng;
	uint64_t deltas[PSI_NR_STATES - 1] = { 0 };
	unsigned long nonidle_total = 0;
	uint32_t changed_states = 0;

	for (unsigned int cpu = 0; cpu < eng->ncpus; cpu++) {
		uint32_t times[PSI_NR_STATES];
		uint32_t cpu_changed_states;
		uint32_t nonidle;

		get_recent_times(group, (int)cpu, times, &cpu_changed_states);
		changed_states |= cpu_changed_states;

		/* Weight in whole jiffies, as nsecs_to_jiffies truncates. */
		nonidle = (uint32_t)psi_nsecs_to_jiffies(eng, times[PSI_NONIDLE]);
		nonidle_total += nonidle;

		for (int s = 0; s < PSI_NONIDLE; s++)
			deltas[s] += (uint64_t)times[s] * nonidle;
	}

	for (int s = 0; s < PSI_NR_STATES - 1; s++)
		group->total[s] += deltas[s] / (nonidle_total ? nonidle_total : 1);

	if (pchanged_states)
		*pchanged_states = changed_states;
}

static void calc_avgs(unsigned long avg[PSI_NR_AVGS], unsigned long missed_periods,
		      uint64_t time, uint64_t period)
{
	unsigned long pct;

	/* Periods nobody sampled were idle: decay them in one step each. */
	if (missed_periods) {
		avg[PSI_AVG10] = calc_load_n(avg[PSI_AVG10], PSI_EXP_10s, 0, (unsigned int)missed_periods);
		avg[PSI_AVG60] = calc_load_n(avg[PSI_AVG60], PSI_EXP_60s, 0, (unsigned int)missed_periods);
		avg[PSI_AVG300] = calc_load_n(avg[PSI_AVG300], PSI_EXP_300s, 0, (unsigned int)missed_periods);
	}

	/* An integer percentage: averages move in steps of whole percents. */
	pct = (unsigned long)(time * 100 / period);
	pct *= CALC_LOAD_FIXED_1;
	avg[PSI_AVG10] = calc_load(avg[PSI_AVG10], PSI_EXP_10s, pct);
	avg[PSI_AVG60] = calc_load(avg[PSI_AVG60], PSI_EXP_60s, pct);
	avg[PSI_AVG300] = calc_load(avg[PSI_AVG300], PSI_EXP_300s, pct);
}

static uint64_t update_averages(struct psi_group *group, uint64_t now)
{
	struct psi_engine *eng = group->eng;
	unsigned long missed_periods = 0;
	uint64_t expires, period, avg_next_update;

	expires = group->avg_next_update;
	if (now - expires >= eng->period)
		missed_periods = (unsigned long)((now - expires) / eng->period);

	/*
	 * The next update stays on the fixed grid so late runs do not drift,
	 * but the sample is measured over the time that really elapsed.
	 */
	avg_next_update = expires + (1 + missed_periods) * eng->period;
	period = now - (group->avg_last_update + missed_periods * eng->period);
	group->avg_last_update = now;

	for (int s = 0; s < PSI_NR_STATES - 1; s++) {
		uint32_t sample;

		sample = (uint32_t)(group->total[s] - group->avg_total[s]);
		/*
		 * Time that slipped in from the previous period can exceed
		 * this one; report at most 100% now and the rest next time.
		 */
		if (sample > period)
			sample = (uint32_t)period;
		group->avg_total[s] += sample;
		calc_avgs(group->avg[s], missed_periods, sample, period);
	}

	return avg_next_update;
}

/* One run of the averaging work at @now. */
static void psi_avgs_work(struct psi_group *group, uint64_t now)
{
	struct psi_engine *eng = group->eng;
	uint32_t changed_states;

	collect_percpu_times(group, &changed_states);
	if (now >= group->avg_next_update)
		group->avg_next_update = update_averages(group, now);

	/*
	 * Idle machines stop the clock; the next task change restarts it and
	 * update_averages catches up on the missed periods in one go.
	 */
	if (changed_states & PSI_STATE_RESCHEDULE)
		psi_arm_avgs_work(group, now,
				  psi_nsecs_to_jiffies(eng, group->avg_next_update - now) + 1);
}

int psi_avgs_tick(struct psi_engine *eng)
{
	struct psi_group *group;
	uint64_t now;
	int ran = 0;

	if (!eng)
		return -EINVAL;
	now = psi_aggr_clock(eng, -1);
	for (group = eng->groups; group; group = group->next_all) {
		if (!group->avgs_pending || group->avgs_due > now)
			continue;
		group->avgs_pending = false;
		psi_avgs_work(group, now);
		ran++;
	}
	eng->stats.avgs_works += (uint64_t)ran;
	return ran;
}

bool psi_next_avgs_work(const struct psi_engine *eng, uint64_t *due)
{
	const struct psi_group *group;
	bool any = false;
	uint64_t first = 0;

	if (!eng)
		return false;
	for (group = eng->groups; group; group = group->next_all) {
		if (group->avgs_pending && (!any || group->avgs_due < first)) {
			first = group->avgs_due;
			any = true;
		}
	}
	if (any && due)
		*due = first;
	return any;
}

void psi__group_refresh(struct psi_group *group)
{
	uint64_t now = psi_aggr_clock(group->eng, -1);

	collect_percpu_times(group, NULL);
	if (now >= group->avg_next_update)
		group->avg_next_update = update_averages(group, now);
}

int psi_group_refresh(struct psi_group *group)
{
	if (!group)
		return -EINVAL;
	psi__group_refresh(group);
	return 0;
}
