// SPDX-License-Identifier: MIT
/*
 * net_assemble.c - one task's /proc/<pid>/net files, checked against each
 * other and built into the struct mach_net they show; the namespaces of a
 * process's threads; and their place in the machine.
 *
 * Devices: /proc/net/dev lists them (in ifindex order, without the index);
 * arp, route and if_inet6 name them, and tell their hardware type, address
 * length and ifindex.  A name the dev file does not list, or two files
 * telling different things of a device, is a disagreement (on a live tree:
 * a device came or went between two reads).  Without the dev file the
 * devices named are all the namespace holds.
 *
 * Tasks that read the same namespace at a moment it did not change show
 * the same files: they share one struct mach_net (mach_net_equal).  A
 * namespace read again later, with its counters moved, is another one.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "load_net.h"

#define NET(files, kind) ((files)[(kind) - MACH_LD_PID_NET_FIRST])

/* Take @f's array at @field (count at @nfield) into @out's, leaving @f's empty. */
#define MOVE(out, f, field, nfield)          \
	do {                                 \
		(out)->field = (f)->n.field; \
		(out)->nfield = (f)->n.nfield; \
		(f)->n.field = NULL;         \
		(f)->n.nfield = 0;           \
	} while (0)

/* Merge what @f says of the devices it names into @out's list; map[i] is where its device i went. */
static int merge_devs(struct mach_net *out, const struct ld_net_file *f, const struct ld_net_file *dev_file,
		      int *map, const struct ld_msg *ms)
{
	for (unsigned int i = 0; i < f->n.ndevs; i++) {
		const struct mach_netdev *d = &f->n.devs[i];
		int k = mach_net_dev_by_name(out, d->name);
		struct mach_netdev *o;

		if (k < 0 && dev_file)
			return ld_say(ms, -EINVAL, "%s:%u: device %s, which %s does not list", f->path, f->dev_line[i],
				      d->name, dev_file->path);
		if (k < 0) {
			o = realloc(out->devs, (out->ndevs + 1) * sizeof(*o));
			if (!o)
				return -ENOMEM;
			out->devs = o;
			k = (int)out->ndevs++;
			o[k] = (struct mach_netdev){ .type = MACH_ARPHRD_VOID, .speed = -1 };
			memcpy(o[k].name, d->name, MACH_IFNAMSIZ);
		}
		o = &out->devs[k];
		map[i] = k;
		if (((f->dev_known[i] & LD_DEV_TYPE) && o->type != MACH_ARPHRD_VOID && o->type != d->type) ||
		    ((f->dev_known[i] & LD_DEV_IFINDEX) && o->ifindex && o->ifindex != d->ifindex))
			return ld_say(ms, -EINVAL, "%s:%u: device %s differs from what another net file says of it",
				      f->path, f->dev_line[i], d->name);
		if (f->dev_known[i] & LD_DEV_TYPE)
			o->type = d->type;
		if (f->dev_known[i] & LD_DEV_ALEN)
			o->addr_len = d->addr_len;
		if (f->dev_known[i] & LD_DEV_IFINDEX)
			o->ifindex = d->ifindex;
	}
	return 0;
}

