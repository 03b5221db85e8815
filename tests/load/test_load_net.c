// SPDX-License-Identifier: MIT
/*
 * test_load_net.c - the /proc/<pid>/net parsers on fixed texts: what Linux
 * 6.18 printed loads into one namespace and renders back byte for byte (a
 * namespace of its own too); threads that read the same namespace share
 * it, tasks whose ns/net links name two inodes do not; and every kind of text the kernel cannot print is refused with its
 * path:line, the files that disagree (a device net/dev does not list, the
 * two copies of the leader's net/) named.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net_samples.h"
#include "tap.h"
#include "uprocfs/load.h"
#include "uprocfs/machine.h"
#include "uprocfs/procfs.h"

#define ERRLEN 1024

static const char *const files[] = {
	"dev", net_dev, "snmp", net_snmp, "snmp6", net_snmp6, "netstat", net_netstat, "sockstat", net_sockstat,
	"sockstat6", net_sockstat6, "softnet_stat", net_softnet_stat, "arp", net_arp, "route", net_route,
	"tcp", net_tcp, "tcp6", net_tcp6, "udp", net_udp, "udp6", net_udp6, "unix", net_unix,
	"if_inet6", net_if_inet6, NULL,
};

/* Load @text as "<dir>/net/<name>" (and each other pair of @more) into a fresh machine; 0 or the error. */
static int load(struct mach_machine **out, const char *const *set, const char *dir, char *err)
{
	struct mach_machine *m = mach_new();
	struct mach_loader *ld = m ? mach_loader_new(m) : NULL;
	char path[128];
	int rc = ld ? 0 : -ENOMEM;

	err[0] = '\0';
	m->uptime_ns = 5000000000000ull;
	for (size_t i = 0; set[i] && !rc; i += 2) {
		snprintf(path, sizeof(path), "%s/net/%s", dir, set[i]);
		rc = pfs_load_text(ld, path, set[i + 1], strlen(set[i + 1]), err, ERRLEN);
	}
	if (!rc)
		rc = mach_loader_finish(ld, err, ERRLEN);
	mach_loader_free(ld);
	if (rc) {
		mach_free(m);
		m = NULL;
	}
	*out = m;
	return rc;
}

/* Whether @path renders from @m to @text exactly. */
static bool same(const struct mach_machine *m, const char *path, const char *text)
{
	struct pfs_node n;
	struct pfs_ctx ctx;
	char err[ERRLEN], *out = NULL;
	size_t len = 0;
	bool eq;

	if (pfs_resolve(m, path, &n, &ctx, err, sizeof(err)) || pfs_render(&n, &ctx, &out, &len)) {
		diag("%s: %s", path, err);
		return false;
	}
	eq = len == strlen(text) && !memcmp(out, text, len);
	if (!eq) {
		size_t i = 0;

		while (i < len && out[i] == text[i])
			i++;
		diag("%s differs at byte %zu", path, i);
	}
	free(out);
	return eq;
}

static const struct mach_socket *sock_by_inode(const struct mach_net *n, uint64_t inode)
{
	for (size_t i = 0; i < n->nsocks; i++)
		if (n->socks[i].inode == inode)
			return &n->socks[i];
	return NULL;
}

/*
 * Unix paths are kept apart from the sockets (mach_net.sock_paths): bound
 * ones, the server ends that show their listener's path one after the
 * other, abstract names (NUL-led, printed with '@') and the longest,
 * 108 bytes.  They load and render back as they were.
 */
