// SPDX-License-Identifier: MIT
/*
 * test_load_sysctl.c - loading /proc/interrupts and /proc/softirqs against
 * /proc/stat (agreeing, moved: -EAGAIN, out of order), and /proc/sys keys:
 * typed values, the kernel's forms kept exactly, modes, write-only and
 * unset keys, the keys other files show too, a written tree.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tap.h"
#include "test_load.h"
#include "uprocfs/procfs.h"

/* Two CPUs, nr_irqs 30: irq 1 counts 9, irq 24 counts 3; LOC 300, RES 11, ERR 1 in the total, not TLB. */
#define STAT_IRQS(total, irq24)                                                                               \
	"cpu  10 0 10 100 0 0 0 0 0 0\ncpu0 5 0 5 50 0 0 0 0 0 0\ncpu1 5 0 5 50 0 0 0 0 0 0\n"                      \
	"intr " total " 0 9 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 " irq24 " 0 0 0 0 0\n"                      \
	"ctxt 100\nbtime 1700000000\nprocesses 10\nprocs_running 1\nprocs_blocked 0\n"                            \
	"softirq 15 0 3 0 1 2 0 0 4 0 5\n"

static const char stat_text[] = STAT_IRQS("324", "3");

static const char irq_text[] = "           CPU0       CPU1       \n"
			       "  1:          9          0  IO-APIC   1-edge      i8042\n"
			       " 24:          1          2 PCI-MSIX-0000:00:01.0   0-edge      virtio0-config\n"
			       " 25:          0          0    chipx      pcie, other\n"
			       "NMI:          0          0   Non-maskable interrupts\n"
			       "LOC:        100        200   Local timer interrupts\n"
			       "RES:          5          6   Rescheduling interrupts\n"
			       "TLB:          7          0   TLB shootdowns\n"
			       "ERR:          1\n"
			       "MIS:          0\n";

static const char softirq_text[] = "                    CPU0       CPU1       \n"
				   "          HI:          0          0\n"
				   "       TIMER:          1          2\n"
				   "      NET_TX:          0          0\n"
				   "      NET_RX:          1          0\n"
				   "       BLOCK:          0          2\n"
				   "    IRQ_POLL:          0          0\n"
				   "     TASKLET:          0          0\n"
				   "       SCHED:          3          1\n"
				   "     HRTIMER:          0          0\n"
				   "         RCU:          2          3\n";

void test_interrupts(void)
{
	struct mach_machine *m = mach_new();
	const char *const good[] = { "stat", stat_text, "softirqs", softirq_text, "interrupts", irq_text, NULL };
	char err[ERRLEN];
	int rc = load_set(m, good, err);

	if (!ok(rc == 0, "stat, softirqs and interrupts that agree load"))
		diag("%s", err);
	ok(m->irq_detail && m->softirq_detail && !m->intr_arch_extra && m->nirqs == 3 && !m->irqs[0].total &&
		   m->irqs[1].per_cpu && m->irqs[1].per_cpu[1] == 2 && m->cpus[1].arch_irq[MACH_ARCH_IRQ_LOC] == 200 &&
		   m->irq_err == 1 && m->cpus[0].softirq[MACH_SOFTIRQ_SCHED] == 3 && !m->softirq[MACH_SOFTIRQ_SCHED],
	   "every count is per CPU, nothing left unattributed");
	ok(m->irqs[2].actions && !strcmp(m->irqs[2].actions, "pcie, other") && !m->irqs[2].has_domain &&
		   !m->irqs[2].flow && m->irqs[1].has_domain && !strcmp(m->irqs[1].flow, "edge"),
	   "a shared irq without domain or flow, and one with both");
	ok(roundtrip(m, "stat", stat_text, strlen(stat_text), 1) &&
		   roundtrip(m, "interrupts", irq_text, strlen(irq_text), 1) &&
		   roundtrip(m, "softirqs", softirq_text, strlen(softirq_text), 1),
	   "all three render back byte for byte");
	mach_free(m);

	/* irq 24 moved between the reads */
	const char *const moved[] = { "stat", STAT_IRQS("325", "4"), "interrupts", irq_text, NULL };
	m = mach_new();
	rc = load_set(m, moved, err);
	ok(rc == -EAGAIN && err_is(err, "interrupts:3: ", "/proc/stat counts 4"),
	   "an irq that moved since stat: -EAGAIN, read them again (%s)", err);
	mach_free(m);
	const char *const arch_moved[] = { "stat", STAT_IRQS("325", "3"), "interrupts", irq_text, NULL };
	m = mach_new();
	rc = load_set(m, arch_moved, err);
	ok(rc == -EAGAIN && strstr(err, "arch rows"), "arch rows that moved: -EAGAIN (%s)", err);
	mach_free(m);
	const char *const first[] = { "interrupts", irq_text, NULL };
	m = mach_new();
	rc = load_set(m, first, err);
	ok(rc == -EINVAL && strstr(err, "/proc/stat must be read before"), "interrupts without stat: an error");
	mach_free(m);
}

