/* SPDX-License-Identifier: MIT */
/*
 * mach_net.h - the network model: one struct mach_net per network namespace,
 * holding what its /proc/<pid>/net files show (interfaces, addresses,
 * routes, neighbours, sockets, SNMP counters, softnet statistics).
 *
 * Units are the kernel's: addresses as the kernel stores them (IPv4 as a
 * __be32 in memory order, IPv6 as 16 bytes), counters as u64, timer
 * deadlines as nanoseconds of the machine's uptime clock.  A few values the
 * kernel keeps globally (softnet per CPU, the TCP orphan/alloc/mem and UDP
 * mem figures of sockstat) are kept in every namespace: a loaded namespace
 * renders what its files said when they were read; the synthetic generator
 * and the simulator keep them equal across namespaces.
 *
 * The socket table of a namespace is the machine's one owner of socket
 * inodes: a process's fd table shows "socket:[inode]" for the sockets whose
 * owner (tgid, fd) is that process.
 */
#ifndef UPROCFS_MACH_NET_H
#define UPROCFS_MACH_NET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "uprocfs/mach_net_vocab.h"
#include "uprocfs/mach_netsys.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MACH_IFNAMSIZ 16          /* IFNAMSIZ, with the NUL */
#define MACH_MAX_ADDR_LEN 32      /* MAX_ADDR_LEN */
#define MACH_UNIX_PATH_MAX 108    /* sizeof(sun_path) */
#define MACH_ICMPMSG_MAX 512      /* ICMPMSG_MIB_MAX: In types 0..255, then Out types */

/* ARPHRD_* (include/uapi/linux/if_arp.h) */
#define MACH_ARPHRD_ETHER 1
#define MACH_ARPHRD_LOOPBACK 772
#define MACH_ARPHRD_VOID 0xFFFF   /* here: not known (a loaded device no file gave the type of) */

/* IFF_* (include/uapi/linux/if.h) */
#define MACH_IFF_UP 0x1u
#define MACH_IFF_BROADCAST 0x2u
#define MACH_IFF_LOOPBACK 0x8u
#define MACH_IFF_RUNNING 0x40u
#define MACH_IFF_NOARP 0x80u
#define MACH_IFF_PROMISC 0x100u
#define MACH_IFF_MULTICAST 0x1000u
#define MACH_IFF_LOWER_UP 0x10000u

/* IF_OPER_* (RFC 2863 operstate) */
enum mach_if_oper {
	MACH_IF_OPER_UNKNOWN, MACH_IF_OPER_NOTPRESENT, MACH_IF_OPER_DOWN,
	MACH_IF_OPER_LOWERLAYERDOWN, MACH_IF_OPER_TESTING, MACH_IF_OPER_DORMANT, MACH_IF_OPER_UP,
};

/** One network device of a namespace (struct net_device). */
struct mach_netdev {
	char name[MACH_IFNAMSIZ];
	int ifindex;              /* 0: not known (loaded, and no file gave it) */
	int iflink;               /* ifindex of the link's other end (veth peer), else ifindex */
	unsigned short type;      /* ARPHRD_* */
	unsigned int flags;       /* dev->flags (IFF_*, as sysfs "flags" shows; RUNNING and LOWER_UP follow operstate) */
	unsigned int mtu;
	unsigned int tx_queue_len;
	unsigned char operstate;  /* enum mach_if_oper */
	bool is_virtual;          /* no parent device (lo, bridges, veth): no sysfs device link */
	int speed;                /* Mb/s; -1: unknown (SPEED_UNKNOWN) */
	unsigned char addr_len;
	unsigned char addr[MACH_MAX_ADDR_LEN];       /* dev_addr */
	unsigned char broadcast[MACH_MAX_ADDR_LEN];
	uint64_t stats[MACH_NR_NETDEV_STATS];        /* rtnl_link_stats64 */
	struct mach_netdev_sys sys;                  /* what sysfs shows besides (mach_netsys.h) */
};

/** An IPv4 address of a device (struct in_ifaddr); no /proc file prints these. */
struct mach_inet_addr {
	uint32_t addr;            /* __be32 */
	unsigned char prefix_len;
	unsigned char scope;      /* RT_SCOPE_*: 0 universe, 253 link, 254 host */
	int dev;                  /* index into mach_net.devs */
};

