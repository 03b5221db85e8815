// SPDX-License-Identifier: MIT
/*
 * net.c - the synthetic machine's network: which namespace each process is
 * in, and the namespaces built from the plan (net_int.h says what they
 * hold).
 *
 * Each containerd-shim's children are a container (a pod: its /pause and
 * its app): the first SY_NET_MAX_CONTAINERS of them get a namespace of
 * their own, the others share the host's (as with --network=host).  The
 * socket tables are the processes' sockets (sy_net_proc_sockets, a
 * function of each process alone), in the order of the kernel's hashes,
 * which look random.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "net_int.h"

/* The plan index of the parent of process @idx, or NONE. */
static long parent_index(const struct synth *s, size_t idx)
{
	const struct mach_process *pp = mach_find_process(s->m, s->m->procs[idx].ppid);

	return pp ? pp - s->m->procs : NONE;
}

/* udp_table_init: about a bucket per 2 MB of RAM, a power of two in [256, 65536]. */
static uint32_t udp_hash_entries(const struct synth *s)
{
	double buckets = s->per_cpu_gib * s->o->cpus * 512.0;
	uint32_t n = 256;

	while (n < 65536 && n < buckets)
		n <<= 1;
	return n;
}

int sy_net_plan(struct synth *s)
{
	size_t n = s->m->nprocs;
	uint16_t *shim_ns;

	s->netns_of = calloc(n ? n : 1, sizeof(*s->netns_of));
	shim_ns = calloc(n ? n : 1, sizeof(*shim_ns)); /* the namespace a shim's container got */
	if (!s->netns_of || !shim_ns) {
		free(shim_ns);
		return -ENOMEM;
	}
	s->udp_hash_mask = udp_hash_entries(s) - 1;
	/* parents come first in the plan: a child finds its parent's namespace decided */
	for (size_t i = 0; i < n; i++) {
		long p = s->gen[i].kind == G_USER ? parent_index(s, i) : NONE;

		if (p == NONE)
			continue;
		if (s->gen[p].kind == G_USER && s->gen[p].prog == P_SHIM) {
			/* the shim's first child opens the container's namespace, its others join it */
			if (!shim_ns[p] && s->ncontainers < SY_NET_MAX_CONTAINERS)
				shim_ns[p] = (uint16_t)++s->ncontainers;
			s->netns_of[i] = shim_ns[p];
		} else {
			s->netns_of[i] = s->netns_of[p];
		}
	}
	free(shim_ns);
	return 0;
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

/* Every process's sockets into its namespace's table, then in hash order. */
static int build_socks(struct synth *s)
{
	struct mach_machine *m = s->m;
	struct mach_socket *buf = malloc(SY_NET_MAX_PROC_SOCKS * sizeof(*buf));
	size_t *cap = calloc(m->nnets, sizeof(*cap));
	int rc = buf && cap ? 0 : -ENOMEM;

	for (size_t i = 0; i < m->nprocs && !rc; i++) {
		unsigned int k = sy_net_proc_sockets(s, i, buf, SY_NET_MAX_PROC_SOCKS);

		rc = add_socks(&m->nets[sy_net_ns_of(s, i)], &cap[sy_net_ns_of(s, i)], buf, k);
	}
	for (unsigned int ns = 0; ns < m->nnets && !rc; ns++)
		if (m->nets[ns].nsocks)
			qsort(m->nets[ns].socks, m->nets[ns].nsocks, sizeof(*m->nets[ns].socks), by_hash);
	free(buf);
	free(cap);
	return rc;
}

/* Threads name their namespace; a zombie has none (its nsproxy went at exit). */
static void assign_threads(struct synth *s)
{
	for (size_t i = 0; i < s->m->nprocs; i++) {
		struct mach_process *p = &s->m->procs[i];

		for (unsigned int j = 0; j < p->nthreads; j++)
			p->threads[j].netns = p->threads[j].state == MACH_TASK_ZOMBIE ? 0 : sy_net_ns_of(s, i) + 1;
	}
}

int sy_build_net(struct synth *s)
{
	struct mach_machine *m = s->m;
	int rc = 0;

	m->nnets = 1 + s->ncontainers;
	m->nets = calloc(m->nnets, sizeof(*m->nets));
	if (!m->nets)
		return -ENOMEM;
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
	assign_threads(s);
	for (unsigned int ns = 0; ns < m->nnets; ns++)
		sy_net_build_mib(s, &m->nets[ns], ns);
	sy_net_build_sockstat(s);
	return sy_net_build_softnet(s);
}
