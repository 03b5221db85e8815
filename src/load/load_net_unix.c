// SPDX-License-Identifier: MIT
/*
 * load_net_unix.c - parse /proc/net/unix, as net/unix/af_unix.c
 * unix_seq_show prints it (Linux 6.18; research notes section 13).
 *
 * "%pK: %08X %08X %08X %04X %02X %5lu", then for a bound socket a space
 * and its address printed raw: a path may hold spaces and newlines, so a
 * line ends at the first newline followed by the end of the file or by
 * the start of another socket's line.  The printed state and flags give
 * back sk_state and whether the socket has a struct socket.  A leading '@'
 * is the abstract namespace's NUL; the kernel prints every NUL as '@', and
 * a loaded name keeps the other '@' bytes as they are, which prints alike.
 */
#include <string.h>

#include "load_net.h"

#define SO_ACCEPTCON 0x00010000u
#define LINE_START 28 /* "%pK: %08X ": what the start of a socket's line must look like */

static bool is_hex(char c, bool upper)
{
	return (c >= '0' && c <= '9') || (upper ? c >= 'A' && c <= 'F' : c >= 'a' && c <= 'f');
}

/* Whether @p (before @end) starts a socket's line. */
static bool line_start(const char *p, const char *end)
{
	if (end - p < LINE_START)
		return false;
	for (int i = 0; i < 16; i++)
		if (!is_hex(p[i], false))
			return false;
	if (p[16] != ':' || p[17] != ' ' || p[26] != ' ' || p[27] == ' ')
		return false;
	for (int i = 18; i < 26; i++)
		if (!is_hex(p[i], true))
			return false;
	return true;
}

/* The address after the space: up to the newline that ends the line. */
static int unix_path(struct lex *lx, struct mach_net *n, struct mach_socket *s)
{
	const char *start = lx->p;
	char sun_path[MACH_UNIX_PATH_MAX];
	int rc;

	for (const char *q = start; q < lx->end && q - start <= MACH_UNIX_PATH_MAX; q++) {
		if (*q != '\n' || !(q + 1 == lx->end || line_start(q + 1, lx->end)))
			continue;
		if (q == start)
			break;
		memcpy(sun_path, start, (size_t)(q - start));
		if (sun_path[0] == '@')
			sun_path[0] = '\0'; /* an abstract name */
		if ((rc = mach_net_sock_set_path(n, s, sun_path, (size_t)(q - start))))
			return rc;
		lx->p = q;
		return lex_eol(lx);
	}
	return lex_expected(lx, "a socket address of at most 108 bytes and the end of the line");
}

/* The printed state and flags back into sk_state and the struct socket. */
static int unix_state(struct lex *lx, const char *line, struct mach_socket *s, uint64_t flags, uint64_t st)
{
	bool listening = flags == SO_ACCEPTCON;

	if (flags && !listening)
		return lex_fail_at(lx, line, "flags %08llX are none the kernel prints", (unsigned long long)flags);
	switch (st) {
	case 1: /* SS_UNCONNECTED */
	case 4: /* SS_DISCONNECTING */
		s->state = listening ? MACH_TCP_LISTEN : MACH_TCP_CLOSE;
		s->has_socket = st == 1;
		return 0;
	case 2: /* SS_CONNECTING */
	case 3: /* SS_CONNECTED */
		if (listening)
			break;
		s->state = MACH_TCP_ESTABLISHED;
		s->has_socket = st == 3;
		return 0;
	}
	return lex_fail_at(lx, line, "state %02llX with flags %08llX is none the kernel prints", (unsigned long long)st,
			   (unsigned long long)flags);
}

static int unix_line(struct lex *lx, struct mach_net *n, struct mach_socket *s)
{
	const char *line = lx->p;
	uint64_t ref, proto, flags, type, st;
	int rc;

	lex_ctx(lx, "Num");
	rc = ld_net_pk(lx, &s->kaddr);
	if (!rc)
		rc = lex_expect(lx, ": ");
	lex_ctx(lx, "RefCount");
	if (!rc)
		rc = ld_net_hex_max(lx, 8, true, UINT32_MAX, &ref);
	lex_ctx(lx, "Protocol");
	if (!rc && !(rc = lex_expect(lx, " ")))
		rc = ld_net_hex_max(lx, 8, true, 0, &proto);
	lex_ctx(lx, "Flags");
	if (!rc && !(rc = lex_expect(lx, " ")))
		rc = ld_net_hex_max(lx, 8, true, UINT32_MAX, &flags);
	lex_ctx(lx, "Type");
	if (!rc && !(rc = lex_expect(lx, " ")))
		rc = ld_net_hex_max(lx, 4, true, 0xff, &type);
	lex_ctx(lx, "St");
	if (!rc && !(rc = lex_expect(lx, " ")))
		rc = ld_net_hex_max(lx, 2, true, 0xff, &st);
	lex_ctx(lx, "Inode");
	if (!rc && !(rc = lex_expect(lx, " ")))
		rc = ld_net_dec(lx, 5, UINT64_MAX, &s->inode);
	if (!rc)
		rc = unix_state(lx, line, s, flags, st);
	if (rc)
		return rc;
	s->family = MACH_AF_UNIX;
	s->type = (unsigned char)type;
	s->refcnt = (int)(uint32_t)ref;
	s->fd = -1;
	lex_ctx(lx, "Path");
	return lex_accept(lx, " ") ? unix_path(lx, n, s) : lex_eol(lx);
}

int ld_parse_net_unix(struct lex *lx, struct ld_net_file *f)
{
	int rc = lex_expect(lx, "Num       RefCount Protocol Flags    Type St Inode Path\n");

	while (!rc && !lex_eof(lx)) {
		struct mach_socket *s = ld_net_file_sock(f);

		rc = s ? unix_line(lx, &f->n, s) : -ENOMEM;
	}
	return rc;
}
