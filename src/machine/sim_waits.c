// SPDX-License-Identifier: MIT
/*
 * sim_waits.c - the kernel stacks the simulator's tasks sleep in.
 *
 * The simulator moves tasks between running and waiting; a waiting task
 * shows a wait channel and a stack, a running one none.  It takes them from
 * the machine as the producer left it: a task keeps the way it slept; one
 * that ran then borrows a sibling thread's, or another task's of its kind;
 * an io wait uses a page-cache wait if the machine has one.
 */
#include <string.h>

#include "sim_waits.h"

static struct sim_wait wait_of(const struct mach_thread *t)
{
	return (struct sim_wait){ t->kstack, t->wchan_sym };
}

struct sim_wait sim_sleep_wait(const struct mach_machine *m, const struct mach_process *p,
			       const struct mach_thread *t)
{
	if (t->kstack && t->wchan_sym)
		return wait_of(t);
	for (unsigned int i = 0; i < p->nthreads; i++)
		if (p->threads[i].kstack && p->threads[i].wchan_sym)
			return wait_of(&p->threads[i]);
	for (size_t i = 0; i < m->nprocs; i++) {
		const struct mach_thread *o = &m->procs[i].threads[0];

		if (m->procs[i].nthreads && o->kthread == t->kthread && o->kstack && o->wchan_sym &&
		    o->state == (t->kthread ? MACH_TASK_IDLE : MACH_TASK_SLEEPING))
			return wait_of(o);
	}
	return (struct sim_wait){ 0, 0 };
}

struct sim_wait sim_io_wait(const struct mach_machine *m, struct sim_wait sleep)
{
	for (size_t i = 1; i < m->nkstacks; i++) {
		const struct mach_kstack *st = &m->kstacks[i];
		const char *name = st->nframes ? mach_ksym_name(m, st->frames[0].sym) : NULL;

		if (name && !strcmp(name, "folio_wait_bit_common"))
			return (struct sim_wait){ (uint32_t)i, st->frames[0].sym };
	}
	return sleep;
}
