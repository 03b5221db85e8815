// SPDX-License-Identifier: MIT
/*
 * parallel.c - building the planned processes, on several threads when
 * there are many of them.
 *
 * The work is allocation-bound and its page faults run in parallel, so
 * dense machines build several times faster this way; and since every
 * process draws only from its own streams, the machine is the same on any
 * number of threads.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#include "synth_int.h"

#define BUILD_BLOCK 512          /* processes handed to a worker at a time */
#define BUILD_MAX_WORKERS 8
#define BUILD_PARALLEL_MIN 20000 /* below this, threads cost more than they save */

/*
 * One builder of processes.  Each has its own copy of the generator state:
 * the shared parts are pointers (the machine, the plan) or read-only
 * arrays, and the scratch buffers and sums are its own.  Workers take
 * blocks of indices from a shared counter; every process draws only from
 * its own random streams, so the result does not depend on which worker
 * built it, nor on how many there were.
 */
struct builder {
	struct synth s;
	atomic_size_t *next;
	int rc;
	bool started;
	pthread_t thread;
};

/* Blocks of indices: the shared counter is touched once per BUILD_BLOCK processes. */
static void *build_worker(void *arg)
{
	struct builder *b = arg;
	struct synth *s = &b->s;
	size_t n = s->m->nprocs, first;

	while (!b->rc && (first = atomic_fetch_add(b->next, BUILD_BLOCK)) < n) {
		for (size_t i = first; i < n && i < first + BUILD_BLOCK && !b->rc; i++)
			b->rc = sy_build_task(s, i);
		if (b->rc)
			atomic_store(b->next, n); /* stop the others early */
	}
	return NULL;
}

/* Add a worker's sums into the generator's, in worker order (exact integer sums). */
static void merge_sums(struct synth_sums *sum, const struct synth_sums *w)
{
	sum->anon += w->anon;
	sum->file += w->file;
	sum->shmem += w->shmem;
	sum->pte += w->pte;
	sum->data += w->data;
	sum->swap += w->swap;
	sum->lck += w->lck;
	sum->lck_res += w->lck_res;
	sum->thp += w->thp;
	sum->minflt += w->minflt;
	sum->majflt += w->majflt;
	sum->raw_user += w->raw_user;
	sum->raw_sys += w->raw_sys;
	sum->threads += w->threads;
	sum->running += w->running;
	sum->blocked += w->blocked;
	sum->fds += w->fds;
	sum->mms += w->mms;
}

/*
 * Build every planned process, on several threads for large machines (the
 * work is allocation-bound, and page faults run in parallel).  When a
 * thread cannot be started, the calling thread does its share.
 */
int sy_build_tasks(struct synth *s)
{
	struct mach_machine *m = s->m;
	struct builder *b;
	atomic_size_t next = 0;
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned int nw = m->nprocs < BUILD_PARALLEL_MIN || online < 2 ? 1 :
			  online > BUILD_MAX_WORKERS ? BUILD_MAX_WORKERS : (unsigned int)online;
	int rc = 0;

	b = calloc(nw, sizeof(*b));
	if (!b)
		return -ENOMEM;
	for (unsigned int w = 0; w < nw; w++) {
		b[w].s = *s;
		b[w].s.vb = NULL;
		b[w].s.vn = b[w].s.vcap = 0;
		b[w].s.sum = (struct synth_sums){ 0 };
		sy_intern_forget(&b[w].s); /* each builder its own: no lock */
		b[w].next = &next;
	}
	for (unsigned int w = 1; w < nw; w++)
		b[w].started = !pthread_create(&b[w].thread, NULL, build_worker, &b[w]);
	/* the calling thread works too, and takes over the share of threads that did not start */
	build_worker(&b[0]);
	for (unsigned int w = 0; w < nw; w++) {
		if (b[w].started)
			pthread_join(b[w].thread, NULL);
		else if (w)
			build_worker(&b[w]);
		if (!rc)
			rc = b[w].rc;
		sy_vb_drop(&b[w].s);
		sy_intern_finish(&b[w].s);
		free(b[w].s.vb);
		free(b[w].s.names);
		merge_sums(&s->sum, &b[w].s.sum);
	}
	free(b);
	if (rc)
		return rc;
	/* the thread counts of /proc/stat and loadavg: what the tasks' states came out as */
	s->nr_threads += s->sum.threads;
	s->nr_running += s->sum.running;
	s->nr_blocked += s->sum.blocked;
	return 0;
}

