// SPDX-License-Identifier: MIT
/*
 * net_socks.c - the sockets of one synthetic process, as a function of its
 * identity: the seed, its plan index, program, pid, user and namespace, and
 * the plan (which processes are its clients).
 *
 * Inodes come from the pid and a slot (sy_sock_inode), never from a
 * counter, so any process's sockets are known without building the others.
 * Where two processes hold the ends of one connection (a service's stdout
 * and journald, a client and dbus-daemon), the client's slot numbers both
 * ends, and the server lists one end per client found in the plan.  Owned
 * sockets take fds from 3 up in the order made (a service's journal stream
 * is its fds 1 and 2).  Time-wait socks of a server's closed connections
 * belong to no process (fd -1).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net_int.h"

#define KEEPALIVE_NS 7200000000000ull /* tcp_keepalive_time */
#define TIME_WAIT_NS 60000000000ull   /* TCP_TIMEWAIT_LEN */
#define BIT(p) (UINT64_C(1) << (p))

/* One process's sockets being made. */
struct sk {
	const struct synth *s;
	size_t idx;
	const struct gen *g;
	pid_t pid;
	unsigned int ns;
	struct rng r;
	struct mach_socket *out;
	unsigned int n, max;
	unsigned int slot;   /* next own slot */
	int fd;              /* next fd */
	struct mach_net *paths; /* where unix paths are kept (NULL: not kept) */
	int *err;            /* set to -ENOMEM when one could not be */
};

/* A unix socket's connection: a client program and the path its server listens on. */
struct pairing {
	unsigned int server;
	const char *path;
	uint64_t clients;    /* BIT(prog) of the programs that connect */
	unsigned int slot;   /* the client's slot; the server's end is slot + SY_SLOT_PEER */
};

static const struct pairing pairings[] = {
	{ P_DBUS, "/run/dbus/system_bus_socket",
	  BIT(P_SYSTEMD) | BIT(P_LOGIND) | BIT(P_NETWORKD) | BIT(P_RESOLVED) | BIT(P_TIMESYNCD) | BIT(P_POLKITD) |
		  BIT(P_UNATTENDED) | BIT(P_SYSTEMD_USER) | BIT(P_DOCKERD),
	  1 },
	{ P_CONTAINERD, "/run/containerd/containerd.sock", BIT(P_DOCKERD), 2 },
	{ P_CONTAINERD, "/run/containerd/containerd.sock.ttrpc", BIT(P_SHIM), 3 },
};
#define FIRST_FREE_SLOT 4u

uint64_t sy_net_stdout_inode(pid_t pid)
{
	return sy_sock_inode(pid, SY_SLOT_STDOUT);
}

void sy_net_pg_client(uint64_t seed, size_t idx, uint32_t *be32, unsigned int *port)
{
	struct rng r;

	rng_init(&r, seed, KEY_NET_SOCK + idx);
	*be32 = mach_ipv4(10, 0, (unsigned int)rng_range(&r, 1, 254), (unsigned int)rng_range(&r, 1, 254));
	*port = (unsigned int)rng_range(&r, 32768, 60999);
}

/* The %pK value of a socket: a 32-bit hash, zero-extended as the kernel prints it. */
static uint64_t kaddr_of(uint64_t seed, uint64_t inode, unsigned int salt)
{
	uint64_t z = (seed ^ 0x5deece66dull) + inode * 0x9e3779b97f4a7c15ull + salt;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return (z ^ (z >> 31)) & 0xffffffffu;
}

