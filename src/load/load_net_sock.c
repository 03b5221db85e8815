// SPDX-License-Identifier: MIT
/*
 * load_net_sock.c - parse /proc/net/tcp, tcp6, udp and udp6 (Linux 6.18;
 * research notes sections 11-12).
 *
 * A tcp row is a full socket (with rto, ato, ack flags, cwnd, ssthresh
 * after the pointer), a time-wait sock (timer 3) or a request sock (state
 * SYN_RECV, timer 1), the last two ending at the pointer.  Listeners come
 * first, and "sl" counts rows.  A udp row's "sl" is its hash bucket.  IPv4
 * files pad every line (and the header) to 149 (tcp) or 127 (udp) bytes.
 * Timers are read as the clock ticks left and become deadlines when the
 * namespace is assembled against the uptime.
 */
#include <string.h>

#include "load_net.h"

#define TCP_WIDTH 149
#define UDP_WIDTH 127

/* "ADDR:PORT" in the file's form. */
static int endpoint(struct lex *lx, bool v6, unsigned char addr[16], uint16_t *port)
{
	uint64_t p = 0; /* stored below even when a read failed */
	int rc = v6 ? ld_net_ipv6_hex(lx, addr) : ld_net_ipv4_hex(lx, addr);

	if (!rc)
		rc = lex_expect(lx, ":");
	if (!rc)
		rc = ld_net_hex_max(lx, 4, true, 0xffff, &p);
	if (!rc)
		*port = (uint16_t)p;
	return rc;
}

/* The fields every row has, up to the pointer. */
struct row {
	uint64_t sl, state, tx, rx, tr, when, retr, uid, timeout, inode;
	int64_t ref;
};

static int row_head(struct lex *lx, bool v6, unsigned int slw, struct mach_socket *s, struct row *r)
{
	int rc;

	lex_ctx(lx, "sl");
	rc = ld_net_dec(lx, slw, INT32_MAX, &r->sl);
	if (!rc)
		rc = lex_expect(lx, ": ");
	lex_ctx(lx, "local_address");
	if (!rc)
		rc = endpoint(lx, v6, s->laddr, &s->lport);
	lex_ctx(lx, "rem_address");
	if (!rc && !(rc = lex_expect(lx, " ")))
		rc = endpoint(lx, v6, s->raddr, &s->rport);
	lex_ctx(lx, "st");
	if (!rc && !(rc = lex_expect(lx, " ")))
		rc = ld_net_hex_max(lx, 2, true, 0xff, &r->state);
	lex_ctx(lx, "tx_queue");
	if (!rc && !(rc = lex_expect(lx, " ")))
		rc = ld_net_hex_max(lx, 8, true, UINT32_MAX, &r->tx);
	lex_ctx(lx, "rx_queue");
	if (!rc && !(rc = lex_expect(lx, ":")))
		rc = ld_net_hex_max(lx, 8, true, UINT32_MAX, &r->rx);
	lex_ctx(lx, "tr");
	if (!rc && !(rc = lex_expect(lx, " ")))
		rc = ld_net_hex_max(lx, 2, true, 0xff, &r->tr);
	lex_ctx(lx, "tm->when");
	if (!rc && !(rc = lex_expect(lx, ":")))
		rc = ld_net_hex(lx, 8, true, &r->when);
	lex_ctx(lx, "retrnsmt");
	if (!rc && !(rc = lex_expect(lx, " ")))
		rc = ld_net_hex_max(lx, 8, true, UINT32_MAX, &r->retr);
	lex_ctx(lx, "uid");
	if (!rc && !(rc = lex_expect(lx, " ")))
		rc = ld_net_dec(lx, 5, UINT32_MAX, &r->uid);
	lex_ctx(lx, "timeout");
	if (!rc && !(rc = lex_expect(lx, " ")))
		rc = ld_net_dec(lx, 8, INT32_MAX, &r->timeout);
	lex_ctx(lx, "inode");
	if (!rc && !(rc = lex_expect(lx, " ")))
		rc = ld_net_dec(lx, 0, UINT64_MAX, &r->inode);
	lex_ctx(lx, "ref");
	if (!rc && !(rc = lex_expect(lx, " ")))
		rc = ld_net_int(lx, INT32_MIN, INT32_MAX, &r->ref);
	lex_ctx(lx, "pointer");
	if (!rc && !(rc = lex_expect(lx, " ")))
		rc = ld_net_pk(lx, &s->kaddr);
	return rc;
}

