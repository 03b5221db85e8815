// SPDX-License-Identifier: MIT
/*
 * load_net_mib.c - parse /proc/net/snmp, /proc/net/netstat and
 * /proc/net/snmp6, as net/ipv4/proc.c and net/ipv6/proc.c print them
 * (Linux 6.18; research notes sections 4-6).
 *
 * snmp and netstat: per protocol a line of names and a line of values; the
 * names must be the 6.18 vocabulary (mach_net_vocab.h) in its order.  The
 * Icmp: line's per-type columns and the IcmpMsg: lines read one per-type
 * array, so they must agree; snmp6 repeats its named per-type counters as
 * Icmp6InType<N> lines, which must agree too.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "load_net.h"

/* "Proto:" then " Name" for each name, then the end of the line. */
static int names_line(struct lex *lx, const char *proto, const char *const *names, unsigned int n)
{
	int rc;

	lex_ctx(lx, proto);
	rc = lex_expect(lx, proto);
	for (unsigned int i = 0; i < n && !rc; i++) {
		rc = lex_expect(lx, " ");
		if (!rc)
			rc = lex_expect(lx, names[i]);
	}
	return rc ? rc : lex_eol(lx);
}

/* " value" for each of @n counters, named @names for messages. */
static int values(struct lex *lx, const char *const *names, uint64_t *v, unsigned int n)
{
	int rc = 0;

	for (unsigned int i = 0; i < n && !rc; i++) {
		lex_ctx(lx, names[i]);
		rc = lex_expect(lx, " ");
		if (!rc)
			rc = ld_net_dec(lx, 0, UINT64_MAX, &v[i]);
	}
	return rc;
}

/* A names line and a values line of one protocol. */
static int block(struct lex *lx, const char *proto, const char *const *names, uint64_t *v, unsigned int n)
{
	int rc = names_line(lx, proto, names, n);

	if (!rc)
		rc = lex_expect(lx, proto);
	if (!rc)
		rc = values(lx, names, v, n);
	return rc ? rc : lex_eol(lx);
}

static int snmp_ip(struct lex *lx, struct mach_net *n)
{
	static const char *const pre[] = { "Forwarding", "DefaultTTL" };
	const char *start;
	uint64_t fwd, ttl;
	int rc;

	lex_ctx(lx, "Ip:");
	rc = lex_expect(lx, "Ip: Forwarding DefaultTTL");
	for (unsigned int i = 0; i < MACH_NR_NET_IP && !rc; i++) {
		rc = lex_expect(lx, " ");
		if (!rc)
			rc = lex_expect(lx, mach_net_ip_names[i]);
	}
	if (!rc)
		rc = lex_eol(lx);
	if (!rc)
		rc = lex_expect(lx, "Ip:");
	if (rc || (rc = values(lx, pre, &fwd, 1)))
		return rc;
	start = lx->p;
	if (fwd != 1 && fwd != 2)
		return lex_fail_at(lx, start, "Forwarding is %" PRIu64 ", not 1 or 2", fwd);
	rc = values(lx, pre + 1, &ttl, 1);
	if (!rc && ttl > INT32_MAX)
		return lex_fail(lx, "DefaultTTL %" PRIu64 " out of range", ttl);
	if (!rc)
		rc = values(lx, mach_net_ip_names, n->ip, MACH_NR_NET_IP);
	n->ip_forward = fwd == 1;
	n->ip_default_ttl = (int)ttl;
	return rc ? rc : lex_eol(lx);
}

/* The Icmp: pair: its own counters around the per-type columns, which go to @types[0..1][k]. */
static int snmp_icmp(struct lex *lx, struct mach_net *n, uint64_t types[2][MACH_NR_NET_ICMP_TYPES])
{
	const unsigned int nin = MACH_NET_ICMP_IN_LAST + 1;
	const char *tnames[MACH_NR_NET_ICMP_TYPES];
	char want[600], *w = want;
	int rc;

	for (unsigned int i = 0; i < MACH_NR_NET_ICMP_TYPES; i++)
		tnames[i] = mach_net_icmp_types[i].name;
	w += sprintf(w, "Icmp:");
	for (unsigned int i = 0; i < MACH_NR_NET_ICMP; i++) {
		w += sprintf(w, " %s", mach_net_icmp_names[i]);
		for (unsigned int k = 0; (i == nin - 1 || i == MACH_NR_NET_ICMP - 1) && k < MACH_NR_NET_ICMP_TYPES; k++)
			w += sprintf(w, " %s%s", i < nin ? "In" : "Out", tnames[k]);
	}
	strcpy(w, "\nIcmp:");
	lex_ctx(lx, "Icmp:");
	rc = lex_expect(lx, want);
	if (!rc)
		rc = values(lx, mach_net_icmp_names, n->icmp, nin);
	if (!rc)
		rc = values(lx, tnames, types[0], MACH_NR_NET_ICMP_TYPES);
	if (!rc)
		rc = values(lx, mach_net_icmp_names + nin, n->icmp + nin, MACH_NR_NET_ICMP - nin);
	if (!rc)
		rc = values(lx, tnames, types[1], MACH_NR_NET_ICMP_TYPES);
	return rc ? rc : lex_eol(lx);
}

