// SPDX-License-Identifier: MIT
/*
 * load_sys_net.c - the network devices' files of /sys: /sys/class/net's
 * links, which place each device, and the files of a device's directory
 * (net/core/net-sysfs.c, Linux 6.18), into struct mach_netdev and its
 * sysfs side (mach_netsys.h).
 *
 * The devices come from /proc/<pid>/net/dev of the namespace sysfs shows
 * (mach_sys_net), read before in the same machine; the file table names
 * each file's attribute and device (mach_ld_sys_file.attr, .inst).  What
 * /proc said is checked: a counter of statistics/ is its /proc/net/dev
 * column, or a part of one (drop, frame and carrier are sums: a loaded
 * part moves the rest of the sum to the first field, as the parts must
 * leave what the first field's own file said, sum_part); a counter that
 * moved since /proc was read is skipped, as is a device /proc did not
 * list.  Numbers are read as sysfs prints them, never by value.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load_sys.h"

#define MOVED (-EAGAIN)
#define NET_LINK_MAX 1024

/* The columns of /proc/net/dev that sum several counters: the field holding the rest, then the others. */
static const int sum_groups[3][4] = {
	{ MACH_NETDEV_RX_DROPPED, MACH_NETDEV_RX_MISSED_ERRORS, -1, -1 },
	{ MACH_NETDEV_RX_FRAME_ERRORS, MACH_NETDEV_RX_LENGTH_ERRORS, MACH_NETDEV_RX_OVER_ERRORS,
	  MACH_NETDEV_RX_CRC_ERRORS },
	{ MACH_NETDEV_TX_CARRIER_ERRORS, MACH_NETDEV_TX_ABORTED_ERRORS, MACH_NETDEV_TX_WINDOW_ERRORS,
	  MACH_NETDEV_TX_HEARTBEAT_ERRORS },
};

/* What the session has read of one device. */
struct ld_netdev_seen {
	uint64_t attrs;             /* 1 << enum mach_netdev_attr, the attributes loaded */
	uint32_t stats;             /* 1 << enum mach_netdev_stat, the counters loaded */
	uint64_t first_said[3];     /* what the first field of each sum said, when its file was read */
	int64_t changes;            /* carrier_changes as read, -1: not read */
};

struct ld_sys_net {
	unsigned int n;
	struct ld_netdev_seen *devs;
};

void ld_sys_net_free(struct ld_sys_net *s)
{
	if (s)
		free(s->devs);
	free(s);
}

/* The namespace /sys shows, writable; NULL when the machine has none. */
static struct mach_net *sys_net(struct mach_machine *m)
{
	const struct mach_net *n = mach_sys_net(m);

	return n ? &m->nets[n - m->nets] : NULL;
}

static struct ld_netdev_seen *seen_of(struct mach_loader *ld, const struct mach_net *n, unsigned int i)
{
	struct ld_sys *s = ld_sys_of(ld);

	if (s && !s->net && (s->net = calloc(1, sizeof(*s->net)))) {
		s->net->devs = calloc(n->ndevs, sizeof(*s->net->devs));
		s->net->n = s->net->devs ? n->ndevs : 0;
		for (unsigned int k = 0; k < s->net->n; k++)
			s->net->devs[k].changes = -1;
	}
	return s && s->net && i < s->net->n ? &s->net->devs[i] : NULL;
}

/* ------------------------------------------------------------------ */
/* Forms                                                                */

/* A decimal as "%d"/"%lu" prints it, in [@min, @max], and the newline: the whole text. */
static int dec_line(struct lex *lx, int64_t *v, int64_t min, int64_t max)
{
	const char *start = lx->p;
	int rc;

	if (min < 0) {
		rc = lex_s64_exact(lx, v);
	} else {
		uint64_t u;

		rc = lex_u64_exact(lx, &u);
		*v = u > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)u;
	}
	if (rc)
		return rc;
	if (*v < min || *v > max)
		return lex_fail_at(lx, start, "expected a number from %lld to %lld", (long long)min, (long long)max);
	return lex_eol(lx) ? -EINVAL : lex_expect_eof(lx);
}

