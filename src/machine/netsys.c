// SPDX-License-Identifier: MIT
/*
 * netsys.c - the sysfs side of network devices (mach_netsys.h): which
 * namespace /sys/class/net shows, and which attributes a device's show
 * functions refuse, as net/core/net-sysfs.c of Linux 6.18 decides.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "uprocfs/machine.h"

const struct mach_net *mach_sys_net(const struct mach_machine *m)
{
	const struct mach_process *init = mach_find_process(m, 1);
	const struct mach_net *n = init && init->nthreads ? mach_thread_net(m, &init->threads[0]) : NULL;

	/* sysfs was mounted in init_net: pid 1's, or the first the machine has when pid 1 is not known */
	return n ? n : m->nnets ? &m->nets[0] : NULL;
}

bool mach_netdev_sys_equal(const struct mach_netdev_sys *a, const struct mach_netdev_sys *b)
{
	return a->known == b->known && !strcmp(a->parent, b->parent) && a->link_ksettings == b->link_ksettings &&
	       a->duplex == b->duplex && a->carrier == b->carrier && a->dormant == b->dormant &&
	       a->testing == b->testing && a->carrier_up == b->carrier_up && a->carrier_down == b->carrier_down &&
	       a->addr_assign_type == b->addr_assign_type && a->name_assign_type == b->name_assign_type &&
	       a->link_mode == b->link_mode && a->proto_down == b->proto_down && a->threaded == b->threaded &&
	       a->dev_id == b->dev_id && a->dev_port == b->dev_port && a->group == b->group &&
	       a->napi_defer_hard_irqs == b->napi_defer_hard_irqs && a->gro_flush_timeout == b->gro_flush_timeout;
}

int mach_netdev_dir(const struct mach_netdev *d, char *buf, size_t size)
{
	int n;

	if (!d->sys.known)
		return -ENOENT;
	/* a device with a parent hangs in its "net" glue directory; a virtual one under virtual/net */
	n = d->sys.parent[0] ? snprintf(buf, size, "%s/net/%s", d->sys.parent, d->name)
			     : snprintf(buf, size, "virtual/net/%s", d->name);
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

bool mach_netdev_running(const struct mach_netdev *d)
{
	return d->flags & MACH_IFF_UP;
}

int mach_netdev_attr_refuses(const struct mach_netdev *d, unsigned int a)
{
	switch (a) {
	case MACH_NETA_CARRIER:
	case MACH_NETA_DORMANT:
	case MACH_NETA_TESTING:
		/* carrier_show, dormant_show, testing_show: only while running */
		return mach_netdev_running(d) ? 0 : -EINVAL;
	case MACH_NETA_SPEED:
	case MACH_NETA_DUPLEX:
		/* no get_link_ksettings, or not running */
		return d->sys.link_ksettings && mach_netdev_running(d) ? 0 : -EINVAL;
	case MACH_NETA_NAME_ASSIGN_TYPE:
		return d->sys.name_assign_type != MACH_NET_NAME_UNKNOWN ? 0 : -EINVAL;
	default:
		return 0;
	}
}