static void test_unix_paths(void)
{
	static const char unix_text[] =
		"Num       RefCount Protocol Flags    Type St Inode Path\n"
		"00000000111bc65a: 00000002 00000000 00010000 0001 01  1073 /run/systemd/journal/stdout\n"
		"0000000064477551: 00000003 00000000 00000000 0001 03 1012029 /run/systemd/journal/stdout\n"
		"00000000ff903ab5: 00000003 00000000 00000000 0001 03 657052 /run/systemd/journal/stdout\n"
		"00000000f98eec95: 00000003 00000000 00000000 0001 03 1027144\n"
		"0000000052ea32cc: 00000002 00000000 00010000 0001 01 1049784 @/org/kernel/linux/storage/multipathd\n"
		"00000000bcbf079c: 00000002 00000000 00000000 0002 01 1049782 /run/systemd/notify\n"
		"00000000eced05ac: 00000002 00000000 00010000 0001 01 657051 "
		"/run/user/1000/a-very-long-socket-name-that-fills-sun-path-up-to-the-last-of-its-108-bytes-0123456789abcdefg\n"
		"00000000eced05ad: 00000003 00000000 00000000 0001 03 657053 /run/systemd/journal/stdout\n";
	const char *const set[] = { "unix", unix_text, NULL };
	const struct mach_socket *abstract, *longest, *unbound;
	struct mach_machine *m;
	char err[ERRLEN];

	if (!ok(load(&m, set, "44", err) == 0, "unix sockets with paths load")) {
		diag("%s", err);
		return;
	}
	ok(same(m, "44/net/unix", unix_text), "and render back byte for byte");
	abstract = sock_by_inode(&m->nets[0], 1049784);
	longest = sock_by_inode(&m->nets[0], 657051);
	unbound = sock_by_inode(&m->nets[0], 1027144);
	ok(m->nets[0].nsocks == 8 && abstract && abstract->path_len == 37 &&
		   mach_sock_path(&m->nets[0], abstract)[0] == '\0' && longest && longest->path_len == 108 && unbound &&
		   unbound->path_len == 0,
	   "an abstract name is kept NUL-led, the longest path is 108 bytes, an unbound socket has none");
	mach_free(m);
}

static void test_roundtrip(void)
{
	static const char *const own[] = { "dev", netns_dev, "tcp", netns_tcp, "route", netns_route,
					   "if_inet6", netns_if_inet6, "sockstat", netns_sockstat, "arp", netns_arp,
					   NULL };
	struct mach_machine *m;
	char err[ERRLEN], path[64];
	int bad = 0;

	if (!ok(load(&m, files, "42", err) == 0, "the fifteen net files of a task load")) {
		diag("%s", err);
		return;
	}
	for (size_t i = 0; files[i]; i += 2) {
		snprintf(path, sizeof(path), "42/net/%s", files[i]);
		bad += !same(m, path, files[i + 1]);
	}
	ok(bad == 0, "and render back byte for byte");
	ok(m->nnets == 1 && m->procs[0].threads[0].netns == 1 && m->nets[0].ndevs == 4 &&
		   m->nets[0].devs[0].ifindex == 1 && m->nets[0].devs[3].ifindex == 4 && !m->nets[0].devs[1].ifindex &&
		   m->nets[0].devs[3].type == 1,
	   "devices: ifindex from if_inet6 (0 where no file says), hardware type from arp");
	mach_free(m);
	if (!ok(load(&m, own, "43", err) == 0, "a namespace of its own loads")) {
		diag("%s", err);
		return;
	}
	bad = 0;
	for (size_t i = 0; own[i]; i += 2) {
		snprintf(path, sizeof(path), "43/net/%s", own[i]);
		bad += !same(m, path, own[i + 1]);
	}
	ok(bad == 0, "and renders back (empty route and arp tables, lo only)");
	mach_free(m);
}

/* Load @set's (path, text) pairs into @m in one session; 0 or -errno with @err. */
static int load_pairs(struct mach_machine *m, const char *const *set, char *err)
{
	struct mach_loader *ld = mach_loader_new(m);
	int rc = ld ? 0 : -ENOMEM;

	for (size_t i = 0; set[i] && !rc; i += 2)
		rc = pfs_load_text(ld, set[i], set[i + 1], strlen(set[i + 1]), err, ERRLEN);
	if (!rc)
		rc = mach_loader_finish(ld, err, ERRLEN);
	mach_loader_free(ld);
	return rc;
}

