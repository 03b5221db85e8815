// SPDX-License-Identifier: MIT
/*
 * test_load_ns.c - the loader on cgroup, cpuset, mounts, mountinfo,
 * mountstats and ns/ links: the texts of a captured tree (the golden hard
 * cases: a nested cgroup, a mount namespace with escaped names, new
 * namespaces, a zombie) load and render back, and every way such a text
 * can be wrong, or two of them disagree, is an error naming the file.
 *
 * TAP.  usage: test_load_ns GOLDEN-TREE
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "uprocfs/load.h"
#include "uprocfs/procfs.h"

#define ERRLEN 512

static const char *tree;

/* @rel of the golden tree, whole (NULL if missing); a symlink's target. */
static char *golden(const char *rel)
{
	char path[512], *buf;
	FILE *f;
	long n;
	ssize_t l;

	snprintf(path, sizeof(path), "%s/%s", tree, rel);
	buf = calloc(1, 4097);
	if ((l = readlink(path, buf, 4096)) > 0)
		return buf;
	f = fopen(path, "re");
	if (!f) {
		free(buf);
		return NULL;
	}
	n = (long)fread(buf, 1, 4096, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* A copy of @s with its first @from replaced by @to. */
static char *subst(const char *s, const char *from, const char *to)
{
	const char *hit = strstr(s, from);
	char *out;

	if (!hit)
		return strdup(s);
	out = malloc(strlen(s) + strlen(to) + 1);
	sprintf(out, "%.*s%s%s", (int)(hit - s), s, to, hit + strlen(from));
	return out;
}

/*
 * Load process @pid's status and stat from the tree and the (path, text)
 * pairs of @files into a fresh machine: 0 or the error, the message in @err.
 */
static int load(const char *pid, const char *const *files, struct mach_machine **out, char *err)
{
	struct mach_machine *m = mach_new();
	struct mach_loader *ld = mach_loader_new(m);
	char path[64], *text;
	int rc = 0;

	err[0] = '\0';
	for (int k = 0; k < 2 && !rc; k++) {
		snprintf(path, sizeof(path), "%s/%s", pid, k ? "stat" : "status");
		text = golden(path);
		rc = pfs_load_text(ld, path, text, strlen(text), err, ERRLEN);
		free(text);
	}
	for (size_t i = 0; files[i] && !rc; i += 2)
		rc = pfs_load_text(ld, files[i], files[i + 1], strlen(files[i + 1]), err, ERRLEN);
	if (!rc)
		rc = mach_loader_finish(ld, err, ERRLEN);
	mach_loader_free(ld);
	if (rc || !out)
		mach_free(m);
	else
		*out = m;
	return rc;
}

static void expect_error(const char *pid, const char *const *files, const char *needle, const char *what)
{
	char err[ERRLEN];
	int rc = load(pid, files, NULL, err);

	if (!ok(rc == -EINVAL && strstr(err, needle), "%s", what))
		diag("rc %d: %s", rc, err);
}

/* @path renders from @m as @want (a file's text, or a link's target). */
static bool renders(const struct mach_machine *m, const char *path, const char *want)
{
	struct pfs_node n;
	struct pfs_ctx c;
	char err[ERRLEN], *text = NULL, target[256];
	size_t len = 0;
	bool same;

	if (pfs_resolve(m, path, &n, &c, err, sizeof(err)))
		return false;
	if (n.entry->kind == PFS_LINK) {
		if (n.entry->readlink(&c, target, sizeof(target)))
			return false;
		return !strcmp(target, want);
	}
	if (pfs_render(&n, &c, &text, &len))
		return false;
	same = len == strlen(want) && !memcmp(text, want, len);
	free(text);
	return same;
}

static void test_roundtrip(void)
{
	static const char *const names[] = { "cgroup", "cpuset", "mountinfo", "mounts", "mountstats", "ns/net",
					     "ns/mnt", "ns/pid_for_children", "ns/time_for_children" };
	static const char *const pids[] = { "3127", "3128", "3130", "3132" };
	char err[ERRLEN];

	for (size_t p = 0; p < sizeof(pids) / sizeof(pids[0]); p++) {
		const char *files[2 * 9 + 1] = { 0 };
		char *texts[9], paths[9][64];
		struct mach_machine *m = NULL;
		int rc, bad = 0;

		for (size_t i = 0; i < 9; i++) {
			snprintf(paths[i], sizeof(paths[i]), "%s/%s", pids[p], names[i]);
			texts[i] = golden(paths[i]);
			files[2 * i] = paths[i];
			files[2 * i + 1] = texts[i];
		}
		rc = load(pids[p], files, &m, err);
		for (size_t i = 0; !rc && i < 9; i++)
			bad += !renders(m, paths[i], texts[i]);
		if (!ok(rc == 0 && bad == 0, "%s: cgroup, cpuset, the mount files and ns links load and render back",
			pids[p]))
			diag("rc %d (%s), %d differ", rc, err, bad);
		for (size_t i = 0; i < 9; i++)
			free(texts[i]);
		mach_free(m);
	}
}

/* "none" in mountinfo: mountstats says whether it is a name or no device at all. */
static void test_none(void)
{
	const char *mi = "30 25 0:27 / /mnt rw,relatime - tmpfs none rw\n";
	const char *files_nodev[] = { "3128/mountinfo", mi, "3128/mountstats",
				      "no device mounted on /mnt with fstype tmpfs\n", NULL };
	const char *files_none[] = { "3128/mountinfo", mi, "3128/mountstats",
				     "device none mounted on /mnt with fstype tmpfs\n", NULL };
	struct mach_machine *m = NULL;
	char err[ERRLEN];

	ok(load("3128", files_nodev, &m, err) == 0 && m->nmnt_tables == 1 && !m->mnt_tables[0].mounts[0].source &&
		   renders(m, "3128/mountstats", files_nodev[3]) && renders(m, "3128/mountinfo", mi),
	   "no device name: \"none\" in mountinfo, \"no device\" in mountstats");
	mach_free(m);
	m = NULL;
	ok(load("3128", files_none, &m, err) == 0 && m->mnt_tables[0].mounts[0].source &&
		   renders(m, "3128/mountstats", files_none[3]),
	   "a device really named \"none\"");
	mach_free(m);
}

static void test_errors(void)
{
	char *cg = golden("3127/cgroup"), *mi = golden("3128/mountinfo"), *ms = golden("3128/mounts"), *t;

	t = subst(cg, "2:cpuacct:/\n", "2:cpuacct,cpu:/\n");
	expect_error("3127", (const char *[]){ "3127/cgroup", t, NULL }, "3127/cgroup:8: ",
		     "controllers out of subsystem order");
	free(t);
	t = subst(cg, "8:pids:/", "8:pidz:/");
	expect_error("3127", (const char *[]){ "3127/cgroup", t, NULL }, "\"pidz\" is not a v1 controller",
		     "an unknown controller");
	free(t);
	t = subst(cg, "0::/", "0:cpu:/");
	expect_error("3127", (const char *[]){ "3127/cgroup", t, NULL }, "hierarchy 0 (v2) names controllers",
		     "controllers on the v2 line");
	free(t);
	t = subst(mi, " - tmpfs hc", " tmpfs hc");
	expect_error("3128", (const char *[]){ "3128/mountinfo", t, NULL }, "3128/mountinfo:", "a line without \" - \"");
	free(t);
	t = subst(mi, "mnt\\040point", "mnt\\09point");
	expect_error("3128", (const char *[]){ "3128/mountinfo", t, NULL }, "not an octal escape", "a bad escape");
	free(t);
	t = subst(mi, "rw,nosuid,nodev,relatime shared:1", "rw,relatime,nosuid shared:1");
	expect_error("3128", (const char *[]){ "3128/mountinfo", t, NULL }, "show_mnt_opts",
		     "mount options out of the kernel's order");
	free(t);
	expect_error("3128", (const char *[]){ "3128/mountstats",
					       "device srv:/x mounted on /x with fstype nfs4 statvers=1.1\n", NULL },
		     "statistics after the type", "NFS statistics, which the model does not hold");
	expect_error("3128", (const char *[]){ "3128/ns/net", "uts:[4026531838]", NULL }, "expected \"net:[INODE]\"",
		     "a link of another namespace type");
	t = subst(ms, "/dev/pts devpts", "/dev/ptz devpts");
	expect_error("3128", (const char *[]){ "3128/mountinfo", mi, "3128/mounts", t, NULL }, "is not line",
		     "mounts naming another mount than mountinfo");
	free(t);
	t = subst(ms, "ro,nosuid,nodev,relatime,size=1024k", "rw,nosuid,nodev,relatime,size=1024k");
	expect_error("3128", (const char *[]){ "3128/mountinfo", mi, "3128/mounts", t, NULL }, "the options",
		     "mounts options that mountinfo does not give");
	free(t);
	expect_error("3128", (const char *[]){ "3128/mounts", ms, NULL }, "without mountinfo",
		     "mounts without mountinfo");
	expect_error("3127", (const char *[]){ "3127/cgroup", cg, "3127/cpuset", "/elsewhere\n", NULL },
		     "the cpuset group", "a cpuset other than the cgroup file's cpuset hierarchy says");
	expect_error("3127", (const char *[]){ "3127/cpuset", "/\n", NULL }, "without the cgroup file",
		     "cpuset without cgroup");
	expect_error("3127", (const char *[]){ "3127/cgroup", cg, "3127/task/3127/cgroup", "0::/\n", NULL },
		     "one task, two cgroup files", "the leader's two cgroup files differ");
	expect_error("3150", (const char *[]){ "3150/mountinfo", mi, NULL }, "is a zombie, but its",
		     "a zombie whose mount table could be read");
	expect_error("3150", (const char *[]){ "3150/ns/net", "net:[4026531833]", NULL }, "is a zombie, but its net",
		     "a zombie with a net namespace");
	free(cg);
	free(mi);
	free(ms);
}

/* On pure v2, cpuset names a group at or above the task's. */
static void test_v2_cpuset(void)
{
	struct mach_machine *m = NULL;
	char err[ERRLEN];
	const char *files[] = { "3127/cgroup", "0::/system.slice/nginx.service\n", "3127/cpuset", "/system.slice\n",
				NULL };

	ok(load("3127", files, &m, err) == 0 && renders(m, "3127/cpuset", "/system.slice\n") &&
		   renders(m, "3127/cgroup", files[1]),
	   "v2: a cpuset css above the task's group loads and renders");
	mach_free(m);
	expect_error("3127", (const char *[]){ "3127/cgroup", files[1], "3127/cpuset", "/user.slice\n", NULL },
		     "is not at or above", "v2: a cpuset group beside the task's");
}

int main(int argc, char **argv)
{
	plan(0);
	if (argc != 2)
		skip_all("usage: test_load_ns GOLDEN-TREE");
	tree = argv[1];
	test_roundtrip();
	test_none();
	test_errors();
	test_v2_cpuset();
	return tap_done();
}