/* IFA_* scopes as if_inet6 prints them, and IFA_F_* flags */
#define MACH_IFA_HOST 0x10u
#define MACH_IFA_LINK 0x20u
#define MACH_IFA_F_NODAD 0x02u
#define MACH_IFA_F_PERMANENT 0x80u

/** An IPv6 address of a device (struct inet6_ifaddr). */
struct mach_inet6_addr {
	unsigned char addr[16];
	int dev;                  /* index into mach_net.devs */
	unsigned char prefix_len;
	unsigned char scope;      /* 0 global, 0x10 host, 0x20 link, 0x40 site */
	uint32_t flags;           /* IFA_F_*; if_inet6 shows the low 8 bits */
};

/* RTN_* route types the main table shows */
#define MACH_RTN_UNICAST 1
#define MACH_RTN_BLACKHOLE 6
#define MACH_RTN_UNREACHABLE 7
#define MACH_RTN_PROHIBIT 8

/** A route of the IPv4 main table (a fib_alias with its fib_info). */
struct mach_route {
	uint32_t dst;             /* __be32 */
	unsigned char plen;       /* prefix length */
	unsigned char type;       /* RTN_* */
	uint32_t gw;              /* __be32 IPv4 gateway, 0: none */
	bool gw_v6;               /* an IPv6 next hop (RFC 5549): flagged a gateway, printed 0 */
	int dev;                  /* index into mach_net.devs; -1: no device */
	uint32_t priority;        /* metric */
	uint32_t advmss, window, rtt; /* fib_info metrics; rtt as the kernel keeps it (<<3) */
};

/* NUD_* neighbour states */
#define MACH_NUD_INCOMPLETE 0x01u
#define MACH_NUD_REACHABLE 0x02u
#define MACH_NUD_STALE 0x04u
#define MACH_NUD_FAILED 0x20u
#define MACH_NUD_NOARP 0x40u
#define MACH_NUD_PERMANENT 0x80u

/** An IPv4 neighbour (ARP cache entry), or a proxy-ARP entry. */
struct mach_neigh {
	uint32_t ip;              /* __be32 */
	int dev;                  /* index into mach_net.devs; -1 (proxy entries only): any */
	unsigned char nud_state;  /* NUD_* */
	bool proxy;               /* a pneigh entry: printed after the others */
	unsigned char ha[MACH_MAX_ADDR_LEN]; /* as long as the device's addr_len */
};

/* Socket families, types and states */
#define MACH_AF_UNIX 1
#define MACH_AF_INET 2
#define MACH_AF_INET6 10
#define MACH_AF_NETLINK 16
#define MACH_SOCK_STREAM 1
#define MACH_SOCK_DGRAM 2
#define MACH_SOCK_RAW 3
#define MACH_SOCK_SEQPACKET 5
#define MACH_IPPROTO_TCP 6
#define MACH_IPPROTO_UDP 17

/* TCP_* states (include/net/tcp_states.h); sk_state of every family uses them */
enum mach_tcp_state {
	MACH_TCP_ESTABLISHED = 1, MACH_TCP_SYN_SENT, MACH_TCP_SYN_RECV, MACH_TCP_FIN_WAIT1,
	MACH_TCP_FIN_WAIT2, MACH_TCP_TIME_WAIT, MACH_TCP_CLOSE, MACH_TCP_CLOSE_WAIT,
	MACH_TCP_LAST_ACK, MACH_TCP_LISTEN, MACH_TCP_CLOSING, MACH_TCP_NEW_SYN_RECV,
};

/* What kind of object a TCP row is */
enum mach_sock_kind {
	MACH_SK_FULL,             /* a struct sock */
	MACH_SK_TIMEWAIT,         /* an inet_timewait_sock: state is its substate */
	MACH_SK_REQUEST,          /* a request_sock (NEW_SYN_RECV) */
};

/* The tr column of /proc/net/tcp */
enum mach_tcp_timer {
	MACH_TCP_TIMER_NONE, MACH_TCP_TIMER_RETRANS, MACH_TCP_TIMER_KEEPALIVE,
	MACH_TCP_TIMER_TIMEWAIT, MACH_TCP_TIMER_PROBE0,
};

