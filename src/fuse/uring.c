// SPDX-License-Identifier: MIT
/*
 * uring.c - FUSE requests over io_uring (Linux 6.14+, the fuse module's
 * enable_uring on), under Debian 12's libfuse 3.14, which predates it.
 *
 * The kernel queues a request on the ring queue of the CPU its sender runs
 * on; a thread of ours pinned to that CPU waits on that queue.  So the
 * sender, blocked on its answer, wakes a thread on its own CPU and is woken
 * by it, instead of a daemon thread sleeping on another CPU (on these VMs a
 * cross-CPU wake-up each way costs tens of microseconds).  A request and
 * its answer are one io_uring_enter (COMMIT_AND_FETCH) instead of a read
 * and a write of /dev/fuse.
 *
 * libfuse 3.14 still does all the work of a request: a ring entry is laid
 * out again as the bytes read() would have given (fuse_session_process_buf),
 * and the reply libfuse writes goes through the session's writev hook
 * (passthrough.c), which copies it into the entry instead.  INIT, FORGET,
 * INTERRUPT and notifications stay on /dev/fuse, served by the usual loop.
 *
 * The layout (include/uapi/linux/fuse.h, protocol 7.42): an entry has a
 * 288-byte header (the in/out header, the opcode's first argument, the
 * entry's commit id and payload length) and a payload buffer with the
 * other arguments, or the reply's arguments.
 */
#include <errno.h>
#include <linux/fuse.h>
#include <liburing.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sysinfo.h>
#include <time.h>
#include <unistd.h>

#include "fs_int.h"

#define UR_CMD_REGISTER 1
#define UR_CMD_COMMIT_AND_FETCH 2
#define UR_HEADER_IN_OUT 128
#define UR_HEADER_OP 128
#define UR_DEPTH 4            /* entries per CPU: requests a CPU's readers have in flight */
#define UR_WAIT_MS 100        /* how often a waiting thread looks whether the mount is going */
#define UR_MIN_PAYLOAD 8192   /* FUSE_MIN_READ_BUFFER */
#define UR_REGISTER_WAIT_S 2  /* how long every queue has to register before the rings are given up */

struct ur_ent_in_out {
	uint64_t flags;
	uint64_t commit_id;
	uint32_t payload_sz;
	uint32_t padding;
	uint64_t reserved;
};

struct ur_req_header {
	char in_out[UR_HEADER_IN_OUT];
	char op_in[UR_HEADER_OP];
	struct ur_ent_in_out ent;
};

struct ur_cmd_req {
	uint64_t flags;
	uint64_t commit_id;
	uint16_t qid;
	uint8_t padding[6];
};

struct ur_ent {
	struct ur_queue *q;
	struct ur_req_header *hdr;
	char *payload;
	struct iovec iov[2];
	uint64_t commit_id;
	bool registered;
	bool replied;
};

struct ur_queue {
	struct pfs_fuse *fs;
	unsigned int qid;
	struct io_uring ring;
	bool ring_made;
	pthread_t thread;
	bool thread_made;
	struct ur_ent ents[UR_DEPTH];
	char *linear; /* a request laid out as read() gives it */
};

/* The entry whose request this thread is serving: its reply goes into it. */
static __thread struct ur_ent *serving;

static void free_queues(struct pfs_fuse *fs)
{
	for (unsigned int i = 0; i < fs->ur_nq; i++) {
		struct ur_queue *q = &fs->ur_q[i];

		if (q->ring_made)
			io_uring_queue_exit(&q->ring);
		for (unsigned int e = 0; e < UR_DEPTH; e++) {
			if (q->ents[e].hdr)
				munmap(q->ents[e].hdr, sizeof(struct ur_req_header));
			if (q->ents[e].payload)
				munmap(q->ents[e].payload, fs->ur_payload);
		}
		free(q->linear);
	}
	free(fs->ur_q);
	fs->ur_q = NULL;
	fs->ur_nq = 0;
	if (fs->ur_spare_made)
		io_uring_queue_exit(&fs->ur_spare);
	fs->ur_spare_made = false;
}