/* The devices and the tables that name them. */
static int build_devs(struct ld_net_file *const *files, struct mach_net *out, const struct ld_msg *ms)
{
	static const enum mach_ld_kind naming[] = { MACH_LD_PID_NET_ARP, MACH_LD_PID_NET_ROUTE,
						    MACH_LD_PID_NET_IF_INET6 };
	struct ld_net_file *dev = NET(files, MACH_LD_PID_NET_DEV);
	int rc = 0;

	if (dev)
		MOVE(out, dev, devs, ndevs);
	for (size_t k = 0; k < sizeof(naming) / sizeof(naming[0]) && !rc; k++) {
		struct ld_net_file *f = NET(files, naming[k]);
		int *map;

		if (!f)
			continue;
		map = calloc(f->n.ndevs + 1, sizeof(*map));
		if (!map)
			return -ENOMEM;
		rc = merge_devs(out, f, dev, map, ms);
		for (unsigned int i = 0; !rc && i < f->n.nneigh; i++)
			f->n.neigh[i].dev = f->n.neigh[i].dev >= 0 ? map[f->n.neigh[i].dev] : -1;
		for (unsigned int i = 0; !rc && i < f->n.nroutes; i++)
			f->n.routes[i].dev = f->n.routes[i].dev >= 0 ? map[f->n.routes[i].dev] : -1;
		for (unsigned int i = 0; !rc && i < f->n.ninet6; i++)
			f->n.inet6[i].dev = map[f->n.inet6[i].dev];
		free(map);
	}
	if (rc)
		return rc;
	if (NET(files, MACH_LD_PID_NET_ARP))
		MOVE(out, NET(files, MACH_LD_PID_NET_ARP), neigh, nneigh);
	if (NET(files, MACH_LD_PID_NET_ROUTE)) {
		MOVE(out, NET(files, MACH_LD_PID_NET_ROUTE), routes, nroutes);
		out->no_main_table = NET(files, MACH_LD_PID_NET_ROUTE)->n.no_main_table;
	}
	if (NET(files, MACH_LD_PID_NET_IF_INET6))
		MOVE(out, NET(files, MACH_LD_PID_NET_IF_INET6), inet6, ninet6);
	/* net/dev lists devices by ifindex: the indexes if_inet6 gave must ascend */
	for (unsigned int i = 0, last = 0; dev && i < out->ndevs; i++) {
		if (!out->devs[i].ifindex)
			continue;
		if ((unsigned int)out->devs[i].ifindex <= last)
			return ld_say(ms, -EINVAL, "%s lists %s after a device with a higher ifindex (if_inet6)",
				      dev->path, out->devs[i].name);
		last = (unsigned int)out->devs[i].ifindex;
	}
	return 0;
}