/* The end of a row: padding to @width (0: none) from @start, then the newline. */
static int row_end(struct lex *lx, const char *start, size_t width)
{
	int rc = 0;

	if (width && (size_t)(lx->p - start) < width)
		rc = ld_net_spaces(lx, width - (size_t)(lx->p - start));
	return rc ? rc : lex_eol(lx);
}

/* After the pointer of a full socket: " %lu %lu %u %u %d". */
static int tcp_full_tail(struct lex *lx, struct mach_socket *s)
{
	uint64_t rto = 0, ato = 0, ack = 0, cwnd = 0; /* stored below even when a read failed */
	int64_t ss = 0;
	int rc;

	lex_ctx(lx, "rto");
	rc = lex_expect(lx, " ");
	if (!rc)
		rc = ld_net_dec(lx, 0, UINT32_MAX, &rto);
	lex_ctx(lx, "ato");
	if (!rc && !(rc = lex_expect(lx, " ")))
		rc = ld_net_dec(lx, 0, UINT32_MAX, &ato);
	lex_ctx(lx, "ack flags");
	if (!rc && !(rc = lex_expect(lx, " ")))
		rc = ld_net_dec(lx, 0, 0xff, &ack);
	lex_ctx(lx, "snd_cwnd");
	if (!rc && !(rc = lex_expect(lx, " ")))
		rc = ld_net_dec(lx, 0, UINT32_MAX, &cwnd);
	lex_ctx(lx, "ssthresh");
	if (!rc && !(rc = lex_expect(lx, " ")))
		rc = ld_net_int(lx, INT32_MIN, INT32_MAX, &ss);
	if (rc)
		return rc;
	s->rto = (uint32_t)rto;
	s->ato = (uint32_t)ato;
	s->ack_flags = (unsigned char)ack;
	s->cwnd = (uint32_t)cwnd;
	s->ssthresh = (int32_t)ss;
	return 0;
}

/* What a time-wait or request row says of the kind, and the zeros it prints. */
static int tcp_short_kind(struct lex *lx, const char *line, struct mach_socket *s, const struct row *r)
{
	if (r->tr == MACH_TCP_TIMER_TIMEWAIT && (r->state == MACH_TCP_TIME_WAIT || r->state == MACH_TCP_FIN_WAIT2) &&
	    !r->tx && !r->rx && !r->retr && !r->uid && !r->timeout && !r->inode) {
		s->kind = MACH_SK_TIMEWAIT;
		s->state = (unsigned char)r->state;
		s->refcnt = (int)r->ref;
		return 0;
	}
	if (r->tr == MACH_TCP_TIMER_RETRANS && r->state == MACH_TCP_SYN_RECV && !r->tx && !r->rx && !r->timeout &&
	    !r->inode && !r->ref && r->retr <= 0xff) {
		s->kind = MACH_SK_REQUEST;
		s->state = MACH_TCP_NEW_SYN_RECV;
		s->retransmits = (unsigned char)r->retr;
		s->uid = (uint32_t)r->uid;
		return 0;
	}
	return lex_fail_at(lx, line, "a row ending at the pointer is neither a time-wait nor a request sock");
}

/* A full socket's fields from its row. */
static int tcp_full_kind(struct lex *lx, const char *line, struct mach_socket *s, const struct row *r)
{
	if (r->state == MACH_TCP_CLOSE || r->state == MACH_TCP_TIME_WAIT || r->state == MACH_TCP_NEW_SYN_RECV ||
	    !r->state || r->state > MACH_TCP_NEW_SYN_RECV || r->tr == MACH_TCP_TIMER_TIMEWAIT ||
	    r->tr > MACH_TCP_TIMER_PROBE0 || r->retr > 0xff || r->timeout > 0xff)
		return lex_fail_at(lx, line, "a full socket row the kernel cannot print");
	if (r->tr == MACH_TCP_TIMER_NONE && r->when)
		return lex_fail_at(lx, line, "a timer deadline with no timer");
	s->kind = MACH_SK_FULL;
	s->state = (unsigned char)r->state;
	s->tx_queue = (uint32_t)r->tx;
	s->rx_queue = (uint32_t)r->rx;
	s->timer = (unsigned char)r->tr;
	s->retransmits = (unsigned char)r->retr;
	s->probes_out = (unsigned char)r->timeout;
	s->uid = (uint32_t)r->uid;
	s->inode = r->inode;
	s->refcnt = (int)r->ref;
	s->has_socket = true;
	return 0;
}