/* Load @key with @mode and the text of one read (NULL: unset, EIO) into @m. */
static int key(struct mach_machine *m, const char *k, unsigned int mode, const char *text, const char **skip,
	       char *err)
{
	struct mach_loader *ld = mach_loader_new(m);
	int rc = mach_loader_sysctl(ld, k, mode, text ? 0 : -EIO, text, text ? strlen(text) : 0, skip, err, ERRLEN);

	if (!rc)
		rc = mach_loader_finish(ld, err, ERRLEN);
	mach_loader_free(ld);
	return rc;
}

/* The node of @path in @m's tree. */
static const struct mach_sysctl_node *node(const struct mach_machine *m, const char *path)
{
	int64_t id = mach_sysctl_find(m->sysctl, path);

	return id >= 0 ? &m->sysctl->nodes[id] : NULL;
}

static void test_sysctl_keys(void)
{
	static const char *const forms[] = { "4\t4\t1\t7\n", "-1\n", "18446744073692774399\n", "0012\n", "-0\n",
					     "1 2\n", "\n", "file\npipe\nsocket\n", "0-1,3-127\n", "" };
	struct mach_machine *m = mach_new();
	const char *skip;
	char err[ERRLEN], path[32];
	int bad = 0;

	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		snprintf(path, sizeof(path), "t/k%zu", i);
		if (key(m, path, 0644, forms[i], &skip, err) || skip ||
		    !roundtrip(m, (snprintf(err, sizeof(err), "sys/%s", path), err), forms[i], strlen(forms[i]), 1))
			bad++;
	}
	ok(!bad, "numbers, signed and unsigned, and texts that only look like them, render back");
	ok(node(m, "t/k0")->kind == MACH_SYSCTL_NUMS && node(m, "t/k0")->nvals == 4 && node(m, "t/k1")->is_signed &&
		   node(m, "t/k2")->kind == MACH_SYSCTL_NUMS && !node(m, "t/k2")->is_signed &&
		   node(m, "t/k3")->kind == MACH_SYSCTL_STRING && node(m, "t/k4")->kind == MACH_SYSCTL_STRING &&
		   node(m, "t/k9")->kind == MACH_SYSCTL_EMPTY,
	   "typed: vectors of numbers; leading zeros and -0 are text; no bytes is empty");
	ok(key(m, "t/nonl", 0644, "5", &skip, err) == -EINVAL && strstr(err, "newline"), "a value without its newline: an error");
	ok(!key(m, "vm/drop_caches", 0200, "", &skip, err) && skip && node(m, "vm/drop_caches")->kind == MACH_SYSCTL_WRITE_ONLY &&
		   node(m, "vm/drop_caches")->mode == 0200,
	   "a write-only key: kept, mode 0200, skipped (%s)", skip ? skip : "");
	ok(!key(m, "net/ipv6/conf/all/stable_secret", 0600, NULL, &skip, err) && skip &&
		   node(m, "net/ipv6/conf/all/stable_secret")->kind == MACH_SYSCTL_UNSET,
	   "an unset key: kept, skipped (%s)", skip ? skip : "");
	ok(key(m, "t/k0/x", 0644, "1\n", &skip, err) == -ENOTDIR, "no key below a key");
	ok(!key(m, "kernel/osrelease", 0444, "6.18.1-test\n", &skip, err) && !skip &&
		   !strcmp(m->profile.kernel_release, "6.18.1-test") && !key(m, "kernel/pid_max", 0644, "32768\n", &skip, err) &&
		   m->pid_max == 32768 && roundtrip(m, "sys/kernel/pid_max", "32768\n", 6, 1),
	   "osrelease and pid_max go to the profile and the machine");
	ok(!key(m, "fs/file-max", 0644, "100\n", &skip, err) && !key(m, "fs/file-nr", 0444, "5\t0\t100\n", &skip, err) &&
		   m->sysctl->nr_files == 5 && node(m, "fs/file-nr")->src == MACH_SYSCTL_SRC_FILE_NR &&
		   !key(m, "fs/file-max", 0644, "200\n", &skip, err) && roundtrip(m, "sys/fs/file-nr", "5\t0\t200\n", 8, 1),
	   "file-nr: the files in use, and file-max's value");
	ok(!key(m, "kernel/random/uuid", 0444, "aef522d1-992b-472b-b8a3-a7aa6c2e0b1c\n", &skip, err) && skip &&
		   node(m, "kernel/random/uuid")->src == MACH_SYSCTL_SRC_RANDOM_UUID,
	   "kernel/random/uuid: a new one on every read, skipped");
	mach_free(m);
}