/* Submit a NOP on @ring and reap it; 0 or -errno. */
static int nop_works(struct io_uring *ring)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(ring);
	struct io_uring_cqe *cqe;
	int rc;

	if (!sqe)
		return -EBUSY;
	io_uring_prep_nop(sqe);
	rc = io_uring_submit_and_wait(ring, 1);
	if (rc < 0)
		return rc;
	rc = io_uring_peek_cqe(ring, &cqe);
	if (rc)
		return rc;
	rc = cqe->res;
	io_uring_cqe_seen(ring, cqe);
	return rc < 0 ? rc : 0;
}

/* The kernel's queue count: possible CPUs (num_possible_cpus), which may exceed the ones present. */
static long possible_cpus(void)
{
	FILE *f = fopen("/sys/devices/system/cpu/possible", "r");
	long last = -1, a, b;
	int c;

	if (!f)
		return get_nprocs_conf();
	/* "0-3,8-11": the highest number, plus one */
	while (fscanf(f, "%ld", &a) == 1) {
		b = a;
		c = fgetc(f);
		if (c == '-' && fscanf(f, "%ld", &b) == 1)
			c = fgetc(f);
		if (b > last)
			last = b;
		if (c != ',')
			break;
	}
	fclose(f);
	return last >= 0 ? last + 1 : get_nprocs_conf();
}

int fs_ur_prepare(struct pfs_fuse *fs, uint32_t max_write, uint16_t max_pages)
{
	size_t payload = UR_MIN_PAYLOAD;
	long nq = possible_cpus();

	if (max_write > payload)
		payload = max_write;
	if ((size_t)max_pages * 4096 > payload)
		payload = (size_t)max_pages * 4096;
	if (nq <= 0)
		return -EINVAL;
	fs->ur_q = calloc((size_t)nq, sizeof(*fs->ur_q));
	if (!fs->ur_q)
		return -ENOMEM;
	fs->ur_nq = (unsigned int)nq;
	fs->ur_payload = payload;
	if (io_uring_queue_init(2, &fs->ur_spare, IORING_SETUP_SQE128))
		goto fail;
	fs->ur_spare_made = true;
	for (unsigned int i = 0; i < fs->ur_nq; i++) {
		struct ur_queue *q = &fs->ur_q[i];
		int rc;

		q->fs = fs;
		q->qid = i;
		/* a command and its answer for every entry, and room to spare */
		rc = io_uring_queue_init(2 * UR_DEPTH, &q->ring, IORING_SETUP_SQE128);
		if (rc)
			goto fail;
		q->ring_made = true;
		/*
		 * Once INIT asks for the rings, requests wait until every CPU's
		 * entries are registered: a ring that cannot even complete a
		 * NOP here (io_uring refused by a seccomp filter, by
		 * kernel.io_uring_disabled, or under valgrind) is not asked for.
		 */
		rc = nop_works(&q->ring);
		if (rc)
			goto fail;
		q->linear = malloc(sizeof(struct fuse_in_header) + UR_HEADER_OP + payload);
		if (!q->linear)
			goto fail;
		for (unsigned int e = 0; e < UR_DEPTH; e++) {
			struct ur_ent *ent = &q->ents[e];

			ent->q = q;
			/* page-aligned, as the kernel pins them */
			ent->hdr = mmap(NULL, sizeof(*ent->hdr), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			ent->payload = mmap(NULL, payload, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			if (ent->hdr == MAP_FAILED || ent->payload == MAP_FAILED) {
				ent->hdr = ent->hdr == MAP_FAILED ? NULL : ent->hdr;
				ent->payload = ent->payload == MAP_FAILED ? NULL : ent->payload;
				goto fail;
			}
			ent->iov[0] = (struct iovec){ ent->hdr, sizeof(*ent->hdr) };
			ent->iov[1] = (struct iovec){ ent->payload, payload };
		}
	}
	return 0;
fail:
	free_queues(fs);
	return -ENOMEM;
}

/* Queue @ent's command: register its buffers, or commit its answer and fetch the next request. */
static int queue_cmd(struct ur_queue *q, struct ur_ent *ent, bool commit)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&q->ring);
	struct ur_cmd_req *cmd;

	if (!sqe)
		return -EBUSY;
	memset(sqe, 0, 128);
	sqe->opcode = IORING_OP_URING_CMD;
	sqe->fd = fuse_session_fd(q->fs->se);
	sqe->cmd_op = commit ? UR_CMD_COMMIT_AND_FETCH : UR_CMD_REGISTER;
	if (!commit) {
		sqe->addr = (uint64_t)(uintptr_t)ent->iov;
		sqe->len = 2;
	}
	cmd = (struct ur_cmd_req *)sqe->cmd;
	cmd->qid = (uint16_t)q->qid;
	cmd->commit_id = commit ? ent->commit_id : 0;
	io_uring_sqe_set_data(sqe, ent);
	return 0;
}