/* "%#x\n" as the kernel prints it: "0x", lowercase digits without a leading zero. */
static int hex_line(struct lex *lx, uint64_t *v, uint64_t max)
{
	const char *digits;

	if (!lex_accept(lx, "0x"))
		return lex_expected(lx, "\"0x\" and a hex number");
	digits = lx->p;
	if (lex_hex(lx, v))
		return -EINVAL;
	if ((*digits == '0' && lx->p - digits > 1) || *v > max)
		return lex_fail_at(lx, digits, "expected a hex number to %#llx without leading zeros",
				   (unsigned long long)max);
	return lex_eol(lx) ? -EINVAL : lex_expect_eof(lx);
}

/* "%*phC\n": up to MACH_MAX_ADDR_LEN lowercase hex bytes joined by colons; their count in *@n. */
static int mac_line(struct lex *lx, unsigned char out[MACH_MAX_ADDR_LEN], unsigned int *n)
{
	static const char hex[] = "0123456789abcdef";

	for (*n = 0; !lex_peek(lx, '\n'); ++*n) {
		const char *hi, *lo;

		if (*n && lex_expect(lx, ":"))
			return -EINVAL;
		hi = lx->end - lx->p >= 2 ? memchr(hex, lx->p[0], 16) : NULL;
		lo = hi ? memchr(hex, lx->p[1], 16) : NULL;
		if (!lo || !lx->p[0] || !lx->p[1] || *n >= MACH_MAX_ADDR_LEN)
			return lex_expected(lx, "a byte in two lowercase hex digits");
		out[*n] = (unsigned char)((hi - hex) << 4 | (lo - hex));
		lx->p += 2;
	}
	return lex_eol(lx) ? -EINVAL : lex_expect_eof(lx);
}

/* ------------------------------------------------------------------ */
/* Where a device hangs                                                 */

/* class/net/NAME: the device's directory, "virtual/net/NAME" or PARENT/net/NAME. */
static int class_link(struct lex *lx, const char *path, struct mach_netdev *d)
{
	char target[NET_LINK_MAX], abs[NET_LINK_MAX], tail[MACH_IFNAMSIZ + 8];
	size_t n = (size_t)(lx->end - lx->p), dl, tl;
	const char *dir;

	if (!n || n >= sizeof(target) || memchr(lx->p, '\n', n))
		return lex_expected(lx, "a link target");
	memcpy(target, lx->p, n);
	target[n] = '\0';
	lx->p = lx->end;
	snprintf(tail, sizeof(tail), "/net/%s", d->name);
	if (ld_sys_link_target(path, target, abs, sizeof(abs)) || !(dir = ld_sys_after(abs, "devices/")) ||
	    (dl = strlen(dir)) <= (tl = strlen(tail)) || strcmp(dir + dl - tl, tail))
		return lex_fail(lx, "the link %s leads to %s, not to a directory NAME/net/%s under /sys/devices", path,
				target, d->name);
	dl -= tl;
	if (dl == strlen("virtual") && !memcmp(dir, "virtual", dl))
		dl = 0;
	if (dl >= sizeof(d->sys.parent))
		return lex_fail(lx, "%s: a parent device path longer than %zu bytes", path, sizeof(d->sys.parent) - 1);
	if (d->sys.known && (strlen(d->sys.parent) != dl || memcmp(d->sys.parent, dir, dl)))
		return lex_fail(lx, "%s is under /sys/devices/%s, not /sys/devices/%.*s", d->name,
				d->sys.parent[0] ? d->sys.parent : "virtual", (int)dl, dir);
	memcpy(d->sys.parent, dir, dl);
	d->sys.parent[dl] = '\0';
	d->sys.known = true;
	d->is_virtual = !dl;
	if (!d->sys.duplex && !d->sys.link_ksettings)
		d->sys.duplex = MACH_DUPLEX_UNKNOWN;
	return 0;
}

