// SPDX-License-Identifier: MIT
/*
 * test_synth_joins.c - a synthetic machine is one machine: what one file
 * says, the files tools join it with agree.
 *
 * Over seeds 1..50 and a few shapes: every socket an fd table shows is in
 * its namespace's socket table, of the same family and type, and every
 * socket there (but the kernel's time-wait socks, inode 0) is held by its
 * owner at the fd it records (lsof, ss -p, psutil join them by inode);
 * socket and pipe inodes meet no anon, pidfs or file inode; workers share
 * their master's listeners; a namespace's inode is the one its tasks'
 * ns/net links name; /proc/sys/net/ipv{4,6}/conf and neigh list the host's
 * devices; the NIC's queue interrupts name its device and stay under its
 * packets; fs/file-nr and sockstat count at least the fds and sockets the
 * tables hold.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "test_fds.h"
#include "uprocfs/machine.h"

enum prop { J_FD_SOCK, J_TABLE_SOCK, J_INODES, J_INHERIT, J_NETNS, J_CONF, J_IRQ, J_SUMS, NR_PROPS };

static const char *const prop_names[NR_PROPS] = {
	[J_FD_SOCK] = "every fd socket is in its namespace's tables, same family and type",
	[J_TABLE_SOCK] = "every table socket (inode != 0) is held by its owner at its fd; inode 0 has no owner",
	[J_INODES] = "socket and pipe inodes meet no anon, pidfs or file inode, nor each other",
	[J_INHERIT] = "forked workers hold their master's listening sockets",
	[J_NETNS] = "a namespace's inode is what its tasks' ns/net names, one per namespace",
	[J_CONF] = "net/ipv4/conf, net/ipv6/conf and neigh list all, default and the host's devices",
	[J_IRQ] = "NIC queue irqs name the uplink (or its virtio device), under its packets",
	[J_SUMS] = "file-nr >= the fds held; sockets: used >= the socket inodes fds hold",
};

static unsigned long fails[NR_PROPS], checks[NR_PROPS];
static struct tap_props props = { prop_names, fails, checks, "" };

#define check(p, ...) tap_prop(&props, p, __VA_ARGS__)

static unsigned long shared_listeners;

static const struct mach_socket *in_net(const struct mach_net *n, uint64_t ino)
{
	for (size_t i = 0; n && i < n->nsocks; i++)
		if (n->socks[i].inode == ino)
			return &n->socks[i];
	return NULL;
}

static const struct mach_fd *fd_in(const struct mach_process *p, int fd)
{
	for (unsigned int i = 0; p && p->files && i < p->files->nfds; i++)
		if (p->files->fds[i].fd == fd)
			return &p->files->fds[i];
	return NULL;
}

/* Sockets seen from the fd tables: in the tables of the holder's namespace, as what they are. */
static void check_fd_socks(const struct mach_machine *m)
{
	for (size_t i = 0; i < m->nprocs; i++) {
		const struct mach_process *p = &m->procs[i];
		const struct mach_net *n = mach_thread_net(m, &p->threads[0]);

		for (unsigned int k = 0; p->files && k < p->files->nfds; k++) {
			const struct mach_fd *f = &p->files->fds[k];
			const struct mach_socket *s;

			if (f->kind != MACH_FD_SOCKET)
				continue;
			s = in_net(n, f->ino);
			check(J_FD_SOCK, s && s->family == f->sock_family && s->type == f->sock_type,
			      "pid %d fd %d socket:[%" PRIu64 "] family %u type %u: %s", (int)p->tgid, f->fd, f->ino,
			      f->sock_family, f->sock_type, s ? "other kind in the table" : "not in its namespace's tables");
			if (s && s->state == MACH_TCP_LISTEN && s->tgid != p->tgid)
				shared_listeners++;
		}
	}
}

/* Sockets seen from the tables: each held by its owner at its fd. */
static void check_table_socks(const struct mach_machine *m)
{
	for (unsigned int k = 0; k < m->nnets; k++)
		for (size_t i = 0; i < m->nets[k].nsocks; i++) {
			const struct mach_socket *s = &m->nets[k].socks[i];
			const struct mach_process *p = s->tgid > 0 ? mach_find_process(m, s->tgid) : NULL;
			const struct mach_fd *f = p ? fd_in(p, s->fd) : NULL;

			if (!s->inode) {
				check(J_TABLE_SOCK, !s->tgid && s->fd < 0, "kernel sock with owner %d", (int)s->tgid);
				continue;
			}
			check(J_TABLE_SOCK, f && f->kind == MACH_FD_SOCKET && f->ino == s->inode,
			      "namespace %u socket %" PRIu64 " owned by %d fd %d: %s", k, s->inode, (int)s->tgid, s->fd,
			      !p ? "no such process" : !f ? "no such fd" : "another file there");
		}
}

