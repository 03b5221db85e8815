// SPDX-License-Identifier: MIT
/*
 * test_synth_net.c - the synthetic machine's network agrees with itself
 * and with its processes, before and after the simulator moves it.
 *
 * Over seeds 1..50 and a few shapes (containers past the limit, one CPU,
 * thousands of tasks): every thread's namespace exists (a zombie has none);
 * devices ascend by ifindex, lo receives what it sends, a veth pair's ends
 * mirror each other, docker0 carries its ports' traffic; routes, neighbours
 * and addresses name devices; socket inodes are unique machine-wide, each
 * owned by a live process of its namespace at an fd (time-wait socks by
 * none), unix peers point at each other; sockstat counts the tables,
 * CurrEstab the established sockets; the per-type ICMP counters fit in
 * InMsgs/OutMsgs, TCP in IP; softnet's CPUs processed (mod 2^32) every
 * packet the namespaces received; a service's JOURNAL_STREAM names its
 * stdout socket; a PostgreSQL backend's title and an ssh login's
 * SSH_CONNECTION name the peer of their connection.  After the simulator
 * runs: counters grow, the identities above still hold, timers are ahead.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "uprocfs/machine.h"
#include "uprocfs/sim.h"

enum prop { N_NS, N_DEVS, N_LINKS, N_SOCKS, N_SOCKSTAT, N_MIB, N_SOFTNET, N_PEERS, N_SIM, NR_PROPS };

static const char *const prop_names[NR_PROPS] = {
	[N_NS] = "threads name existing namespaces; zombies none; kernel threads the host's",
	[N_DEVS] = "devices by ifindex; lo rx == tx; veth ends mirror; docker0 sums its ports",
	[N_LINKS] = "addresses, routes and neighbours name devices; gateways on a connected route",
	[N_SOCKS] = "socket inodes unique; owners live, in the namespace, at an fd; unix peers mutual",
	[N_SOCKSTAT] = "sockstat counts the socket tables (alloc and mem global)",
	[N_MIB] = "CurrEstab counts sockets; ICMP types within InMsgs/OutMsgs; TCP within IP; IPv4 within rx",
	[N_SOFTNET] = "softnet: online CPUs; processed sums to every namespace's rx packets (mod 2^32)",
	[N_PEERS] = "JOURNAL_STREAM, pg backend titles and SSH_CONNECTION name their sockets",
	[N_SIM] = "after the simulator: counters grow, identities hold, timers ahead",
};

static unsigned long fails[NR_PROPS], checks[NR_PROPS];
static struct tap_props props = { prop_names, fails, checks, "" };

#define check(p, ...) tap_prop(&props, p, __VA_ARGS__)

static uint64_t rx_packets(const struct mach_net *n)
{
	uint64_t sum = 0;

	for (unsigned int d = 0; d < n->ndevs; d++)
		sum += n->devs[d].stats[MACH_NETDEV_RX_PACKETS];
	return sum;
}

static void check_threads(const struct mach_machine *m)
{
	for (size_t i = 0; i < m->nprocs; i++)
		for (unsigned int j = 0; j < m->procs[i].nthreads; j++) {
			const struct mach_thread *t = &m->procs[i].threads[j];

			check(N_NS, t->state == MACH_TASK_ZOMBIE ? t->netns == 0 : t->netns >= 1 && t->netns <= m->nnets,
			      "tid %d netns %u of %u", (int)t->tid, t->netns, m->nnets);
			check(N_NS, !t->kthread || t->netns == 1, "kthread %d in namespace %u", (int)t->tid, t->netns);
		}
}

/* The device of namespace @n with ifindex @idx, or NULL. */
static const struct mach_netdev *dev_by_index(const struct mach_net *n, int idx)
{
	for (unsigned int d = 0; d < n->ndevs; d++)
		if (n->devs[d].ifindex == idx)
			return &n->devs[d];
	return NULL;
}

