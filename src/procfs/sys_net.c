// SPDX-License-Identifier: MIT
/*
 * sys_net.c - the files of a network device's directory in sysfs
 * (/sys/class/net/<if>/...) and its links.
 *
 * Mirrors net/core/net-sysfs.c of Linux 6.18: net_class_attrs (each a
 * netdev_show with fmt_dec "%d\n", fmt_hex "%#x\n" with the kernel's "0x"
 * even for 0, fmt_ulong, fmt_uint; address and broadcast as "%*phC"),
 * the link state shows that need the device running (carrier_show,
 * dormant_show, testing_show, speed_show, duplex_show: -EINVAL otherwise,
 * as mach_netdev_attr_refuses says), operstate_show ("down" for a device
 * that is not up whatever its operstate), netdev_uevent, and
 * netstat_show's statistics/ files: one rtnl_link_stats64 field, "%lu\n",
 * the same counters /proc/net/dev prints (its drop, frame and carrier
 * columns are sums of them).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "render.h"
#include "uprocfs/pfs_sysobj.h"

/* The device c->inst names: the table's exists predicates made sure it is one. */
static const struct mach_netdev *netdev(const struct pfs_ctx *c)
{
	int i = pfs_obj_net(c->mach, c->inst);

	return i < 0 ? NULL : &mach_sys_net(c->mach)->devs[i];
}

/* "%*phC": @len bytes as lowercase hex pairs joined by colons. */
static void put_mac(struct seq_file *m, const unsigned char *a, unsigned int len)
{
	static const char hex[] = "0123456789abcdef";

	for (unsigned int i = 0; i < len; i++) {
		if (i)
			seq_putc(m, ':');
		seq_putc(m, hex[a[i] >> 4]);
		seq_putc(m, hex[a[i] & 15]);
	}
	seq_putc(m, '\n');
}

/* fmt_hex: "%#x\n", which the kernel's vsprintf prefixes with "0x" for 0 too. */
static void put_hex(struct seq_file *m, unsigned long v)
{
	seq_printf(m, "0x%lx\n", v);
}

static void put_dec(struct seq_file *m, long long v)
{
	seq_put_decimal_ll(m, "", v);
	seq_putc(m, '\n');
}

static const char *const operstates[] = { "unknown", "notpresent", "down", "lowerlayerdown", "testing",
					  "dormant", "up" };

static void put_duplex(struct seq_file *m, unsigned char duplex)
{
	seq_puts(m, duplex == MACH_DUPLEX_HALF ? "half\n" : duplex == MACH_DUPLEX_FULL ? "full\n" : "unknown\n");
}

/* Attributes of the link and its counts of carrier changes. */
static bool show_link(struct seq_file *m, const struct mach_netdev *d, unsigned int a)
{
	const struct mach_netdev_sys *y = &d->sys;
	unsigned char op = mach_netdev_running(d) ? d->operstate : MACH_IF_OPER_DOWN;

	switch (a) {
	case MACH_NETA_CARRIER: put_dec(m, y->carrier); break;
	case MACH_NETA_DORMANT: put_dec(m, y->dormant); break;
	case MACH_NETA_TESTING: put_dec(m, y->testing); break;
	case MACH_NETA_SPEED: put_dec(m, d->speed); break;
	case MACH_NETA_DUPLEX: put_duplex(m, y->duplex); break;
	case MACH_NETA_CARRIER_CHANGES: put_dec(m, (int)(y->carrier_up + y->carrier_down)); break;
	case MACH_NETA_CARRIER_UP_COUNT: put_dec(m, (int)y->carrier_up); break;
	case MACH_NETA_CARRIER_DOWN_COUNT: put_dec(m, (int)y->carrier_down); break;
	case MACH_NETA_OPERSTATE:
		seq_puts(m, op < sizeof(operstates) / sizeof(operstates[0]) ? operstates[op] : "unknown");
		seq_putc(m, '\n');
		break;
	default: return false;
	}
	return true;
}