/* The same files at /proc/44/net, task/44/net and task/45/net: one namespace for the two threads. */
static void test_sharing(void)
{
	static const char *const set[] = {
		"44/net/dev", net_dev, "44/task/44/net/dev", net_dev, "44/task/45/net/dev", net_dev,
		"44/net/unix", net_unix, "44/task/44/net/unix", net_unix, "44/task/45/net/unix", net_unix, NULL,
	};
	struct mach_machine *m = mach_new();
	char err[ERRLEN];
	int rc = load_pairs(m, set, err);
	ok(rc == 0 && m->nnets == 1 && m->procs[0].nthreads == 2 && m->procs[0].threads[1].netns == 1,
	   "two threads that read the same namespace share one (%s)", rc ? err : "ok");
	mach_free(m);
}

/*
 * The inode ns/net names is the namespace's: two tasks whose net files are
 * the same bytes but whose links name two inodes read two namespaces (two
 * empty containers print alike); the same inode, one.
 */
static void test_inodes(void)
{
	static const char *const set[] = {
		"44/net/dev", net_dev, "44/ns/net", "net:[4026531833]", "45/net/dev", net_dev,
		"45/ns/net", "net:[4026532290]", "46/net/dev", net_dev, "46/ns/net", "net:[4026532290]", NULL,
	};
	struct mach_machine *m = mach_new();
	char err[ERRLEN];
	int rc = load_pairs(m, set, err);
	ok(rc == 0 && m->nnets == 2 && m->nets[0].ino == 4026531833u && m->nets[1].ino == 4026532290u &&
	   m->procs[1].threads[0].netns == 2 && m->procs[2].threads[0].netns == 2,
	   "the same net files under two ns/net inodes: two namespaces, each with its inode (%s)", rc ? err : "ok");
	mach_free(m);
}

/* @text with the first @from replaced by @to (malloc'd). */
static char *subst(const char *text, const char *from, const char *to)
{
	const char *at = strstr(text, from);
	size_t fl = strlen(from), tl = strlen(to), n = strlen(text);
	char *out = malloc(n - fl + tl + 1);

	if (!at) {
		diag("test bug: \"%s\" not in the sample", from);
		memcpy(out, text, n + 1);
		return out;
	}
	memcpy(out, text, (size_t)(at - text));
	memcpy(out + (at - text), to, tl);
	memcpy(out + (at - text) + tl, at + fl, n - (size_t)(at - text) - fl + 1);
	return out;
}

/* Loading @name with @from replaced by @to fails with @want in the message. */
static void refuse(const char *name, const char *text, const char *from, const char *to, const char *want,
		   const char *what)
{
	char *t = subst(text, from, to), err[ERRLEN];
	const char *set[] = { name, t, NULL };
	struct mach_machine *m;
	int rc = load(&m, set, "42", err);

	if (!ok(rc == -EINVAL && !strncmp(err, "42/net/", 7) && strstr(err, want), "%s: refused", what))
		diag("rc %d, error: %s", rc, err);
	mach_free(m);
	free(t);
}