/* A new socket held by the process at its next fd (or at @fd when >= 0). */
static struct mach_socket *sk_new(struct sk *c, unsigned short family, unsigned char type, unsigned char proto,
				  unsigned char state, unsigned int slot, int fd)
{
	struct mach_socket *k;

	if (c->n >= c->max)
		return NULL;
	k = &c->out[c->n++];
	memset(k, 0, sizeof(*k));
	k->family = family;
	k->type = type;
	k->protocol = proto;
	k->state = state;
	k->kind = MACH_SK_FULL;
	k->inode = sy_sock_inode(c->pid, slot);
	k->tgid = c->pid;
	k->fd = fd >= 0 ? fd : c->fd++;
	k->uid = c->g->uid;
	k->has_socket = true;
	k->refcnt = 2;
	k->kaddr = kaddr_of(c->s->o->seed, k->inode, 0);
	return k;
}

static void set_addr(unsigned char a[16], bool v6, uint32_t v4, const unsigned char *a6)
{
	memset(a, 0, 16);
	if (v6 && a6)
		memcpy(a, a6, 16);
	else if (v6 && v4) {
		/* an IPv4 peer of an IPv6 socket: ::ffff:a.b.c.d */
		a[10] = a[11] = 0xff;
		memcpy(a + 12, &v4, 4);
	} else if (!v6)
		memcpy(a, &v4, 4);
}

/* This namespace's own address: the host's uplink, or the container's eth0. */
static uint32_t own_addr(const struct sk *c)
{
	return c->ns ? mach_ipv4(172, 17, 0, c->ns + 1) : SY_NET_HOST_ADDR;
}

/* A listening TCP socket on @addr (0: any) and @port; IPv6 @v6 with @a6 (NULL: any). */
static void tcp_listen(struct sk *c, bool v6, uint32_t addr, const unsigned char *a6, unsigned int port)
{
	struct mach_socket *k = sk_new(c, v6 ? MACH_AF_INET6 : MACH_AF_INET, MACH_SOCK_STREAM, MACH_IPPROTO_TCP,
				       MACH_TCP_LISTEN, c->slot++, -1);

	if (!k)
		return;
	set_addr(k->laddr, v6, addr, a6);
	k->lport = (uint16_t)port;
	k->refcnt = 1;
	k->rto = 100; /* TCP_TIMEOUT_INIT */
	k->cwnd = 10;
}

/* An established TCP connection from @l:@lport to @raddr:@rport (IPv4 addresses; v4-mapped on IPv6). */
static struct mach_socket *tcp_conn(struct sk *c, bool v6, uint32_t l, unsigned int lport, uint32_t raddr,
				    unsigned int rport, bool keepalive)
{
	struct mach_socket *k = sk_new(c, v6 ? MACH_AF_INET6 : MACH_AF_INET, MACH_SOCK_STREAM, MACH_IPPROTO_TCP,
				       MACH_TCP_ESTABLISHED, c->slot++, -1);
	struct rng *r = &c->r;

	if (!k)
		return NULL;
	set_addr(k->laddr, v6, l, NULL);
	set_addr(k->raddr, v6, raddr, NULL);
	k->lport = (uint16_t)lport;
	k->rport = (uint16_t)rport;
	k->refcnt = rng_chance(r, 0.5) ? 1 : 2;
	k->rto = (uint32_t)rng_range(r, 20, 26);
	k->ato = rng_chance(r, 0.5) ? 4 : 0;
	k->ack_flags = rng_chance(r, 0.3) ? 1 : 0;
	k->cwnd = (uint32_t)rng_range(r, 10, 40);
	k->ssthresh = rng_chance(r, 0.6) ? -1 : (int32_t)rng_range(r, 7, 60);
	if (keepalive) {
		k->timer = MACH_TCP_TIMER_KEEPALIVE;
		k->timer_expires = c->s->now + rng_below(r, KEEPALIVE_NS);
	} else if (rng_chance(r, 0.1)) {
		/* data in flight: the retransmit timer runs */
		k->timer = MACH_TCP_TIMER_RETRANS;
		k->timer_expires = c->s->now + (uint64_t)k->rto * MACH_NSEC_PER_TICK;
		k->tx_queue = (uint32_t)rng_range(r, 36, 20000);
	}
	return k;
}

