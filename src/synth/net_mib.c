// SPDX-License-Identifier: MIT
/*
 * net_mib.c - the counters of a synthetic namespace, from its traffic and
 * its sockets: the SNMP MIBs of /proc/net/snmp, netstat and snmp6, sockstat,
 * and softnet_stat.
 *
 * What the devices received and sent is what IPv4 and IPv6 handled (most
 * of it IPv4), and TCP the most of that; the per-type ICMP counters add up
 * to their InMsgs and OutMsgs; CurrEstab counts the established sockets;
 * sockstat counts the socket tables; the CPUs' softnet "processed" add up
 * to the packets every namespace received.  The proportions are the
 * namespace's own draws.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "net_int.h"

/* @x scaled by a share drawn from [@lo, @hi]. */
static uint64_t part(struct rng *r, uint64_t x, double lo, double hi)
{
	return (uint64_t)((double)x * rng_uniform(r, lo, hi));
}

struct traffic {
	uint64_t rx_pkts, tx_pkts, rx_bytes, tx_bytes;
	uint64_t estab, opens;
};

static void sum_traffic(const struct mach_net *n, struct traffic *t)
{
	memset(t, 0, sizeof(*t));
	for (unsigned int i = 0; i < n->ndevs; i++) {
		t->rx_pkts += n->devs[i].stats[MACH_NETDEV_RX_PACKETS];
		t->tx_pkts += n->devs[i].stats[MACH_NETDEV_TX_PACKETS];
		t->rx_bytes += n->devs[i].stats[MACH_NETDEV_RX_BYTES];
		t->tx_bytes += n->devs[i].stats[MACH_NETDEV_TX_BYTES];
	}
	for (size_t i = 0; i < n->nsocks; i++) {
		const struct mach_socket *k = &n->socks[i];

		if (k->protocol == MACH_IPPROTO_TCP && k->kind == MACH_SK_FULL &&
		    (k->state == MACH_TCP_ESTABLISHED || k->state == MACH_TCP_CLOSE_WAIT))
			t->estab++;
	}
}

/* ICMP: echo requests answered, unreachables both ways; InMsgs and OutMsgs are their sums. */
static void build_icmp(struct rng *r, struct mach_net *n, uint64_t in_pkts)
{
	uint64_t echo = part(r, in_pkts, 0, 0.0005), unreach_in = part(r, in_pkts, 0, 0.0002);
	uint64_t unreach_out = part(r, in_pkts, 0, 0.0003);

	n->icmpmsg[8] = echo;
	n->icmpmsg[3] = unreach_in;
	n->icmpmsg[0x100 | 0] = echo;
	n->icmpmsg[0x100 | 3] = unreach_out;
	n->icmp[MACH_NET_ICMP_INERRORS] = part(r, unreach_in, 0, 0.05);
	n->icmp[MACH_NET_ICMP_INMSGS] = echo + unreach_in + n->icmp[MACH_NET_ICMP_INERRORS];
	n->icmp[MACH_NET_ICMP_OUTMSGS] = echo + unreach_out;
	n->icmp[MACH_NET_ICMP_OUTRATELIMITHOST] = part(r, unreach_out, 0, 0.01);
}

