// SPDX-License-Identifier: MIT
/*
 * net_mib.c - the SNMP counter files: /proc/net/snmp, /proc/net/netstat and
 * /proc/net/snmp6.
 *
 * Mirrors net/ipv4/proc.c snmp_seq_show (snmp_seq_show_ipstats, icmp_put,
 * icmpmsg_put, snmp_seq_show_tcp_udp), netstat_seq_show with
 * net/mptcp/mib.c mptcp_seq_show, and net/ipv6/proc.c snmp6_seq_show
 * (Linux 6.18).  snmp and netstat print a line of names and a line of values
 * per protocol; snmp6 prints "%-32s\t%lu" lines.  The Icmp: line's per-type
 * columns, IcmpMsg, and snmp6's per-type lines all read the per-type arrays.
 */
#include <stdio.h>

#include "net_int.h"

/* " Name" for each of @n names. */
static void put_names(struct seq_file *m, const char *const *names, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++) {
		seq_putc(m, ' ');
		seq_puts(m, names[i]);
	}
}

/* " value" for each of @n counters. */
static void put_values(struct seq_file *m, const uint64_t *v, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		seq_put_decimal_ull(m, " ", v[i]);
}

/* "\nProto: names\nProto: values": a block of snmp_seq_show_tcp_udp and netstat_seq_show. */
static void put_block(struct seq_file *m, const char *nl_proto, const char *const *names, const uint64_t *v,
		      unsigned int n)
{
	seq_puts(m, nl_proto);
	put_names(m, names, n);
	seq_puts(m, nl_proto);
	put_values(m, v, n);
}

static void snmp_seq_show_ipstats(struct seq_file *m, const struct mach_net *n)
{
	seq_puts(m, "Ip: Forwarding DefaultTTL");
	put_names(m, mach_net_ip_names, MACH_NR_NET_IP);
	seq_puts(m, "\nIp: ");
	seq_putc(m, n->ip_forward ? '1' : '2');
	seq_put_decimal_ll(m, " ", n->ip_default_ttl);
	put_values(m, n->ip, MACH_NR_NET_IP);
}

static void icmp_put(struct seq_file *m, const struct mach_net *n)
{
	const unsigned int nin = MACH_NET_ICMP_IN_LAST + 1;

	seq_puts(m, "\nIcmp:");
	put_names(m, mach_net_icmp_names, nin);
	for (unsigned int i = 0; i < MACH_NR_NET_ICMP_TYPES; i++) {
		seq_puts(m, " In");
		seq_puts(m, mach_net_icmp_types[i].name);
	}
	put_names(m, mach_net_icmp_names + nin, MACH_NR_NET_ICMP - nin);
	for (unsigned int i = 0; i < MACH_NR_NET_ICMP_TYPES; i++) {
		seq_puts(m, " Out");
		seq_puts(m, mach_net_icmp_types[i].name);
	}
	seq_puts(m, "\nIcmp:");
	put_values(m, n->icmp, nin);
	for (unsigned int i = 0; i < MACH_NR_NET_ICMP_TYPES; i++)
		seq_put_decimal_ull(m, " ", n->icmpmsg[mach_net_icmp_types[i].type]);
	put_values(m, n->icmp + nin, MACH_NR_NET_ICMP - nin);
	for (unsigned int i = 0; i < MACH_NR_NET_ICMP_TYPES; i++)
		seq_put_decimal_ull(m, " ", n->icmpmsg[0x100 | mach_net_icmp_types[i].type]);
}

/* One IcmpMsg pair of lines: up to 16 nonzero per-type counters. */
static void icmpmsg_put_line(struct seq_file *m, const uint64_t *msg, const unsigned short *type, int count)
{
	if (!count)
		return;
	seq_puts(m, "\nIcmpMsg:");
	for (int j = 0; j < count; j++) {
		seq_puts(m, type[j] & 0x100 ? " OutType" : " InType");
		seq_put_decimal_ull(m, NULL, type[j] & 0xff);
	}
	seq_puts(m, "\nIcmpMsg:");
	for (int j = 0; j < count; j++)
		seq_put_decimal_ull(m, " ", msg[type[j]]);
}

static void icmpmsg_put(struct seq_file *m, const struct mach_net *n)
{
	enum { PERLINE = 16 };
	unsigned short type[PERLINE];
	int count = 0;

	for (int i = 0; i < MACH_ICMPMSG_MAX; i++) {
		if (n->icmpmsg[i])
			type[count++] = (unsigned short)i;
		if (count == PERLINE) {
			icmpmsg_put_line(m, n->icmpmsg, type, count);
			count = 0;
		}
	}
	icmpmsg_put_line(m, n->icmpmsg, type, count);
}