/* " InType3" or " OutType8": the per-type index (0x100 | type for Out). */
static int msg_name(struct lex *lx, int *idx)
{
	uint64_t t = 0; /* read below even when the number failed */
	int out, rc = lex_expect(lx, " ");

	if (rc)
		return rc;
	out = lex_accept(lx, "Out");
	if (!out && (rc = lex_expect(lx, "In")))
		return rc;
	rc = lex_expect(lx, "Type");
	if (!rc)
		rc = ld_net_dec(lx, 0, 255, &t);
	if (!rc)
		*idx = (int)t | (out ? 0x100 : 0);
	return rc;
}

/* IcmpMsg: pairs of lines, 16 types each, ascending, every value nonzero. */
static int snmp_icmpmsg(struct lex *lx, struct mach_net *n)
{
	int last = -1, rc = 0;

	lex_ctx(lx, "IcmpMsg:");
	while (!rc && lex_accept(lx, "IcmpMsg:")) {
		int idx[16], count = 0;

		if (last >= 0 && (last & 0xff0000))
			return lex_fail(lx, "an IcmpMsg: pair after one with fewer than 16 types");
		while (!rc && !lex_peek(lx, '\n') && count < 16) {
			const char *at = lx->p;

			rc = msg_name(lx, &idx[count]);
			if (!rc && idx[count] <= last)
				return lex_fail_at(lx, at, "IcmpMsg types out of order");
			if (!rc)
				last = idx[count++];
		}
		if (!rc && !count)
			rc = lex_expected(lx, "an InType or OutType name");
		if (!rc)
			rc = lex_eol(lx);
		if (!rc)
			rc = lex_expect(lx, "IcmpMsg:");
		for (int j = 0; j < count && !rc; j++) {
			rc = lex_expect(lx, " ");
			if (!rc)
				rc = ld_net_dec(lx, 0, UINT64_MAX, &n->icmpmsg[idx[j]]);
			if (!rc && !n->icmpmsg[idx[j]])
				return lex_fail(lx, "IcmpMsg shows a zero count");
		}
		if (!rc)
			rc = lex_eol(lx);
		if (count < 16)
			last |= 0x10000; /* a short pair is the last */
	}
	return rc;
}

int ld_parse_net_snmp(struct lex *lx, struct ld_net_file *f)
{
	struct mach_net *n = &f->n;
	uint64_t types[2][MACH_NR_NET_ICMP_TYPES];
	const char *icmp_at;
	int rc = snmp_ip(lx, n);

	icmp_at = lx->p;
	if (!rc)
		rc = snmp_icmp(lx, n, types);
	if (!rc)
		rc = snmp_icmpmsg(lx, n);
	for (unsigned int k = 0; !rc && k < MACH_NR_NET_ICMP_TYPES; k++)
		for (int out = 0; out < 2; out++)
			if (types[out][k] != n->icmpmsg[(out << 8) | mach_net_icmp_types[k].type])
				return lex_fail_at(lx, icmp_at, "Icmp: %s%s is %" PRIu64 " but IcmpMsg says %" PRIu64,
						   out ? "Out" : "In", mach_net_icmp_types[k].name, types[out][k],
						   n->icmpmsg[(out << 8) | mach_net_icmp_types[k].type]);
	if (!rc)
		rc = names_line(lx, "Tcp:", mach_net_tcp_names, MACH_NR_NET_TCP);
	if (!rc)
		rc = lex_expect(lx, "Tcp:");
	for (unsigned int i = 0; i < MACH_NR_NET_TCP && !rc; i++) {
		lex_ctx(lx, mach_net_tcp_names[i]);
		rc = lex_expect(lx, " ");
		if (!rc && i == MACH_NET_TCP_MAXCONN) {
			int64_t v;

			rc = ld_net_int(lx, INT64_MIN, INT64_MAX, &v);
			n->tcp[i] = (uint64_t)v;
		} else if (!rc) {
			rc = ld_net_dec(lx, 0, UINT64_MAX, &n->tcp[i]);
		}
	}
	if (!rc)
		rc = lex_eol(lx);
	if (!rc)
		rc = block(lx, "Udp:", mach_net_udp_names, n->udp, MACH_NR_NET_UDP);
	if (!rc)
		rc = block(lx, "UdpLite:", mach_net_udp_names, n->udplite, MACH_NR_NET_UDP);
	return rc ? rc : lex_expect_eof(lx);
}