/* The simulator scales each counter on its own: a sum may drift by a packet a port. */
static bool near(const uint64_t *a, const uint64_t *b, int n, uint64_t slack)
{
	for (int i = 0; i < n; i++)
		if (a[i] > b[i] + slack || b[i] > a[i] + slack)
			return false;
	return true;
}

static void check_devs(const struct mach_machine *m, bool simulated)
{
	for (unsigned int k = 0; k < m->nnets; k++) {
		const struct mach_net *n = &m->nets[k];
		uint64_t ports[4] = { 0 };

		check(N_DEVS, n->ndevs >= 2 && !strcmp(n->devs[0].name, "lo"), "namespace %u devices", k);
		for (unsigned int d = 0; d < n->ndevs; d++) {
			const struct mach_netdev *v = &n->devs[d];
			const uint64_t *st = v->stats;

			check(N_DEVS, !d || v->ifindex > n->devs[d - 1].ifindex, "%s out of ifindex order", v->name);
			if (!strcmp(v->name, "lo"))
				check(N_DEVS, st[MACH_NETDEV_RX_BYTES] == st[MACH_NETDEV_TX_BYTES] &&
						      st[MACH_NETDEV_RX_PACKETS] == st[MACH_NETDEV_TX_PACKETS], "lo");
			if (!strncmp(v->name, "veth", 4)) {
				const struct mach_netdev *peer = NULL;

				for (unsigned int j = 1; j < m->nnets && !peer; j++)
					peer = dev_by_index(&m->nets[j], v->iflink);
				check(N_DEVS, peer && peer->iflink == v->ifindex &&
						      peer->stats[MACH_NETDEV_TX_BYTES] == st[MACH_NETDEV_RX_BYTES] &&
						      peer->stats[MACH_NETDEV_RX_PACKETS] == st[MACH_NETDEV_TX_PACKETS],
				      "%s and its peer", v->name);
				for (int s = 0; s < 4; s++)
					ports[s] += st[s];
			}
		}
		if (k == 0 && n->ndevs > 3)
			check(N_DEVS, near(n->devs[2].stats, ports, 4, simulated ? n->ndevs : 0),
			      "docker0 is not its ports' sum");
	}
}