static void build_ip_tcp_udp(struct rng *r, struct mach_net *n, const struct traffic *t, uint64_t *v4_in,
			     uint64_t *v4_out)
{
	uint64_t in = *v4_in = part(r, t->rx_pkts, 0.94, 0.99), out = *v4_out = part(r, t->tx_pkts, 0.94, 0.99);
	uint64_t *ip = n->ip, *tcp = n->tcp, *udp = n->udp;

	ip[MACH_NET_IP_INRECEIVES] = in;
	ip[MACH_NET_IP_INADDRERRORS] = part(r, in, 0, 0.0001);
	ip[MACH_NET_IP_INDISCARDS] = 0;
	ip[MACH_NET_IP_INDELIVERS] = in - ip[MACH_NET_IP_INADDRERRORS];
	ip[MACH_NET_IP_OUTREQUESTS] = out;
	ip[MACH_NET_IP_OUTNOROUTES] = part(r, out, 0, 0.00001);
	ip[MACH_NET_IP_OUTTRANSMITS] = out;
	if (n->ip_forward) {
		/* what the host routes between its containers and the world is not delivered */
		ip[MACH_NET_IP_FORWDATAGRAMS] = part(r, ip[MACH_NET_IP_INDELIVERS], 0.01, 0.1);
		ip[MACH_NET_IP_INDELIVERS] -= ip[MACH_NET_IP_FORWDATAGRAMS];
		ip[MACH_NET_IP_OUTTRANSMITS] += ip[MACH_NET_IP_FORWDATAGRAMS];
	}
	build_icmp(r, n, in);
	tcp[MACH_NET_TCP_RTOALGORITHM] = 1;
	tcp[MACH_NET_TCP_RTOMIN] = 200;
	tcp[MACH_NET_TCP_RTOMAX] = 120000;
	tcp[MACH_NET_TCP_MAXCONN] = (uint64_t)-1;
	tcp[MACH_NET_TCP_CURRESTAB] = t->estab;
	tcp[MACH_NET_TCP_INSEGS] = part(r, ip[MACH_NET_IP_INDELIVERS], 0.8, 0.95);
	tcp[MACH_NET_TCP_OUTSEGS] = part(r, out, 0.8, 0.95);
	tcp[MACH_NET_TCP_ACTIVEOPENS] = part(r, tcp[MACH_NET_TCP_OUTSEGS], 0.001, 0.02);
	tcp[MACH_NET_TCP_PASSIVEOPENS] = part(r, tcp[MACH_NET_TCP_INSEGS], 0.001, 0.02);
	tcp[MACH_NET_TCP_ATTEMPTFAILS] = part(r, tcp[MACH_NET_TCP_ACTIVEOPENS], 0, 0.03);
	tcp[MACH_NET_TCP_ESTABRESETS] = part(r, tcp[MACH_NET_TCP_PASSIVEOPENS], 0, 0.02);
	tcp[MACH_NET_TCP_RETRANSSEGS] = part(r, tcp[MACH_NET_TCP_OUTSEGS], 0, 0.003);
	tcp[MACH_NET_TCP_INERRS] = part(r, tcp[MACH_NET_TCP_INSEGS], 0, 0.00001);
	tcp[MACH_NET_TCP_OUTRSTS] = tcp[MACH_NET_TCP_ATTEMPTFAILS] + tcp[MACH_NET_TCP_ESTABRESETS];
	udp[MACH_NET_UDP_INDATAGRAMS] = part(r, ip[MACH_NET_IP_INDELIVERS] - tcp[MACH_NET_TCP_INSEGS], 0.5, 0.9);
	udp[MACH_NET_UDP_NOPORTS] = part(r, udp[MACH_NET_UDP_INDATAGRAMS], 0, 0.01);
	udp[MACH_NET_UDP_OUTDATAGRAMS] = part(r, out - tcp[MACH_NET_TCP_OUTSEGS], 0.5, 0.9);
	udp[MACH_NET_UDP_IGNOREDMULTI] = part(r, udp[MACH_NET_UDP_INDATAGRAMS], 0, 0.002);
}

