// SPDX-License-Identifier: MIT
/*
 * net_devs.c - the links of a synthetic namespace: devices with their
 * traffic since they came up, IPv4 and IPv6 addresses, the main routing
 * table and the ARP cache.
 *
 * The host: lo (1), its ethernet device (2) at 10.0.0.5/24 with a default
 * route via 10.0.0.1 (networkd's DHCP metric 100), docker0 (3) at
 * 172.17.0.1/16 when there are containers, and the host end of each
 * container's veth pair; container k: lo and eth0 at 172.17.0.(k+1)/16,
 * numbered as docker numbers them (eth0@if<host end>), IPv6 off as docker
 * leaves it.  What one end of a veth pair sent, the other received; lo
 * receives what it sends.  Devices count traffic at a steady rate since
 * they came up (boot, or the container's start).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net_int.h"

#define LO_FLAGS (MACH_IFF_UP | MACH_IFF_LOOPBACK)
#define ETH_FLAGS (MACH_IFF_UP | MACH_IFF_BROADCAST | MACH_IFF_MULTICAST)
#define RT_SCOPE_HOST 254

/* The ifindexes of container @k's eth0 and of its veth's host end (docker makes the pair in the host). */
static int container_eth_index(unsigned int k)
{
	return 4 + 2 * ((int)k - 1);
}

static struct mach_netdev *add_dev(struct mach_net *n, const char *name, int ifindex, unsigned short type,
				   unsigned int flags, unsigned int mtu)
{
	struct mach_netdev *d = &n->devs[n->ndevs++];

	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%s", name);
	d->ifindex = d->iflink = ifindex;
	d->type = type;
	d->flags = flags;
	d->mtu = mtu;
	d->tx_queue_len = 1000;
	d->operstate = MACH_IF_OPER_UP;
	d->speed = -1;
	d->addr_len = 6;
	return d;
}

static void set_mac(struct mach_netdev *d, const unsigned char mac[6])
{
	memcpy(d->addr, mac, 6);
	memset(d->broadcast, 0xff, 6);
}

/* A random locally administered MAC with @b0 @b1 first (02:42 for docker, 52:54:00 for KVM). */
static void random_mac(struct rng *r, unsigned char mac[6], unsigned char b0, unsigned char b1, int fixed)
{
	uint64_t v = rng_next(r);

	for (int i = 0; i < 6; i++)
		mac[i] = (unsigned char)(v >> (8 * i));
	mac[0] = (unsigned char)((mac[0] & 0xfe) | 0x02);
	if (fixed >= 1)
		mac[0] = b0;
	if (fixed >= 2)
		mac[1] = b1;
}

/* Traffic at @bps bytes a second in packets of about @size bytes, over @secs. */
static void traffic(struct rng *r, uint64_t *stats, bool rx, double bps, double size, double secs)
{
	uint64_t bytes = (uint64_t)(bps * secs), pkts = (uint64_t)((double)bytes / size);

	stats[rx ? MACH_NETDEV_RX_BYTES : MACH_NETDEV_TX_BYTES] = bytes;
	stats[rx ? MACH_NETDEV_RX_PACKETS : MACH_NETDEV_TX_PACKETS] = pkts;
	if (rx) {
		stats[MACH_NETDEV_MULTICAST] = (uint64_t)((double)pkts * rng_uniform(r, 0, 0.002));
		stats[MACH_NETDEV_RX_DROPPED] = (uint64_t)((double)pkts * rng_uniform(r, 0, 0.00002));
	}
}

/* The IPv6 link-local address of a MAC (EUI-64). */
static void link_local(unsigned char a[16], const unsigned char mac[6])
{
	memset(a, 0, 16);
	a[0] = 0xfe;
	a[1] = 0x80;
	a[8] = mac[0] ^ 0x02;
	a[9] = mac[1];
	a[10] = mac[2];
	a[11] = 0xff;
	a[12] = 0xfe;
	a[13] = mac[3];
	a[14] = mac[4];
	a[15] = mac[5];
}

static void add_inet(struct mach_net *n, uint32_t addr, unsigned char plen, unsigned char scope, int dev)
{
	n->inet[n->ninet++] = (struct mach_inet_addr){ .addr = addr, .prefix_len = plen, .scope = scope, .dev = dev };
}

static void add_inet6(struct mach_net *n, const unsigned char a[16], unsigned char plen, unsigned char scope,
		      int dev)
{
	struct mach_inet6_addr *x = &n->inet6[n->ninet6++];

	memset(x, 0, sizeof(*x));
	memcpy(x->addr, a, 16);
	x->prefix_len = plen;
	x->scope = scope;
	x->flags = MACH_IFA_F_PERMANENT;
	x->dev = dev;
}