int ld_parse_net_netstat(struct lex *lx, struct ld_net_file *f)
{
	struct mach_net *n = &f->n;
	int rc = block(lx, "TcpExt:", mach_net_tcpext_names, n->tcpext, MACH_NR_NET_TCPEXT);

	if (!rc)
		rc = block(lx, "IpExt:", mach_net_ipext_names, n->ipext, MACH_NR_NET_IPEXT);
	if (!rc)
		rc = block(lx, "MPTcpExt:", mach_net_mptcp_names, n->mptcp, MACH_NR_NET_MPTCP);
	return rc ? rc : lex_expect_eof(lx);
}

/* "%-32s\t%lu\n" with the name @name. */
static int snmp6_line(struct lex *lx, const char *name, uint64_t *v)
{
	size_t len = strlen(name);
	int rc;

	lex_ctx(lx, name);
	rc = lex_expect(lx, name);
	if (!rc && len < 32)
		rc = ld_net_spaces(lx, 32 - len);
	if (!rc)
		rc = lex_expect(lx, "\t");
	if (!rc)
		rc = ld_net_dec(lx, 0, UINT64_MAX, v);
	return rc ? rc : lex_eol(lx);
}

static int snmp6_items(struct lex *lx, const char *const *names, uint64_t *v, unsigned int n)
{
	int rc = 0;

	for (unsigned int i = 0; i < n && !rc; i++)
		rc = snmp6_line(lx, names[i], &v[i]);
	return rc;
}

/* Whether the text at the cursor starts with @lit. */
static bool starts(const struct lex *lx, const char *lit)
{
	size_t len = strlen(lit);

	return (size_t)(lx->end - lx->p) >= len && !memcmp(lx->p, lit, len);
}

/* The named per-type lines, then Icmp6InType<N> / Icmp6OutType<N> for the nonzero ones. */
static int snmp6_icmpv6msg(struct lex *lx, uint64_t *msg)
{
	uint64_t named[2][MACH_NR_NET_ICMP6_TYPES];
	const char *at = lx->p;
	char name[40];
	int last = -1, rc = 0;

	for (int out = 0; out < 2 && !rc; out++)
		for (unsigned int i = 0; i < MACH_NR_NET_ICMP6_TYPES && !rc; i++) {
			snprintf(name, sizeof(name), "Icmp6%s%s", out ? "Out" : "In", mach_net_icmp6_types[i].name);
			rc = snmp6_line(lx, name, &named[out][i]);
		}
	while (!rc && (starts(lx, "Icmp6InType") || starts(lx, "Icmp6OutType"))) {
		const char *line = lx->p;
		int out = lx->p[5] == 'O';
		uint64_t t;
		int idx;

		lx->p += out ? 12 : 11;
		rc = ld_net_dec(lx, 0, 255, &t);
		if (rc)
			return rc;
		idx = (int)t | (out ? 0x100 : 0);
		if (idx <= last)
			return lex_fail_at(lx, line, "Icmp6 type lines out of order");
		last = idx;
		snprintf(name, sizeof(name), "Icmp6%sType%u", out ? "Out" : "In", (unsigned int)t);
		lx->p = line;
		rc = snmp6_line(lx, name, &msg[idx]);
		if (!rc && !msg[idx])
			return lex_fail_at(lx, line, "a zero Icmp6 type count");
	}
	for (int out = 0; out < 2 && !rc; out++)
		for (unsigned int i = 0; i < MACH_NR_NET_ICMP6_TYPES; i++)
			if (named[out][i] != msg[(out << 8) | mach_net_icmp6_types[i].type])
				return lex_fail_at(lx, at, "Icmp6%s%s is %" PRIu64 " but its type line says %" PRIu64,
						   out ? "Out" : "In", mach_net_icmp6_types[i].name, named[out][i],
						   msg[(out << 8) | mach_net_icmp6_types[i].type]);
	return rc;
}

int ld_parse_net_snmp6(struct lex *lx, struct ld_net_file *f)
{
	struct mach_net *n = &f->n;
	int rc = snmp6_items(lx, mach_net_ip6_names, n->ip6, MACH_NR_NET_IP6);

	if (!rc)
		rc = snmp6_items(lx, mach_net_icmp6_names, n->icmp6, MACH_NR_NET_ICMP6);
	if (!rc)
		rc = snmp6_icmpv6msg(lx, n->icmp6msg);
	if (!rc)
		rc = snmp6_items(lx, mach_net_udp6_names, n->udp6, MACH_NR_NET_UDP6);
	if (!rc)
		rc = snmp6_items(lx, mach_net_udplite6_names, n->udplite6, MACH_NR_NET_UDPLITE6);
	return rc ? rc : lex_expect_eof(lx);
}