/* A bound UDP socket; connected to @raddr:@rport unless @rport is 0. */
static void udp_sock(struct sk *c, bool v6, uint32_t addr, unsigned int port, uint32_t raddr, unsigned int rport)
{
	struct mach_socket *k = sk_new(c, v6 ? MACH_AF_INET6 : MACH_AF_INET, MACH_SOCK_DGRAM, MACH_IPPROTO_UDP,
				       rport ? MACH_TCP_ESTABLISHED : MACH_TCP_CLOSE, c->slot++, -1);
	struct rng hr;

	if (!k)
		return;
	set_addr(k->laddr, v6, addr, NULL);
	set_addr(k->raddr, v6, raddr, NULL);
	k->lport = (uint16_t)port;
	k->rport = (uint16_t)rport;
	k->protocol = MACH_IPPROTO_UDP;
	/* udp_hashfn: the port plus the namespace's hash mix, masked to the table */
	rng_init(&hr, c->s->o->seed, KEY_NET + c->ns);
	k->hash_slot = (port + (uint32_t)rng_next(&hr)) & c->s->udp_hash_mask;
}

/* A unix socket: bound to @path (NULL: unbound; a leading '@' is the abstract namespace). */
static struct mach_socket *unix_sock(struct sk *c, unsigned char type, unsigned char state, const char *path,
				     unsigned int slot, int fd)
{
	struct mach_socket *k = sk_new(c, MACH_AF_UNIX, type, 0, state, slot, fd);
	size_t len = path ? strlen(path) : 0;
	char sun_path[MACH_UNIX_PATH_MAX];
	int rc;

	if (!k)
		return NULL;
	k->refcnt = state == MACH_TCP_ESTABLISHED ? 3 : 2;
	if (len > MACH_UNIX_PATH_MAX)
		len = MACH_UNIX_PATH_MAX;
	if (!c->paths || !len)
		return k;
	memcpy(sun_path, path, len);
	if (sun_path[0] == '@')
		sun_path[0] = '\0'; /* an abstract name */
	if ((rc = mach_net_sock_set_path(c->paths, k, sun_path, len)))
		*c->err = rc;
	return k;
}

static void unix_listen(struct sk *c, unsigned char type, const char *path)
{
	unix_sock(c, type, MACH_TCP_LISTEN, path, c->slot++, -1);
}

static void netlink(struct sk *c, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		sk_new(c, MACH_AF_NETLINK, MACH_SOCK_RAW, 0, MACH_TCP_CLOSE, c->slot++, -1);
}

/* Closed connections of a server still in TIME_WAIT: nobody's sockets. */
static void time_waits(struct sk *c, uint32_t laddr, unsigned int lport, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++) {
		struct mach_socket *k = sk_new(c, MACH_AF_INET, MACH_SOCK_STREAM, MACH_IPPROTO_TCP, MACH_TCP_TIME_WAIT,
					       SY_SLOT_PEER - 1, -1);

		if (!k)
			return;
		c->fd--;
		k->kind = MACH_SK_TIMEWAIT;
		k->inode = 0;
		k->tgid = 0;
		k->fd = -1;
		k->uid = 0;
		k->has_socket = false;
		k->refcnt = 3;
		k->kaddr = kaddr_of(c->s->o->seed, (uint64_t)c->pid << 8 | i, 1);
		set_addr(k->laddr, false, laddr, NULL);
		set_addr(k->raddr, false, mach_ipv4(198, 51, 100, (unsigned int)rng_range(&c->r, 1, 254)), NULL);
		k->lport = (uint16_t)lport;
		k->rport = (uint16_t)rng_range(&c->r, 32768, 60999);
		k->timer = MACH_TCP_TIMER_TIMEWAIT;
		k->timer_expires = c->s->now + rng_below(&c->r, TIME_WAIT_NS);
	}
}