/* TcpExt and IpExt: shares of what TCP and IPv4 handled. */
static void build_ext(struct rng *r, struct mach_net *n, const struct traffic *t)
{
	uint64_t in = n->tcp[MACH_NET_TCP_INSEGS], out = n->tcp[MACH_NET_TCP_OUTSEGS], *x = n->tcpext;

	x[MACH_NET_TX_TW] = part(r, n->tcp[MACH_NET_TCP_ACTIVEOPENS] + n->tcp[MACH_NET_TCP_PASSIVEOPENS], 0.3, 0.9);
	x[MACH_NET_TX_DELAYEDACKS] = part(r, in, 0.02, 0.08);
	x[MACH_NET_TX_DELAYEDACKLOST] = part(r, in, 0, 0.0005);
	x[MACH_NET_TX_TCPHPHITS] = part(r, in, 0.2, 0.5);
	x[MACH_NET_TX_TCPPUREACKS] = part(r, in, 0.1, 0.3);
	x[MACH_NET_TX_TCPHPACKS] = part(r, in, 0.1, 0.3);
	x[MACH_NET_TX_TCPSACKRECOVERY] = part(r, n->tcp[MACH_NET_TCP_RETRANSSEGS], 0, 0.1);
	x[MACH_NET_TX_TCPLOSTRETRANSMIT] = part(r, n->tcp[MACH_NET_TCP_RETRANSSEGS], 0, 0.05);
	x[MACH_NET_TX_TCPFASTRETRANS] = part(r, n->tcp[MACH_NET_TCP_RETRANSSEGS], 0.2, 0.5);
	x[MACH_NET_TX_TCPTIMEOUTS] = part(r, n->tcp[MACH_NET_TCP_RETRANSSEGS], 0.1, 0.3);
	x[MACH_NET_TX_TCPLOSSPROBES] = part(r, n->tcp[MACH_NET_TCP_RETRANSSEGS], 0.2, 0.5);
	x[MACH_NET_TX_TCPBACKLOGCOALESCE] = part(r, in, 0, 0.01);
	x[MACH_NET_TX_TCPDSACKOLDSENT] = x[MACH_NET_TX_DELAYEDACKLOST];
	x[MACH_NET_TX_TCPDSACKRECV] = part(r, n->tcp[MACH_NET_TCP_RETRANSSEGS], 0, 0.1);
	x[MACH_NET_TX_TCPABORTONDATA] = part(r, n->tcp[MACH_NET_TCP_ESTABRESETS], 0.3, 0.8);
	x[MACH_NET_TX_TCPABORTONCLOSE] = part(r, n->tcp[MACH_NET_TCP_ESTABRESETS], 0, 0.2);
	x[MACH_NET_TX_TCPABORTONTIMEOUT] = part(r, n->tcp[MACH_NET_TCP_ESTABRESETS], 0, 0.05);
	x[MACH_NET_TX_TCPRCVCOALESCE] = part(r, in, 0.05, 0.2);
	x[MACH_NET_TX_TCPOFOQUEUE] = part(r, in, 0, 0.002);
	x[MACH_NET_TX_TCPAUTOCORKING] = part(r, out, 0, 0.01);
	x[MACH_NET_TX_TCPSYNRETRANS] = part(r, n->tcp[MACH_NET_TCP_ACTIVEOPENS], 0, 0.01);
	x[MACH_NET_TX_TCPORIGDATASENT] = part(r, out, 0.5, 0.8);
	x[MACH_NET_TX_TCPDELIVERED] = x[MACH_NET_TX_TCPORIGDATASENT] + n->tcp[MACH_NET_TCP_ACTIVEOPENS];
	x[MACH_NET_TX_TCPKEEPALIVE] = part(r, in, 0, 0.01);
	x[MACH_NET_TX_TCPWINPROBE] = part(r, out, 0, 0.0001);
	x[MACH_NET_TX_TCPHYSTARTTRAINDETECT] = part(r, n->tcp[MACH_NET_TCP_ACTIVEOPENS], 0, 0.01);
	x[MACH_NET_TX_TCPHYSTARTTRAINCWND] = x[MACH_NET_TX_TCPHYSTARTTRAINDETECT] * 20;
	n->ipext[MACH_NET_IX_INOCTETS] = part(r, t->rx_bytes, 0.93, 0.99);
	n->ipext[MACH_NET_IX_OUTOCTETS] = part(r, t->tx_bytes, 0.93, 0.99);
	n->ipext[MACH_NET_IX_INNOECTPKTS] = n->ip[MACH_NET_IP_INRECEIVES];
	n->ipext[MACH_NET_IX_INBCASTPKTS] = part(r, n->ip[MACH_NET_IP_INRECEIVES], 0, 0.001);
	n->ipext[MACH_NET_IX_INBCASTOCTETS] = n->ipext[MACH_NET_IX_INBCASTPKTS] * 328;
}

