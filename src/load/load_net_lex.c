// SPDX-License-Identifier: MIT
/*
 * load_net_lex.c - the net file records (load_net.h) and the lexing the
 * net parsers share: fixed-width hex in either case, padded decimals,
 * kernel pointers, addresses as the kernel prints them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../util/vec.h"
#include "load_net.h"

struct ld_net_file *ld_net_file_new(enum mach_ld_kind kind, const char *path)
{
	struct ld_net_file *f = calloc(1, sizeof(*f));

	if (!f)
		return NULL;
	f->kind = kind;
	f->path = strdup(path);
	if (!f->path) {
		free(f);
		return NULL;
	}
	return f;
}

void ld_net_file_free(struct ld_net_file *f)
{
	if (!f)
		return;
	mach_net_clear(&f->n);
	free(f->dev_known);
	free(f->dev_line);
	free(f->path);
	free(f);
}

int ld_parse_net(struct lex *lx, struct ld_net_file *f)
{
	switch (f->kind) {
	case MACH_LD_PID_NET_ARP: return ld_parse_net_arp(lx, f);
	case MACH_LD_PID_NET_DEV: return ld_parse_net_dev(lx, f);
	case MACH_LD_PID_NET_TCP: return ld_parse_net_tcp(lx, f, false);
	case MACH_LD_PID_NET_UDP: return ld_parse_net_udp(lx, f, false);
	case MACH_LD_PID_NET_SNMP: return ld_parse_net_snmp(lx, f);
	case MACH_LD_PID_NET_TCP6: return ld_parse_net_tcp(lx, f, true);
	case MACH_LD_PID_NET_UDP6: return ld_parse_net_udp(lx, f, true);
	case MACH_LD_PID_NET_UNIX: return ld_parse_net_unix(lx, f);
	case MACH_LD_PID_NET_ROUTE: return ld_parse_net_route(lx, f);
	case MACH_LD_PID_NET_SNMP6: return ld_parse_net_snmp6(lx, f);
	case MACH_LD_PID_NET_NETSTAT: return ld_parse_net_netstat(lx, f);
	case MACH_LD_PID_NET_IF_INET6: return ld_parse_net_if_inet6(lx, f);
	case MACH_LD_PID_NET_SOCKSTAT: return ld_parse_net_sockstat(lx, f);
	case MACH_LD_PID_NET_SOCKSTAT6: return ld_parse_net_sockstat6(lx, f);
	case MACH_LD_PID_NET_SOFTNET: return ld_parse_net_softnet(lx, f);
	default: return lex_fail(lx, "file kind %d is not a net file", (int)f->kind);
	}
}

int ld_net_file_dev(struct ld_net_file *f, const char *name, unsigned int line)
{
	struct mach_net *n = &f->n;
	struct mach_netdev d = { .type = MACH_ARPHRD_VOID, .speed = -1 };
	unsigned int nk = n->ndevs, nl = n->ndevs;
	int i = mach_net_dev_by_name(n, name);

	if (i >= 0)
		return i;
	strncpy(d.name, name, MACH_IFNAMSIZ - 1);
	/* a handful of devices: grown one at a time, the three arrays in step */
	if (LD_NET_APPEND(f->dev_known, nk, 0) || LD_NET_APPEND(f->dev_line, nl, line))
		return -ENOMEM;
	if (LD_NET_APPEND(n->devs, n->ndevs, d))
		return -ENOMEM;
	return (int)n->ndevs - 1;
}

struct mach_socket *ld_net_file_sock(struct ld_net_file *f)
{
	return VEC_PUSH(f->n.socks, f->n.nsocks, f->sock_cap);
}