/* Whether plan index @j is alive (a zombie's sockets closed) and in namespace @ns. */
static bool live_in(const struct synth *s, size_t j, unsigned int ns)
{
	return s->gen[j].kind == G_USER && s->gen[j].state != MACH_TASK_ZOMBIE && sy_net_ns_of(s, j) == ns;
}

bool sy_net_service_root(const struct synth *s, size_t j)
{
	const struct gen *g = &s->gen[j];

	/* a getty's unit gives it the terminal (StandardInput=tty), not a stream */
	return g->kind == G_USER && g->env == ENV_SERVICE && g->eroot == j && g->state != MACH_TASK_ZOMBIE &&
	       g->prog != P_JOURNALD && j != 0 && !s->ids[j].tty_nr;
}

/* The first live process of program @prog in namespace @ns, or NONE. */
static long find_prog(const struct synth *s, unsigned int prog, unsigned int ns)
{
	return s->first_prog ? s->first_prog[(size_t)ns * NR_PROGS + prog] : NONE;
}

/* The client ends this process has (its journal stream, dbus, containerd). */
static void client_ends(struct sk *c)
{
	const struct synth *s = c->s;

	if (sy_net_service_root(s, c->idx)) {
		uint64_t peer = sy_sock_inode(c->pid, SY_SLOT_PEER + SY_SLOT_STDOUT);
		struct mach_socket *k = unix_sock(c, MACH_SOCK_STREAM, MACH_TCP_ESTABLISHED, NULL, SY_SLOT_STDOUT, 1);

		if (k) {
			k->peer = peer;
			/* stderr is the same stream */
			if (c->n < c->max) {
				c->out[c->n] = *k;
				c->out[c->n++].fd = 2;
			}
		}
	}
	for (size_t p = 0; p < sizeof(pairings) / sizeof(pairings[0]); p++) {
		const struct pairing *pr = &pairings[p];
		struct mach_socket *k;

		if (!(pr->clients & BIT(c->g->prog)) || find_prog(s, pr->server, c->ns) == NONE)
			continue;
		k = unix_sock(c, MACH_SOCK_STREAM, MACH_TCP_ESTABLISHED, NULL, pr->slot, -1);
		if (k)
			k->peer = sy_sock_inode(c->pid, pr->slot + SY_SLOT_PEER);
	}
}

/* One server end: the socket numbered by client @jp's @slot, bound where the server listens. */
static bool server_end(struct sk *c, const char *path, pid_t jp, unsigned int slot)
{
	struct mach_socket *k = unix_sock(c, MACH_SOCK_STREAM, MACH_TCP_ESTABLISHED, path, 0, -1);

	if (!k)
		return false;
	k->inode = sy_sock_inode(jp, slot + SY_SLOT_PEER);
	k->peer = sy_sock_inode(jp, slot);
	k->kaddr = kaddr_of(c->s->o->seed, k->inode, 0);
	return true;
}

/* A server's ends of its clients' connections: each client's slot + SY_SLOT_PEER. */
static void server_ends(struct sk *c)
{
	const struct synth *s = c->s;
	bool journald = c->g->prog == P_JOURNALD, any = journald;

	for (size_t p = 0; p < sizeof(pairings) / sizeof(pairings[0]); p++)
		any |= pairings[p].server == c->g->prog;
	if (!any || find_prog(s, c->g->prog, c->ns) != (long)c->idx)
		return;
	for (size_t j = 0; j < s->n; j++) {
		pid_t jp = s->ids[j].tgid;

		if (!live_in(s, j, c->ns))
			continue;
		if (journald && sy_net_service_root(s, j) &&
		    !server_end(c, "/run/systemd/journal/stdout", jp, SY_SLOT_STDOUT))
			return;
		for (size_t p = 0; p < sizeof(pairings) / sizeof(pairings[0]); p++) {
			const struct pairing *pr = &pairings[p];

			if (pr->server == c->g->prog && (pr->clients & BIT(s->gen[j].prog)) &&
			    !server_end(c, pr->path, jp, pr->slot))
				return;
		}
	}
}