/* Answer the request in @ent with @err and no data. */
static void answer_error(struct ur_ent *ent, uint64_t unique, int err)
{
	struct fuse_out_header *oh = (void *)ent->hdr->in_out;

	memset(oh, 0, sizeof(*oh));
	oh->unique = unique;
	oh->error = -err;
	ent->hdr->ent.payload_sz = 0;
}

/* Serve the request in @ent through libfuse, its reply copied back into @ent. */
static void serve(struct ur_queue *q, struct ur_ent *ent)
{
	struct pfs_fuse *fs = q->fs;
	const struct fuse_in_header *ih = (const void *)ent->hdr->in_out;
	size_t payload = ent->hdr->ent.payload_sz, first;
	struct fuse_buf buf = { 0 };

	ent->commit_id = ent->hdr->ent.commit_id;
	ent->replied = false;
	/* the first argument is whatever the length leaves once the header and the payload are taken */
	if (ih->len < sizeof(*ih) + payload || ih->len - sizeof(*ih) - payload > UR_HEADER_OP ||
	    payload > fs->ur_payload) {
		answer_error(ent, ih->unique, EIO);
		return;
	}
	first = ih->len - sizeof(*ih) - payload;
	memcpy(q->linear, ih, sizeof(*ih));
	memcpy(q->linear + sizeof(*ih), ent->hdr->op_in, first);
	memcpy(q->linear + sizeof(*ih) + first, ent->payload, payload);
	buf.mem = q->linear;
	buf.size = ih->len;
	serving = ent;
	fuse_session_process_buf(fs->se, &buf);
	serving = NULL;
	/* every request on the ring must be answered, or its entry is lost */
	if (!ent->replied)
		answer_error(ent, ((const struct fuse_in_header *)q->linear)->unique, ENOSYS);
}

ssize_t fs_ur_reply(struct iovec *iov, int count)
{
	struct ur_ent *ent = serving;
	size_t total = 0, room, n;
	char *to;

	if (!ent)
		return -1;
	if (count < 1 || iov[0].iov_len != sizeof(struct fuse_out_header)) {
		errno = EINVAL;
		return -1;
	}
	memcpy(ent->hdr->in_out, iov[0].iov_base, sizeof(struct fuse_out_header));
	to = ent->payload;
	room = ent->q->fs->ur_payload;
	for (int i = 1; i < count; i++) {
		n = iov[i].iov_len;
		if (n > room) {
			errno = EINVAL;
			return -1;
		}
		memcpy(to, iov[i].iov_base, n);
		to += n;
		room -= n;
		total += n;
	}
	ent->hdr->ent.payload_sz = (uint32_t)total;
	ent->replied = true;
	return (ssize_t)(total + sizeof(struct fuse_out_header));
}

bool fs_ur_serving(void)
{
	return serving != NULL;
}