static int hexdigit(char c, bool upper)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (upper && c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	if (!upper && c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

int ld_net_hex(struct lex *lx, unsigned int width, bool upper, uint64_t *v)
{
	const char *start = lx->p;
	uint64_t x = 0;

	for (; lx->p < lx->end && hexdigit(*lx->p, upper) >= 0; lx->p++) {
		if (x >> 60) {
			lx->p = start;
			return lex_fail(lx, "hex number too large%s%s", lx->ctx ? " in " : "",
					lx->ctx ? lx->ctx : "");
		}
		x = x << 4 | (uint64_t)hexdigit(*lx->p, upper);
	}
	if ((size_t)(lx->p - start) < width || ((size_t)(lx->p - start) > width && *start == '0')) {
		lx->p = start;
		return lex_expected(lx, upper ? "uppercase hex digits of the kernel's width"
					      : "lowercase hex digits of the kernel's width");
	}
	*v = x;
	return 0;
}

int ld_net_hex_max(struct lex *lx, unsigned int width, bool upper, uint64_t max, uint64_t *v)
{
	const char *start = lx->p;
	int rc = ld_net_hex(lx, width, upper, v);

	if (!rc && *v > max)
		return lex_fail_at(lx, start, "hex number above %llx%s%s", (unsigned long long)max,
				   lx->ctx ? " in " : "", lx->ctx ? lx->ctx : "");
	return rc;
}

int ld_net_dec(struct lex *lx, unsigned int width, uint64_t max, uint64_t *v)
{
	const char *start = lx->p;
	size_t pad = lex_skip_spaces(lx), len;
	const char *digits = lx->p;
	int rc;

	if (lx->p >= lx->end || *lx->p < '0' || *lx->p > '9') {
		lx->p = start;
		return lex_expected(lx, "a number");
	}
	rc = lex_u64_max(lx, v, max);
	if (rc)
		return rc;
	len = (size_t)(lx->p - digits);
	/* right-aligned: spaces fill the width exactly, a wider number has none, no zero pads */
	if ((len < width ? pad != width - len : pad != 0) || (len > 1 && *digits == '0')) {
		lx->p = start;
		return lex_expected(lx, "a number right-aligned as the kernel pads it");
	}
	return 0;
}

int ld_net_int(struct lex *lx, int64_t min, int64_t max, int64_t *v)
{
	if (lx->p >= lx->end || (*lx->p != '-' && (*lx->p < '0' || *lx->p > '9')))
		return lex_expected(lx, "a number");
	return lex_s64(lx, v, min, max);
}

int ld_net_pk(struct lex *lx, uint64_t *v)
{
	const char *start = lx->p;
	int rc = ld_net_hex(lx, 16, false, v);

	if (!rc && lx->p - start != 16) {
		lx->p = start;
		return lex_expected(lx, "a kernel pointer (16 hex digits)");
	}
	return rc;
}

int ld_net_ipv4_hex(struct lex *lx, unsigned char addr[16])
{
	uint64_t v;
	uint32_t be;
	int rc = ld_net_hex_max(lx, 8, true, UINT32_MAX, &v);

	if (rc)
		return rc;
	be = (uint32_t)v;
	memcpy(addr, &be, 4);
	return 0;
}

int ld_net_ipv6_hex(struct lex *lx, unsigned char addr[16])
{
	/* four "%08X" words run together: 32 digits, 8 per word */
	if (lx->end - lx->p < 32)
		return lex_expected(lx, "an IPv6 address (32 hex digits)");
	for (int k = 0; k < 4; k++) {
		uint32_t w = 0;

		for (int i = 0; i < 8; i++, lx->p++) {
			int d = hexdigit(*lx->p, true);

			if (d < 0)
				return lex_expected(lx, "an IPv6 address (32 uppercase hex digits)");
			w = w << 4 | (uint32_t)d;
		}
		memcpy(addr + 4 * k, &w, 4);
	}
	return 0;
}

int ld_net_dotted(struct lex *lx, uint32_t *be32)
{
	unsigned char b[4];

	for (int i = 0; i < 4; i++) {
		const char *start = lx->p;
		uint64_t v;
		int rc;

		if (i && (rc = lex_expect(lx, ".")))
			return rc;
		start = lx->p;
		if (lx->p >= lx->end || *lx->p < '0' || *lx->p > '9')
			return lex_expected(lx, "an IPv4 address");
		rc = lex_u64_max(lx, &v, 255);
		if (rc)
			return rc;
		if (lx->p - start > 1 && *start == '0') {
			lx->p = start;
			return lex_expected(lx, "an IPv4 address without leading zeros");
		}
		b[i] = (unsigned char)v;
	}
	memcpy(be32, b, 4);
	return 0;
}

int ld_net_spaces(struct lex *lx, size_t n)
{
	const char *start = lx->p;

	if (lex_skip_spaces(lx) != n) {
		lx->p = start;
		return lex_expected(lx, n == 1 ? "a space" : "the kernel's spacing");
	}
	return 0;
}

int ld_net_name_right(struct lex *lx, size_t width, char out[MACH_IFNAMSIZ])
{
	const char *start = lx->p, *eol;
	size_t pad = lex_skip_spaces(lx), len;

	eol = lex_line_end(lx);
	len = (size_t)(eol - lx->p);
	if (!len || len >= MACH_IFNAMSIZ || memchr(lx->p, ' ', len) || (len < width ? pad != width - len : pad)) {
		lx->p = start;
		return lex_expected(lx, "a device name right-aligned as the kernel pads it");
	}
	memcpy(out, lx->p, len);
	out[len] = '\0';
	lx->p = eol;
	return lex_eol(lx);
}