/**
 * One socket: TCP, UDP and unix sockets (which the files show), and others
 * (netlink) that only fd tables and "sockets: used" count.
 */
struct mach_socket {
	/* the wide fields first: no padding between them (860,000 sockets at a million tasks) */
	uint64_t inode;           /* sock_i_ino; 0 for time-wait and request socks */
	uint64_t timer_expires;   /* ns of uptime; the file shows what is left, 0 once past */
	uint64_t kaddr;           /* the object's address as %pK prints it (hashed) */
	uint64_t peer;            /* unix: the connected peer's inode, 0: none */
	pid_t tgid;               /* the owning process; 0: none (orphaned, time-wait, kernel) */
	int fd;                   /* its fd number in the owner, -1: none */
	uint32_t uid;             /* sk_uid (of the listener, for a request sock) */
	uint32_t tx_queue;        /* TCP write_seq - snd_una; UDP wmem_alloc */
	uint32_t rx_queue;        /* TCP accept backlog or unread bytes; UDP rmem (truesize) */
	int refcnt;
	/* TCP full sockets */
	uint32_t rto, ato;        /* icsk_rto, icsk_ack.ato in clock_t */
	uint32_t cwnd;
	int32_t ssthresh;         /* -1 in initial slow start; a listener's fastopen max_qlen */
	/* UDP */
	uint32_t drops;
	uint32_t hash_slot;       /* the udptable bucket (sl of /proc/net/udp) */
	/*
	 * unix: where its sun_path lies in its namespace's mach_net.sock_paths
	 * (read it with mach_sock_path()): path_len bytes, abstract names
	 * starting with NUL, no trailing NUL kept.  Not inline: 108 bytes in
	 * each of a million-task machine's 860,000 sockets, most of them
	 * without a path or with one of a few dozen.
	 */
	uint32_t path_off;
	unsigned short family;    /* MACH_AF_* */
	uint16_t lport, rport;    /* host order */
	unsigned char laddr[16], raddr[16]; /* IPv4 in the first 4 bytes */
	unsigned char type;       /* MACH_SOCK_* */
	unsigned char protocol;   /* MACH_IPPROTO_* for inet sockets, else 0 */
	unsigned char kind;       /* enum mach_sock_kind */
	unsigned char state;      /* sk_state (TCP_*); a time-wait sock's substate */
	unsigned char timer;      /* enum mach_tcp_timer */
	unsigned char retransmits, probes_out; /* icsk_retransmits (request: num_timeout); icsk_probes_out */
	unsigned char ack_flags;  /* TCP: (icsk_ack.quick << 1) | pingpong */
	bool has_socket;          /* unix: sk_socket set: attached to a struct socket (an fd's) */
	unsigned char path_len;   /* unix: bytes of sun_path bound (0: unbound) */
};

/** softnet_data of one online CPU (global in the kernel). */
struct mach_softnet {
	unsigned int cpu;
	uint32_t processed, dropped, time_squeeze, received_rps, flow_limit_count;
	uint32_t input_qlen, process_qlen;
};

/** /proc/net/sockstat: the kernel's counters (some global). */
struct mach_sockstat {
	int32_t sockets_used;     /* sock_inuse_get: every socket of the namespace */
	int32_t tcp_inuse, tcp_orphan, tcp_tw, tcp_alloc;
	int64_t tcp_mem;          /* pages, global */
	int32_t udp_inuse;
	int64_t udp_mem;          /* pages, global */
	int32_t udplite_inuse, raw_inuse;
	uint32_t frag_inuse;
	uint64_t frag_memory;     /* bytes */
};

/** /proc/net/sockstat6: the IPv6 protocols' counts. */
struct mach_sockstat6 {
	int32_t tcp_inuse, udp_inuse, udplite_inuse, raw_inuse;
	uint32_t frag_inuse;
	uint64_t frag_memory;     /* bytes */
};

