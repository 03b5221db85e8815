// SPDX-License-Identifier: MIT
/*
 * net.c - the synthetic machine's network: which namespace each process is
 * in, and the namespaces built from the plan (net_int.h says what they
 * hold).
 *
 * Each containerd-shim's children are a container (a pod: its /pause and
 * its app): ns_plan.c gives the first SY_NET_MAX_CONTAINERS of them a
 * namespace of their own, the others share the host's (as with
 * --network=host); here each namespace becomes a struct mach_net.  The
 * socket tables are the processes' sockets (sy_net_proc_sockets, a
 * function of each process alone), in the order of the kernel's hashes,
 * which look random.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "net_int.h"

/* udp_table_init: about a bucket per 2 MB of RAM, a power of two in [256, 65536]. */
static uint32_t udp_hash_entries(const struct synth *s)
{
	double buckets = s->per_cpu_gib * s->o->cpus * 512.0;
	uint32_t n = 256;

	while (n < 65536 && n < buckets)
		n <<= 1;
	return n;
}

/*
 * The first live process of each program in each namespace: the one that
 * binds the program's ports and serves its clients (net_socks.c asks for
 * it of every process, so it is looked up, not searched).
 */
static int first_progs(struct synth *s)
{
	size_t n = (size_t)(1 + s->ncontainers) * NR_PROGS;

	s->first_prog = malloc(n * sizeof(*s->first_prog));
	if (!s->first_prog)
		return -ENOMEM;
	for (size_t k = 0; k < n; k++)
		s->first_prog[k] = NONE;
	for (size_t j = 0; j < s->m->nprocs; j++) {
		const struct gen *g = &s->gen[j];
		int32_t *f = &s->first_prog[(size_t)s->netns_of[j] * NR_PROGS + g->prog];

		if (g->kind == G_USER && g->state != MACH_TASK_ZOMBIE && *f == NONE)
			*f = (int32_t)j;
	}
	return 0;
}

/* The nsfs inode of plan index @i's network namespace (ns_plan.c decided it). */
static uint32_t net_ino(const struct synth *s, size_t i)
{
	return s->m->nssets[s->gen[i].nsset].ino[MACH_NS_NET];
}

int sy_net_plan(struct synth *s)
{
	size_t n = s->m->nprocs;
	uint32_t host = s->m->nnssets ? s->m->nssets[0].ino[MACH_NS_NET] : 0;
	uint32_t own[SY_NET_MAX_CONTAINERS]; /* the inode of container namespace k + 1 */

	s->netns_of = calloc(n ? n : 1, sizeof(*s->netns_of));
	if (!s->netns_of)
		return -ENOMEM;
	s->udp_hash_mask = udp_hash_entries(s) - 1;
	/*
	 * One struct mach_net per namespace the plan made, numbered as they
	 * were made: the ns/net link and the net/ files of a task describe one
	 * namespace.
	 */
	for (size_t i = 0; i < n; i++) {
		uint32_t ino = s->gen[i].kind == G_USER ? net_ino(s, i) : host;
		unsigned int k = 0;

		while (ino != host && k < s->ncontainers && own[k] != ino)
			k++;
		if (ino != host && k == s->ncontainers && k < SY_NET_MAX_CONTAINERS)
			own[s->ncontainers++] = ino;
		s->netns_of[i] = (uint16_t)(ino == host || k >= SY_NET_MAX_CONTAINERS ? 0 : k + 1);
	}
	return first_progs(s);
}

unsigned int sy_net_ns_of(const struct synth *s, size_t idx)
{
	return s->netns_of ? s->netns_of[idx] : 0;
}

/* A socket's place in its namespace's hashes: UDP by bucket, the others anywhere. */
static uint64_t hash_key(const struct mach_socket *sk)
{
	uint64_t h = (sk->inode ? sk->inode : sk->kaddr) * 0x9e3779b97f4a7c15ull;

	if (sk->protocol == MACH_IPPROTO_UDP)
		return (uint64_t)sk->hash_slot << 32 | (h >> 32);
	return h >> 16;
}

static int by_hash(const void *a, const void *b)
{
	uint64_t x = hash_key(a), y = hash_key(b);

	return (x > y) - (x < y);
}