/* device and subsystem: where the kernel's links from the device's directory lead. */
static int own_link(struct lex *lx, const char *path, const struct mach_netdev *d, bool device)
{
	char dir[NET_LINK_MAX], want_abs[NET_LINK_MAX], got_abs[NET_LINK_MAX], target[NET_LINK_MAX];
	size_t n = (size_t)(lx->end - lx->p);

	if (!n || n >= sizeof(target))
		return lex_expected(lx, "a link target");
	memcpy(target, lx->p, n);
	target[n] = '\0';
	lx->p = lx->end;
	if (mach_netdev_dir(d, dir, sizeof(dir)))
		return lex_fail(lx, "%s: the device's place is not known", path);
	snprintf(want_abs, sizeof(want_abs), device ? "devices/%s" : "class/net", d->sys.parent);
	if (ld_sys_link_target(path, target, got_abs, sizeof(got_abs)) || strcmp(got_abs, want_abs))
		return lex_fail(lx, "the link %s leads to %s, not /sys/%s", path, target, want_abs);
	return 0;
}

/* ------------------------------------------------------------------ */
/* statistics/                                                          */

/* Which sum counter @k is in (-1: none) and whether it is the first field. */
static int sum_of(int k, bool *first)
{
	for (int g = 0; g < 3; g++)
		for (int j = 0; j < 4; j++)
			if (sum_groups[g][j] == k) {
				*first = !j;
				return g;
			}
	return -1;
}

/* Whether every part of sum @g but the first (and but @except) has been read. */
static bool parts_read(const struct ld_netdev_seen *s, int g, int except)
{
	for (int j = 1; j < 4; j++)
		if (sum_groups[g][j] >= 0 && sum_groups[g][j] != except && !(s->stats & (1u << sum_groups[g][j])))
			return false;
	return true;
}

/*
 * Part @k of sum @g says @u.  The column holds the first field and the
 * parts; the first field's own file, when read already, said how much of
 * it is the first's, so the parts must leave that (and, the last of them,
 * exactly that).  A part that does not moved: when the first's file was
 * read, the part takes what the column and that file leave it, so both
 * still render as read, and its own file is skipped.
 */
static int sum_part(uint64_t *st, struct ld_netdev_seen *s, int g, int k, uint64_t u)
{
	int f = sum_groups[g][0];
	uint64_t pool = st[f] + st[k];
	bool said = s->stats & (1u << f), last = said && parts_read(s, g, k);
	uint64_t floor = said ? s->first_said[g] : 0;

	s->stats |= 1u << k;
	if (u <= pool && pool - u >= floor && (!last || pool - u == floor)) {
		st[k] = u;
		st[f] = pool - u;
		return 0;
	}
	if (said && pool >= floor) {
		st[k] = pool - floor;
		st[f] = floor;
	} else {
		s->stats &= ~(1u << k);
	}
	return MOVED;
}

static int stat_file(struct lex *lx, struct mach_netdev *d, struct ld_netdev_seen *s, int k)
{
	int64_t v;
	bool first = false;
	int g = sum_of(k, &first), rc = dec_line(lx, &v, 0, INT64_MAX);
	uint64_t *st = d->stats, u = (uint64_t)v;

	if (rc)
		return rc;
	if (k == MACH_NETDEV_RX_NOHANDLER) {
		st[k] = u; /* /proc/net/dev has no column of it */
	} else if (g < 0) {
		if (st[k] != u)
			return MOVED;
	} else if (first) {
		/* what the other parts leave of the column; they may come later */
		if (u > st[k] || (parts_read(s, g, -1) && u != st[k]))
			return MOVED;
		s->first_said[g] = u;
	} else {
		return sum_part(st, s, g, k, u);
	}
	s->stats |= 1u << k;
	return 0;
}

/* ------------------------------------------------------------------ */
/* The attributes                                                       */

