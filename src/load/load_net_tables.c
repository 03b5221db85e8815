// SPDX-License-Identifier: MIT
/*
 * load_net_tables.c - parse /proc/net/arp, /proc/net/route and
 * /proc/net/if_inet6 (Linux 6.18; research notes sections 9, 10, 14).
 *
 * Each names devices: the file keeps its own list of them (load_net.h),
 * with the hardware type and address length arp shows and the ifindex
 * if_inet6 shows, for the assembly to merge into net/dev's list.  What
 * the files print as derived values (arp's flags from the NUD state,
 * route's flags from the type, gateway and mask) must agree with what the
 * model can hold; a loaded entry takes one state of the several that print
 * alike (REACHABLE for 0x2, INCOMPLETE for 0x0, UNREACHABLE for a reject).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load_net.h"

#define ATF_COM 0x02
#define ATF_PERM 0x04
#define ATF_PUBL 0x08
#define RTF_UP 0x0001
#define RTF_GATEWAY 0x0002
#define RTF_HOST 0x0004
#define RTF_REJECT 0x0200

/* The rest of the line as a device name (no spaces, below IFNAMSIZ). */
static int dev_name_eol(struct lex *lx, char name[MACH_IFNAMSIZ])
{
	const char *eol = lex_line_end(lx);
	size_t len = (size_t)(eol - lx->p);

	if (!len || len >= MACH_IFNAMSIZ || memchr(lx->p, ' ', len))
		return lex_expected(lx, "a device name");
	memcpy(name, lx->p, len);
	name[len] = '\0';
	lx->p = eol;
	return lex_eol(lx);
}

/* "0x%-10x": a lowercase hex number left-justified in 10 columns. */
static int hex_left10(struct lex *lx, uint64_t *v)
{
	const char *start;
	int rc = lex_expect(lx, "0x");

	start = lx->p;
	if (!rc)
		rc = ld_net_hex_max(lx, 1, false, UINT32_MAX, v);
	if (!rc && lx->p - start < 10)
		rc = ld_net_spaces(lx, 10 - (size_t)(lx->p - start));
	return rc;
}

/* "%-17s" of "xx:xx:..": the bytes into @ha, their count into *@len. */
static int hw_address(struct lex *lx, unsigned char ha[MACH_MAX_ADDR_LEN], unsigned int *len)
{
	const char *start = lx->p;
	unsigned int n = 0;

	while (lx->p < lx->end && *lx->p != ' ') {
		uint64_t b;
		const char *at = lx->p;
		int rc;

		if (n && (rc = lex_expect(lx, ":")))
			return rc;
		at = lx->p;
		rc = ld_net_hex(lx, 2, false, &b);
		if (rc || lx->p - at != 2 || n >= 9)
			return lex_fail_at(lx, at, "expected a hardware address of hex byte pairs");
		ha[n++] = (unsigned char)b;
	}
	*len = n;
	return lx->p - start < 17 ? ld_net_spaces(lx, 17 - (size_t)(lx->p - start)) : 0;
}

/* One arp line into a new neighbour of @f. */
static int arp_line(struct lex *lx, struct ld_net_file *f, struct mach_neigh *e)
{
	const char *start = lx->p;
	unsigned int line = lex_line_at(lx, lx->p), alen = 0;
	uint64_t hatype, flags;
	char name[MACH_IFNAMSIZ];
	int rc, d;

	lex_ctx(lx, "IP address");
	rc = ld_net_dotted(lx, &e->ip);
	if (!rc)
		rc = ld_net_spaces(lx, lx->p - start < 16 ? 17 - (size_t)(lx->p - start) : 1);
	lex_ctx(lx, "HW type");
	if (!rc)
		rc = hex_left10(lx, &hatype);
	lex_ctx(lx, "Flags");
	if (!rc)
		rc = hex_left10(lx, &flags);
	lex_ctx(lx, "HW address");
	if (!rc)
		rc = hw_address(lx, e->ha, &alen);
	if (!rc)
		rc = lex_expect(lx, "     *        ");
	if (!rc)
		rc = dev_name_eol(lx, name);
	if (rc)
		return rc;
	e->proxy = flags == (ATF_PUBL | ATF_PERM);
	e->nud_state = flags == (ATF_PERM | ATF_COM) ? MACH_NUD_PERMANENT : flags == ATF_COM ? MACH_NUD_REACHABLE
		       : flags == 0 ? MACH_NUD_INCOMPLETE : 0;
	if (!e->proxy && !e->nud_state)
		return lex_fail_line(lx, line, "arp flags 0x%llx are none the kernel prints", (unsigned long long)flags);
	if (e->proxy && (alen != 6 || memcmp(e->ha, "\0\0\0\0\0\0", 6)))
		return lex_fail_line(lx, line, "a proxy entry shows a hardware address");
	if (e->proxy && !strcmp(name, "*")) {
		if (hatype)
			return lex_fail_line(lx, line, "a proxy entry without a device has hardware type 0");
		e->dev = -1;
		return 0;
	}
	if (e->proxy)
		memset(e->ha, 0, sizeof(e->ha));
	d = ld_net_file_dev(f, name, line);
	if (d < 0)
		return d;
	e->dev = d;
	if (hatype > 0xffff || ((f->dev_known[d] & LD_DEV_TYPE) && f->n.devs[d].type != hatype))
		return lex_fail_line(lx, line, "device %s shows another hardware type", name);
	f->n.devs[d].type = (unsigned short)hatype;
	f->dev_known[d] |= LD_DEV_TYPE;
	if (e->proxy)
		return 0;
	if ((f->dev_known[d] & LD_DEV_ALEN) && f->n.devs[d].addr_len != alen)
		return lex_fail_line(lx, line, "device %s shows another address length", name);
	f->n.devs[d].addr_len = (unsigned char)alen;
	f->dev_known[d] |= LD_DEV_ALEN;
	return 0;
}