static void test_refused(void)
{
	refuse("dev", net_dev, "  eth0: 24833986", " eth0: 24833986", "right-aligned in 6 columns", "a device name mis-padded");
	refuse("dev", net_dev, "     433    0", "     433   00", "leading zero", "a zero-padded counter");
	refuse("dev", net_dev, "  ifb1:", "  ifb0:", "listed twice", "a device listed twice");
	refuse("snmp", net_snmp, "Ip: 2 64", "Ip: 3 64", "Forwarding", "Forwarding neither 1 nor 2");
	refuse("snmp", net_snmp, "InReceives InHdrErrors", "InReceives InHdrErrorz", "expected \"InHdrErrors\"",
	       "a MIB name not 6.18's");
	refuse("snmp", net_snmp, "IcmpMsg: 1\n", "IcmpMsg: 2\n", "IcmpMsg says", "Icmp: per-type column and IcmpMsg disagree");
	refuse("snmp6", net_snmp6, "Icmp6InType1                    \t1", "Icmp6InType1                    \t5",
	       "type line says", "a named ICMPv6 counter and its type line disagree");
	refuse("snmp6", net_snmp6, "Ip6InReceives                   \t", "Ip6InReceives                  \t",
	       "spacing", "an snmp6 name padded to 31");
	refuse("netstat", net_netstat, "\nIpExt:", "\nIpExt: 7", "expected \"InNoRoutes\"", "a value where a name belongs");
	refuse("sockstat", net_sockstat, "FRAG: inuse 0 memory 0\n", "FRAG: inuse 0\n", "expected \" memory \"",
	       "a truncated sockstat line");
	refuse("softnet_stat", net_softnet_stat, "000000eb 00000000 00000000 00000000", "000000eb 00000000 00000000 00000001",
	       "always 0", "a historic softnet column not 0");
	refuse("softnet_stat", net_softnet_stat, "000000eb", "000000EB", "lowercase hex", "uppercase softnet hex");
	refuse("arp", net_arp, "0x2         02:fc", "0x3         02:fc", "none the kernel prints", "arp flags 0x3");
	refuse("route", net_route, "00FFFFFF", "00FF00FF", "not a prefix", "a mask that is not a prefix");
	refuse("route", net_route, "\t0001\t", "\t0005\t", "route flags", "a host flag on a /24");
	refuse("tcp", net_tcp, "   1: 0100007F:DF1F", "   2: 0100007F:DF1F", "this is row 1", "sl out of sequence");
	refuse("tcp", net_tcp, "0100007F:DF99", "0100007f:DF99", "uppercase hex", "lowercase address hex");
	refuse("tcp", net_tcp, "03:00000630 00000000     0        0 0 3", "03:00000630 00000000     7        0 0 3",
	       "neither a time-wait nor a request sock", "a time-wait row with a uid");
	refuse("udp", net_udp, "00:00000000 00000000     0        0 1049776", "01:00000000 00000000     0        0 1049776",
	       "cannot print", "a udp row with a timer");
	refuse("unix", net_unix, "00000003 00000000 00000000 0001 03  1073", "00000003 00000000 00010000 0001 03  1073",
	       "none the kernel prints", "a listening socket that is connected");
	refuse("if_inet6", net_if_inet6, "fd000000000000000000000000000002 04", "fd000000000000000000000000000002 05",
	       "two ifindexes", "a device with two ifindexes");
	refuse("if_inet6", net_if_inet6, "      lo\n", "     lo \n", "right-aligned", "a device name left-aligned");
}

/* Files that name devices net/dev does not list, or the leader's two net/ copies apart, disagree. */
static void test_disagreements(void)
{
	char *arp = subst(net_arp, "eth0\n", "eth9\n"), err[ERRLEN];
	char *dev2 = subst(net_dev, "    lo:  202954", "    lo:  202955");
	const char *set[] = { "dev", net_dev, "arp", arp, NULL };
	struct mach_machine *m;
	struct mach_loader *ld;
	int rc;

	rc = load(&m, set, "42", err);
	ok(rc == -EINVAL && strstr(err, "eth9") && strstr(err, "42/net/dev"), "arp names a device net/dev does not list");
	if (rc != -EINVAL)
		diag("%s", err);
	mach_free(m);
	m = mach_new();
	ld = mach_loader_new(m);
	rc = pfs_load_text(ld, "46/net/dev", net_dev, strlen(net_dev), err, ERRLEN);
	if (!rc)
		rc = pfs_load_text(ld, "46/task/46/net/dev", dev2, strlen(dev2), err, ERRLEN);
	if (!rc)
		rc = mach_loader_finish(ld, err, ERRLEN);
	ok(rc == -EINVAL && strstr(err, "different network namespaces"), "the leader's two net/ copies differ (%s)", err);
	mach_loader_free(ld);
	mach_free(m);
	free(arp);
	free(dev2);
}

int main(void)
{
	plan(0);
	test_roundtrip();
	test_unix_paths();
	test_sharing();
	test_inodes();
	test_refused();
	test_disagreements();
	return tap_done();
}