static void add_route(struct mach_net *n, uint32_t dst, unsigned char plen, uint32_t gw, int dev, uint32_t metric)
{
	n->routes[n->nroutes++] = (struct mach_route){ .dst = dst, .plen = plen, .type = MACH_RTN_UNICAST, .gw = gw,
						       .dev = dev, .priority = metric };
}

static void add_neigh(struct mach_net *n, uint32_t ip, int dev, unsigned char state, const unsigned char mac[6])
{
	struct mach_neigh *e = &n->neigh[n->nneigh++];

	memset(e, 0, sizeof(*e));
	e->ip = ip;
	e->dev = dev;
	e->nud_state = state;
	if (mac)
		memcpy(e->ha, mac, 6);
}

/* The kernel's hashes print addresses and neighbours in an order that looks random. */
static int by_addr_hash6(const void *a, const void *b)
{
	uint64_t x = 0, y = 0;

	for (int i = 0; i < 16; i++) {
		x = (x ^ ((const struct mach_inet6_addr *)a)->addr[i]) * 0x100000001b3ull;
		y = (y ^ ((const struct mach_inet6_addr *)b)->addr[i]) * 0x100000001b3ull;
	}
	return (x > y) - (x < y);
}

static int by_ip_hash(const void *a, const void *b)
{
	uint64_t x = ((const struct mach_neigh *)a)->ip * 0x9e3779b97f4a7c15ull;
	uint64_t y = ((const struct mach_neigh *)b)->ip * 0x9e3779b97f4a7c15ull;

	return (x >> 40 > y >> 40) - (x >> 40 < y >> 40);
}

static int by_dst(const void *a, const void *b)
{
	uint32_t x = __builtin_bswap32(((const struct mach_route *)a)->dst);
	uint32_t y = __builtin_bswap32(((const struct mach_route *)b)->dst);

	return (x > y) - (x < y);
}

/* Room for what a namespace gets; no IPv6 addresses without @ipv6. */
static int alloc_links(struct mach_net *n, unsigned int ndevs, unsigned int naddr, unsigned int nneigh, bool ipv6)
{
	n->devs = calloc(ndevs, sizeof(*n->devs));
	n->inet = calloc(naddr, sizeof(*n->inet));
	n->inet6 = ipv6 ? calloc(naddr, sizeof(*n->inet6)) : NULL;
	n->routes = calloc(naddr + 2, sizeof(*n->routes));
	n->neigh = calloc(nneigh, sizeof(*n->neigh));
	return n->devs && n->inet && (n->inet6 || !ipv6) && n->routes && n->neigh ? 0 : -ENOMEM;
}

/* lo: what it sends it receives. */
static void loopback(struct rng *r, struct mach_net *n, double secs, double bps)
{
	struct mach_netdev *lo = add_dev(n, "lo", 1, MACH_ARPHRD_LOOPBACK, LO_FLAGS, 65536);
	static const unsigned char lo6[16] = { [15] = 1 };

	lo->operstate = MACH_IF_OPER_UNKNOWN;
	lo->is_virtual = true;
	traffic(r, lo->stats, false, bps, rng_logu(r, 120, 3000), secs);
	lo->stats[MACH_NETDEV_RX_BYTES] = lo->stats[MACH_NETDEV_TX_BYTES];
	lo->stats[MACH_NETDEV_RX_PACKETS] = lo->stats[MACH_NETDEV_TX_PACKETS];
	add_inet(n, mach_ipv4(127, 0, 0, 1), 8, RT_SCOPE_HOST, 0);
	if (n->inet6)
		add_inet6(n, lo6, 128, MACH_IFA_HOST, 0);
}

void sy_net_uplink_name(const struct synth *s, char out[MACH_IFNAMSIZ])
{
	static const char *const names[] = { "ens3", "eth0", "enp2s0", "eno1" };
	struct rng r;

	rng_init(&r, s->o->seed, KEY_NET_UPLINK);
	snprintf(out, MACH_IFNAMSIZ, "%s", names[(s->virt ? 0 : 2) + rng_below(&r, 2)]);
}

/*
 * The NIC's queue interrupts (irqs.c, MACH_IRQ_DEV_NET): an interrupt
 * reaps at least one packet (NAPI polls more), so what a queue direction
 * counted is a floor for the device's packets.  @rx gets the input and
 * combined queues' counts, @tx the output queues'.
 */