int ld_parse_net_tcp(struct lex *lx, struct ld_net_file *f, bool v6)
{
	static const char head4[] = "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  "
				    "timeout inode";
	static const char head6[] = "  sl  local_address                         remote_address                        "
				    "st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n";
	bool listening = true;
	uint64_t row_no = 0;
	int rc = lex_expect(lx, v6 ? head6 : head4);

	if (!rc && !v6)
		rc = row_end(lx, lx->text, TCP_WIDTH);
	while (!rc && !lex_eof(lx)) {
		const char *line = lx->p;
		struct mach_socket *s = ld_net_file_sock(f);
		struct row r;

		if (!s)
			return -ENOMEM;
		s->family = v6 ? MACH_AF_INET6 : MACH_AF_INET;
		s->type = MACH_SOCK_STREAM;
		s->protocol = MACH_IPPROTO_TCP;
		s->fd = -1;
		rc = row_head(lx, v6, 4, s, &r);
		if (rc)
			return rc;
		if (r.sl != row_no++)
			return lex_fail_at(lx, line, "sl %llu, but this is row %llu", (unsigned long long)r.sl,
					   (unsigned long long)(row_no - 1));
		/* a full socket's fields go on after the pointer; the others are padding */
		if (lx->end - lx->p > 1 && lx->p[0] == ' ' && lx->p[1] != ' ' && lx->p[1] != '\n')
			rc = tcp_full_kind(lx, line, s, &r) ? -EINVAL : tcp_full_tail(lx, s);
		else
			rc = tcp_short_kind(lx, line, s, &r);
		if (!rc && s->kind == MACH_SK_FULL && s->state == MACH_TCP_LISTEN && !listening)
			return lex_fail_at(lx, line, "a listening socket after the established hash");
		listening = s->kind == MACH_SK_FULL && s->state == MACH_TCP_LISTEN;
		s->timer_expires = r.when; /* ticks left until the assembly knows the uptime */
		if (!rc)
			rc = row_end(lx, line, v6 ? 0 : TCP_WIDTH);
	}
	return rc;
}

int ld_parse_net_udp(struct lex *lx, struct ld_net_file *f, bool v6)
{
	static const char head4[] = "   sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  "
				    "timeout inode ref pointer drops";
	static const char head6[] = "  sl  local_address                         remote_address                        "
				    "st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode ref pointer drops\n";
	int rc = lex_expect(lx, v6 ? head6 : head4);

	if (!rc && !v6)
		rc = row_end(lx, lx->text, UDP_WIDTH);
	while (!rc && !lex_eof(lx)) {
		const char *line = lx->p;
		struct mach_socket *s = ld_net_file_sock(f);
		struct row r;
		uint64_t drops;

		if (!s)
			return -ENOMEM;
		rc = row_head(lx, v6, 5, s, &r);
		lex_ctx(lx, "drops");
		if (!rc && !(rc = lex_expect(lx, " ")))
			rc = ld_net_dec(lx, 0, UINT32_MAX, &drops);
		if (rc)
			return rc;
		if (r.tr || r.when || r.retr || r.timeout || !s->lport || r.state > 0xff)
			return lex_fail_at(lx, line, "a udp row the kernel cannot print");
		s->family = v6 ? MACH_AF_INET6 : MACH_AF_INET;
		s->type = MACH_SOCK_DGRAM;
		s->protocol = MACH_IPPROTO_UDP;
		s->fd = -1;
		s->kind = MACH_SK_FULL;
		s->state = (unsigned char)r.state;
		s->tx_queue = (uint32_t)r.tx;
		s->rx_queue = (uint32_t)r.rx;
		s->uid = (uint32_t)r.uid;
		s->inode = r.inode;
		s->refcnt = (int)r.ref;
		s->drops = (uint32_t)drops;
		s->hash_slot = (uint32_t)r.sl;
		s->has_socket = true;
		rc = row_end(lx, line, v6 ? 0 : UDP_WIDTH);
	}
	return rc;
}
