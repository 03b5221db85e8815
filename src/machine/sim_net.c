// SPDX-License-Identifier: MIT
/*
 * sim_net.c - the network counters moving with the simulator's clock.
 *
 * Every device keeps counting at the rate it averaged since boot: its
 * counters are the base ones scaled by uptime / base uptime (a veth pair's
 * two ends, lo's rx and tx stay equal).  A namespace's SNMP counters grow
 * with the packets its devices received, so their proportions (TCP's share
 * of IP, InMsgs over the per-type counts) hold; gauges (RtoMin, MaxConn,
 * CurrEstab) stay.  softnet_stat's CPUs process the new packets, a share
 * each.  TCP timers that ran out are armed again, as a busy socket's are.
 */
#include <stdlib.h>
#include <string.h>

#include "sim_net.h"

#define KEEPALIVE_NS 7200000000000ull
#define TIME_WAIT_NS 60000000000ull
#define REQUEST_NS 1000000000ull

struct sim_net {
	uint64_t uptime0;
	unsigned int nnets;
	struct mach_net *base;  /* each namespace as it was */
	uint64_t last_rx;       /* packets received by all namespaces at the last advance */
	unsigned int turn;      /* which CPU takes the next remainder packet */
	uint64_t next_expiry;   /* the first TCP timer to run out: no socket is looked at before */
};

static uint64_t rx_packets(const struct mach_net *n)
{
	uint64_t sum = 0;

	for (unsigned int i = 0; i < n->ndevs; i++)
		sum += n->devs[i].stats[MACH_NETDEV_RX_PACKETS];
	return sum;
}

struct sim_net *sim_net_create(const struct mach_machine *m)
{
	struct sim_net *sn = calloc(1, sizeof(*sn));

	if (!sn)
		return NULL;
	sn->uptime0 = m->uptime_ns;
	sn->base = calloc(m->nnets ? m->nnets : 1, sizeof(*sn->base));
	if (!sn->base) {
		free(sn);
		return NULL;
	}
	for (unsigned int i = 0; i < m->nnets; i++) {
		if (mach_net_copy(&sn->base[i], &m->nets[i])) {
			sim_net_destroy(sn);
			return NULL;
		}
		sn->nnets++;
		sn->last_rx += rx_packets(&m->nets[i]);
	}
	return sn;
}

void sim_net_destroy(struct sim_net *sn)
{
	if (!sn)
		return;
	for (unsigned int i = 0; i < sn->nnets; i++)
		mach_net_clear(&sn->base[i]);
	free(sn->base);
	free(sn);
}

/* cur[i] = base[i] * f for @n counters, skipping the gauges in @keep (indexes, -1 ended). */
static void scale(uint64_t *cur, const uint64_t *base, size_t n, double f, const int *keep)
{
	for (size_t i = 0; i < n; i++) {
		bool gauge = false;

		for (const int *k = keep; k && *k >= 0 && !gauge; k++)
			gauge = (size_t)*k == i;
		if (!gauge && base[i])
			cur[i] = (uint64_t)((double)base[i] * f);
	}
}

static void scale_mibs(struct mach_net *n, const struct mach_net *b, double f)
{
	static const int tcp_gauges[] = { MACH_NET_TCP_RTOALGORITHM, MACH_NET_TCP_RTOMIN, MACH_NET_TCP_RTOMAX,
					  MACH_NET_TCP_MAXCONN, MACH_NET_TCP_CURRESTAB, -1 };
	static const int mptcp_gauges[] = { MACH_NET_MP_MPCURRESTAB, -1 };

	scale(n->ip, b->ip, MACH_NR_NET_IP, f, NULL);
	scale(n->icmp, b->icmp, MACH_NR_NET_ICMP, f, NULL);
	scale(n->icmpmsg, b->icmpmsg, MACH_ICMPMSG_MAX, f, NULL);
	scale(n->tcp, b->tcp, MACH_NR_NET_TCP, f, tcp_gauges);
	scale(n->udp, b->udp, MACH_NR_NET_UDP, f, NULL);
	scale(n->udplite, b->udplite, MACH_NR_NET_UDP, f, NULL);
	scale(n->tcpext, b->tcpext, MACH_NR_NET_TCPEXT, f, NULL);
	scale(n->ipext, b->ipext, MACH_NR_NET_IPEXT, f, NULL);
	scale(n->mptcp, b->mptcp, MACH_NR_NET_MPTCP, f, mptcp_gauges);
	scale(n->ip6, b->ip6, MACH_NR_NET_IP6, f, NULL);
	scale(n->icmp6, b->icmp6, MACH_NR_NET_ICMP6, f, NULL);
	scale(n->icmp6msg, b->icmp6msg, MACH_ICMPMSG_MAX, f, NULL);
	scale(n->udp6, b->udp6, MACH_NR_NET_UDP6, f, NULL);
	scale(n->udplite6, b->udplite6, MACH_NR_NET_UDPLITE6, f, NULL);
}