struct ino_use {
	uint64_t ino;
	int what; /* 0: socket, 1: pipe, 2: anon/pidfs/file */
};

static int by_ino(const void *a, const void *b)
{
	const struct ino_use *x = a, *y = b;

	return x->ino != y->ino ? (x->ino > y->ino) - (x->ino < y->ino) : x->what - y->what;
}

/* One inode, one kind of object: sockets, pipes and the rest never share a number. */
static void check_inodes(const struct mach_machine *m)
{
	struct ino_use *u = NULL;
	size_t n = 0, cap = 0;

	for (size_t i = 0; i < m->nprocs; i++) {
		const struct mach_files *f = m->procs[i].files;

		for (unsigned int k = 0; f && k < f->nfds; k++) {
			if (n == cap && !(u = realloc(u, (cap = cap ? cap * 2 : 4096) * sizeof(*u))))
				abort();
			u[n++] = (struct ino_use){ f->fds[k].ino, f->fds[k].kind == MACH_FD_SOCKET ? 0 :
							     f->fds[k].kind == MACH_FD_PIPE ? 1 : 2 };
		}
	}
	qsort(u, n, sizeof(*u), by_ino);
	for (size_t i = 1; i < n; i++)
		if (u[i].ino == u[i - 1].ino && u[i].what != u[i - 1].what)
			check(J_INODES, u[i].what == 2 && u[i - 1].what == 2, "inode %" PRIu64 " is a %s and a %s", u[i].ino,
			      u[i - 1].what == 0 ? "socket" : u[i - 1].what == 1 ? "pipe" : "file",
			      u[i].what == 1 ? "pipe" : "file");
		else
			checks[J_INODES]++;
	free(u);
}

static void check_netns(const struct mach_machine *m)
{
	for (unsigned int k = 0; k < m->nnets; k++)
		for (unsigned int j = 0; j < k; j++)
			check(J_NETNS, m->nets[k].ino && m->nets[k].ino != m->nets[j].ino, "namespaces %u and %u: inode %u",
			      j, k, m->nets[k].ino);
	for (size_t i = 0; i < m->nprocs; i++)
		for (unsigned int t = 0; t < m->procs[i].nthreads; t++) {
			const struct mach_thread *th = &m->procs[i].threads[t];
			const struct mach_net *n = mach_thread_net(m, th);

			if (!n)
				continue;
			check(J_NETNS, th->nsset < m->nnssets && m->nssets[th->nsset].ino[MACH_NS_NET] == n->ino,
			      "tid %d: ns/net net:[%u], its net/ files namespace %u", (int)th->tid,
			      th->nsset < m->nnssets ? m->nssets[th->nsset].ino[MACH_NS_NET] : 0, n->ino);
		}
}

/* The names under /proc/sys/@dir. */
static void check_dir(const struct mach_machine *m, const char *dir, bool with_all)
{
	const struct mach_sysctl *t = m->sysctl;
	int64_t d = mach_sysctl_find(t, dir);
	const struct mach_net *host = &m->nets[0];
	unsigned int want = host->ndevs + 1 + with_all;

	check(J_CONF, d >= 0 && t->nodes[d].nkids == want, "%s: %u entries, %u devices", dir,
	      d >= 0 ? t->nodes[d].nkids : 0, host->ndevs);
	for (unsigned int i = 0; d >= 0 && i < host->ndevs; i++)
		check(J_CONF, mach_sysctl_lookup(t, (uint32_t)d, host->devs[i].name, strlen(host->devs[i].name)) >= 0,
		      "%s/%s missing", dir, host->devs[i].name);
}

static void check_conf(const struct mach_machine *m)
{
	check_dir(m, "net/ipv4/conf", true);
	check_dir(m, "net/ipv6/conf", true);
	check_dir(m, "net/ipv4/neigh", false);
	check_dir(m, "net/ipv6/neigh", false);
}

/* The uplink: the host's first ethernet device that is not a bridge or veth. */
static const struct mach_netdev *uplink(const struct mach_machine *m)
{
	return m->nnets && m->nets[0].ndevs > 1 ? &m->nets[0].devs[1] : NULL;
}

