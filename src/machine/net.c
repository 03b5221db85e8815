// SPDX-License-Identifier: MIT
/*
 * net.c - lifetimes, copies and comparisons of network namespaces
 * (mach_net.h).
 *
 * Comparisons go field by field, never over struct bytes: structs built on
 * the stack carry undefined padding.  The loader uses mach_net_equal to let
 * every task that read the same namespace share one struct mach_net.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "uprocfs/machine.h"

void mach_net_clear(struct mach_net *n)
{
	free(n->devs);
	free(n->inet);
	free(n->inet6);
	free(n->routes);
	free(n->neigh);
	free(n->socks);
	free(n->sock_paths);
	free(n->softnet);
	memset(n, 0, sizeof(*n));
}

/* A copy of @n elements of @size bytes at @src into *@dst (NULL for none): 0 or -ENOMEM. */
static int dup_array(void *dst, const void *src, size_t n, size_t size)
{
	void *p = NULL;

	if (n) {
		p = malloc(n * size);
		if (!p)
			return -ENOMEM;
		memcpy(p, src, n * size);
	}
	memcpy(dst, &p, sizeof(p));
	return 0;
}

int mach_net_copy(struct mach_net *dst, const struct mach_net *src)
{
	*dst = *src;
	dst->devs = NULL;
	dst->inet = NULL;
	dst->inet6 = NULL;
	dst->routes = NULL;
	dst->neigh = NULL;
	dst->socks = NULL;
	dst->sock_paths = NULL;
	dst->sock_paths_cap = src->sock_paths_len;
	dst->softnet = NULL;
	if (dup_array(&dst->devs, src->devs, src->ndevs, sizeof(*src->devs)) ||
	    dup_array(&dst->inet, src->inet, src->ninet, sizeof(*src->inet)) ||
	    dup_array(&dst->inet6, src->inet6, src->ninet6, sizeof(*src->inet6)) ||
	    dup_array(&dst->routes, src->routes, src->nroutes, sizeof(*src->routes)) ||
	    dup_array(&dst->neigh, src->neigh, src->nneigh, sizeof(*src->neigh)) ||
	    dup_array(&dst->socks, src->socks, src->nsocks, sizeof(*src->socks)) ||
	    dup_array(&dst->sock_paths, src->sock_paths, src->sock_paths_len, 1) ||
	    dup_array(&dst->softnet, src->softnet, src->nsoftnet, sizeof(*src->softnet))) {
		mach_net_clear(dst);
		return -ENOMEM;
	}
	return 0;
}

static bool dev_equal(const struct mach_netdev *a, const struct mach_netdev *b)
{
	return !strcmp(a->name, b->name) && a->ifindex == b->ifindex && a->iflink == b->iflink &&
	       a->type == b->type && a->flags == b->flags && a->mtu == b->mtu &&
	       a->tx_queue_len == b->tx_queue_len && a->operstate == b->operstate &&
	       a->is_virtual == b->is_virtual && a->speed == b->speed && a->addr_len == b->addr_len &&
	       !memcmp(a->addr, b->addr, sizeof(a->addr)) &&
	       !memcmp(a->broadcast, b->broadcast, sizeof(a->broadcast)) &&
	       !memcmp(a->stats, b->stats, sizeof(a->stats)) && mach_netdev_sys_equal(&a->sys, &b->sys);
}

static bool inet_equal(const struct mach_inet_addr *a, const struct mach_inet_addr *b)
{
	return a->addr == b->addr && a->prefix_len == b->prefix_len && a->scope == b->scope &&
	       a->dev == b->dev;
}

static bool inet6_equal(const struct mach_inet6_addr *a, const struct mach_inet6_addr *b)
{
	return !memcmp(a->addr, b->addr, 16) && a->dev == b->dev && a->prefix_len == b->prefix_len &&
	       a->scope == b->scope && a->flags == b->flags;
}

static bool route_equal(const struct mach_route *a, const struct mach_route *b)
{
	return a->dst == b->dst && a->plen == b->plen && a->type == b->type && a->gw == b->gw &&
	       a->gw_v6 == b->gw_v6 && a->dev == b->dev && a->priority == b->priority &&
	       a->advmss == b->advmss && a->window == b->window && a->rtt == b->rtt;
}