static int carrier_counts(struct lex *lx, struct mach_netdev *d, struct ld_netdev_seen *s, unsigned int a)
{
	int64_t v;
	int rc = dec_line(lx, &v, 0, INT32_MAX);
	const uint64_t both = 1ull << MACH_NETA_CARRIER_UP_COUNT | 1ull << MACH_NETA_CARRIER_DOWN_COUNT;

	if (rc)
		return rc;
	if (a == MACH_NETA_CARRIER_CHANGES)
		s->changes = v;
	else if (a == MACH_NETA_CARRIER_UP_COUNT)
		d->sys.carrier_up = (uint32_t)v;
	else
		d->sys.carrier_down = (uint32_t)v;
	s->attrs |= 1ull << a;
	/*
	 * changes is the sum of the two counts: the count read last that does
	 * not add up moved, and takes what changes leaves it, so that changes
	 * still renders as read
	 */
	if ((s->attrs & both) == both && s->changes >= 0 &&
	    (int64_t)d->sys.carrier_up + d->sys.carrier_down != s->changes) {
		uint32_t *mine = a == MACH_NETA_CARRIER_UP_COUNT ? &d->sys.carrier_up : &d->sys.carrier_down;
		uint32_t other = a == MACH_NETA_CARRIER_UP_COUNT ? d->sys.carrier_down : d->sys.carrier_up;

		if (a != MACH_NETA_CARRIER_CHANGES && s->changes >= other)
			*mine = (uint32_t)(s->changes - other);
		return MOVED;
	}
	return 0;
}