int ld_parse_net_arp(struct lex *lx, struct ld_net_file *f)
{
	struct mach_net *n = &f->n;
	bool proxies = false;
	int rc = lex_expect(lx, "IP address       HW type     Flags       HW address            Mask     Device\n");

	while (!rc && !lex_eof(lx)) {
		struct mach_neigh e = { 0 };

		rc = arp_line(lx, f, &e);
		if (rc)
			return rc;
		if (proxies && !e.proxy)
			return lex_fail_line(lx, lex_line_at(lx, lx->p) - 1, "an entry after the proxy entries");
		proxies = e.proxy;
		rc = LD_NET_APPEND(n->neigh, n->nneigh, e);
	}
	return rc;
}

/* A "%08X" mask into a prefix length; only contiguous masks are made by inet_make_mask. */
static int route_mask(struct lex *lx, unsigned char *plen)
{
	const char *start = lx->p;
	unsigned char b[16];
	uint32_t be, host;
	int rc = ld_net_ipv4_hex(lx, b);

	if (rc)
		return rc;
	memcpy(&be, b, 4);
	host = __builtin_bswap32(be);
	*plen = (unsigned char)__builtin_popcount(host);
	if (host != (*plen ? ~0u << (32 - *plen) : 0))
		return lex_fail_at(lx, start, "the mask is not a prefix");
	return 0;
}

/* The flags a route prints must be the ones its type, gateway and mask give. */
static int route_flags(struct lex *lx, unsigned int line, uint64_t flags, struct mach_route *r)
{
	unsigned int want;

	r->type = flags & RTF_REJECT ? MACH_RTN_UNREACHABLE : MACH_RTN_UNICAST;
	r->gw_v6 = (flags & RTF_GATEWAY) && !r->gw;
	want = RTF_UP | (flags & RTF_REJECT) | (r->gw || r->gw_v6 ? RTF_GATEWAY : 0) |
	       (r->plen == 32 ? RTF_HOST : 0);
	if (flags != want)
		return lex_fail_line(lx, line, "route flags %04llX, but its gateway and mask give %04X",
				     (unsigned long long)flags, want);
	return 0;
}

static int route_line(struct lex *lx, struct ld_net_file *f, struct mach_route *r)
{
	const char *start = lx->p, *tab = memchr(lx->p, '\t', (size_t)(lex_line_end(lx) - lx->p));
	unsigned int line = lex_line_at(lx, lx->p);
	unsigned char b[16];
	uint64_t flags, use, window, irtt;
	int64_t refcnt, metric, mtu;
	char name[MACH_IFNAMSIZ];
	int rc;

	if (!tab || tab == lx->p || (size_t)(tab - lx->p) >= MACH_IFNAMSIZ)
		return lex_expected(lx, "a device name and a TAB");
	memcpy(name, lx->p, (size_t)(tab - lx->p));
	name[tab - lx->p] = '\0';
	lx->p = tab + 1;
	lex_ctx(lx, "Destination");
	rc = ld_net_ipv4_hex(lx, b);
	memcpy(&r->dst, b, 4);
	lex_ctx(lx, "Gateway");
	if (!rc && !(rc = lex_expect(lx, "\t")) && !(rc = ld_net_ipv4_hex(lx, b)))
		memcpy(&r->gw, b, 4);
	lex_ctx(lx, "Flags");
	if (!rc && !(rc = lex_expect(lx, "\t")))
		rc = ld_net_hex_max(lx, 4, true, UINT32_MAX, &flags);
	if (!rc && !(rc = lex_expect(lx, "\t")))
		rc = ld_net_int(lx, 0, 0, &refcnt);
	if (!rc && !(rc = lex_expect(lx, "\t")))
		rc = ld_net_dec(lx, 0, 0, &use);
	lex_ctx(lx, "Metric");
	if (!rc && !(rc = lex_expect(lx, "\t")))
		rc = ld_net_int(lx, INT32_MIN, INT32_MAX, &metric);
	lex_ctx(lx, "Mask");
	if (!rc && !(rc = lex_expect(lx, "\t")))
		rc = route_mask(lx, &r->plen);
	lex_ctx(lx, "MTU");
	if (!rc && !(rc = lex_expect(lx, "\t")))
		rc = ld_net_int(lx, 0, INT32_MAX, &mtu);
	if (!rc && mtu && mtu <= 40)
		rc = lex_fail(lx, "MTU %lld cannot be an advmss + 40", (long long)mtu);
	lex_ctx(lx, "Window");
	if (!rc && !(rc = lex_expect(lx, "\t")))
		rc = ld_net_dec(lx, 0, UINT32_MAX, &window);
	lex_ctx(lx, "IRTT");
	if (!rc && !(rc = lex_expect(lx, "\t")))
		rc = ld_net_dec(lx, 0, UINT32_MAX >> 3, &irtt);
	if (!rc && lx->p - start < 127)
		rc = ld_net_spaces(lx, 127 - (size_t)(lx->p - start));
	if (!rc)
		rc = lex_eol(lx);
	if (rc)
		return rc;
	r->priority = (uint32_t)metric;
	r->advmss = mtu ? (uint32_t)mtu - 40 : 0;
	r->window = (uint32_t)window;
	r->rtt = (uint32_t)irtt << 3;
	r->dev = -1;
	if (strcmp(name, "*") && (r->dev = ld_net_file_dev(f, name, line)) < 0)
		return r->dev;
	return route_flags(lx, line, flags, r);
}