static int inode_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* The error for socket inode @ino in two rows: both named as "path:line" (a row's line: after the header). */
static int two_rows(struct ld_net_file *const *files, const enum mach_ld_kind *tables, size_t ntables,
		    unsigned long long ino, const struct ld_msg *ms)
{
	const char *path[2] = { "?", "?" };
	size_t line[2] = { 0, 0 }, found = 0;

	for (size_t t = 0; t < ntables && found < 2; t++) {
		const struct ld_net_file *f = NET(files, tables[t]);

		for (size_t i = 0; f && i < f->n.nsocks && found < 2; i++)
			if (f->n.socks[i].inode == ino) {
				path[found] = f->path;
				line[found++] = i + 2;
			}
	}
	return ld_say(ms, -EINVAL, "%s:%zu: socket inode %llu shows in two rows (also %s:%zu)", path[1], line[1], ino,
		      path[0], line[0]);
}

/* The socket files' tables, one after the other; deadlines from the ticks left. */
static int build_socks(struct ld_net_file *const *files, uint64_t uptime_ns, struct mach_net *out,
		       const struct ld_msg *ms)
{
	static const enum mach_ld_kind tables[] = { MACH_LD_PID_NET_TCP, MACH_LD_PID_NET_TCP6, MACH_LD_PID_NET_UDP,
						    MACH_LD_PID_NET_UDP6, MACH_LD_PID_NET_UNIX };
	size_t n = 0, k = 0;
	uint64_t *inodes;

	for (size_t t = 0; t < sizeof(tables) / sizeof(tables[0]); t++)
		n += NET(files, tables[t]) ? NET(files, tables[t])->n.nsocks : 0;
	if (!n)
		return 0;
	out->socks = malloc(n * sizeof(*out->socks));
	inodes = malloc(n * sizeof(*inodes));
	if (!out->socks || !inodes) {
		free(inodes);
		return -ENOMEM;
	}
	for (size_t t = 0; t < sizeof(tables) / sizeof(tables[0]); t++) {
		const struct ld_net_file *f = NET(files, tables[t]);

		for (size_t i = 0; f && i < f->n.nsocks; i++) {
			struct mach_socket *s = &out->socks[out->nsocks++];
			int rc;

			*s = f->n.socks[i];
			/* its path moves from the file's table to the namespace's */
			if ((rc = mach_net_sock_set_path(out, s, mach_sock_path(&f->n, &f->n.socks[i]), s->path_len))) {
				free(inodes);
				return rc;
			}
			if (s->protocol == MACH_IPPROTO_TCP && (s->kind != MACH_SK_FULL || s->timer))
				s->timer_expires = uptime_ns + s->timer_expires * MACH_NSEC_PER_TICK;
			if (s->inode)
				inodes[k++] = s->inode;
		}
	}
	if (k)
		qsort(inodes, k, sizeof(*inodes), inode_cmp);
	for (size_t i = 1; i < k; i++)
		if (inodes[i] == inodes[i - 1]) {
			unsigned long long ino = inodes[i];

			free(inodes);
			return two_rows(files, tables, sizeof(tables) / sizeof(tables[0]), ino, ms);
		}
	free(inodes);
	return 0;
}

/* The counters, sockstat and softnet: each from the one file that shows it. */
static void build_counters(struct ld_net_file *const *files, struct mach_net *out)
{
	const struct ld_net_file *f;

	if ((f = NET(files, MACH_LD_PID_NET_SNMP))) {
		out->ip_forward = f->n.ip_forward;
		out->ip_default_ttl = f->n.ip_default_ttl;
		memcpy(out->ip, f->n.ip, sizeof(out->ip));
		memcpy(out->icmp, f->n.icmp, sizeof(out->icmp));
		memcpy(out->icmpmsg, f->n.icmpmsg, sizeof(out->icmpmsg));
		memcpy(out->tcp, f->n.tcp, sizeof(out->tcp));
		memcpy(out->udp, f->n.udp, sizeof(out->udp));
		memcpy(out->udplite, f->n.udplite, sizeof(out->udplite));
	}
	if ((f = NET(files, MACH_LD_PID_NET_NETSTAT))) {
		memcpy(out->tcpext, f->n.tcpext, sizeof(out->tcpext));
		memcpy(out->ipext, f->n.ipext, sizeof(out->ipext));
		memcpy(out->mptcp, f->n.mptcp, sizeof(out->mptcp));
	}
	if ((f = NET(files, MACH_LD_PID_NET_SNMP6))) {
		memcpy(out->ip6, f->n.ip6, sizeof(out->ip6));
		memcpy(out->icmp6, f->n.icmp6, sizeof(out->icmp6));
		memcpy(out->icmp6msg, f->n.icmp6msg, sizeof(out->icmp6msg));
		memcpy(out->udp6, f->n.udp6, sizeof(out->udp6));
		memcpy(out->udplite6, f->n.udplite6, sizeof(out->udplite6));
	}
	if ((f = NET(files, MACH_LD_PID_NET_SOCKSTAT)))
		out->sockstat = f->n.sockstat;
	if ((f = NET(files, MACH_LD_PID_NET_SOCKSTAT6)))
		out->sockstat6 = f->n.sockstat6;
}

int ld_net_build(struct ld_net_file *const files[LD_NR_NET], uint64_t uptime_ns, struct mach_net *out,
		 const struct ld_msg *ms)
{
	struct ld_net_file *softnet = NET(files, MACH_LD_PID_NET_SOFTNET);
	bool any = false;
	int rc;

	for (int k = 0; k < LD_NR_NET; k++)
		any |= files[k] != NULL;
	if (!any)
		return 1;
	rc = build_devs(files, out, ms);
	if (!rc)
		rc = build_socks(files, uptime_ns, out, ms);
	if (rc) {
		mach_net_clear(out);
		return rc;
	}
	build_counters(files, out);
	if (softnet)
		MOVE(out, softnet, softnet, nsoftnet);
	return 0;
}

/* A path naming @files in messages: the first file present. */
static const char *files_path(struct ld_net_file *const *files)
{
	for (int k = 0; k < LD_NR_NET; k++)
		if (files[k])
			return files[k]->path;
	return "?";
}

/* The slot of thread @tid: task/<tid>/, or NULL. */
static struct ld_task *slot_of(struct ld_pid *lp, pid_t tid)
{
	for (size_t i = 0; i < lp->ntasks; i++)
		if (lp->tasks[i].tid == tid)
			return &lp->tasks[i];
	return NULL;
}

/* The inode task slot @t's ns/net link names (0: not read), where its net files were read. */
static uint32_t ns_ino(const struct ld_task *t)
{
	return t && t->nsr ? t->nsr->ino[MACH_NS_NET] : 0;
}

/*
 * One directory's namespace: built from its net files into @out (0), 1
 * when it has none, or known to be the machine's *@at - 1 (0, @out left
 * empty) when the walk saw the same bytes build it (ld_task.net_ref).
 */
static int task_net(const struct mach_loader *ld, const struct ld_task *t, struct mach_net *out, unsigned int *at,
		    const struct ld_msg *ms)
{
	int rc;

	*at = 0;
	if (t->net_ref) {
		*at = t->net_ref;
		return 0;
	}
	rc = ld_net_build(t->net, ld->m->uptime_ns, out, ms);
	if (!rc)
		out->ino = ns_ino(t);
	return rc;
}

/* Whether the namespace built (@n) or known (@at) of one directory is that of the other. */
static bool same_net(const struct mach_machine *m, const struct mach_net *a, unsigned int at_a,
		     const struct mach_net *b, unsigned int at_b)
{
	if (at_a && at_b)
		return at_a == at_b;
	if (at_a || at_b)
		return mach_net_equal(at_a ? &m->nets[at_a - 1] : a, at_b ? &m->nets[at_b - 1] : b);
	return mach_net_equal(a, b);
}

/* The leader's namespace: /proc/<pid>/net and task/<pid>/net describe one nsproxy. */
static int leader_net(const struct mach_loader *ld, struct ld_pid *lp, struct mach_net *out, unsigned int *at,
		      const struct ld_msg *ms)
{
	struct ld_task *lt = slot_of(lp, lp->tgid);
	struct mach_net other = { 0 };
	unsigned int at_other = 0;
	int rc = task_net(ld, &lp->whole, out, at, ms);

	if (rc < 0 || !lt)
		return rc;
	if (rc == 1)
		return task_net(ld, lt, out, at, ms);
	rc = task_net(ld, lt, &other, &at_other, ms);
	if (rc)
		return rc < 0 ? rc : 0;
	if (!same_net(ld->m, out, *at, &other, at_other))
		rc = ld_say(ms, -EINVAL, "%s and %s show different network namespaces", files_path(lp->whole.net),
			    files_path(lt->net));
	mach_net_clear(&other);
	return rc;
}

int ld_assemble_nets(const struct mach_loader *ld, struct ld_pid *lp, const struct mach_process *p,
		     struct ld_commit *cm, const struct ld_msg *ms)
{
	int rc = 0;

	cm->nets = calloc(p->nthreads + 1, sizeof(*cm->nets));
	cm->net_of = calloc(p->nthreads + 1, sizeof(*cm->net_of));
	cm->net_at = calloc(p->nthreads + 1, sizeof(*cm->net_at));
	if (!cm->nets || !cm->net_of || !cm->net_at)
		return -ENOMEM;
	for (unsigned int i = 0; i < p->nthreads && rc >= 0; i++) {
		struct mach_net *n = &cm->nets[cm->nnets];
		struct ld_task *t;

		if (!i)
			rc = leader_net(ld, lp, n, &cm->net_at[i], ms);
		else
			rc = (t = slot_of(lp, p->threads[i].tid)) ? task_net(ld, t, n, &cm->net_at[i], ms) : 1;
		if (rc == 0 && !cm->net_at[i])
			cm->net_of[i] = ++cm->nnets;
		else if (rc)
			mach_net_clear(n);
	}
	return rc < 0 ? rc : 0;
}

int ld_commit_nets(struct mach_machine *m, struct ld_commit *cm, struct mach_process *p)
{
	unsigned int *where = calloc(cm->nnets + 1, sizeof(*where));

	if (!where)
		return -ENOMEM;
	for (unsigned int k = 0; k < cm->nnets; k++) {
		unsigned int found = 0;

		/* the namespace most likely read the same is the one read last */
		for (unsigned int j = m->nnets; j-- > 0 && !found;)
			if (mach_net_equal(&m->nets[j], &cm->nets[k]))
				found = j + 1;
		if (!found) {
			struct mach_net *n = realloc(m->nets, (m->nnets + 1) * sizeof(*n));

			if (!n) {
				free(where);
				return -ENOMEM;
			}
			m->nets = n;
			n[m->nnets] = cm->nets[k];
			memset(&cm->nets[k], 0, sizeof(cm->nets[k]));
			found = ++m->nnets;
		}
		where[k] = found;
	}
	for (unsigned int i = 0; i < p->nthreads; i++)
		p->threads[i].netns = cm->net_at && cm->net_at[i] ? cm->net_at[i] :
				      cm->net_of[i] ? where[cm->net_of[i] - 1] : 0;
	free(where);
	return 0;
}