static void *queue_thread(void *arg)
{
	struct ur_queue *q = arg;
	struct pfs_fuse *fs = q->fs;
	unsigned int live = 0;
	cpu_set_t cpu;

	/* the kernel gives this queue the requests of tasks on this CPU: answer them there */
	CPU_ZERO(&cpu);
	CPU_SET(q->qid, &cpu);
	sched_setaffinity(0, sizeof(cpu), &cpu);
	for (unsigned int e = 0; e < UR_DEPTH; e++)
		if (!queue_cmd(q, &q->ents[e], false))
			live++;
	if (io_uring_submit(&q->ring) < 0) {
		/* nothing registered on this CPU: fs_ur_start sends the kernel back to /dev/fuse */
		fprintf(stderr, "uprocfs: io_uring queue %u: cannot register its entries\n", q->qid);
		live = 0;
	} else {
		__atomic_add_fetch(&fs->ur_registered, 1, __ATOMIC_RELEASE);
	}
	while (live && !__atomic_load_n(&fs->ur_stop, __ATOMIC_ACQUIRE)) {
		struct __kernel_timespec wait = { .tv_sec = 0, .tv_nsec = UR_WAIT_MS * 1000000L };
		struct io_uring_cqe *cqe;
		struct ur_ent *ent;
		int res, rc;

		rc = io_uring_wait_cqe_timeout(&q->ring, &cqe, &wait);
		if (rc == -ETIME || rc == -EINTR)
			continue;
		if (rc) {
			fprintf(stderr, "uprocfs: io_uring queue %u: %s\n", q->qid, strerror(-rc));
			break;
		}
		ent = io_uring_cqe_get_data(cqe);
		res = cqe->res;
		io_uring_cqe_seen(&q->ring, cqe);
		if (res == -EAGAIN || res == -EINTR) {
			/* not ready yet, or interrupted: the same command again, soon */
			if (res == -EAGAIN)
				usleep(1000);
			if (!queue_cmd(q, ent, ent->registered))
				io_uring_submit(&q->ring);
			continue;
		}
		if (res < 0) {
			/* the mount is going (ENOTCONN, ECONNABORTED), or the entry was refused */
			if (res != -ENOTCONN && res != -ECONNABORTED && res != -ECANCELED)
				fprintf(stderr, "uprocfs: io_uring queue %u: %s\n", q->qid, strerror(-res));
			live--;
			continue;
		}
		ent->registered = true;
		serve(q, ent);
		COUNT(fs, uring);
		if (!queue_cmd(q, ent, true))
			io_uring_submit(&q->ring);
	}
	return NULL;
}

/*
 * Requests wait until every queue has entries: when one cannot have them,
 * a REGISTER the kernel must refuse (one buffer, not two) makes it give up
 * the rings for this connection and wake the waiters, who go through
 * /dev/fuse instead.  Sent from the spare ring prepare made.
 */
static void give_up_rings(struct pfs_fuse *fs)
{
	static struct iovec none[1];
	struct io_uring_sqe *sqe = io_uring_get_sqe(&fs->ur_spare);
	struct io_uring_cqe *cqe;

	fprintf(stderr, "uprocfs: io_uring: not every CPU's queue could register: requests go through /dev/fuse\n");
	if (!sqe)
		return;
	memset(sqe, 0, 128);
	sqe->opcode = IORING_OP_URING_CMD;
	sqe->fd = fuse_session_fd(fs->se);
	sqe->cmd_op = UR_CMD_REGISTER;
	sqe->addr = (uint64_t)(uintptr_t)none;
	sqe->len = 1;
	if (io_uring_submit_and_wait(&fs->ur_spare, 1) > 0 && !io_uring_peek_cqe(&fs->ur_spare, &cqe))
		io_uring_cqe_seen(&fs->ur_spare, cqe);
}

int fs_ur_start(struct pfs_fuse *fs)
{
	struct timespec t0, now;
	int rc = 0;

	for (unsigned int i = 0; i < fs->ur_nq && !rc; i++) {
		struct ur_queue *q = &fs->ur_q[i];

		if (pthread_create(&q->thread, NULL, queue_thread, q))
			rc = -EAGAIN;
		else
			q->thread_made = true;
	}
	/* every queue registers within moments; a thread that never ran would hold up every request */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (!rc && __atomic_load_n(&fs->ur_registered, __ATOMIC_ACQUIRE) < fs->ur_nq) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec - t0.tv_sec >= UR_REGISTER_WAIT_S)
			rc = -ETIMEDOUT;
		else
			usleep(1000);
	}
	if (rc)
		give_up_rings(fs);
	return rc;
}

void fs_ur_destroy(struct pfs_fuse *fs)
{
	if (!fs->ur_q)
		return;
	__atomic_store_n(&fs->ur_stop, true, __ATOMIC_RELEASE);
	for (unsigned int i = 0; i < fs->ur_nq; i++)
		if (fs->ur_q[i].thread_made)
			pthread_join(fs->ur_q[i].thread, NULL);
	free_queues(fs);
}