/** One network namespace. */
struct mach_net {
	/*
	 * The namespace's nsfs inode, as /proc/<pid>/ns/net names it
	 * ("net:[ino]") for its tasks; 0: not known (a loaded machine's).
	 */
	uint32_t ino;
	unsigned int ndevs;
	struct mach_netdev *devs;         /* ascending ifindex: /proc/net/dev order */
	unsigned int ninet;
	struct mach_inet_addr *inet;
	unsigned int ninet6;
	struct mach_inet6_addr *inet6;    /* /proc/net/if_inet6 (hash) order */
	unsigned int nroutes;
	/*
	 * No main routing table yet (a new namespace whose only routes are
	 * the local table's): /proc/net/route is empty, not even its header.
	 */
	bool no_main_table;
	struct mach_route *routes;        /* /proc/net/route (trie) order */
	unsigned int nneigh;
	struct mach_neigh *neigh;         /* /proc/net/arp order, proxy entries last */
	size_t nsocks;
	struct mach_socket *socks;        /* hash order: each file shows its sockets in this order */
	char *sock_paths;                 /* the unix sockets' paths, back to back (struct mach_socket.path_off) */
	size_t sock_paths_len, sock_paths_cap;
	size_t sock_paths_last;           /* where the path kept last starts (mach_net_sock_set_path) */
	unsigned int nsoftnet;
	struct mach_softnet *softnet;     /* online CPUs, ascending */
	struct mach_sockstat sockstat;
	struct mach_sockstat6 sockstat6;

	bool ip_forward;                  /* net.ipv4.conf.all.forwarding */
	int ip_default_ttl;               /* net.ipv4.ip_default_ttl */
	uint64_t ip[MACH_NR_NET_IP];
	uint64_t icmp[MACH_NR_NET_ICMP];
	uint64_t icmpmsg[MACH_ICMPMSG_MAX];
	uint64_t tcp[MACH_NR_NET_TCP];    /* MaxConn holds -1 as two's complement */
	uint64_t udp[MACH_NR_NET_UDP], udplite[MACH_NR_NET_UDP];
	uint64_t tcpext[MACH_NR_NET_TCPEXT];
	uint64_t ipext[MACH_NR_NET_IPEXT];
	uint64_t mptcp[MACH_NR_NET_MPTCP];
	uint64_t ip6[MACH_NR_NET_IP6];
	uint64_t icmp6[MACH_NR_NET_ICMP6];
	uint64_t icmp6msg[MACH_ICMPMSG_MAX];
	uint64_t udp6[MACH_NR_NET_UDP6];
	uint64_t udplite6[MACH_NR_NET_UDPLITE6];
};

/** Free what @n owns and zero it. */
void mach_net_clear(struct mach_net *n);

/** @s's unix path, s->path_len bytes (not NUL-terminated; abstract names start with NUL), in @n its namespace. */
static inline const char *mach_sock_path(const struct mach_net *n, const struct mach_socket *s)
{
	return s->path_len ? n->sock_paths + s->path_off : "";
}

/**
 * Bind @s (a socket of @n, or one going there) to the @len bytes of @path
 * (at most MACH_UNIX_PATH_MAX): kept in @n's paths, once when it equals
 * the path kept last.  0, -EINVAL (too long) or -ENOMEM.
 */
int mach_net_sock_set_path(struct mach_net *n, struct mach_socket *s, const char *path, size_t len);

/** Deep copy @src into @dst (zeroed by the caller): 0 or -ENOMEM. */
int mach_net_copy(struct mach_net *dst, const struct mach_net *src);

/** True when @a and @b hold the same data (every field every file shows, and the rest). */
bool mach_net_equal(const struct mach_net *a, const struct mach_net *b);

/** The device named @name, or -1. */
int mach_net_dev_by_name(const struct mach_net *n, const char *name);

/** IPv4 address a.b.c.d as the kernel's __be32 holds it. */
static inline uint32_t mach_ipv4(unsigned int a, unsigned int b, unsigned int c, unsigned int d)
{
	const unsigned char bytes[4] = { (unsigned char)a, (unsigned char)b, (unsigned char)c,
					 (unsigned char)d };
	uint32_t v;

	__builtin_memcpy(&v, bytes, 4);
	return v;
}

#ifdef __cplusplus
}
#endif

#endif /* UPROCFS_MACH_NET_H */