/*
 * A timer that ran out is armed again: keepalives every 2 hours, time-waits
 * for another minute.  Returns when it runs out next (UINT64_MAX: no timer).
 */
static uint64_t rearm(struct mach_socket *k, uint64_t now)
{
	uint64_t period;

	if (k->protocol != MACH_IPPROTO_TCP || (k->kind == MACH_SK_FULL && !k->timer))
		return UINT64_MAX;
	if (k->timer_expires > now)
		return k->timer_expires;
	period = k->kind == MACH_SK_TIMEWAIT ? TIME_WAIT_NS : k->kind == MACH_SK_REQUEST ? REQUEST_NS :
		 k->timer == MACH_TCP_TIMER_KEEPALIVE ? KEEPALIVE_NS : ((uint64_t)k->rto + 1) * MACH_NSEC_PER_TICK;
	k->timer_expires += ((now - k->timer_expires) / period + 1) * period;
	return k->timer_expires;
}

/* Timers that ran out are armed again; a pass over the sockets only when one did. */
static void timers(struct sim_net *sn, struct mach_machine *m)
{
	uint64_t next = UINT64_MAX;

	if (m->uptime_ns < sn->next_expiry)
		return;
	for (unsigned int i = 0; i < m->nnets; i++)
		for (size_t k = 0; k < m->nets[i].nsocks; k++) {
			uint64_t t = rearm(&m->nets[i].socks[k], m->uptime_ns);

			next = t < next ? t : next;
		}
	sn->next_expiry = next;
}

/* The new packets, processed by the CPUs in turn. */
static void softnet(struct sim_net *sn, struct mach_machine *m, uint64_t rx)
{
	uint64_t delta = rx - sn->last_rx;

	sn->last_rx = rx;
	for (unsigned int i = 0; i < m->nnets; i++) {
		struct mach_net *n = &m->nets[i];
		unsigned int rows = n->nsoftnet, turn = sn->turn;

		for (unsigned int c = 0; c < rows; c++)
			n->softnet[c].processed += (uint32_t)(delta / rows);
		for (uint64_t k = 0; rows && k < delta % rows; k++)
			n->softnet[turn++ % rows].processed++;
	}
	sn->turn += (unsigned int)(delta % (m->nnets && m->nets[0].nsoftnet ? m->nets[0].nsoftnet : 1));
}

void sim_net_advance(struct sim_net *sn, struct mach_machine *m)
{
	double r = sn->uptime0 ? (double)m->uptime_ns / (double)sn->uptime0 : 1;
	uint64_t rx = 0;

	if (r < 1 || m->nnets != sn->nnets)
		return;
	for (unsigned int i = 0; i < m->nnets; i++) {
		struct mach_net *n = &m->nets[i];
		const struct mach_net *b = &sn->base[i];
		uint64_t p0 = rx_packets(b), p;

		for (unsigned int d = 0; d < n->ndevs && d < b->ndevs; d++)
			scale(n->devs[d].stats, b->devs[d].stats, MACH_NR_NETDEV_STATS, r, NULL);
		p = rx_packets(n);
		rx += p;
		if (p0)
			scale_mibs(n, b, (double)p / (double)p0);
	}
	timers(sn, m);
	if (rx > sn->last_rx)
		softnet(sn, m, rx);
}