static int operstate_file(struct lex *lx, struct mach_netdev *d)
{
	static const char *const names[] = { "unknown\n", "notpresent\n", "down\n", "lowerlayerdown\n",
					     "testing\n", "dormant\n", "up\n" };

	for (unsigned char i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (lex_accept(lx, names[i])) {
			d->operstate = i;
			return lex_expect_eof(lx);
		}
	return lex_expected(lx, "an operstate (unknown, notpresent, down, lowerlayerdown, testing, dormant, up)");
}

static int duplex_file(struct lex *lx, struct mach_netdev *d)
{
	static const struct {
		const char *text;
		unsigned char v;
	} names[] = { { "half\n", MACH_DUPLEX_HALF }, { "full\n", MACH_DUPLEX_FULL },
		      { "unknown\n", MACH_DUPLEX_UNKNOWN } };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (lex_accept(lx, names[i].text)) {
			d->sys.duplex = names[i].v;
			d->sys.link_ksettings = true;
			return lex_expect_eof(lx);
		}
	return lex_expected(lx, "half, full or unknown");
}

static int address_file(struct lex *lx, struct mach_netdev *d, struct ld_netdev_seen *s, unsigned char *out)
{
	unsigned char bytes[MACH_MAX_ADDR_LEN];
	unsigned int n;
	int rc = mac_line(lx, bytes, &n);
	const uint64_t lens = 1ull << MACH_NETA_ADDR_LEN | 1ull << MACH_NETA_ADDRESS | 1ull << MACH_NETA_BROADCAST;

	if (rc)
		return rc;
	if ((s->attrs & lens) && n != d->addr_len)
		return lex_fail(lx, "%u bytes, but the device's address is %u bytes long", n, d->addr_len);
	d->addr_len = (unsigned char)n;
	memcpy(out, bytes, n);
	return 0;
}

/* ifindex, uevent: the index, where /proc already named one (if_inet6) it must agree. */
static int set_ifindex(struct lex *lx, struct mach_netdev *d, int64_t v)
{
	if (d->ifindex && d->ifindex != v)
		return lex_fail(lx, "ifindex %lld, where /proc said %d", (long long)v, d->ifindex);
	d->ifindex = (int)v;
	return 0;
}

static int uevent_file(struct lex *lx, struct mach_netdev *d)
{
	char want[MACH_IFNAMSIZ + 32];
	int64_t v;
	int rc;

	snprintf(want, sizeof(want), "INTERFACE=%s\nIFINDEX=", d->name);
	if ((rc = lex_expect(lx, want)) || (rc = dec_line(lx, &v, 1, INT32_MAX)))
		return rc;
	return set_ifindex(lx, d, v);
}

/* The attributes that are one number in a field: the field's setter and the range the kernel prints. */
typedef void (*net_setter)(struct mach_netdev *d, int64_t v);

#define SETTER(name, field, type) \
	static void name(struct mach_netdev *d, int64_t v) { d->field = (type)v; }
SETTER(set_addr_assign, sys.addr_assign_type, unsigned char)
SETTER(set_dev_port, sys.dev_port, uint16_t)
SETTER(set_gro, sys.gro_flush_timeout, uint64_t)
SETTER(set_iflink, iflink, int)
SETTER(set_link_mode, sys.link_mode, unsigned char)
SETTER(set_mtu, mtu, unsigned int)
SETTER(set_name_assign, sys.name_assign_type, unsigned char)
SETTER(set_napi, sys.napi_defer_hard_irqs, uint32_t)
SETTER(set_group, sys.group, uint32_t)
SETTER(set_qlen, tx_queue_len, unsigned int)
SETTER(set_threaded, sys.threaded, unsigned char)
#undef SETTER

static void set_carrier(struct mach_netdev *d, int64_t v) { d->sys.carrier = v; }
static void set_dormant(struct mach_netdev *d, int64_t v) { d->sys.dormant = v; }
static void set_testing(struct mach_netdev *d, int64_t v) { d->sys.testing = v; }
static void set_proto_down(struct mach_netdev *d, int64_t v) { d->sys.proto_down = v; }
static void set_speed(struct mach_netdev *d, int64_t v) { d->speed = (int)v; d->sys.link_ksettings = true; }

/* Attribute @a's range and setter; false when it is not one number in a field. */
static bool number_attr(unsigned int a, int64_t *lo, int64_t *hi, net_setter *set)
{
	static const struct {
		unsigned int a;
		int64_t lo, hi;
		net_setter set;
	} nums[] = {
		{ MACH_NETA_ADDR_ASSIGN_TYPE, 0, 255, set_addr_assign }, { MACH_NETA_CARRIER, 0, 1, set_carrier },
		{ MACH_NETA_DEV_PORT, 0, UINT16_MAX, set_dev_port }, { MACH_NETA_DORMANT, 0, 1, set_dormant },
		{ MACH_NETA_GRO_FLUSH_TIMEOUT, 0, INT64_MAX, set_gro }, { MACH_NETA_IFLINK, 0, INT32_MAX, set_iflink },
		{ MACH_NETA_LINK_MODE, 0, 255, set_link_mode }, { MACH_NETA_MTU, 0, INT32_MAX, set_mtu },
		{ MACH_NETA_NAME_ASSIGN_TYPE, 1, 255, set_name_assign },
		{ MACH_NETA_NAPI_DEFER_HARD_IRQS, 0, UINT32_MAX, set_napi },
		{ MACH_NETA_NETDEV_GROUP, 0, INT32_MAX, set_group }, { MACH_NETA_PROTO_DOWN, 0, 1, set_proto_down },
		{ MACH_NETA_SPEED, INT32_MIN, INT32_MAX, set_speed }, { MACH_NETA_TESTING, 0, 1, set_testing },
		{ MACH_NETA_THREADED, 0, 255, set_threaded }, { MACH_NETA_TX_QUEUE_LEN, 0, UINT32_MAX, set_qlen },
	};

	for (size_t i = 0; i < sizeof(nums) / sizeof(nums[0]); i++)
		if (nums[i].a == a) {
			*lo = nums[i].lo;
			*hi = nums[i].hi;
			*set = nums[i].set;
			return true;
		}
	return false;
}

static int attr_file(struct lex *lx, struct mach_netdev *d, struct ld_netdev_seen *s, unsigned int a,
		     const char *path)
{
	net_setter set;
	int64_t v, lo, hi;
	uint64_t u;
	int rc;

	if (number_attr(a, &lo, &hi, &set)) {
		if ((rc = dec_line(lx, &v, lo, hi)))
			return rc;
		set(d, v);
		return 0;
	}
	switch (a) {
	case MACH_NETA_ADDR_LEN:
		if ((rc = dec_line(lx, &v, 0, MACH_MAX_ADDR_LEN)))
			return rc;
		if ((s->attrs & (1ull << MACH_NETA_ADDRESS | 1ull << MACH_NETA_BROADCAST)) && v != d->addr_len)
			return lex_fail(lx, "addr_len %lld, but the address has %u bytes", (long long)v, d->addr_len);
		d->addr_len = (unsigned char)v;
		return 0;
	case MACH_NETA_ADDRESS: return address_file(lx, d, s, d->addr);
	case MACH_NETA_BROADCAST: return address_file(lx, d, s, d->broadcast);
	case MACH_NETA_CARRIER_CHANGES:
	case MACH_NETA_CARRIER_UP_COUNT:
	case MACH_NETA_CARRIER_DOWN_COUNT: return carrier_counts(lx, d, s, a);
	case MACH_NETA_DEV_ID:
		if ((rc = hex_line(lx, &u, UINT16_MAX)))
			return rc;
		d->sys.dev_id = (uint16_t)u;
		return 0;
	case MACH_NETA_DUPLEX: return duplex_file(lx, d);
	case MACH_NETA_FLAGS:
		if ((rc = hex_line(lx, &u, UINT32_MAX)))
			return rc;
		d->flags = (unsigned int)u;
		return 0;
	case MACH_NETA_IFINDEX: return (rc = dec_line(lx, &v, 1, INT32_MAX)) ? rc : set_ifindex(lx, d, v);
	case MACH_NETA_OPERSTATE: return operstate_file(lx, d);
	case MACH_NETA_TYPE:
		if ((rc = dec_line(lx, &v, 0, UINT16_MAX)))
			return rc;
		if (d->type != MACH_ARPHRD_VOID && d->type != v)
			return lex_fail(lx, "type %lld, where /proc said %u", (long long)v, d->type);
		d->type = (unsigned short)v;
		return 0;
	case MACH_NETA_UEVENT: return uevent_file(lx, d);
	case MACH_NETA_DEVICE_LINK:
	case MACH_NETA_SUBSYSTEM_LINK: return own_link(lx, path, d, a == MACH_NETA_DEVICE_LINK);
	default: return lex_fail(lx, "%s: not a network device file the loader parses", path);
	}
}

/* The device whose directory holds @rel (a path below /sys), or -1. */
static int owner(const struct mach_net *n, const char *rel)
{
	const char *in = ld_sys_after(rel, "devices/");
	char dir[NET_LINK_MAX];

	for (unsigned int i = 0; in && i < n->ndevs; i++)
		if (!mach_netdev_dir(&n->devs[i], dir, sizeof(dir)) && ld_sys_after(in, dir) &&
		    in[strlen(dir)] == '/')
			return (int)i;
	return -1;
}

int ld_sys_net(struct lex *lx, struct mach_loader *ld, const struct mach_ld_sys_file *f, const char **skip)
{
	struct mach_net *n = sys_net(ld->m);
	int i = !n ? -1 : f->attr == MACH_NETA_CLASS_LINK ? (int)f->inst : owner(n, f->rel);
	struct ld_netdev_seen *s;
	struct mach_netdev *d;
	int rc;

	if (!n || i < 0 || (unsigned int)i >= n->ndevs) {
		*skip = "a device /proc/net/dev of the namespace /sys shows did not list";
		return 0;
	}
	d = &n->devs[i];
	if (!(s = seen_of(ld, n, (unsigned int)i)))
		return -ENOMEM;
	if (f->attr == MACH_NETA_CLASS_LINK)
		return class_link(lx, f->rel, d);
	if (!d->sys.known)
		return lex_fail(lx, "%s: no /sys/class/net link placed %s", f->rel, d->name);
	rc = f->attr >= MACH_NETA_STATS ? stat_file(lx, d, s, (int)(f->attr - MACH_NETA_STATS))
					: attr_file(lx, d, s, f->attr, f->rel);
	if (rc == MOVED) {
		*skip = "it moved since /proc/net/dev was read";
		return 0;
	}
	if (!rc && f->attr < MACH_NETA_STATS)
		s->attrs |= 1ull << f->attr;
	return rc;
}