/* IPv6: the packets IPv4 did not take; neighbour discovery and MLD are its ICMPv6. */
static void build_ip6(struct rng *r, struct mach_net *n, const struct traffic *t, uint64_t v4_in, uint64_t v4_out)
{
	uint64_t in = t->rx_pkts - v4_in, out = t->tx_pkts - v4_out;
	uint64_t *ip6 = n->ip6, *msg = n->icmp6msg;

	if (!n->ninet6)
		return; /* IPv6 is off */
	ip6[MACH_NET_IP6_INRECEIVES] = in;
	ip6[MACH_NET_IP6_INDELIVERS] = in;
	ip6[MACH_NET_IP6_OUTREQUESTS] = out;
	ip6[MACH_NET_IP6_OUTTRANSMITS] = out;
	ip6[MACH_NET_IP6_INOCTETS] = (uint64_t)((double)in * rng_uniform(r, 80, 300));
	ip6[MACH_NET_IP6_OUTOCTETS] = (uint64_t)((double)out * rng_uniform(r, 80, 300));
	ip6[MACH_NET_IP6_INNOECTPKTS] = in;
	ip6[MACH_NET_IP6_OUTMCASTPKTS] = part(r, out, 0.01, 0.1);
	ip6[MACH_NET_IP6_OUTMCASTOCTETS] = ip6[MACH_NET_IP6_OUTMCASTPKTS] * 84;
	msg[135] = part(r, in, 0.001, 0.01);          /* neighbour solicitations in */
	msg[136] = part(r, in, 0.001, 0.01);
	msg[0x100 | 135] = part(r, out, 0.001, 0.01);
	msg[0x100 | 136] = msg[135];                 /* answered */
	msg[0x100 | 143] = ip6[MACH_NET_IP6_OUTMCASTPKTS] / 8 + 2; /* MLDv2 reports */
	msg[0x100 | 133] = 1 + rng_below(r, 3);      /* router solicitations at boot */
	n->icmp6[MACH_NET_ICMP6_INMSGS] = msg[135] + msg[136];
	n->icmp6[MACH_NET_ICMP6_OUTMSGS] = msg[0x100 | 135] + msg[0x100 | 136] + msg[0x100 | 143] + msg[0x100 | 133];
	n->udp6[MACH_NET_UDP6_INDATAGRAMS] = part(r, in, 0, 0.3);
	n->udp6[MACH_NET_UDP6_OUTDATAGRAMS] = part(r, out, 0, 0.3);
}

void sy_net_build_mib(struct synth *s, struct mach_net *n, unsigned int ns)
{
	struct traffic t;
	uint64_t v4_in, v4_out;
	struct rng r;

	rng_init(&r, s->o->seed, KEY_NET + 0x10000 + ns);
	sum_traffic(n, &t);
	n->ip_forward = ns == 0 && s->ncontainers; /* docker turns forwarding on */
	n->ip_default_ttl = 64;
	build_ip_tcp_udp(&r, n, &t, &v4_in, &v4_out);
	build_ext(&r, n, &t);
	build_ip6(&r, n, &t, v4_in, v4_out);
}