static void nic_irqs(const struct mach_machine *m, uint64_t *rx, uint64_t *tx)
{
	*rx = *tx = 0;
	for (unsigned int i = 0; i < m->nirqs; i++) {
		const struct mach_irq *q = &m->irqs[i];
		uint64_t n = mach_irq_count(q, m->ncpus);

		if (q->dev != MACH_IRQ_DEV_NET)
			continue;
		if (q->actions && strstr(q->actions, "-output."))
			*tx += n;
		else
			*rx += n;
	}
}

/* Packets at least @floor, the bytes following at the same mean size. */
static void at_least(uint64_t *stats, bool rx, uint64_t floor)
{
	uint64_t *pk = &stats[rx ? MACH_NETDEV_RX_PACKETS : MACH_NETDEV_TX_PACKETS];
	uint64_t *by = &stats[rx ? MACH_NETDEV_RX_BYTES : MACH_NETDEV_TX_BYTES];
	double size = *pk ? (double)*by / (double)*pk : 600;

	if (*pk >= floor)
		return;
	*pk = floor + floor / 3;
	*by = (uint64_t)((double)*pk * size);
}

/* The host's devices: lo, the uplink, docker0 and a veth end per container. */
static void host_links(struct synth *s, struct rng *r, struct mach_net *n, unsigned int ncont)
{
	double secs = (double)s->now / 1e9, rx = rng_logu(r, 5e3, 3e6) * (1 + s->o->tasks / 2000.0);
	unsigned char mac[6], a6[16];
	struct mach_netdev *eth;

	loopback(r, n, secs, rng_logu(r, 500, 3e5));
	char uplink[MACH_IFNAMSIZ];
	uint64_t irq_rx, irq_tx;

	sy_net_uplink_name(s, uplink);
	eth = add_dev(n, uplink, 2, MACH_ARPHRD_ETHER, ETH_FLAGS, 1500);
	random_mac(r, mac, s->virt ? 0x52 : 0x3c, s->virt ? 0x54 : 0xec, 2);
	if (s->virt)
		mac[2] = 0x00;
	set_mac(eth, mac);
	eth->speed = s->virt ? -1 : 10000;
	traffic(r, eth->stats, true, rx, rng_logu(r, 300, 1400), secs);
	traffic(r, eth->stats, false, rx * rng_uniform(r, 0.2, 1.5), rng_logu(r, 150, 1000), secs);
	nic_irqs(s->m, &irq_rx, &irq_tx);
	at_least(eth->stats, true, irq_rx);
	at_least(eth->stats, false, irq_tx);
	add_inet(n, SY_NET_HOST_ADDR, 24, 0, 1);
	link_local(a6, mac);
	add_inet6(n, a6, 64, MACH_IFA_LINK, 1);
	memcpy(a6, (const unsigned char[16]){ 0x20, 0x01, 0x0d, 0xb8, 0, 5, [15] = 5 }, 16);
	add_inet6(n, a6, 64, 0, 1);
	add_route(n, 0, 0, SY_NET_GATEWAY, 1, 100);
	add_route(n, mach_ipv4(10, 0, 0, 0), 24, 0, 1, 100);
	add_route(n, SY_NET_GATEWAY, 32, 0, 1, 100);
	if (!ncont)
		return;
	struct mach_netdev *br = add_dev(n, "docker0", 3, MACH_ARPHRD_ETHER, ETH_FLAGS, 1500);

	br->is_virtual = true;
	br->tx_queue_len = 0;
	random_mac(r, mac, 0x02, 0x42, 2);
	set_mac(br, mac);
	add_inet(n, mach_ipv4(172, 17, 0, 1), 16, 0, 2);
	link_local(a6, mac);
	add_inet6(n, a6, 64, MACH_IFA_LINK, 2);
	add_route(n, mach_ipv4(172, 17, 0, 0), 16, 0, 2, 0);
}

/* The ARP cache: the gateway, neighbours on the LAN, the containers. */
static void host_neigh(struct synth *s, struct rng *r, struct mach_net *n, unsigned int ncont)
{
	unsigned char mac[6];
	unsigned int others = (unsigned int)rng_range(r, 1, 4);

	random_mac(r, mac, 0x00, 0x1b, 2);
	add_neigh(n, SY_NET_GATEWAY, 1, MACH_NUD_REACHABLE, mac);
	add_neigh(n, mach_ipv4(10, 0, 0, 21), 1, MACH_NUD_STALE, (random_mac(r, mac, 0, 0, 0), mac));
	for (unsigned int i = 0; i < others; i++) {
		random_mac(r, mac, 0, 0, 0);
		add_neigh(n, mach_ipv4(10, 0, 0, (unsigned int)rng_range(r, 30, 250)), 1,
			  rng_chance(r, 0.7) ? MACH_NUD_STALE : MACH_NUD_REACHABLE, mac);
	}
	if (rng_chance(r, 0.3))
		add_neigh(n, mach_ipv4(10, 0, 0, (unsigned int)rng_range(r, 251, 254)), 1, MACH_NUD_INCOMPLETE, NULL);
	for (unsigned int k = 1; k <= ncont; k++) {
		const unsigned char cmac[6] = { 0x02, 0x42, 0xac, 0x11, 0x00, (unsigned char)(k + 1) };

		add_neigh(n, mach_ipv4(172, 17, 0, k + 1), 2, MACH_NUD_REACHABLE, cmac);
	}
	(void)s;
}