/* Append @k sockets (a process's) to namespace @n, each once (a socket at two fds is one). */
static int add_socks(struct mach_net *n, size_t *cap, const struct mach_socket *sk, unsigned int k)
{
	for (unsigned int i = 0; i < k; i++) {
		bool seen = false;

		for (unsigned int j = 0; j < i && !seen; j++)
			seen = sk[j].inode && sk[j].inode == sk[i].inode;
		if (seen)
			continue;
		if (n->nsocks == *cap) {
			size_t nc = *cap ? *cap * 2 : 64;
			struct mach_socket *p = realloc(n->socks, nc * sizeof(*p));

			if (!p)
				return -ENOMEM;
			n->socks = p;
			*cap = nc;
		}
		n->socks[n->nsocks++] = sk[i];
	}
	return 0;
}

/*
 * The fd at which process @p holds inode @ino (its lowest), or -1: the fd
 * table (files_socks.c) placed the process's sockets, the owner's fd is
 * read from it, so the two always agree.
 */
static int fd_of(const struct synth *s, size_t idx, const struct mach_process *p, uint64_t ino)
{
	const struct mach_fd *fds;

	/* a table the maker makes left its socket fds behind (files.c): no table is made again here */
	if (p->files && p->files->maker) {
		for (const struct sy_sock_fd *k = s->sock_fds ? s->sock_fds[idx] : NULL; k && k->ino; k++)
			if (k->ino == ino)
				return k->fd;
		return -1;
	}
	if (!p->files || mach_files_fds(p->files, &fds))
		return -1;
	for (unsigned int i = 0; i < p->files->nfds; i++)
		if (fds[i].kind == MACH_FD_SOCKET && fds[i].ino == ino)
			return fds[i].fd;
	return -1;
}

/* Every process's sockets into its namespace's table, then in hash order. */
static int build_socks(struct synth *s)
{
	struct mach_machine *m = s->m;
	struct mach_socket *buf = malloc(SY_NET_MAX_PROC_SOCKS * sizeof(*buf));
	size_t *cap = calloc(m->nnets, sizeof(*cap));
	int rc = buf && cap ? 0 : -ENOMEM;

	for (size_t i = 0; i < m->nprocs && !rc; i++) {
		struct mach_net *n = &m->nets[sy_net_ns_of(s, i)];
		unsigned int k = sy_net_proc_sockets(s, i, buf, SY_NET_MAX_PROC_SOCKS, n, &rc);

		for (unsigned int j = 0; j < k; j++)
			if (buf[j].inode && buf[j].tgid)
				buf[j].fd = fd_of(s, i, &m->procs[i], buf[j].inode);
		rc = rc ?: add_socks(n, &cap[sy_net_ns_of(s, i)], buf, k);
		if (s->sock_fds) {
			free(s->sock_fds[i]);
			s->sock_fds[i] = NULL;
		}
	}
	if (!rc) {
		/* every list was read and freed: the array of them goes before the sort needs room */
		free(s->sock_fds);
		s->sock_fds = NULL;
	}
	for (unsigned int ns = 0; ns < m->nnets && !rc; ns++) {
		struct mach_net *n = &m->nets[ns];
		struct mach_socket *fit;

		if (!n->nsocks)
			continue;
		qsort(n->socks, n->nsocks, sizeof(*n->socks), by_hash);
		/* the doubling left up to half the table unused: 136 bytes a socket, a few a process */
		if (n->nsocks < cap[ns] && (fit = realloc(n->socks, n->nsocks * sizeof(*fit))))
			n->socks = fit;
	}
	free(buf);
	free(cap);
	return rc;
}

int sy_build_net(struct synth *s)
{
	struct mach_machine *m = s->m;
	int rc = 0;

	m->nnets = 1 + s->ncontainers;
	m->nets = calloc(m->nnets, sizeof(*m->nets));
	if (!m->nets)
		return -ENOMEM;
	for (size_t i = 0; i < m->nprocs; i++)
		m->nets[sy_net_ns_of(s, i)].ino = s->gen[i].kind == G_USER ? net_ino(s, i) : m->nssets[0].ino[MACH_NS_NET];
	for (unsigned int ns = 0; ns < m->nnets && !rc; ns++)
		rc = sy_net_build_links(s, &m->nets[ns], ns, s->ncontainers);
	if (!rc && s->ncontainers) {
		/* the bridge carries what its ports (the veth host ends, devices 3 on) carry */
		struct mach_net *host = &m->nets[0];

		for (unsigned int d = 3; d < host->ndevs; d++)
			for (int st = 0; st < 4; st++)
				host->devs[2].stats[st] += host->devs[d].stats[st];
	}
	if (!rc)
		rc = build_socks(s);
	if (rc)
		return rc;
	for (unsigned int ns = 0; ns < m->nnets; ns++)
		sy_net_build_mib(s, &m->nets[ns], ns);
	sy_net_build_sockstat(s);
	return sy_net_build_softnet(s);
}