static void check_links(const struct mach_net *n, unsigned int k)
{
	for (unsigned int i = 0; i < n->ninet6; i++)
		check(N_LINKS, n->inet6[i].dev >= 0 && (unsigned int)n->inet6[i].dev < n->ndevs, "ns %u inet6 %u", k, i);
	for (unsigned int i = 0; i < n->nneigh; i++)
		check(N_LINKS, n->neigh[i].dev >= 0 && (unsigned int)n->neigh[i].dev < n->ndevs, "ns %u neigh %u", k, i);
	for (unsigned int i = 0; i < n->nroutes; i++) {
		const struct mach_route *r = &n->routes[i];
		bool on_link = !r->gw;

		for (unsigned int j = 0; j < n->nroutes && !on_link; j++) {
			const struct mach_route *c = &n->routes[j];
			uint32_t mask = c->plen ? __builtin_bswap32(~0u << (32 - c->plen)) : 0;

			on_link = !c->gw && c->plen && (r->gw & mask) == (c->dst & mask);
		}
		check(N_LINKS, r->dev >= 0 && (unsigned int)r->dev < n->ndevs && on_link &&
				       (!i || __builtin_bswap32(n->routes[i - 1].dst) <= __builtin_bswap32(r->dst)),
		      "ns %u route %u", k, i);
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* The socket with inode @ino anywhere, or NULL. */
static const struct mach_socket *sock_by_inode(const struct mach_machine *m, uint64_t ino)
{
	for (unsigned int k = 0; k < m->nnets; k++)
		for (size_t i = 0; i < m->nets[k].nsocks; i++)
			if (m->nets[k].socks[i].inode == ino)
				return &m->nets[k].socks[i];
	return NULL;
}

static void check_owner(const struct mach_machine *m, const struct mach_socket *s, unsigned int k)
{
	const struct mach_process *p;

	if (s->kind != MACH_SK_FULL) {
		check(N_SOCKS, !s->tgid && s->fd < 0 && !s->inode, "time-wait/request sock with an owner");
		return;
	}
	p = mach_find_process(m, s->tgid);
	check(N_SOCKS, p && s->fd >= 0 && p->threads[0].netns == k + 1 && p->threads[0].state != MACH_TASK_ZOMBIE &&
			       mach_thread_cred(&p->threads[0])->uid[0] == s->uid,
	      "socket %" PRIu64 " owned by %d fd %d in namespace %u", s->inode, (int)s->tgid, s->fd, k);
	if (s->family == MACH_AF_UNIX && s->peer) {
		const struct mach_socket *q = sock_by_inode(m, s->peer);

		check(N_SOCKS, q && q->peer == s->inode, "unix %" PRIu64 " and its peer %" PRIu64, s->inode, s->peer);
	}
}

static void check_socks(const struct mach_machine *m)
{
	size_t total = 0, n = 0;
	uint64_t *inodes;

	for (unsigned int k = 0; k < m->nnets; k++)
		total += m->nets[k].nsocks;
	inodes = malloc((total + 1) * sizeof(*inodes));
	for (unsigned int k = 0; k < m->nnets; k++)
		for (size_t i = 0; i < m->nets[k].nsocks; i++) {
			const struct mach_socket *s = &m->nets[k].socks[i];

			if (s->inode)
				inodes[n++] = s->inode;
			check_owner(m, s, k);
		}
	qsort(inodes, n, sizeof(*inodes), cmp_u64);
	for (size_t i = 1; i < n; i++)
		check(N_SOCKS, inodes[i] != inodes[i - 1], "inode %" PRIu64 " twice", inodes[i]);
	free(inodes);
}

/* sockstat as the kernel counts: tables per namespace, TCP allocation over all. */
static void check_sockstat(const struct mach_machine *m)
{
	int32_t alloc = 0;

	for (unsigned int k = 0; k < m->nnets; k++)
		for (size_t i = 0; i < m->nets[k].nsocks; i++)
			alloc += m->nets[k].socks[i].protocol == MACH_IPPROTO_TCP && m->nets[k].socks[i].kind == MACH_SK_FULL;
	for (unsigned int k = 0; k < m->nnets; k++) {
		const struct mach_net *n = &m->nets[k];
		struct mach_sockstat c = { 0 };
		struct mach_sockstat6 c6 = { 0 };

		for (size_t i = 0; i < n->nsocks; i++) {
			const struct mach_socket *s = &n->socks[i];
			bool v6 = s->family == MACH_AF_INET6, tcp = s->protocol == MACH_IPPROTO_TCP;

			c.sockets_used += s->kind == MACH_SK_FULL;
			c.tcp_tw += tcp && s->kind == MACH_SK_TIMEWAIT;
			if (tcp && s->kind == MACH_SK_FULL && s->state != MACH_TCP_CLOSE)
				++*(v6 ? &c6.tcp_inuse : &c.tcp_inuse);
			if (s->protocol == MACH_IPPROTO_UDP && s->lport)
				++*(v6 ? &c6.udp_inuse : &c.udp_inuse);
		}
		check(N_SOCKSTAT, c.sockets_used == n->sockstat.sockets_used && c.tcp_tw == n->sockstat.tcp_tw &&
					  c.tcp_inuse == n->sockstat.tcp_inuse && c6.tcp_inuse == n->sockstat6.tcp_inuse &&
					  c.udp_inuse == n->sockstat.udp_inuse && c6.udp_inuse == n->sockstat6.udp_inuse &&
					  alloc == n->sockstat.tcp_alloc && n->sockstat.tcp_mem == m->nets[0].sockstat.tcp_mem,
		      "namespace %u: used %d/%d tcp %d/%d tw %d/%d", k, c.sockets_used, n->sockstat.sockets_used,
		      c.tcp_inuse, n->sockstat.tcp_inuse, c.tcp_tw, n->sockstat.tcp_tw);
	}
}

static void check_mib(const struct mach_net *n, unsigned int k)
{
	uint64_t estab = 0, in = 0, out = 0;

	for (size_t i = 0; i < n->nsocks; i++)
		estab += n->socks[i].protocol == MACH_IPPROTO_TCP && n->socks[i].kind == MACH_SK_FULL &&
			 (n->socks[i].state == MACH_TCP_ESTABLISHED || n->socks[i].state == MACH_TCP_CLOSE_WAIT);
	for (int t = 0; t < 256; t++) {
		in += n->icmpmsg[t];
		out += n->icmpmsg[256 + t];
	}
	check(N_MIB, n->tcp[MACH_NET_TCP_CURRESTAB] == estab, "ns %u CurrEstab %" PRIu64 ", %" PRIu64 " sockets", k,
	      n->tcp[MACH_NET_TCP_CURRESTAB], estab);
	check(N_MIB, in <= n->icmp[MACH_NET_ICMP_INMSGS] && out <= n->icmp[MACH_NET_ICMP_OUTMSGS], "ns %u icmp", k);
	check(N_MIB, n->tcp[MACH_NET_TCP_INSEGS] <= n->ip[MACH_NET_IP_INDELIVERS] &&
			     n->tcp[MACH_NET_TCP_OUTSEGS] <= n->ip[MACH_NET_IP_OUTREQUESTS] &&
			     n->ip[MACH_NET_IP_INRECEIVES] <= rx_packets(n) &&
			     n->ipext[MACH_NET_IX_INNOECTPKTS] == n->ip[MACH_NET_IP_INRECEIVES] &&
			     (int64_t)n->tcp[MACH_NET_TCP_MAXCONN] == -1,
	      "ns %u tcp/ip", k);
}

static void check_softnet(const struct mach_machine *m)
{
	uint64_t rx = 0;
	unsigned int online = 0;

	for (unsigned int c = 0; c < m->ncpus; c++)
		online += m->cpus[c].online;
	for (unsigned int k = 0; k < m->nnets; k++)
		rx += rx_packets(&m->nets[k]);
	for (unsigned int k = 0; k < m->nnets; k++) {
		const struct mach_net *n = &m->nets[k];
		uint32_t sum = 0;

		for (unsigned int i = 0; i < n->nsoftnet; i++) {
			sum += n->softnet[i].processed;
			check(N_SOFTNET, !i || n->softnet[i].cpu > n->softnet[i - 1].cpu, "cpu order");
		}
		check(N_SOFTNET, n->nsoftnet == online && sum == (uint32_t)rx, "ns %u: %u rows, sum %u, rx %" PRIu64, k,
		      n->nsoftnet, sum, rx);
	}
}

/* A NUL-separated block's entry starting with @key, or NULL. */
static const char *entry(const char *buf, size_t len, const char *key)
{
	for (size_t i = 0; i < len; i += strlen(buf + i) + 1)
		if (!strncmp(buf + i, key, strlen(key)))
			return buf + i + strlen(key);
	return NULL;
}

/* The TCP socket of process @p whose local port is @lport. */
static const struct mach_socket *tcp_of(const struct mach_machine *m, pid_t p, unsigned int lport)
{
	for (unsigned int k = 0; k < m->nnets; k++)
		for (size_t i = 0; i < m->nets[k].nsocks; i++) {
			const struct mach_socket *s = &m->nets[k].socks[i];

			if (s->tgid == p && s->protocol == MACH_IPPROTO_TCP && s->lport == lport &&
			    s->state == MACH_TCP_ESTABLISHED)
				return s;
		}
	return NULL;
}

static void check_peers(const struct mach_machine *m)
{
	for (size_t i = 0; i < m->nprocs; i++) {
		const struct mach_process *p = &m->procs[i];
		const struct mach_mm *mm = p->mm;
		const char *v;
		unsigned int a, b, port;
		const struct mach_socket *s;

		if (!mm || p->threads[0].state == MACH_TASK_ZOMBIE)
			continue;
		if ((v = entry(mm->environ, mm->environ_len, "JOURNAL_STREAM=8:"))) {
			s = sock_by_inode(m, strtoull(v, NULL, 10));
			check(N_PEERS, s && s->family == MACH_AF_UNIX && s->fd == 1 && s->peer, "pid %d %s", (int)p->tgid, v);
		}
		if ((v = entry(mm->cmdline, mm->cmdline_len, "postgres: 15/main: ")) && strstr(v, "appdb 10.0.") &&
		    sscanf(strstr(v, "appdb 10.0.") + 11, "%u.%u(%u)", &a, &b, &port) == 3) {
			s = tcp_of(m, p->tgid, 5432);
			check(N_PEERS, s && s->rport == port && s->raddr[2] == a && s->raddr[3] == b, "pg backend %d", (int)p->tgid);
		}
		if (!strncmp(mm->cmdline, "sshd-session: ", 14) && strstr(mm->cmdline, "[priv]")) {
			const struct mach_process *bash = p + 2 < m->procs + m->nprocs ? p + 2 : NULL;
			/* the session's login shell is planned right after it, if the machine had room */
			const char *conn = bash && bash->mm && !strcmp(bash->mm->cmdline, "-bash")
						   ? entry(bash->mm->environ, bash->mm->environ_len, "SSH_CONNECTION=10.0.")
						   : NULL;

			s = tcp_of(m, p->tgid, 22);
			check(N_PEERS, !conn || (s && sscanf(conn, "%u.%u %u", &a, &b, &port) == 3 && s->rport == port &&
						 s->raddr[2] == a && s->raddr[3] == b),
			      "ssh session %d", (int)p->tgid);
		}
	}
}

static void check_net(const struct mach_machine *m, bool simulated)
{
	check_threads(m);
	check_devs(m, simulated);
	for (unsigned int k = 0; k < m->nnets; k++) {
		check_links(&m->nets[k], k);
		check_mib(&m->nets[k], k);
	}
	check_socks(m);
	check_sockstat(m);
	check_softnet(m);
}

/* Ten simulated minutes: everything above still holds, and counters grew. */
static void check_sim(struct mach_machine *m, uint64_t seed)
{
	struct mach_sim_opts so;
	struct mach_sim *sim = NULL;
	uint64_t rx0 = rx_packets(&m->nets[0]), in0 = m->nets[0].tcp[MACH_NET_TCP_INSEGS];
	char err[256];

	mach_sim_defaults(&so);
	so.seed = seed;
	if (mach_sim_create(m, &so, &sim, err, sizeof(err))) {
		check(N_SIM, 0, "%s", err);
		return;
	}
	mach_sim_advance(sim, m->uptime_ns + 600000000000ull);
	check(N_SIM, rx_packets(&m->nets[0]) > rx0 && m->nets[0].tcp[MACH_NET_TCP_INSEGS] >= in0, "counters did not grow");
	for (unsigned int k = 0; k < m->nnets; k++)
		for (size_t i = 0; i < m->nets[k].nsocks; i++) {
			const struct mach_socket *s = &m->nets[k].socks[i];

			check(N_SIM, s->protocol != MACH_IPPROTO_TCP || (s->kind == MACH_SK_FULL && !s->timer) ||
					     s->timer_expires > m->uptime_ns, "a timer ran out");
		}
	mach_sim_destroy(sim);
	check_net(m, true);
}

int main(void)
{
	static const char *const shapes[] = {
		"cpus=1,tasks=40", "tasks=3", "cpus=16,tasks=500", "cpus=64,tasks=3000,seed=5",
		"cpus=32,tasks=25000,seed=12",
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
		if (mach_synth_parse(&o, spec, err, sizeof(err)) || mach_synth_build(&o, &m, err, sizeof(err))) {
			ok(0, "%s builds: %s", spec, err);
			continue;
		}
		check_net(m, false);
		check_peers(m);
		if (i % 10 == 0 || i > 50)
			check_sim(m, o.seed);
		mach_free(m);
	}
	tap_props_report(&props, NR_PROPS);
	return tap_done();
}