/* systemd and its daemons: their sockets are the ones their units name. */
static bool system_sockets(struct sk *c)
{
	const uint32_t a53 = mach_ipv4(127, 0, 0, 53), a54 = mach_ipv4(127, 0, 0, 54);

	switch (c->g->prog) {
	case P_SYSTEMD:
		unix_sock(c, MACH_SOCK_DGRAM, MACH_TCP_CLOSE, "/run/systemd/notify", c->slot++, -1);
		unix_listen(c, MACH_SOCK_STREAM, "/run/systemd/private");
		unix_listen(c, MACH_SOCK_STREAM, "/run/systemd/userdb/io.systemd.DynamicUser");
		unix_listen(c, MACH_SOCK_STREAM, "/run/systemd/io.systemd.ManagedOOM");
		unix_sock(c, MACH_SOCK_DGRAM, MACH_TCP_CLOSE, "/run/systemd/cgroups-agent", c->slot++, -1);
		netlink(c, 3);
		return true;
	case P_JOURNALD:
		unix_listen(c, MACH_SOCK_STREAM, "/run/systemd/journal/stdout");
		unix_sock(c, MACH_SOCK_DGRAM, MACH_TCP_CLOSE, "/run/systemd/journal/socket", c->slot++, -1);
		unix_sock(c, MACH_SOCK_DGRAM, MACH_TCP_CLOSE, "/run/systemd/journal/dev-log", c->slot++, -1);
		netlink(c, 1);
		return true;
	case P_UDEVD:
		unix_listen(c, MACH_SOCK_SEQPACKET, "/run/udev/control");
		netlink(c, 2);
		return true;
	case P_NETWORKD:
		unix_listen(c, MACH_SOCK_STREAM, "/run/systemd/netif/io.systemd.Network");
		netlink(c, 2);
		return true;
	case P_RESOLVED:
		udp_sock(c, false, a53, 53, 0, 0);
		tcp_listen(c, false, a53, NULL, 53);
		udp_sock(c, false, a54, 53, 0, 0);
		tcp_listen(c, false, a54, NULL, 53);
		unix_listen(c, MACH_SOCK_STREAM, "/run/systemd/resolve/io.systemd.Resolve");
		netlink(c, 1);
		return true;
	case P_TIMESYNCD:
		udp_sock(c, false, own_addr(c), (unsigned int)rng_range(&c->r, 32768, 60999),
			 mach_ipv4(185, 125, 190, 57), 123);
		return true;
	case P_LOGIND:
		netlink(c, 1);
		return true;
	case P_RSYSLOGD:
		unix_sock(c, MACH_SOCK_DGRAM, MACH_TCP_CLOSE, "/run/systemd/journal/syslog", c->slot++, -1);
		return true;
	case P_SSHD:
		tcp_listen(c, false, 0, NULL, 22);
		tcp_listen(c, true, 0, NULL, 22);
		return true;
	case P_DNSMASQ:
		udp_sock(c, false, own_addr(c), 53, 0, 0);
		tcp_listen(c, false, own_addr(c), NULL, 53);
		udp_sock(c, false, 0, 67, 0, 0);
		return true;
	case P_MULTIPATHD:
		unix_listen(c, MACH_SOCK_STREAM, "@/org/kernel/linux/storage/multipathd");
		return true;
	}
	return false;
}

/* An ssh login's connection: its client is the one the session's shell was told (SSH_CONNECTION). */
static void ssh_session(struct sk *c)
{
	const struct synth *s = c->s;
	size_t bash = c->idx + 2;
	struct sy_env_draws d;

	if (bash >= s->n || s->gen[bash].prog != P_BASH_LOGIN)
		return;
	sy_env_draws(s->o->seed, (uint32_t)bash, &d);
	tcp_conn(c, false, SY_NET_HOST_ADDR, 22, mach_ipv4(10, 0, d.a, d.b), d.port, true);
}

