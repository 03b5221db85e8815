/* SPDX-License-Identifier: MIT */
/*
 * load_net.h - what the /proc/<pid>/net parsers (load_net_*.c) and the
 * assembly of a namespace from them (net_assemble.c) share.
 *
 * Each file parses into its own struct ld_net_file: the part of a
 * struct mach_net it shows.  Files that name devices (arp, route, if_inet6)
 * keep their own device list, by name, with what they say of each device
 * (its type and address length, its ifindex); the assembly merges those
 * into /proc/net/dev's list.  The tcp files keep timer deadlines as the
 * clock ticks left, turned into deadlines against the loaded uptime.
 */
#ifndef UPROCFS_LOAD_NET_H
#define UPROCFS_LOAD_NET_H

#include <errno.h>

#include "load_int.h"

/* What one file says of a device it names, beyond its name. */
#define LD_DEV_TYPE 0x1u      /* arp gave the hardware type */
#define LD_DEV_ALEN 0x2u      /* arp gave the address length (a non-proxy entry) */
#define LD_DEV_IFINDEX 0x4u   /* if_inet6 gave the ifindex */

/** One parsed /proc/<pid>/net file. */
struct ld_net_file {
	char *path;
	enum mach_ld_kind kind;
	struct mach_net n;        /* the part of the namespace the file shows */
	unsigned char *dev_known; /* per n.devs (arp, route, if_inet6): LD_DEV_* */
	unsigned int *dev_line;   /* per n.devs: where the file first named it */
	size_t sock_cap;          /* room in n.socks */
};

/** A fresh record of @kind for @path; NULL on ENOMEM. */
struct ld_net_file *ld_net_file_new(enum mach_ld_kind kind, const char *path);
void ld_net_file_free(struct ld_net_file *f);

/** Parse @f->kind's text into @f: 0 or -EINVAL/-ENOMEM with "path:line: ..." in lx->err. */
int ld_parse_net(struct lex *lx, struct ld_net_file *f);

/* Parsers, one per file (or pair of files with one format) */
int ld_parse_net_dev(struct lex *lx, struct ld_net_file *f);
int ld_parse_net_snmp(struct lex *lx, struct ld_net_file *f);
int ld_parse_net_netstat(struct lex *lx, struct ld_net_file *f);
int ld_parse_net_snmp6(struct lex *lx, struct ld_net_file *f);
int ld_parse_net_sockstat(struct lex *lx, struct ld_net_file *f);
int ld_parse_net_sockstat6(struct lex *lx, struct ld_net_file *f);
int ld_parse_net_softnet(struct lex *lx, struct ld_net_file *f);
int ld_parse_net_arp(struct lex *lx, struct ld_net_file *f);
int ld_parse_net_route(struct lex *lx, struct ld_net_file *f);
int ld_parse_net_if_inet6(struct lex *lx, struct ld_net_file *f);
int ld_parse_net_tcp(struct lex *lx, struct ld_net_file *f, bool v6);
int ld_parse_net_udp(struct lex *lx, struct ld_net_file *f, bool v6);
int ld_parse_net_unix(struct lex *lx, struct ld_net_file *f);

/* Lexing helpers (load_net_lex.c) */

/**
 * Hex digits of one case ("%0<width>X" when @upper, else "%0<width>x"):
 * at least @width of them, and no leading zero beyond the width.
 */
int ld_net_hex(struct lex *lx, unsigned int width, bool upper, uint64_t *v);
/** ld_net_hex with an upper bound. */
int ld_net_hex_max(struct lex *lx, unsigned int width, bool upper, uint64_t max, uint64_t *v);
/** A number right-aligned in @width columns (more digits widen it), at most @max. */
int ld_net_dec(struct lex *lx, unsigned int width, uint64_t max, uint64_t *v);
/** "%d" within int. */
int ld_net_int(struct lex *lx, int64_t min, int64_t max, int64_t *v);
/** A %pK pointer: 16 lowercase hex digits. */
int ld_net_pk(struct lex *lx, uint64_t *v);
/** An IPv4 address as "%08X" of its __be32, into the first 4 bytes of @addr. */
int ld_net_ipv4_hex(struct lex *lx, unsigned char addr[16]);
/** An IPv6 address as four "%08X" words in host order. */
int ld_net_ipv6_hex(struct lex *lx, unsigned char addr[16]);
/** A dotted quad "a.b.c.d" into a __be32. */
int ld_net_dotted(struct lex *lx, uint32_t *be32);
/** @n spaces exactly. */
int ld_net_spaces(struct lex *lx, size_t n);
/** "%<width>s" of a device name ending the line: the name (and the newline) consumed. */
int ld_net_name_right(struct lex *lx, size_t width, char out[MACH_IFNAMSIZ]);

/**
 * The device named @name in @f's own list, added if new: its index, or
 * -ENOMEM.  @line is where the file names it.
 */
int ld_net_file_dev(struct ld_net_file *f, const char *name, unsigned int line);

/** Append @elem to array @arr of @n elements (growing it by one): 0, or -ENOMEM leaving it as it was. */
#define LD_NET_APPEND(arr, n, elem)                                                  \
	({                                                                            \
		__typeof__(arr) grown_ = realloc((arr), ((n) + 1) * sizeof(*(arr)));  \
		grown_ ? ((arr) = grown_, (arr)[(n)++] = (elem), 0) : -ENOMEM;         \
	})

/** Append a socket to @f's table: a zeroed slot, or NULL on ENOMEM. */
struct mach_socket *ld_net_file_sock(struct ld_net_file *f);

/* ------------------------------------------------------------------ */
/* Assembly (net_assemble.c)                                            */

/**
 * Build the namespace one task's net files show into @out (zeroed by the
 * caller), checking what the files say of each other; @uptime_ns turns the
 * timers' ticks into deadlines.  1 when @files holds no file (no
 * namespace), 0, -EINVAL naming the files, or -ENOMEM.  The records are
 * consumed.
 */
int ld_net_build(struct ld_net_file *const files[LD_NR_NET], uint64_t uptime_ns, struct mach_net *out,
		 const struct ld_msg *ms);

#endif
