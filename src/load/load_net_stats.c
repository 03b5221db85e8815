// SPDX-License-Identifier: MIT
/*
 * load_net_stats.c - parse /proc/net/sockstat, /proc/net/sockstat6 and
 * /proc/net/softnet_stat, as net/ipv4/proc.c sockstat_seq_show,
 * net/ipv6/proc.c sockstat6_seq_show and net/core/net-procfs.c
 * softnet_seq_show print them (Linux 6.18; research notes sections 7-8).
 */
#include <string.h>

#include "../util/vec.h"
#include "load_net.h"

/* @label then a "%d" into *@v. */
static int labelled_int(struct lex *lx, const char *label, int32_t *v)
{
	int64_t x = 0; /* read below even when the number failed */
	int rc;

	lex_ctx(lx, label);
	rc = lex_expect(lx, label);
	if (!rc)
		rc = ld_net_int(lx, INT32_MIN, INT32_MAX, &x);
	if (!rc)
		*v = (int32_t)x;
	return rc;
}

/* @label then a "%ld" into *@v. */
static int labelled_long(struct lex *lx, const char *label, int64_t *v)
{
	lex_ctx(lx, label);
	int rc = lex_expect(lx, label);

	return rc ? rc : ld_net_int(lx, INT64_MIN, INT64_MAX, v);
}

/* @label then a "%u" or "%lu" up to @max into *@v. */
static int labelled_uint(struct lex *lx, const char *label, uint64_t max, uint64_t *v)
{
	lex_ctx(lx, label);
	int rc = lex_expect(lx, label);

	return rc ? rc : ld_net_dec(lx, 0, max, v);
}

/* "FRAG: inuse %u memory %lu\n" or its FRAG6 twin. */
static int frag_line(struct lex *lx, const char *label, uint32_t *inuse, uint64_t *memory)
{
	uint64_t u = 0;
	int rc = labelled_uint(lx, label, UINT32_MAX, &u);

	*inuse = (uint32_t)u;
	if (!rc)
		rc = labelled_uint(lx, " memory ", UINT64_MAX, memory);
	return rc ? rc : lex_eol(lx);
}

int ld_parse_net_sockstat(struct lex *lx, struct ld_net_file *f)
{
	struct mach_sockstat *s = &f->n.sockstat;
	int rc = labelled_int(lx, "sockets: used ", &s->sockets_used);

	if (!rc)
		rc = lex_eol(lx);
	if (!rc)
		rc = labelled_int(lx, "TCP: inuse ", &s->tcp_inuse);
	if (!rc)
		rc = labelled_int(lx, " orphan ", &s->tcp_orphan);
	if (!rc)
		rc = labelled_int(lx, " tw ", &s->tcp_tw);
	if (!rc)
		rc = labelled_int(lx, " alloc ", &s->tcp_alloc);
	if (!rc)
		rc = labelled_long(lx, " mem ", &s->tcp_mem);
	if (!rc)
		rc = lex_eol(lx);
	if (!rc)
		rc = labelled_int(lx, "UDP: inuse ", &s->udp_inuse);
	if (!rc)
		rc = labelled_long(lx, " mem ", &s->udp_mem);
	if (!rc)
		rc = lex_eol(lx);
	if (!rc)
		rc = labelled_int(lx, "UDPLITE: inuse ", &s->udplite_inuse);
	if (!rc)
		rc = lex_eol(lx);
	if (!rc)
		rc = labelled_int(lx, "RAW: inuse ", &s->raw_inuse);
	if (!rc)
		rc = lex_eol(lx);
	if (!rc)
		rc = frag_line(lx, "FRAG: inuse ", &s->frag_inuse, &s->frag_memory);
	return rc ? rc : lex_expect_eof(lx);
}

int ld_parse_net_sockstat6(struct lex *lx, struct ld_net_file *f)
{
	struct mach_sockstat6 *s = &f->n.sockstat6;
	int rc = labelled_int(lx, "TCP6: inuse ", &s->tcp_inuse);

	if (!rc)
		rc = lex_eol(lx);
	if (!rc)
		rc = labelled_int(lx, "UDP6: inuse ", &s->udp_inuse);
	if (!rc)
		rc = lex_eol(lx);
	if (!rc)
		rc = labelled_int(lx, "UDPLITE6: inuse ", &s->udplite_inuse);
	if (!rc)
		rc = lex_eol(lx);
	if (!rc)
		rc = labelled_int(lx, "RAW6: inuse ", &s->raw_inuse);
	if (!rc)
		rc = lex_eol(lx);
	if (!rc)
		rc = frag_line(lx, "FRAG6: inuse ", &s->frag_inuse, &s->frag_memory);
	return rc ? rc : lex_expect_eof(lx);
}

/* One softnet_stat line: fifteen "%08x". */
static int softnet_line(struct lex *lx, struct mach_softnet *sd)
{
	static const char *const names[15] = {
		"processed", "dropped", "time_squeeze", "column 4", "column 5", "column 6", "column 7",
		"column 8", "column 9", "received_rps", "flow_limit_count", "backlog length", "CPU",
		"input_pkt_queue", "process_queue",
	};
	uint64_t v[15];
	int rc = 0;

	for (int i = 0; i < 15 && !rc; i++) {
		lex_ctx(lx, names[i]);
		if (i)
			rc = lex_expect(lx, " ");
		if (!rc)
			rc = ld_net_hex_max(lx, 8, false, UINT32_MAX, &v[i]);
		if (!rc && i >= 3 && i <= 8 && v[i])
			return lex_fail(lx, "%s is always 0", names[i]);
	}
	if (rc || (rc = lex_eol(lx)))
		return rc;
	if ((uint32_t)(v[13] + v[14]) != v[11])
		return lex_fail_line(lx, lex_line_at(lx, lx->p) - 1, "the backlog length is not the sum of its queues");
	*sd = (struct mach_softnet){ .cpu = (unsigned int)v[12], .processed = (uint32_t)v[0], .dropped = (uint32_t)v[1],
				     .time_squeeze = (uint32_t)v[2], .received_rps = (uint32_t)v[9],
				     .flow_limit_count = (uint32_t)v[10], .input_qlen = (uint32_t)v[13],
				     .process_qlen = (uint32_t)v[14] };
	return 0;
}

int ld_parse_net_softnet(struct lex *lx, struct ld_net_file *f)
{
	struct mach_net *n = &f->n;
	size_t cap = 0;
	int rc = 0;

	while (!rc && !lex_eof(lx)) {
		struct mach_softnet sd, *slot;

		rc = softnet_line(lx, &sd);
		if (rc)
			return rc;
		if (n->nsoftnet && sd.cpu <= n->softnet[n->nsoftnet - 1].cpu)
			return lex_fail_line(lx, lex_line_at(lx, lx->p) - 1, "CPUs out of order");
		{
			size_t count = n->nsoftnet;

			slot = VEC_PUSH(n->softnet, count, cap);
			n->nsoftnet = (unsigned int)count;
		}
		if (!slot)
			return -ENOMEM;
		*slot = sd;
	}
	return rc;
}