/* A web client somewhere on the internet (documentation ranges). */
static uint32_t web_client(struct rng *r)
{
	static const unsigned char nets[3][3] = { { 192, 0, 2 }, { 198, 51, 100 }, { 203, 0, 113 } };
	const unsigned char *n = nets[rng_below(r, 3)];

	return mach_ipv4(n[0], n[1], n[2], (unsigned int)rng_range(r, 1, 254));
}

/* Whether this is the namespace's first `python3 -m http.server` on its port. */
static bool first_http_server(const struct sk *c)
{
	for (size_t j = 0; j < c->idx; j++)
		if (c->s->gen[j].prog == P_PYTHON && c->s->gen[j].inst % 3 == 2 &&
		    c->s->gen[j].inst % 1000 == c->g->inst % 1000 && live_in(c->s, j, c->ns))
			return false;
	return true;
}

/* Logins and the container runtime: what they connect to and listen on. */
static bool session_sockets(struct sk *c, bool first)
{
	struct rng *r = &c->r;
	char path[MACH_UNIX_PATH_MAX + 1];

	switch (c->g->prog) {
	case P_SSH:
		tcp_conn(c, false, own_addr(c), (unsigned int)rng_range(r, 32768, 60999), mach_ipv4(10, 0, 0, 21), 22,
			 false);
		break;
	case P_SSHD_PRIV:
		ssh_session(c);
		break;
	case P_TMUX:
		snprintf(path, sizeof(path), "/tmp/tmux-%u/default", c->g->uid);
		unix_listen(c, MACH_SOCK_STREAM, path);
		break;
	case P_SYSTEMD_USER:
		snprintf(path, sizeof(path), "/run/user/%u/systemd/private", c->g->uid);
		unix_listen(c, MACH_SOCK_STREAM, path);
		snprintf(path, sizeof(path), "/run/user/%u/systemd/notify", c->g->uid);
		unix_sock(c, MACH_SOCK_DGRAM, MACH_TCP_CLOSE, path, c->slot++, -1);
		break;
	case P_CONTAINERD:
		if (!first)
			break;
		unix_listen(c, MACH_SOCK_STREAM, "/run/containerd/containerd.sock");
		unix_listen(c, MACH_SOCK_STREAM, "/run/containerd/containerd.sock.ttrpc");
		tcp_listen(c, false, mach_ipv4(127, 0, 0, 1), NULL, (unsigned int)rng_range(r, 32768, 60999));
		break;
	case P_DOCKERD:
		if (!first)
			break;
		unix_listen(c, MACH_SOCK_STREAM, "/run/docker.sock");
		unix_listen(c, MACH_SOCK_STREAM, "/var/run/docker/metrics.sock");
		break;
	case P_SHIM:
		snprintf(path, sizeof(path), "/run/containerd/s/%016llx%016llx", (unsigned long long)rng_next(r),
			 (unsigned long long)rng_next(r));
		unix_listen(c, MACH_SOCK_STREAM, path);
		break;
	default:
		return false;
	}
	return true;
}