int ld_parse_net_route(struct lex *lx, struct ld_net_file *f)
{
	struct mach_net *n = &f->n;
	char header[200];
	int rc;

	/* an empty file: the namespace has no main table yet */
	n->no_main_table = lex_eof(lx);
	if (n->no_main_table)
		return 0;
	snprintf(header, sizeof(header), "%-127s\n",
		 "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT");
	rc = lex_expect(lx, header);
	while (!rc && !lex_eof(lx)) {
		struct mach_route r = { 0 };

		rc = route_line(lx, f, &r);
		if (rc)
			return rc;
		rc = LD_NET_APPEND(n->routes, n->nroutes, r);
	}
	return rc;
}

/* @n bytes as 2n lowercase hex digits run together. */
static int hex_bytes(struct lex *lx, unsigned char *out, size_t n)
{
	static const char digits[] = "0123456789abcdef";

	if ((size_t)(lx->end - lx->p) < 2 * n)
		return lex_expected(lx, "lowercase hex digits");
	for (size_t i = 0; i < 2 * n; i++) {
		const char *d = lx->p[i] ? memchr(digits, lx->p[i], 16) : NULL;

		if (!d) {
			lx->p += i;
			return lex_expected(lx, "lowercase hex digits");
		}
		out[i / 2] = (unsigned char)(i % 2 ? out[i / 2] | (d - digits) : (d - digits) << 4);
	}
	lx->p += 2 * n;
	return 0;
}

/* One if_inet6 line into @a; the device's ifindex is what this line says. */
static int if6_line(struct lex *lx, struct ld_net_file *f, struct mach_inet6_addr *a)
{
	unsigned int line = lex_line_at(lx, lx->p);
	uint64_t ifindex, plen, scope, flags;
	char name[MACH_IFNAMSIZ];
	int rc, d;

	lex_ctx(lx, "address");
	rc = hex_bytes(lx, a->addr, 16);
	lex_ctx(lx, "ifindex");
	if (!rc && !(rc = lex_expect(lx, " ")))
		rc = ld_net_hex_max(lx, 2, false, INT32_MAX, &ifindex);
	lex_ctx(lx, "prefix length");
	if (!rc && !(rc = lex_expect(lx, " ")))
		rc = ld_net_hex_max(lx, 2, false, 128, &plen);
	lex_ctx(lx, "scope");
	if (!rc && !(rc = lex_expect(lx, " ")))
		rc = ld_net_hex_max(lx, 2, false, 0xff, &scope);
	lex_ctx(lx, "flags");
	if (!rc && !(rc = lex_expect(lx, " ")))
		rc = ld_net_hex_max(lx, 2, false, 0xff, &flags);
	lex_ctx(lx, "device");
	if (!rc && !(rc = lex_expect(lx, " ")))
		rc = ld_net_name_right(lx, 8, name);
	if (rc)
		return rc;
	a->prefix_len = (unsigned char)plen;
	a->scope = (unsigned char)scope;
	a->flags = (uint32_t)flags;
	d = ld_net_file_dev(f, name, line);
	if (d < 0)
		return d;
	a->dev = d;
	if ((f->dev_known[d] & LD_DEV_IFINDEX) && f->n.devs[d].ifindex != (int)ifindex)
		return lex_fail_line(lx, line, "device %s shows two ifindexes", name);
	if (!ifindex)
		return lex_fail_line(lx, line, "ifindex 0");
	f->n.devs[d].ifindex = (int)ifindex;
	f->dev_known[d] |= LD_DEV_IFINDEX;
	return 0;
}

int ld_parse_net_if_inet6(struct lex *lx, struct ld_net_file *f)
{
	struct mach_net *n = &f->n;
	int rc = 0;

	while (!rc && !lex_eof(lx)) {
		struct mach_inet6_addr a = { 0 };

		rc = if6_line(lx, f, &a);
		if (rc)
			return rc;
		rc = LD_NET_APPEND(n->inet6, n->ninet6, a);
	}
	return rc;
}