static bool neigh_equal(const struct mach_neigh *a, const struct mach_neigh *b)
{
	return a->ip == b->ip && a->dev == b->dev && a->nud_state == b->nud_state &&
	       a->proxy == b->proxy && !memcmp(a->ha, b->ha, sizeof(a->ha));
}

int mach_net_sock_set_path(struct mach_net *n, struct mach_socket *s, const char *path, size_t len)
{
	size_t last = n->sock_paths_last;
	char *grown;

	if (len > MACH_UNIX_PATH_MAX)
		return -EINVAL;
	s->path_len = (unsigned char)len;
	s->path_off = 0;
	if (!len)
		return 0;
	/* the server ends of a listener (journald's for every service) come one after the other */
	if (last + len == n->sock_paths_len && !memcmp(n->sock_paths + last, path, len)) {
		s->path_off = (uint32_t)last;
		return 0;
	}
	if (n->sock_paths_len + len > UINT32_MAX)
		return -ENOMEM;
	if (n->sock_paths_len + len > n->sock_paths_cap) {
		size_t cap = n->sock_paths_cap ? n->sock_paths_cap * 2 : 1024;

		while (cap < n->sock_paths_len + len)
			cap *= 2;
		if (!(grown = realloc(n->sock_paths, cap)))
			return -ENOMEM;
		n->sock_paths = grown;
		n->sock_paths_cap = cap;
	}
	memcpy(n->sock_paths + n->sock_paths_len, path, len);
	s->path_off = (uint32_t)n->sock_paths_len;
	n->sock_paths_last = n->sock_paths_len;
	n->sock_paths_len += len;
	return 0;
}

static bool sock_equal(const struct mach_net *an, const struct mach_socket *a, const struct mach_net *bn,
		       const struct mach_socket *b)
{
	return a->inode == b->inode && a->tgid == b->tgid && a->fd == b->fd && a->uid == b->uid &&
	       a->family == b->family && a->type == b->type && a->protocol == b->protocol &&
	       a->kind == b->kind && a->state == b->state && !memcmp(a->laddr, b->laddr, 16) &&
	       !memcmp(a->raddr, b->raddr, 16) && a->lport == b->lport && a->rport == b->rport &&
	       a->tx_queue == b->tx_queue && a->rx_queue == b->rx_queue && a->timer == b->timer &&
	       a->retransmits == b->retransmits && a->probes_out == b->probes_out &&
	       a->timer_expires == b->timer_expires && a->refcnt == b->refcnt && a->kaddr == b->kaddr &&
	       a->rto == b->rto && a->ato == b->ato && a->ack_flags == b->ack_flags &&
	       a->cwnd == b->cwnd && a->ssthresh == b->ssthresh && a->drops == b->drops &&
	       a->hash_slot == b->hash_slot && a->has_socket == b->has_socket &&
	       a->path_len == b->path_len && !memcmp(mach_sock_path(an, a), mach_sock_path(bn, b), a->path_len) &&
	       a->peer == b->peer;
}

static bool softnet_equal(const struct mach_softnet *a, const struct mach_softnet *b)
{
	return a->cpu == b->cpu && a->processed == b->processed && a->dropped == b->dropped &&
	       a->time_squeeze == b->time_squeeze && a->received_rps == b->received_rps &&
	       a->flow_limit_count == b->flow_limit_count && a->input_qlen == b->input_qlen &&
	       a->process_qlen == b->process_qlen;
}

static bool sockstat_equal(const struct mach_sockstat *a, const struct mach_sockstat *b)
{
	return a->sockets_used == b->sockets_used && a->tcp_inuse == b->tcp_inuse &&
	       a->tcp_orphan == b->tcp_orphan && a->tcp_tw == b->tcp_tw &&
	       a->tcp_alloc == b->tcp_alloc && a->tcp_mem == b->tcp_mem &&
	       a->udp_inuse == b->udp_inuse && a->udp_mem == b->udp_mem &&
	       a->udplite_inuse == b->udplite_inuse && a->raw_inuse == b->raw_inuse &&
	       a->frag_inuse == b->frag_inuse && a->frag_memory == b->frag_memory;
}