static void check_irqs(const struct mach_machine *m)
{
	const struct mach_netdev *up = uplink(m);
	uint64_t rx = 0, tx = 0;
	unsigned int queues = 0;

	for (unsigned int i = 0; i < m->nirqs; i++) {
		const struct mach_irq *q = &m->irqs[i];
		const char *a = q->actions ? q->actions : "";
		size_t l = up ? strlen(up->name) : 0;
		bool named_up = up && !strncmp(a, up->name, l) && (a[l] == '\0' || a[l] == '-');

		if (q->dev != MACH_IRQ_DEV_NET && !strstr(a, "-TxRx-") && strncmp(a, "eth", 3))
			continue;
		queues += q->dev == MACH_IRQ_DEV_NET;
		check(J_IRQ, named_up || !strncmp(a, "virtio", 6), "irq %u named %s, the uplink is %s", q->irq, a,
		      up ? up->name : "none");
		if (q->dev == MACH_IRQ_DEV_NET)
			*(strstr(a, "-output.") ? &tx : &rx) += mach_irq_count(q, m->ncpus);
	}
	check(J_IRQ, !queues || (up && rx <= up->stats[MACH_NETDEV_RX_PACKETS] && tx <= up->stats[MACH_NETDEV_TX_PACKETS]),
	      "queue irqs rx %" PRIu64 " tx %" PRIu64 ", packets rx %" PRIu64 " tx %" PRIu64, rx, tx,
	      up ? up->stats[MACH_NETDEV_RX_PACKETS] : 0, up ? up->stats[MACH_NETDEV_TX_PACKETS] : 0);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static void check_sums(const struct mach_machine *m)
{
	uint64_t fds = 0;

	for (size_t i = 0; i < m->nprocs; i++)
		fds += m->procs[i].files ? m->procs[i].files->nfds : 0;
	check(J_SUMS, m->sysctl->nr_files >= fds, "file-nr %" PRIu64 ", %" PRIu64 " fds", m->sysctl->nr_files, fds);
	for (unsigned int k = 0; k < m->nnets; k++) {
		uint64_t *inos = NULL;
		size_t n = 0, cap = 0, distinct = 0;

		for (size_t i = 0; i < m->nprocs; i++) {
			const struct mach_process *p = &m->procs[i];

			if (mach_thread_net(m, &p->threads[0]) != &m->nets[k])
				continue;
			for (unsigned int j = 0; p->files && j < p->files->nfds; j++) {
				if (p->files->fds[j].kind != MACH_FD_SOCKET)
					continue;
				if (n == cap && !(inos = realloc(inos, (cap = cap ? cap * 2 : 256) * sizeof(*inos))))
					abort();
				inos[n++] = p->files->fds[j].ino;
			}
		}
		if (n)
			qsort(inos, n, sizeof(*inos), cmp_u64);
		for (size_t i = 0; i < n; i++)
			distinct += !i || inos[i] != inos[i - 1];
		check(J_SUMS, (uint64_t)m->nets[k].sockstat.sockets_used >= distinct,
		      "namespace %u: sockets: used %d, fds hold %zu sockets", k, m->nets[k].sockstat.sockets_used, distinct);
		free(inos);
	}
}

int main(void)
{
	static const char *const shapes[] = {
		"cpus=1,tasks=40", "tasks=3", "cpus=16,tasks=500", "cpus=64,tasks=3000,seed=5",
		"cpus=4,tasks=200,seed=3",
	};
	const int nshapes = (int)(sizeof(shapes) / sizeof(shapes[0]));
	char err[256], spec[64];

	plan(0);
	for (int i = 1; i <= 50 + nshapes; i++) {
		struct mach_synth_opts o;
		struct mach_machine *m = NULL;

		mach_synth_defaults(&o);
		if (i <= 50)
			snprintf(spec, sizeof(spec), "seed=%d", i);
		else
			snprintf(spec, sizeof(spec), "%s", shapes[i - 51]);
		props.label = spec;
		if (mach_synth_parse(&o, spec, err, sizeof(err)) || mach_synth_build(&o, &m, err, sizeof(err)) ||
		    test_store_fds(m)) {
			ok(0, "%s builds and makes its fd tables: %s", spec, err);
			mach_free(m);
			continue;
		}
		check_fd_socks(m);
		check_table_socks(m);
		check_inodes(m);
		check_netns(m);
		check_conf(m);
		check_irqs(m);
		check_sums(m);
		mach_free(m);
	}
	check(J_INHERIT, shared_listeners > 0, "no worker holds its master's listener in 55 machines");
	tap_props_report(&props, NR_PROPS);
	return tap_done();
}