int pfs_show_net_attr(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	const struct mach_netdev *d = netdev(c);
	const struct mach_netdev_sys *y;
	int rc = d ? mach_netdev_attr_refuses(d, c->arg) : -ENOENT;

	(void)v;
	if (rc)
		return rc;
	y = &d->sys;
	if (show_link(m, d, c->arg))
		return 0;
	switch (c->arg) {
	case MACH_NETA_ADDR_ASSIGN_TYPE: put_dec(m, y->addr_assign_type); break;
	case MACH_NETA_ADDR_LEN: put_dec(m, d->addr_len); break;
	case MACH_NETA_ADDRESS: put_mac(m, d->addr, d->addr_len); break;
	case MACH_NETA_BROADCAST: put_mac(m, d->broadcast, d->addr_len); break;
	case MACH_NETA_DEV_ID: put_hex(m, y->dev_id); break;
	case MACH_NETA_DEV_PORT: put_dec(m, y->dev_port); break;
	case MACH_NETA_FLAGS: put_hex(m, d->flags); break;
	case MACH_NETA_GRO_FLUSH_TIMEOUT: seq_put_decimal_ull(m, "", y->gro_flush_timeout); seq_putc(m, '\n'); break;
	case MACH_NETA_IFINDEX: put_dec(m, d->ifindex); break;
	case MACH_NETA_IFLINK: put_dec(m, d->iflink); break;
	case MACH_NETA_LINK_MODE: put_dec(m, y->link_mode); break;
	case MACH_NETA_MTU: put_dec(m, d->mtu); break;
	case MACH_NETA_NAME_ASSIGN_TYPE: put_dec(m, y->name_assign_type); break;
	case MACH_NETA_NAPI_DEFER_HARD_IRQS: put_dec(m, y->napi_defer_hard_irqs); break;
	case MACH_NETA_NETDEV_GROUP: put_dec(m, y->group); break;
	case MACH_NETA_PROTO_DOWN: put_dec(m, y->proto_down); break;
	case MACH_NETA_THREADED: put_dec(m, y->threaded); break;
	case MACH_NETA_TX_QUEUE_LEN: put_dec(m, d->tx_queue_len); break;
	case MACH_NETA_TYPE: put_dec(m, d->type); break;
	case MACH_NETA_UEVENT:
		seq_printf(m, "INTERFACE=%s\nIFINDEX=%d\n", d->name, d->ifindex);
		break;
	default: return -ENOENT;
	}
	return 0;
}

/* statistics/<field>: netstat_show, one counter of dev_get_stats. */
int pfs_show_net_stat(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	const struct mach_netdev *d = netdev(c);
	unsigned int k = c->arg - MACH_NETA_STATS;

	(void)v;
	if (!d || c->arg < MACH_NETA_STATS || k >= MACH_NR_NETDEV_STATS)
		return -ENOENT;
	seq_put_decimal_ull(m, "", d->stats[k]);
	seq_putc(m, '\n');
	return 0;
}

/* ------------------------------------------------------------------ */
/* Links                                                                */

#define NET_PATH_MAX 600

/* "devices/" and device @d's directory. */
static int dev_path(const struct mach_netdev *d, char *buf, size_t size)
{
	char dir[NET_PATH_MAX - 16];
	int rc = mach_netdev_dir(d, dir, sizeof(dir));

	if (rc)
		return rc;
	return snprintf(buf, size, "devices/%s", dir) < (int)size ? 0 : -ENAMETOOLONG;
}

/* /sys/class/net/NAME (c->inst: the device's index), as device_add_class_symlinks links it. */
int pfs_link_class_net(const struct pfs_ctx *c, char *buf, size_t size)
{
	const struct mach_net *n = mach_sys_net(c->mach);
	char to[NET_PATH_MAX];
	int rc;

	if (!n || c->inst >= n->ndevs)
		return -ENOENT;
	rc = dev_path(&n->devs[c->inst], to, sizeof(to));
	return rc ? rc : pfs_sys_rel_link("class/net", to, buf, size);
}

int pfs_link_net_device(const struct pfs_ctx *c, char *buf, size_t size)
{
	const struct mach_netdev *d = netdev(c);
	char from[NET_PATH_MAX], to[NET_PATH_MAX];
	int rc;

	if (!d || !d->sys.parent[0])
		return -ENOENT;
	rc = dev_path(d, from, sizeof(from));
	if (rc)
		return rc;
	snprintf(to, sizeof(to), "devices/%s", d->sys.parent);
	return pfs_sys_rel_link(from, to, buf, size);
}

int pfs_link_net_subsystem(const struct pfs_ctx *c, char *buf, size_t size)
{
	const struct mach_netdev *d = netdev(c);
	char from[NET_PATH_MAX];
	int rc = d ? dev_path(d, from, sizeof(from)) : -ENOENT;

	return rc ? rc : pfs_sys_rel_link(from, "class/net", buf, size);
}