/* A written tree with its modes: read beneath the directory, types and modes kept. */
static void test_sysctl_tree(void)
{
	static const struct { const char *path, *text; mode_t mode; } files[] = {
		{ "sys/kernel/hostname", "vm\n", 0644 }, { "sys/kernel/printk", "4\t4\t1\t7\n", 0644 },
		{ "sys/kernel/osrelease", "6.18.2\n", 0444 }, { "sys/vm/stat_refresh", "", 0600 },
		{ "sys/net/ipv4/conf/lo/tag", "0\n", 0644 },
	};
	char dir[] = "/tmp/uprocfs-sysctl.XXXXXX", path[256], err[ERRLEN];
	struct mach_machine *m = mach_new();
	struct mach_loader *ld = mach_loader_new(m);
	int dfd, rc, bad = 0;

	if (!mkdtemp(dir)) {
		ok(0, "a scratch directory");
		return;
	}
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char *slash;
		int fd;

		snprintf(path, sizeof(path), "%s/%s", dir, files[i].path);
		for (slash = strchr(path + strlen(dir) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
			*slash = '\0';
			mkdir(path, 0755);
			*slash = '/';
		}
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, files[i].mode);
		if (fd < 0 || write(fd, files[i].text, strlen(files[i].text)) < 0 || fchmod(fd, files[i].mode))
			bad++;
		if (fd >= 0)
			close(fd);
	}
	dfd = open(dir, O_RDONLY | O_DIRECTORY);
	rc = mach_loader_sysctl_tree(ld, dfd, "sys", false, NULL, NULL, err, ERRLEN);
	if (!ok(rc == 0 && !bad, "a written /proc/sys tree loads"))
		diag("%s", err);
	mach_loader_free(ld);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		const struct mach_sysctl_node *n = node(m, files[i].path + 4);

		if (!n || n->mode != files[i].mode || !roundtrip(m, files[i].path, files[i].text, strlen(files[i].text), 1))
			bad++;
	}
	ok(!bad, "every key renders back, with its mode");
	ok(!strcmp(m->profile.kernel_release, "6.18.2") && node(m, "kernel/ostype"),
	   "the release came from the tree; the identity keys stay");
	close(dfd);
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	if (system(path))
		diag("could not remove %s", dir);
	mach_free(m);
}

void test_sysctl(void)
{
	test_sysctl_keys();
	test_sysctl_tree();
}
