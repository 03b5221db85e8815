// SPDX-License-Identifier: MIT
/*
 * files_socks.c - the sockets of a synthetic process's fd table: exactly
 * the ones the network gives it (sy_net_proc_sockets), which the socket
 * tables of its namespace list, plus the ones it inherited from the
 * process that forked it (a master's listeners in its workers, the
 * connection an sshd session's monitor hands its user process).
 *
 * So lsof, `ss -p` and psutil, which join /proc/<pid>/fd's
 * "socket:[inode]" to /proc/net/{tcp,udp,unix}, find an owner for every
 * socket and a socket for every fd.  The sockets go right after the
 * standard descriptors in the order the network made them, so a worker's
 * inherited listeners sit at the fds its master holds them at, as fork
 * leaves them.
 */
#include <errno.h>
#include <stdlib.h>

#include "files_int.h"
#include "plan.h"

/*
 * A process's sockets hold fewer than this but for a server's accepted
 * ends: room for them on the stack.  A malloc and free of the room for
 * every table made a build worker's heap grow back each time, page faults
 * and all: 14 % of a 100,000-task build's profile samples lay there.
 */
#define FEW_SOCKS 32u

enum keep { KEEP_OWN, KEEP_LISTEN, KEEP_TCP };

/* Forked workers keep their master's listening sockets (and accept on them). */
static bool inherits_listeners(const struct fdgen *x)
{
	switch (x->g->prog) {
	case P_NGINX_WORKER:
	case P_GUNICORN_WORKER:
	case P_PHPFPM_WORKER:
	case P_PG_AUX:
	case P_PG_BACKEND:
		return true;
	case P_CELERY:
		return x->pg && x->pg->prog == P_CELERY;
	default:
		return false;
	}
}

/* Whether inode @ino is in the table already (a stream at fds 1 and 2, a socket listed twice). */
static bool held(const struct fdgen *x, uint64_t ino)
{
	for (unsigned int i = 0; i < x->f->nfds; i++)
		if (x->f->fds[i].kind == MACH_FD_SOCKET && x->f->fds[i].ino == ino)
			return true;
	return false;
}

static bool wanted(const struct mach_socket *k, enum keep keep)
{
	switch (keep) {
	case KEEP_LISTEN:
		return k->state == MACH_TCP_LISTEN;
	case KEEP_TCP:
		return k->protocol == MACH_IPPROTO_TCP && k->state == MACH_TCP_ESTABLISHED;
	default:
		return true;
	}
}

/* The sockets of plan index @j that @keep selects, into @x's table at the lowest free fds. */
static void place(struct fdgen *x, size_t j, enum keep keep)
{
	struct mach_socket few[FEW_SOCKS], *buf = few;
	unsigned int n = sy_net_proc_sockets(x->s, j, few, FEW_SOCKS, NULL, NULL);

	if (n == FEW_SOCKS) {
		/* a server with its clients' ends: ask again with room for all */
		if (!(buf = malloc(SY_NET_MAX_PROC_SOCKS * sizeof(*buf)))) {
			x->err = -ENOMEM;
			return;
		}
		n = sy_net_proc_sockets(x->s, j, buf, SY_NET_MAX_PROC_SOCKS, NULL, NULL);
	}
	for (unsigned int i = 0; i < n && !x->err; i++) {
		const struct mach_socket *k = &buf[i];

		if (!k->inode || !wanted(k, keep) || held(x, k->inode))
			continue;
		/* daemons and servers keep their sockets non-blocking and close-on-exec */
		fx_sock(x, -1, k->family, k->type, k->inode, FL_NB, true);
	}
	if (buf != few)
		free(buf);
}

void fx_net_sockets(struct fdgen *x)
{
	size_t idx = x->idx;

	if (x->pg && x->pg->kind == G_USER && (inherits_listeners(x) || x->g->prog == P_SSHD_USER))
		place(x, (size_t)(x->pg - x->s->gen), x->g->prog == P_SSHD_USER ? KEEP_TCP : KEEP_LISTEN);
	place(x, idx, KEEP_OWN);
}