static bool sockstat6_equal(const struct mach_sockstat6 *a, const struct mach_sockstat6 *b)
{
	return a->tcp_inuse == b->tcp_inuse && a->udp_inuse == b->udp_inuse && a->udplite_inuse == b->udplite_inuse &&
	       a->raw_inuse == b->raw_inuse && a->frag_inuse == b->frag_inuse && a->frag_memory == b->frag_memory;
}

/* Every element of two arrays of @n equal by @eq. */
#define ALL_EQUAL(eq, x, y, n)                          \
	({                                              \
		bool all_ = true;                       \
		for (size_t i_ = 0; all_ && i_ < (n); i_++) \
			all_ = eq(&(x)[i_], &(y)[i_]);  \
		all_;                                   \
	})

/* The counter arrays, which hold no padding. */
static bool counters_equal(const struct mach_net *a, const struct mach_net *b)
{
	return !memcmp(a->ip, b->ip, sizeof(a->ip)) && !memcmp(a->icmp, b->icmp, sizeof(a->icmp)) &&
	       !memcmp(a->icmpmsg, b->icmpmsg, sizeof(a->icmpmsg)) &&
	       !memcmp(a->tcp, b->tcp, sizeof(a->tcp)) && !memcmp(a->udp, b->udp, sizeof(a->udp)) &&
	       !memcmp(a->udplite, b->udplite, sizeof(a->udplite)) &&
	       !memcmp(a->tcpext, b->tcpext, sizeof(a->tcpext)) &&
	       !memcmp(a->ipext, b->ipext, sizeof(a->ipext)) &&
	       !memcmp(a->mptcp, b->mptcp, sizeof(a->mptcp)) && !memcmp(a->ip6, b->ip6, sizeof(a->ip6)) &&
	       !memcmp(a->icmp6, b->icmp6, sizeof(a->icmp6)) &&
	       !memcmp(a->icmp6msg, b->icmp6msg, sizeof(a->icmp6msg)) &&
	       !memcmp(a->udp6, b->udp6, sizeof(a->udp6)) &&
	       !memcmp(a->udplite6, b->udplite6, sizeof(a->udplite6));
}

bool mach_net_equal(const struct mach_net *a, const struct mach_net *b)
{
	if (a->ino != b->ino || a->ndevs != b->ndevs || a->ninet != b->ninet || a->ninet6 != b->ninet6 ||
	    a->nroutes != b->nroutes || a->nneigh != b->nneigh || a->nsocks != b->nsocks ||
	    a->nsoftnet != b->nsoftnet || a->ip_forward != b->ip_forward ||
	    a->ip_default_ttl != b->ip_default_ttl || !sockstat_equal(&a->sockstat, &b->sockstat) ||
	    !sockstat6_equal(&a->sockstat6, &b->sockstat6) ||
	    !counters_equal(a, b))
		return false;
	for (size_t i = 0; i < a->nsocks; i++)
		if (!sock_equal(a, &a->socks[i], b, &b->socks[i]))
			return false;
	return ALL_EQUAL(dev_equal, a->devs, b->devs, a->ndevs) &&
	       ALL_EQUAL(inet_equal, a->inet, b->inet, a->ninet) &&
	       ALL_EQUAL(inet6_equal, a->inet6, b->inet6, a->ninet6) &&
	       ALL_EQUAL(route_equal, a->routes, b->routes, a->nroutes) &&
	       ALL_EQUAL(neigh_equal, a->neigh, b->neigh, a->nneigh) &&
	       ALL_EQUAL(softnet_equal, a->softnet, b->softnet, a->nsoftnet);
}

int mach_net_dev_by_name(const struct mach_net *n, const char *name)
{
	for (unsigned int i = 0; i < n->ndevs; i++)
		if (!strncmp(n->devs[i].name, name, MACH_IFNAMSIZ))
			return (int)i;
	return -1;
}