static void snmp_seq_show_tcp_udp(struct seq_file *m, const struct mach_net *n)
{
	seq_puts(m, "\nTcp:");
	put_names(m, mach_net_tcp_names, MACH_NR_NET_TCP);
	seq_puts(m, "\nTcp:");
	for (unsigned int i = 0; i < MACH_NR_NET_TCP; i++) {
		/* MaxConn is signed (RFC 2012) */
		if (i == MACH_NET_TCP_MAXCONN)
			seq_put_decimal_ll(m, " ", (long long)n->tcp[i]);
		else
			seq_put_decimal_ull(m, " ", n->tcp[i]);
	}
	put_block(m, "\nUdp:", mach_net_udp_names, n->udp, MACH_NR_NET_UDP);
	put_block(m, "\nUdpLite:", mach_net_udp_names, n->udplite, MACH_NR_NET_UDP);
	seq_putc(m, '\n');
}

int pfs_show_net_snmp(struct seq_file *m, void *v)
{
	const struct mach_net *n = pfs_net(m->private);

	(void)v;
	snmp_seq_show_ipstats(m, n);
	icmp_put(m, n);
	icmpmsg_put(m, n);
	snmp_seq_show_tcp_udp(m, n);
	return 0;
}

int pfs_show_net_netstat(struct seq_file *m, void *v)
{
	const struct mach_net *n = pfs_net(m->private);

	(void)v;
	seq_puts(m, "TcpExt:");
	put_names(m, mach_net_tcpext_names, MACH_NR_NET_TCPEXT);
	seq_puts(m, "\nTcpExt:");
	put_values(m, n->tcpext, MACH_NR_NET_TCPEXT);
	put_block(m, "\nIpExt:", mach_net_ipext_names, n->ipext, MACH_NR_NET_IPEXT);
	seq_putc(m, '\n');
	seq_puts(m, "MPTcpExt:");
	put_names(m, mach_net_mptcp_names, MACH_NR_NET_MPTCP);
	seq_puts(m, "\nMPTcpExt:");
	put_values(m, n->mptcp, MACH_NR_NET_MPTCP);
	seq_putc(m, '\n');
	return 0;
}

/* "%-32s\t%lu\n" */
static void snmp6_line(struct seq_file *m, const char *name, uint64_t v)
{
	size_t len = strlen(name);

	seq_write(m, name, len);
	for (; len < 32; len++)
		seq_putc(m, ' ');
	seq_put_decimal_ull(m, "\t", v);
	seq_putc(m, '\n');
}

static void snmp6_seq_show_items(struct seq_file *m, const char *const *names, const uint64_t *v, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		snmp6_line(m, names[i], v[i]);
}

static void snmp6_seq_show_icmpv6msg(struct seq_file *m, const uint64_t *msg)
{
	char name[32];

	/* by name (deprecated): In types, then Out types, those with a name */
	for (int out = 0; out < 2; out++)
		for (unsigned int i = 0; i < MACH_NR_NET_ICMP6_TYPES; i++) {
			snprintf(name, sizeof(name), "Icmp6%s%s", out ? "Out" : "In", mach_net_icmp6_types[i].name);
			snmp6_line(m, name, msg[(out << 8) | mach_net_icmp6_types[i].type]);
		}
	/* by number, nonzero only */
	for (int i = 0; i < MACH_ICMPMSG_MAX; i++) {
		if (!msg[i])
			continue;
		snprintf(name, sizeof(name), "Icmp6%sType%u", i & 0x100 ? "Out" : "In", (unsigned int)(i & 0xff));
		snmp6_line(m, name, msg[i]);
	}
}

int pfs_show_net_snmp6(struct seq_file *m, void *v)
{
	const struct mach_net *n = pfs_net(m->private);

	(void)v;
	snmp6_seq_show_items(m, mach_net_ip6_names, n->ip6, MACH_NR_NET_IP6);
	snmp6_seq_show_items(m, mach_net_icmp6_names, n->icmp6, MACH_NR_NET_ICMP6);
	snmp6_seq_show_icmpv6msg(m, n->icmp6msg);
	snmp6_seq_show_items(m, mach_net_udp6_names, n->udp6, MACH_NR_NET_UDP6);
	snmp6_seq_show_items(m, mach_net_udplite6_names, n->udplite6, MACH_NR_NET_UDPLITE6);
	return 0;
}