/* How long container @k (its first process) has been up, in seconds. */
static double container_secs(const struct synth *s, unsigned int k)
{
	for (size_t i = 0; i < s->m->nprocs; i++)
		if (sy_net_ns_of(s, i) == k)
			return (double)(s->now - sy_pid_start_ns(s, s->m->procs[i].tgid)) / 1e9;
	return 1;
}

/* Container @k's namespace; its veth's host end goes into @host, which must have room. */
static void container_links(struct synth *s, struct rng *r, struct mach_net *n, unsigned int k, struct mach_net *host)
{
	const unsigned char mac[6] = { 0x02, 0x42, 0xac, 0x11, 0x00, (unsigned char)(k + 1) };
	double secs = container_secs(s, k);
	int idx = container_eth_index(k);
	struct mach_netdev *eth, *peer;
	char name[MACH_IFNAMSIZ];
	unsigned char hmac[6];

	loopback(r, n, secs, rng_logu(r, 1, 500));
	eth = add_dev(n, "eth0", idx, MACH_ARPHRD_ETHER, ETH_FLAGS, 1500);
	eth->iflink = idx + 1;
	eth->is_virtual = true;
	eth->speed = 10000;
	set_mac(eth, mac);
	traffic(r, eth->stats, true, rng_logu(r, 20, 5e4), rng_logu(r, 200, 1400), secs);
	traffic(r, eth->stats, false, rng_logu(r, 20, 5e4), rng_logu(r, 100, 1000), secs);
	add_inet(n, mach_ipv4(172, 17, 0, k + 1), 16, 0, 1);
	add_route(n, 0, 0, mach_ipv4(172, 17, 0, 1), 1, 0);
	add_route(n, mach_ipv4(172, 17, 0, 0), 16, 0, 1, 0);
	add_neigh(n, mach_ipv4(172, 17, 0, 1), 1, MACH_NUD_REACHABLE, host->devs[2].addr);
	snprintf(name, sizeof(name), "veth%07llx", (unsigned long long)(rng_next(r) >> 36));
	peer = add_dev(host, name, idx + 1, MACH_ARPHRD_ETHER, ETH_FLAGS, 1500);
	peer->iflink = idx;
	peer->is_virtual = true;
	peer->speed = 10000;
	random_mac(r, hmac, 0, 0, 0);
	set_mac(peer, hmac);
	/* the two ends of the pair: one's rx is the other's tx */
	peer->stats[MACH_NETDEV_RX_PACKETS] = eth->stats[MACH_NETDEV_TX_PACKETS];
	peer->stats[MACH_NETDEV_TX_PACKETS] = eth->stats[MACH_NETDEV_RX_PACKETS];
	peer->stats[MACH_NETDEV_RX_BYTES] = eth->stats[MACH_NETDEV_TX_BYTES];
	peer->stats[MACH_NETDEV_TX_BYTES] = eth->stats[MACH_NETDEV_RX_BYTES];
}

int sy_net_build_links(struct synth *s, struct mach_net *n, unsigned int ns, unsigned int ncontainers)
{
	struct mach_net *host = &s->m->nets[0];
	struct rng r;
	int rc;

	rng_init(&r, s->o->seed, KEY_NET + ns);
	if (ns == 0) {
		rc = alloc_links(n, 3 + ncontainers, 8 + ncontainers, 8 + ncontainers, true);
		if (rc)
			return rc;
		host_links(s, &r, n, ncontainers);
		host_neigh(s, &r, n, ncontainers);
	} else {
		rc = alloc_links(n, 2, 4, 2, false); /* docker turns IPv6 off in its containers */
		if (rc)
			return rc;
		container_links(s, &r, n, ns, host);
	}
	if (n->nroutes)
		qsort(n->routes, n->nroutes, sizeof(*n->routes), by_dst);
	if (n->nneigh)
		qsort(n->neigh, n->nneigh, sizeof(*n->neigh), by_ip_hash);
	if (n->ninet6)
		qsort(n->inet6, n->ninet6, sizeof(*n->inet6), by_addr_hash6);
	n->ip_default_ttl = 64;
	return 0;
}
