// SPDX-License-Identifier: MIT
/*
 * net_vocab.c - name tables of the network vocabularies (mach_net_vocab.h).
 */
#include "uprocfs/machine.h"

#define NAME(id, name) [MACH_NET_##id] = name,
#define DEVNAME(id, name) [MACH_NETDEV_##id] = name,
#define TYPE(name, type) { name, type },

const char *const mach_net_ip_names[MACH_NR_NET_IP] = { MACH_NET_IP_FIELDS(NAME) };
const char *const mach_net_icmp_names[MACH_NR_NET_ICMP] = { MACH_NET_ICMP_FIELDS(NAME) };
const char *const mach_net_tcp_names[MACH_NR_NET_TCP] = { MACH_NET_TCP_FIELDS(NAME) };
const char *const mach_net_udp_names[MACH_NR_NET_UDP] = { MACH_NET_UDP_FIELDS(NAME) };
const char *const mach_net_tcpext_names[MACH_NR_NET_TCPEXT] = { MACH_NET_TCPEXT_FIELDS(NAME) };
const char *const mach_net_ipext_names[MACH_NR_NET_IPEXT] = { MACH_NET_IPEXT_FIELDS(NAME) };
const char *const mach_net_mptcp_names[MACH_NR_NET_MPTCP] = { MACH_NET_MPTCP_FIELDS(NAME) };
const char *const mach_net_ip6_names[MACH_NR_NET_IP6] = { MACH_NET_IP6_FIELDS(NAME) };
const char *const mach_net_icmp6_names[MACH_NR_NET_ICMP6] = { MACH_NET_ICMP6_FIELDS(NAME) };
const char *const mach_net_udp6_names[MACH_NR_NET_UDP6] = { MACH_NET_UDP6_FIELDS(NAME) };
const char *const mach_net_udplite6_names[MACH_NR_NET_UDPLITE6] = { MACH_NET_UDPLITE6_FIELDS(NAME) };
const char *const mach_netdev_stat_names[MACH_NR_NETDEV_STATS] = { MACH_NETDEV_STATS(DEVNAME) };

const struct mach_net_icmp_type mach_net_icmp_types[MACH_NR_NET_ICMP_TYPES] = { MACH_NET_ICMP_TYPES(TYPE) };
const struct mach_net_icmp_type mach_net_icmp6_types[MACH_NR_NET_ICMP6_TYPES] = { MACH_NET_ICMP6_TYPES(TYPE) };
