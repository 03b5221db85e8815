/* SPDX-License-Identifier: MIT */
/*
 * mach_netsys.h - what sysfs shows of a network device beyond what /proc
 * shows: where its directory hangs under /sys/devices, its link state and
 * the small attributes of net/core/net-sysfs.c (Linux 6.18).
 *
 * One truth with /proc: a device's name, index, type, flags, MTU, queue
 * length, operstate, speed, addresses and counters stay in struct
 * mach_netdev (mach_net.h), which /proc/net/dev and sysfs's statistics/
 * both print.  What is here is only what /proc never says.  mach_net.h
 * includes this header: each struct mach_netdev holds one struct
 * mach_netdev_sys (all zero: the model knows nothing of its sysfs side, a
 * machine loaded from /proc alone, and the device has no directory).
 */
#ifndef UPROCFS_MACH_NETSYS_H
#define UPROCFS_MACH_NETSYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MACH_NETDEV_PARENT_MAX 96  /* a parent device's path below /sys/devices, with the NUL */

/* DUPLEX_* (include/uapi/linux/ethtool.h) */
#define MACH_DUPLEX_HALF 0x00
#define MACH_DUPLEX_FULL 0x01
#define MACH_DUPLEX_UNKNOWN 0xff

/* NET_ADDR_* (addr_assign_type) and NET_NAME_* (name_assign_type), include/uapi/linux/netdevice.h */
#define MACH_NET_ADDR_PERM 0
#define MACH_NET_ADDR_RANDOM 1
#define MACH_NET_ADDR_STOLEN 2
#define MACH_NET_ADDR_SET 3
#define MACH_NET_NAME_UNKNOWN 0   /* name_assign_type refuses to show it (EINVAL) */
#define MACH_NET_NAME_ENUM 1
#define MACH_NET_NAME_PREDICTABLE 2
#define MACH_NET_NAME_USER 3
#define MACH_NET_NAME_RENAMED 4

/**
 * The sysfs side of one network device (struct net_device as
 * net/core/net-sysfs.c shows it).  Link state that sysfs shows only while
 * the device is up (IFF_UP: netif_running) is kept whatever the flags say.
 */
struct mach_netdev_sys {
	bool known;               /* the device has a directory: what follows is the model's */
	/*
	 * The device it sits on, below /sys/devices ("pci0000:00/0000:00:03.0/
	 * virtio0"): the directory is that, "net", then the name.  Empty for a
	 * virtual device (mach_netdev.is_virtual): "virtual/net/NAME".
	 */
	char parent[MACH_NETDEV_PARENT_MAX];
	bool link_ksettings;      /* its driver answers ethtool's link settings: speed and duplex show */
	unsigned char duplex;     /* MACH_DUPLEX_* */
	bool carrier;             /* netif_carrier_ok */
	bool dormant, testing;    /* IF_OPER_DORMANT / TESTING reported by the driver */
	uint32_t carrier_up, carrier_down; /* carrier_up_count, carrier_down_count; carrier_changes is their sum */
	unsigned char addr_assign_type;    /* MACH_NET_ADDR_* */
	unsigned char name_assign_type;    /* MACH_NET_NAME_* */
	unsigned char link_mode;  /* IF_LINK_MODE_* */
	bool proto_down;
	unsigned char threaded;   /* NAPI in kthreads: 0 off, 1 on, 2 busy-poll */
	uint16_t dev_id, dev_port;
	uint32_t group;           /* netdev_group */
	uint32_t napi_defer_hard_irqs;
	uint64_t gro_flush_timeout; /* ns */
};

/**
 * The files of a device's sysfs directory, as the file table's arg: the
 * attributes in name order, the links, then statistics/ (MACH_NETA_STATS +
 * enum mach_netdev_stat).
 */
enum mach_netdev_attr {
	MACH_NETA_ADDR_ASSIGN_TYPE, MACH_NETA_ADDR_LEN, MACH_NETA_ADDRESS, MACH_NETA_BROADCAST,
	MACH_NETA_CARRIER, MACH_NETA_CARRIER_CHANGES, MACH_NETA_CARRIER_DOWN_COUNT, MACH_NETA_CARRIER_UP_COUNT,
	MACH_NETA_DEV_ID, MACH_NETA_DEV_PORT, MACH_NETA_DORMANT, MACH_NETA_DUPLEX, MACH_NETA_FLAGS,
	MACH_NETA_GRO_FLUSH_TIMEOUT, MACH_NETA_IFINDEX, MACH_NETA_IFLINK, MACH_NETA_LINK_MODE, MACH_NETA_MTU,
	MACH_NETA_NAME_ASSIGN_TYPE, MACH_NETA_NAPI_DEFER_HARD_IRQS, MACH_NETA_NETDEV_GROUP, MACH_NETA_OPERSTATE,
	MACH_NETA_PROTO_DOWN, MACH_NETA_SPEED, MACH_NETA_TESTING, MACH_NETA_THREADED, MACH_NETA_TX_QUEUE_LEN,
	MACH_NETA_TYPE, MACH_NETA_UEVENT,
	MACH_NETA_CLASS_LINK,     /* /sys/class/net/NAME */
	MACH_NETA_DEVICE_LINK,    /* NAME/device: the parent device */
	MACH_NETA_SUBSYSTEM_LINK, /* NAME/subsystem: class/net */
	MACH_NETA_STATS,          /* statistics/<stat>: MACH_NETA_STATS + enum mach_netdev_stat */
};

struct mach_machine;
struct mach_net;
struct mach_netdev;

/**
 * The network namespace /sys/class/net shows: the one sysfs was mounted in,
 * the machine's first (init_net, which pid 1 is in); NULL when none.
 */
const struct mach_net *mach_sys_net(const struct mach_machine *m);

/** Whether @a and @b have the same sysfs side, field by field. */
bool mach_netdev_sys_equal(const struct mach_netdev_sys *a, const struct mach_netdev_sys *b);

/**
 * Device @d's directory below /sys/devices into @buf: its parent's path,
 * "net" and its name, or "virtual/net/NAME".  0, -ENOENT (no sysfs side
 * known) or -ENAMETOOLONG.
 */
int mach_netdev_dir(const struct mach_netdev *d, char *buf, size_t size);

/** Whether device @d is up (IFF_UP: netif_running), so that its link state shows. */
bool mach_netdev_running(const struct mach_netdev *d);

/**
 * The errno a read of attribute @a (enum mach_netdev_attr) of device @d
 * fails with, as its show function refuses (EINVAL: carrier of a device
 * that is down, speed without link settings, an unknown name_assign_type),
 * or 0 when it shows.
 */
int mach_netdev_attr_refuses(const struct mach_netdev *d, unsigned int a);

#ifdef __cplusplus
}
#endif

#endif /* UPROCFS_MACH_NETSYS_H */