/* Rows of the socket files, as the kernel's counters count them. */
static void count_socks(const struct mach_net *n, struct mach_sockstat *st, struct mach_sockstat6 *st6,
			int32_t *tcp_alloc)
{
	for (size_t i = 0; i < n->nsocks; i++) {
		const struct mach_socket *k = &n->socks[i];
		bool v6 = k->family == MACH_AF_INET6;

		if (k->kind == MACH_SK_FULL)
			st->sockets_used++;
		if (k->protocol == MACH_IPPROTO_TCP && k->kind == MACH_SK_TIMEWAIT)
			st->tcp_tw++;
		else if (k->protocol == MACH_IPPROTO_TCP && k->kind == MACH_SK_FULL) {
			++*tcp_alloc;
			if (k->state != MACH_TCP_CLOSE)
				++*(v6 ? &st6->tcp_inuse : &st->tcp_inuse);
		} else if (k->protocol == MACH_IPPROTO_UDP && k->lport) {
			++*(v6 ? &st6->udp_inuse : &st->udp_inuse);
		}
	}
}

void sy_net_build_sockstat(struct synth *s)
{
	struct mach_machine *m = s->m;
	int32_t alloc = 0;
	int64_t tcp_mem, udp_mem;
	bool udp = false;
	struct rng r;

	for (unsigned int ns = 0; ns < m->nnets; ns++) {
		struct mach_sockstat *st = &m->nets[ns].sockstat;

		count_socks(&m->nets[ns], st, &m->nets[ns].sockstat6, &alloc);
		udp |= st->udp_inuse || m->nets[ns].sockstat6.udp_inuse;
	}
	/* allocation and memory are global: every namespace shows the same, in pages */
	rng_init(&r, s->o->seed, KEY_NET + 0x20000);
	tcp_mem = alloc / 4 + (int64_t)rng_below(&r, 1 + (uint64_t)alloc) + 1;
	udp_mem = udp ? (int64_t)rng_range(&r, 1, 8) : 0;
	for (unsigned int ns = 0; ns < m->nnets; ns++) {
		m->nets[ns].sockstat.tcp_alloc = alloc;
		m->nets[ns].sockstat.tcp_mem = tcp_mem;
		m->nets[ns].sockstat.udp_mem = udp_mem;
	}
}

/* The packets every namespace received: what the CPUs' softirqs processed. */
int sy_net_build_softnet(struct synth *s)
{
	struct mach_machine *m = s->m;
	uint64_t total = 0, left;
	unsigned int online = 0, k = 0;
	double *w;
	struct rng r;

	for (unsigned int ns = 0; ns < m->nnets; ns++)
		for (unsigned int i = 0; i < m->nets[ns].ndevs; i++)
			total += m->nets[ns].devs[i].stats[MACH_NETDEV_RX_PACKETS];
	for (unsigned int c = 0; c < m->ncpus; c++)
		online += m->cpus[c].online;
	w = calloc(online ? online : 1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	rng_init(&r, s->o->seed, KEY_NET + 0x30000);
	double sum = 0;

	for (unsigned int i = 0; i < online; i++)
		sum += w[i] = rng_logu(&r, 0.2, 5);
	for (unsigned int ns = 0; ns < m->nnets; ns++) {
		struct mach_net *n = &m->nets[ns];

		n->softnet = calloc(online ? online : 1, sizeof(*n->softnet));
		if (!n->softnet) {
			free(w);
			return -ENOMEM;
		}
		n->nsoftnet = online;
	}
	left = total;
	for (unsigned int c = 0; c < m->ncpus; c++) {
		struct mach_softnet sd = { .cpu = m->cpus[c].id };
		uint64_t p;

		if (!m->cpus[c].online)
			continue;
		p = k + 1 == online ? left : (uint64_t)((double)total * w[k] / sum);
		if (p > left)
			p = left;
		left -= p;
		sd.processed = (uint32_t)p;
		sd.time_squeeze = (uint32_t)(p / 200000);
		for (unsigned int ns = 0; ns < m->nnets; ns++)
			m->nets[ns].softnet[k] = sd;
		k++;
	}
	free(w);
	return 0;
}