/* Services: what listens, and the connections it serves. */
static void service_sockets(struct sk *c)
{
	struct rng *r = &c->r;
	char path[MACH_UNIX_PATH_MAX + 1];
	uint32_t be;
	unsigned int port;

	/* a second instance could not bind its ports: only the namespace's first listens */
	bool first = find_prog(c->s, c->g->prog, c->ns) == (long)c->idx;

	if (session_sockets(c, first))
		return;
	switch (c->g->prog) {
	case P_NGINX:
		if (!first)
			break;
		tcp_listen(c, false, 0, NULL, 80);
		tcp_listen(c, true, 0, NULL, 80);
		tcp_listen(c, false, 0, NULL, 443);
		time_waits(c, own_addr(c), 443, (unsigned int)rng_below(r, 6));
		break;
	case P_NGINX_WORKER:
		for (unsigned int i = 0, n = (unsigned int)rng_below(r, 4); i < n; i++)
			tcp_conn(c, false, own_addr(c), 443, web_client(r), (unsigned int)rng_range(r, 32768, 60999), false);
		break;
	case P_POSTMASTER:
		if (!first)
			break;
		tcp_listen(c, false, 0, NULL, 5432);
		tcp_listen(c, true, 0, NULL, 5432);
		unix_listen(c, MACH_SOCK_STREAM, "/var/run/postgresql/.s.PGSQL.5432");
		break;
	case P_PG_BACKEND:
		sy_net_pg_client(c->s->o->seed, c->idx, &be, &port);
		tcp_conn(c, false, own_addr(c), 5432, be, port, true);
		break;
	case P_REDIS:
		if (!first)
			break;
		tcp_listen(c, false, mach_ipv4(127, 0, 0, 1), NULL, 6379);
		tcp_listen(c, true, 0, (const unsigned char[16]){ [15] = 1 }, 6379);
		break;
	case P_MEMCACHED:
		if (!first)
			break;
		tcp_listen(c, false, mach_ipv4(127, 0, 0, 1), NULL, 11211);
		break;
	case P_JAVA:
		if (!first)
			break;
		tcp_listen(c, true, 0, NULL, 8080);
		for (unsigned int i = 0, n = (unsigned int)rng_below(r, 5); i < n; i++)
			tcp_conn(c, true, own_addr(c), 8080,
				 mach_ipv4(10, 0, (unsigned int)rng_range(r, 1, 254), (unsigned int)rng_range(r, 1, 254)),
				 (unsigned int)rng_range(r, 32768, 60999), false);
		break;
	case P_NODE:
		if (!first)
			break;
		tcp_listen(c, true, 0, NULL, 3000);
		break;
	case P_GUNICORN:
		if (!first)
			break;
		tcp_listen(c, false, 0, NULL, 8000);
		break;
	case P_PHPFPM:
		if (!first)
			break;
		unix_listen(c, MACH_SOCK_STREAM, "/run/php/php8.2-fpm.sock");
		break;
	case P_PYTHON:
		/* `python3 -m http.server 8{i}` is the third of its command lines */
		if (c->g->inst % 3 == 2 && first_http_server(c)) {
			snprintf(path, sizeof(path), "8%u", c->g->inst % 1000);
			tcp_listen(c, false, 0, NULL, (unsigned int)strtoul(path, NULL, 10));
		}
		break;
	case P_COREDNS:
		if (!first)
			break;
		udp_sock(c, true, 0, 53, 0, 0);
		tcp_listen(c, true, 0, NULL, 53);
		tcp_listen(c, true, 0, NULL, 8080);
		tcp_listen(c, true, 0, NULL, 9153);
		break;
	case P_EXPORTER:
		if (!first)
			break;
		tcp_listen(c, true, 0, NULL, 9100);
		break;
	}
}

unsigned int sy_net_proc_sockets(const struct synth *s, size_t idx, struct mach_socket *out, unsigned int max,
				 struct mach_net *paths, int *err)
{
	const struct gen *g = &s->gen[idx];
	struct sk c = { .s = s, .idx = idx, .g = g, .pid = s->ids[idx].tgid, .ns = sy_net_ns_of(s, idx),
			.out = out, .max = max, .slot = FIRST_FREE_SLOT, .fd = 3, .paths = err ? paths : NULL, .err = err };

	if (g->kind != G_USER || g->state == MACH_TASK_ZOMBIE)
		return 0;
	rng_init(&c.r, s->o->seed, KEY_NET_SOCK + idx);
	rng_next(&c.r); /* the draws sy_net_pg_client takes are its own */
	rng_next(&c.r);
	rng_next(&c.r);
	client_ends(&c);
	if (!system_sockets(&c))
		service_sockets(&c);
	server_ends(&c);
	return c.n;
}
