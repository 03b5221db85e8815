// SPDX-License-Identifier: MIT
/*
 * catalog.c - the generator's tables: libraries, programs, account names,
 * kernel threads and workqueue rescuers (see catalog.h).
 *
 * Sizes, signal masks, capability sets and kthread flags are the ones a
 * live Linux 6.18 x86_64 server shows for these programs, so a synthetic
 * machine reads like a real one to tools that know what to expect.
 */
#include <stdint.h>
#include <string.h>

#include "catalog.h"

#define SIG(n) (1ull << ((n) - 1))
#define SIGHUP_ SIG(1)
#define SIGINT_ SIG(2)
#define SIGUSR1_ SIG(10)
#define SIGUSR2_ SIG(12)
#define SIGPIPE_ SIG(13)
#define SIGTERM_ SIG(15)
#define SIGCHLD_ SIG(17)

/* ------------------------------------------------------------------ */
/* Shared libraries                                                     */

const struct lib sy_libs[NR_LIBS] = {
	[L_M] = { "libm.so.6", 508 },
	[L_Z] = { "libz.so.1.2.13", 76 },
	[L_SSL] = { "libssl.so.3", 392 },
	[L_CRYPTO] = { "libcrypto.so.3", 2976 },
	[L_PCRE2] = { "libpcre2-8.so.0.11.2", 456 },
	[L_SELINUX] = { "libselinux.so.1", 104 },
	[L_SDSHARED] = { "systemd/libsystemd-shared-252.so", 1760 },
	[L_SYSTEMD] = { "libsystemd.so.0.35.0", 600 },
	[L_CAP] = { "libcap.so.2.66", 20 },
	[L_GCRYPT] = { "libgcrypt.so.20.4.1", 880 },
	[L_LZ4] = { "liblz4.so.1.9.4", 104 },
	[L_ZSTD] = { "libzstd.so.1.5.4", 640 },
	[L_LZMA] = { "liblzma.so.5.4.1", 104 },
	[L_GLIB] = { "libglib-2.0.so.0.7400.6", 992 },
	[L_GIO] = { "libgio-2.0.so.0.7400.6", 1096 },
	[L_GOBJECT] = { "libgobject-2.0.so.0.7400.6", 184 },
	[L_STDCXX] = { "libstdc++.so.6.0.30", 1184 },
	[L_GCC_S] = { "libgcc_s.so.1", 76 },
	[L_TINFO] = { "libtinfo.so.6.4", 72 },
	[L_PAM] = { "libpam.so.0.85.1", 40 },
	[L_AUDIT] = { "libaudit.so.1.0.0", 80 },
	[L_CRYPT] = { "libcrypt.so.1.1.0", 120 },
	[L_PQ] = { "libpq.so.5.15", 244 },
	[L_XML2] = { "libxml2.so.2.9.14", 904 },
	[L_ICUUC] = { "libicuuc.so.72.1", 1592 },
	[L_EXPAT] = { "libexpat.so.1.8.10", 124 },
	[L_FFI] = { "libffi.so.8.1.2", 28 },
	[L_JVM] = { "/usr/lib/jvm/java-17-openjdk-amd64/lib/server/libjvm.so", 15936 },
	[L_JLI] = { "/usr/lib/jvm/java-17-openjdk-amd64/lib/libjli.so", 48 },
	[L_JAVA] = { "/usr/lib/jvm/java-17-openjdk-amd64/lib/libjava.so", 104 },
	[L_MOUNT] = { "libmount.so.1.1.0", 244 },
	[L_BLKID] = { "libblkid.so.1.1.0", 204 },
	[L_KMOD] = { "libkmod.so.2.4.0", 84 },
	[L_SECCOMP] = { "libseccomp.so.2.5.4", 112 },
	[L_ACL] = { "libacl.so.1.1.2301", 20 },
	[L_EVENT] = { "libevent_core-2.1.so.7.0.1", 184 },
	[L_PROC2] = { "libproc2.so.0.0.1", 84 },
	[L_GMP] = { "libgmp.so.10.4.1", 412 },
	[L_MPFR] = { "libmpfr.so.6.2.0", 440 },
	[L_NODE] = { "libnode.so.108", 41216 },
	[L_UV] = { "libuv.so.1.0.0", 132 },
	[L_BROTLI] = { "libbrotlicommon.so.1.0.9", 8 },
	[L_NUMA] = { "libnuma.so.1.0.0", 36 },
	[L_SASL] = { "libsasl2.so.2.0.25", 84 },
};

/* An inode number for a path, stable across processes and seeds. */
uint64_t sy_path_inode(const char *path)
{
	uint64_t h = 1469598103934665603ull;

	for (const char *c = path; *c; c++)
		h = (h ^ (unsigned char)*c) * 1099511628211ull;
	return 131073 + h % 400000;
}

/* ------------------------------------------------------------------ */
/* Programs                                                             */

/* Signal sets (bit n-1 = signal n) as such programs show them. */
#define SIGS_SYSTEMD 0x7be3c0fe28014a03ull, 0x0000000000001000ull, 0x00000001000004ecull
#define SIGS_SDSVC 0x0000000400004a02ull, 0x0000000000001000ull, 0x0000000100000000ull
#define SIGS_DAEMON 0, SIGPIPE_, (SIGHUP_ | SIGINT_ | SIGTERM_ | SIGCHLD_)
#define SIGS_BASH 0x0000000000010000ull, 0x0000000000380004ull, 0x000000004b817efbull
#define SIGS_SCRIPT 0, 0, (SIGINT_ | SIGCHLD_)
#define SIGS_NONE 0, 0, 0
#define SIGS_PYTHON 0, 0x0000000001001000ull, SIGINT_
#define SIGS_JAVA 0, 0, 0x0000000181005ccfull
#define SIGS_GO 0, 0, 0xfffffffd7fc1feffull
#define SIGS_NGINX 0, SIGPIPE_, 0x0000000018016a07ull
#define SIGS_PG 0, 0x0000000001001000ull, 0x0000000000014a07ull
#define SIGS_TERMUI 0, 0, 0x0000000004384007ull

#define SD_LIBS (LIB(L_SDSHARED) | LIB(L_SELINUX) | LIB(L_CAP) | LIB(L_CRYPT) | LIB(L_GCRYPT) | \
		 LIB(L_LZ4) | LIB(L_ZSTD) | LIB(L_LZMA) | LIB(L_SECCOMP) | LIB(L_MOUNT) | \
		 LIB(L_PCRE2) | LIB(L_BLKID))
#define PG_LIBS (LIB(L_M) | LIB(L_SSL) | LIB(L_CRYPTO) | LIB(L_Z) | LIB(L_XML2) | LIB(L_ICUUC) | \
		 LIB(L_SYSTEMD))
#define PY_LIBS (LIB(L_M) | LIB(L_Z) | LIB(L_EXPAT))
#define SSHD_LIBS (LIB(L_CRYPTO) | LIB(L_Z) | LIB(L_PAM) | LIB(L_SELINUX))
#define PHP_LIBS (LIB(L_XML2) | LIB(L_SSL) | LIB(L_CRYPTO) | LIB(L_PCRE2) | LIB(L_Z) | LIB(L_SYSTEMD))
#define PYEXE "/usr/bin/python3.11"
#define BASHEXE "/usr/bin/bash"
#define PGEXE "/usr/lib/postgresql/15/bin/postgres"
#define PG_TITLE "postgres: 15/main: "

const struct prog sy_progs[NR_PROGS] = {
	[P_SYSTEMD] = { "systemd", "/usr/lib/systemd/systemd", "/sbin/init", NULL,
			SD_LIBS | LIB(L_KMOD) | LIB(L_AUDIT) | LIB(L_PAM), 60, 6200, 512, 0, 0,
			PR_SUPER, 0.0006f, 0.35f, SIGS_SYSTEMD, 0 },
	[P_JOURNALD] = { "systemd-journal", "/usr/lib/systemd/systemd-journald",
			 "/lib/systemd/systemd-journald", NULL, SD_LIBS, 100, 2600, 256, 0, 0,
			 PR_SECCOMP | PR_JOURNAL | PR_SUPER, 0.0015f, 0.45f, SIGS_SDSVC,
			 0x00000000a80425fbull },
	[P_UDEVD] = { "systemd-udevd", "/usr/bin/udevadm", "/lib/systemd/systemd-udevd", NULL,
		      SD_LIBS | LIB(L_KMOD), 556, 2800, 128, 0, 0, PR_SECCOMP | PR_SUPER, 0.0004f,
		      0.3f, SIGS_SDSVC, 0 },
	[P_NETWORKD] = { "systemd-network", "/usr/lib/systemd/systemd-networkd",
			 "/lib/systemd/systemd-networkd", NULL, SD_LIBS, 584, 2400, 128, 0, 0,
			 PR_SECCOMP, 0.0002f, 0.4f, SIGS_SDSVC, 0x0000000000003c00ull },
	[P_RESOLVED] = { "systemd-resolve", "/usr/lib/systemd/systemd-resolved",
			 "/lib/systemd/systemd-resolved", NULL, SD_LIBS | LIB(L_SSL) | LIB(L_CRYPTO),
			 412, 4200, 128, 0, 0, PR_SECCOMP, 0.0003f, 0.5f, SIGS_SDSVC,
			 0x0000000000002000ull },
	[P_TIMESYNCD] = { "systemd-timesyn", "/usr/lib/systemd/systemd-timesyncd",
			  "/lib/systemd/systemd-timesyncd", "sd-resolve", SD_LIBS, 44, 1600, 64, 1, 1,
			  PR_SECCOMP, 0.00005f, 0.5f, SIGS_SDSVC, 0x0000000002000000ull },
	[P_LOGIND] = { "systemd-logind", "/usr/lib/systemd/systemd-logind",
		       "/lib/systemd/systemd-logind", NULL, SD_LIBS, 232, 2100, 128, 0, 0,
		       PR_SECCOMP | PR_SUPER, 0.0002f, 0.4f, SIGS_SDSVC, 0x0000000244204c0full },
	[P_DBUS] = { "dbus-daemon", "/usr/bin/dbus-daemon",
		     "/usr/bin/dbus-daemon|--system|--address=systemd:|--nofork|--nopidfile|"
		     "--systemd-activation|--syslog-only",
		     NULL, LIB(L_EXPAT) | LIB(L_SYSTEMD) | LIB(L_AUDIT) | LIB(L_SELINUX) | LIB(L_CAP),
		     164, 1900, 64, 0, 0, 0, 0.0004f, 0.55f, SIGS_DAEMON, 0 },
	[P_RSYSLOGD] = { "rsyslogd", "/usr/sbin/rsyslogd", "/usr/sbin/rsyslogd|-n|-iNONE",
			 "in:imuxsock|in:imklog|rs:main Q:Reg", LIB(L_Z) | LIB(L_SYSTEMD), 568, 2300,
			 64, 2, 3, 0, 0.0002f, 0.5f, SIGS_DAEMON, 0 },
	[P_CRON] = { "cron", "/usr/sbin/cron", "/usr/sbin/cron|-f", NULL,
		     LIB(L_SELINUX) | LIB(L_PAM) | LIB(L_AUDIT), 36, 620, 64, 0, 0, PR_SUPER,
		     0.00003f, 0.5f, 0, 0, (SIGHUP_ | SIGCHLD_), 0 },
	[P_ATD] = { "atd", "/usr/sbin/atd", "/usr/sbin/atd|-f", NULL, LIB(L_PAM) | LIB(L_SELINUX),
		    20, 280, 64, 0, 0, 0, 0.00001f, 0.5f, 0, 0, (SIGHUP_ | SIGTERM_ | SIGCHLD_), 0 },
	[P_SSHD] = { "sshd", "/usr/sbin/sshd", "sshd: /usr/sbin/sshd -D [listener] 0 of 10-100 startups",
		     NULL, LIB(L_CRYPTO) | LIB(L_Z) | LIB(L_PAM) | LIB(L_AUDIT) | LIB(L_SELINUX) |
		     LIB(L_CRYPT), 604, 1500, 64, 0, 0, PR_SUPER, 0.00005f, 0.5f, SIGS_DAEMON, 0 },
	[P_AGETTY] = { "agetty", "/usr/sbin/agetty", "/sbin/agetty|-o|-p -- \\u|--noclear|-|linux",
		       NULL, LIB(L_SYSTEMD), 48, 260, 64, 0, 0, 0, 0.00001f, 0.4f, 0, SIG(2) | SIG(3),
		       0, 0 },
	[P_AGETTY_SERIAL] = { "agetty", "/usr/sbin/agetty",
			      "/sbin/agetty|-o|-p -- \\u|--keep-baud|115200,57600,38400,9600|-|vt220",
			      NULL, LIB(L_SYSTEMD), 48, 260, 64, 0, 0, 0, 0.00001f, 0.4f, 0,
			      SIG(2) | SIG(3), 0, 0 },
	[P_IRQBALANCE] = { "irqbalance", "/usr/sbin/irqbalance", "/usr/sbin/irqbalance|--foreground",
			   "gmain", LIB(L_GLIB) | LIB(L_NUMA) | LIB(L_CAP) | LIB(L_PCRE2) | LIB(L_SYSTEMD),
			   64, 900, 64, 1, 1, PR_SUPER, 0.0001f, 0.6f, SIGS_DAEMON, 0 },
	[P_MULTIPATHD] = { "multipathd", "/usr/sbin/multipathd", "/sbin/multipathd|-d|-s",
			   "multipathd", LIB(L_SYSTEMD) | LIB(L_UV), 124, 6400, 64, 1, 6,
			   PR_RT | PR_MLOCK | PR_SUPER, 0.0002f, 0.3f, 0, SIGPIPE_,
			   (SIGHUP_ | SIGUSR1_ | SIGUSR2_ | SIGTERM_ | SIGINT_), 0 },
	[P_POLKITD] = { "polkitd", "/usr/lib/polkit-1/polkitd", "/usr/lib/polkit-1/polkitd|--no-debug",
			"gmain|gdbus", LIB(L_GLIB) | LIB(L_GIO) | LIB(L_GOBJECT) | LIB(L_EXPAT) |
			LIB(L_SYSTEMD) | LIB(L_STDCXX) | LIB(L_GCC_S), 84, 5200, 64, 1, 2, 0, 0.00005f,
			0.6f, 0, SIGPIPE_, 0, 0 },
	[P_CONTAINERD] = { "containerd", "/usr/bin/containerd", "/usr/bin/containerd", NULL, 0,
			   21024, 28000, 256, 4, 8, PR_GO | PR_SUPER, 0.002f, 0.6f, SIGS_GO, 0 },
	[P_DOCKERD] = { "dockerd", "/usr/sbin/dockerd",
			"/usr/sbin/dockerd|-H|fd://|--containerd=/run/containerd/containerd.sock", NULL,
			0, 33540, 52000, 256, 4, 9, PR_GO | PR_SUPER, 0.001f, 0.6f, SIGS_GO, 0 },
	[P_UNATTENDED] = { "unattended-upgr", PYEXE,
			   "/usr/bin/python3|/usr/share/unattended-upgrades/unattended-upgrade-shutdown|"
			   "--wait-for-signal",
			   NULL, PY_LIBS, 2904, 11000, 64, 1, 1, 0, 0.00002f, 0.8f, SIGS_PYTHON, 0 },
	[P_DNSMASQ] = { "dnsmasq", "/usr/sbin/dnsmasq",
			"/usr/sbin/dnsmasq|-x|/run/dnsmasq/dnsmasq.pid|-u|nobody|-7|"
			"/etc/dnsmasq.d,.dpkg-dist,.dpkg-old,.dpkg-new|--local-service",
			NULL, 0, 348, 380, 64, 0, 0, 0, 0.00005f, 0.5f, SIGS_DAEMON, 0 },
	[P_SYSTEMD_USER] = { "systemd", "/usr/lib/systemd/systemd", "/lib/systemd/systemd|--user",
			     NULL, SD_LIBS | LIB(L_KMOD) | LIB(L_AUDIT) | LIB(L_PAM), 60, 2800, 128, 0, 0,
			     0, 0.0002f, 0.4f, SIGS_SYSTEMD, 0 },
	[P_SD_PAM] = { "(sd-pam)", "/usr/lib/systemd/systemd", "(sd-pam)", NULL,
		       SD_LIBS | LIB(L_KMOD) | LIB(L_AUDIT) | LIB(L_PAM), 60, 1400, 64, 0, 0, PR_FORKED,
		       0.000001f, 0.5f, 0x0000000000014003ull, 0, 0, 0 },
	[P_SSHD_PRIV] = { "sshd-session", "/usr/lib/openssh/sshd-session", "sshd-session: {U} [priv]",
			  NULL, SSHD_LIBS, 632, 1800, 64, 0, 0, PR_SUPER, 0.00002f, 0.5f,
			  SIGS_DAEMON, 0 },
	[P_SSHD_USER] = { "sshd-session", "/usr/lib/openssh/sshd-session", "sshd-session: {u}@pts/{t}",
			  NULL, SSHD_LIBS, 632, 1900, 64, 0, 0, PR_FORKED, 0.0004f, 0.4f,
			  SIGS_DAEMON, 0 },
	[P_BASH_LOGIN] = { "bash", BASHEXE, "-bash", NULL, LIB(L_TINFO), 772, 2400, 256, 0, 0, PR_TTY,
			   0.0005f, 0.5f, SIGS_BASH, 0 },
	[P_BASH] = { "bash", BASHEXE, "bash|./deploy.sh\nbash|-c|./run-tests.sh\nbash", NULL,
		     LIB(L_TINFO), 772, 1600, 256, 0, 0, 0, 0.001f, 0.6f, SIGS_SCRIPT, 0 },
	[P_SH] = { "sh", "/usr/bin/dash", "/bin/sh|-c|/usr/local/bin/nightly-report >/dev/null 2>&1\n"
		   "/bin/sh|-c|cc -O2 -c src/main.c -o build/main.o\n/bin/sh|./configure",
		   NULL, 0, 88, 120, 64, 0, 0, 0, 0.0005f, 0.5f, SIGS_SCRIPT, 0 },
	[P_TMUX] = { "tmux: server", "/usr/bin/tmux", "tmux", NULL,
		     LIB(L_EVENT) | LIB(L_TINFO) | LIB(L_SYSTEMD), 584, 3100, 64, 0, 0, PR_TTY,
		     0.0003f, 0.6f, 0, SIGPIPE_, 0x0000000008094a07ull, 0 },
	[P_MAKE] = { "make", "/usr/bin/make", "make|-j{c}", NULL, 0, 156, 1200, 64, 0, 0, 0, 0.002f,
		     0.7f, SIGS_SCRIPT, 0 },
	[P_CC1] = { "cc1", "/usr/lib/gcc/x86_64-linux-gnu/12/cc1",
		    "/usr/lib/gcc/x86_64-linux-gnu/12/cc1|-quiet|-I|include|src/parser.c|-quiet|"
		    "-dumpbase|parser.c|-mtune=generic|-march=x86-64|-O2|-o|/tmp/ccQ2kxh1.s",
		    NULL, LIB(L_GMP) | LIB(L_MPFR) | LIB(L_Z) | LIB(L_ZSTD), 24000, 62000, 64, 0, 0,
		    PR_BUSY, 0.9f, 0.93f, SIGS_NONE, 0 },
	[P_VIM] = { "vim", "/usr/bin/vim.basic", "vim|notes.md\nvim|/etc/nginx/nginx.conf\nvim|main.go",
		    NULL, LIB(L_M) | LIB(L_TINFO) | LIB(L_SELINUX) | LIB(L_ACL), 2740, 5200, 64, 0, 0,
		    PR_TTY, 0.0008f, 0.8f, 0, 0, 0x0000000008014a07ull, 0 },
	[P_TOP] = { "top", "/usr/bin/top", "top", NULL, LIB(L_PROC2) | LIB(L_SYSTEMD) | LIB(L_TINFO),
		    84, 2600, 64, 0, 0, PR_TTY, 0.004f, 0.3f, SIGS_TERMUI, 0 },
	[P_LESS] = { "less", "/usr/bin/less", "less|/var/log/syslog", NULL, LIB(L_TINFO), 128, 400,
		     64, 0, 0, PR_TTY, 0.0001f, 0.8f, 0, 0, 0x0000000004080003ull, 0 },
	[P_TAIL] = { "tail", "/usr/bin/tail", "tail|-F|/var/log/nginx/access.log", NULL, 0, 40, 180,
		     64, 0, 0, 0, 0.0002f, 0.3f, SIGS_NONE, 0 },
	[P_SLEEP] = { "sleep", "/usr/bin/sleep", "sleep|1000\nsleep|infinity\nsleep|3600", NULL, 0, 16,
		      100, 64, 0, 0, 0, 0.000001f, 0.5f, SIGS_NONE, 0 },
	[P_PYTHON] = { "python3", PYEXE, "python3|app.py\n/usr/bin/python3|/opt/app/worker.py|--queue|default\n"
		       "python3|-m|http.server|8{i}", NULL, PY_LIBS, 2904, 14000, 64, 2, 0, PR_BUSY,
		       0.05f, 0.85f, SIGS_PYTHON, 0 },
	[P_PS] = { "ps", "/usr/bin/ps", "ps|-ef", NULL, LIB(L_PROC2) | LIB(L_SYSTEMD), 76, 1500, 64, 0,
		   0, 0, 0.2f, 0.3f, SIGS_NONE, 0 },
	[P_SSH] = { "ssh", "/usr/bin/ssh", "ssh|db01.internal", NULL,
		    LIB(L_CRYPTO) | LIB(L_Z) | LIB(L_SELINUX), 732, 3000, 64, 0, 0, 0, 0.0005f, 0.6f,
		    0, 0, (SIGHUP_ | SIGINT_ | SIGTERM_ | SIGCHLD_ | SIG(28)), 0 },
	[P_RSYNC] = { "rsync", "/usr/bin/rsync", "rsync|-a|/srv/data/|backup:/srv/data/", NULL,
		      LIB(L_ACL) | LIB(L_Z) | LIB(L_LZ4) | LIB(L_ZSTD) | LIB(L_CRYPTO), 460, 2100, 64,
		      0, 0, 0, 0.05f, 0.4f, 0, 0, (SIGHUP_ | SIGINT_ | SIGTERM_ | SIGCHLD_ | SIGUSR1_), 0 },
	[P_XZ] = { "xz", "/usr/bin/xz", "xz|-9|-T1|/var/backups/db.sql", NULL, LIB(L_LZMA), 64, 96000,
		   64, 0, 0, PR_NICE | PR_BUSY, 0.8f, 0.98f, 0, 0, (SIGHUP_ | SIGINT_ | SIGTERM_), 0 },
	[P_NGINX] = { "nginx", "/usr/sbin/nginx",
		      "nginx: master process /usr/sbin/nginx -g daemon on; master_process on;", NULL,
		      LIB(L_CRYPT) | LIB(L_PCRE2) | LIB(L_SSL) | LIB(L_CRYPTO) | LIB(L_Z), 1104, 1600,
		      64, 0, 0, PR_SUPER, 0.00002f, 0.5f, SIGS_NGINX, 0 },
	[P_NGINX_WORKER] = { "nginx", "/usr/sbin/nginx", "nginx: worker process", NULL,
			     LIB(L_CRYPT) | LIB(L_PCRE2) | LIB(L_SSL) | LIB(L_CRYPTO) | LIB(L_Z),
			     1104, 5200, 1024, 0, 0, PR_FORKED | PR_BUSY, 0.01f, 0.45f, SIGS_NGINX, 0 },
	[P_POSTMASTER] = { "postgres", PGEXE,
			   PGEXE "|-D|/var/lib/postgresql/15/main|-c|"
			   "config_file=/etc/postgresql/15/main/postgresql.conf",
			   NULL, PG_LIBS, 5912, 9000, 128, 0, 0, PR_PGSHM, 0.0004f, 0.5f, SIGS_PG, 0 },
	[P_PG_AUX] = { "postgres", PGEXE,
		       PG_TITLE "checkpointer \n" PG_TITLE "background writer \n" PG_TITLE "walwriter \n"
		       PG_TITLE "autovacuum launcher \n" PG_TITLE "logical replication launcher ",
		       NULL, PG_LIBS, 5912, 3000, 64, 0, 0, PR_FORKED | PR_PGSHM, 0.0003f, 0.4f,
		       SIGS_PG, 0 },
	[P_PG_BACKEND] = { "postgres", PGEXE,
			   PG_TITLE "app appdb {C} idle\n"
			   PG_TITLE "app appdb {C} idle in transaction\n"
			   PG_TITLE "report appdb {C} SELECT",
			   NULL, PG_LIBS, 5912, 7000, 64, 0, 0, PR_FORKED | PR_PGSHM | PR_BUSY, 0.01f,
			   0.7f, SIGS_PG, 0 },
	[P_REDIS] = { "redis-server", "/usr/bin/redis-server", "/usr/bin/redis-server 127.0.0.1:6379",
		      "bio_close_file|bio_aof|bio_lazy_free|jemalloc_bg_thd", LIB(L_M) | LIB(L_SSL) |
		      LIB(L_CRYPTO) | LIB(L_SYSTEMD), 1696, 9000, 16384, 1, 4, 0, 0.004f, 0.6f, 0,
		      (SIGHUP_ | SIGPIPE_), 0x00000000000044caull, 0 },
	[P_JAVA] = { "java", "/usr/lib/jvm/java-17-openjdk-amd64/bin/java",
		     "/usr/bin/java|-Xms512m|-Xmx4g|-XX:+UseG1GC|-jar|/opt/app/service.jar",
		     "java|GC Thread#0|G1 Main Marker|G1 Conc#0|G1 Refine#0|G1 Service|VM Periodic Tas|"
		     "VM Thread|Reference Handl|Finalizer|Signal Dispatch|Service Thread|Monitor Deflati|"
		     "C2 CompilerThre|C1 CompilerThre|Common-Cleaner|Notification Th|Attach Listener|"
		     "http-nio-8080-e|pool-1-thread-1|GC Thread#1|C2 CompilerThre|http-nio-8080-A",
		     LIB(L_JLI) | LIB(L_Z) | LIB(L_M) | LIB(L_JVM) | LIB(L_JAVA) | LIB(L_STDCXX) |
		     LIB(L_GCC_S), 12, 380000, 512, 8, 20, PR_JAVA | PR_BUSY, 0.08f, 0.85f, SIGS_JAVA,
		     0 },
	[P_NODE] = { "node", "/usr/bin/node", "node|/srv/app/server.js\nnode|dist/index.js",
		     "node|V8 DefaultWorke|V8 DefaultWorke|V8 DefaultWorke|V8 DefaultWorke|libuv-worker|"
		     "libuv-worker|libuv-worker|libuv-worker",
		     LIB(L_NODE) | LIB(L_UV) | LIB(L_BROTLI) | LIB(L_SSL) | LIB(L_CRYPTO) | LIB(L_Z) |
		     LIB(L_ICUUC) | LIB(L_STDCXX) | LIB(L_GCC_S) | LIB(L_M), 4, 62000, 64, 4, 10,
		     PR_BUSY, 0.03f, 0.8f, 0, SIGPIPE_, 0x0000000000004a02ull, 0 },
	[P_GUNICORN] = { "gunicorn", PYEXE,
			 "/usr/bin/python3|/usr/local/bin/gunicorn|--workers|{c}|--bind|0.0.0.0:8000|"
			 "app.wsgi:application",
			 NULL, PY_LIBS | LIB(L_SSL) | LIB(L_CRYPTO), 2904, 24000, 64, 0, 0, 0, 0.001f,
			 0.8f, SIGS_PYTHON, 0 },
	[P_GUNICORN_WORKER] = { "gunicorn", PYEXE,
				"/usr/bin/python3|/usr/local/bin/gunicorn|--workers|{c}|--bind|"
				"0.0.0.0:8000|app.wsgi:application",
				NULL, PY_LIBS | LIB(L_SSL) | LIB(L_CRYPTO), 2904, 46000, 64, 1, 0,
				PR_FORKED | PR_BUSY, 0.02f, 0.85f, SIGS_PYTHON, 0 },
	[P_PHPFPM] = { "php-fpm8.2", "/usr/sbin/php-fpm8.2",
		       "php-fpm: master process (/etc/php/8.2/fpm/php-fpm.conf)", NULL, PHP_LIBS, 4644, 7400, 64, 0, 0, PR_SUPER, 0.0001f, 0.5f, SIGS_DAEMON, 0 },
	[P_PHPFPM_WORKER] = { "php-fpm8.2", "/usr/sbin/php-fpm8.2", "php-fpm: pool www", NULL, PHP_LIBS, 4644, 11800, 64, 0, 0, PR_FORKED | PR_BUSY,
			      0.008f, 0.8f, SIGS_DAEMON, 0 },
	[P_CRON_CHILD] = { "cron", "/usr/sbin/cron", "/usr/sbin/cron|-f", NULL,
			   LIB(L_SELINUX) | LIB(L_PAM) | LIB(L_AUDIT), 36, 700, 64, 0, 0, PR_FORKED,
			   0.00001f, 0.5f, 0, 0, (SIGHUP_ | SIGCHLD_), 0 },
	[P_SHIM] = { "containerd-shim", "/usr/bin/containerd-shim-runc-v2",
		     "/usr/bin/containerd-shim-runc-v2|-namespace|moby|-id|{h}|-address|"
		     "/run/containerd/containerd.sock",
		     NULL, 0, 5560, 9000, 64, 2, 9, PR_GO | PR_SUPER, 0.0002f, 0.5f, SIGS_GO, 0 },
	[P_MEMCACHED] = { "memcached", "/usr/bin/memcached",
			  "/usr/bin/memcached|-m|64|-p|11211|-u|memcache|-l|127.0.0.1|-P|"
			  "/var/run/memcached/memcached.pid",
			  "memcached|mc-worker|mc-worker|mc-worker|mc-worker|memcached|memcached|memcached",
			  LIB(L_EVENT) | LIB(L_SASL), 168, 3800, 1024, 1, 9, 0, 0.001f, 0.4f, 0,
			  SIGPIPE_, (SIGINT_ | SIGTERM_ | SIGUSR1_ | SIGHUP_), 0 },
	[P_CELERY] = { "celery", PYEXE,
		       "/usr/bin/python3|/usr/local/bin/celery|-A|tasks|worker|--loglevel=INFO", NULL,
		       PY_LIBS | LIB(L_SSL) | LIB(L_CRYPTO), 2904, 52000, 64, 1, 0, PR_BUSY, 0.03f,
		       0.85f, SIGS_PYTHON, 0 },
	[P_PAUSE] = { "pause", "/pause", "/pause", NULL, 0, 460, 60, 64, 0, 0, PR_STATIC, 0.0000001f, 0.5f,
		      0, 0, (SIGINT_ | SIGTERM_ | SIGCHLD_), 0 },
	[P_COREDNS] = { "coredns", "/coredns", "/coredns|-conf|/etc/coredns/Corefile", NULL, 0, 21344, 18000,
			64, 2, 6, PR_GO, 0.002f, 0.7f, SIGS_GO, 0 },
	[P_EXPORTER] = { "node_exporter", "/bin/node_exporter",
			 "/bin/node_exporter|--path.rootfs=/host|--web.listen-address=:9100", NULL, 0, 9872,
			 12000, 64, 2, 5, PR_GO, 0.001f, 0.6f, SIGS_GO, 0 },
};

/* Template strings separate their fields with one character; there is always one field. */
unsigned int sy_count_fields(const char *list, char sep)
{
	unsigned int n = 1;

	for (const char *c = list; *c; c++)
		n += *c == sep;
	return n;
}

/* Instance numbers cycle through the fields, so any number picks one. */
const char *sy_nth_field(const char *list, char sep, unsigned int n, unsigned int k, const char **end)
{
	const char *c = list, *e;

	for (k %= n; k; k--)
		c = strchr(c, sep) + 1;
	e = strchr(c, sep);
	*end = e ? e : c + strlen(c);
	return c;
}

/* ------------------------------------------------------------------ */
/* Accounts                                                             */

const char *const sy_user_names[] = {
	"alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy",
	"mallory", "niaj", "olivia", "peggy", "rupert", "sybil", "trent", "victor", "walter",
};
_Static_assert(sizeof(sy_user_names) / sizeof(sy_user_names[0]) == NR_USER_NAMES, "NR_USER_NAMES");

/* ------------------------------------------------------------------ */
/* Kernel threads                                                       */

#define KS MACH_TASK_SLEEPING
#define KI MACH_TASK_IDLE

const struct kthread_type sy_kthread_types[NR_KTS] = {
	[K_KTHREADD] = { "kthreadd", PF_KT, 0, 0, 0, KS, 0, 0.00002f },
	[K_POOL_RELEASE] = { "pool_workqueue_release", PF_KT, 0, 0, 0, KS, 0, 0.000001f },
	[K_RESCUER] = { "kworker/R-%s", PF_KT_WORKER, -20, 0, 0, KI, 0, 0.0f },
	[K_PERCPU_H] = { "kworker/%u:0H-kblockd", PF_KT_WORKER, -20, 0, 0, KI, 1, 0.00001f },
	[K_UNBOUND] = { "kworker/u%u:0-events_unbound", PF_KT_WORKER, 0, 0, 0, KI, 0, 0.0001f },
	[K_KSOFTIRQD] = { "ksoftirqd/%u", PF_KT_PERCPU, 0, 0, 0, KS, 1, 0.0003f },
	[K_RCU_PREEMPT] = { "rcu_preempt", PF_KT, 0, 0, 0, KI, 0, 0.0005f },
	[K_RCU_EXP_PAR] = { "rcu_exp_par_gp_kthread_worker/0", PF_KT, 0, 0, 0, KS, 0, 0.0f },
	[K_RCU_EXP] = { "rcu_exp_gp_kthread_worker", PF_KT, 0, 0, 0, KS, 0, 0.0f },
	[K_MIGRATION] = { "migration/%u", PF_KT_PERCPU, 0, 1, 99, KS, 1, 0.00002f },
	[K_CPUHP] = { "cpuhp/%u", PF_KT_PERCPU, 0, 0, 0, KS, 1, 0.0f },
	[K_PERCPU_EVENTS] = { "kworker/%u:0-events", PF_KT_WORKER, 0, 0, 0, KI, 1, 0.0002f },
	[K_PERCPU_HIGHPRI] = { "kworker/%u:0H-events_highpri", PF_KT_WORKER, -20, 0, 0, KI, 1, 0.00001f },
	[K_KDEVTMPFS] = { "kdevtmpfs", PF_KT | PF_SUPERPRIV, 0, 0, 0, KS, 0, 0.000001f },
	[K_RCU_TASKS] = { "rcu_tasks_kthread", PF_KT, 0, 0, 0, KI, 0, 0.0f },
	[K_RCU_TASKS_RUDE] = { "rcu_tasks_rude_kthread", PF_KT, 0, 0, 0, KI, 0, 0.0f },
	[K_RCU_TASKS_TRACE] = { "rcu_tasks_trace_kthread", PF_KT, 0, 0, 0, KI, 0, 0.0f },
	[K_KAUDITD] = { "kauditd", PF_KTHREAD | PF_FORKNOEXEC, 0, 0, 0, KS, 0, 0.000001f },
	[K_KHUNGTASKD] = { "khungtaskd", PF_KT, 0, 0, 0, KS, 0, 0.000001f },
	[K_OOM_REAPER] = { "oom_reaper", PF_KTHREAD | PF_FORKNOEXEC, 0, 0, 0, KS, 0, 0.0f },
	[K_UNBOUND_WB] = { "kworker/u%u:1-writeback", PF_KT_WORKER, 0, 0, 0, KI, 0, 0.0002f },
	[K_UNBOUND_FLUSH] = { "kworker/u%u:2-flush-254:0", PF_KT_WORKER, 0, 0, 0, KI, 0, 0.0001f },
	[K_KCOMPACTD] = { "kcompactd%u", PF_KTHREAD | PF_FORKNOEXEC | 0x10000u, 0, 0, 0, KS, 0, 0.00001f },
	[K_KSMD] = { "ksmd", PF_KTHREAD | PF_FORKNOEXEC, 5, 0, 0, KS, 0, 0.0f },
	[K_KHUGEPAGED] = { "khugepaged", PF_KTHREAD | PF_FORKNOEXEC, 19, 0, 0, KS, 0, 0.00001f },
	[K_WATCHDOGD] = { "watchdogd", PF_KT, 0, 1, 50, KS, 0, 0.0f },
	[K_KSWAPD] = { "kswapd%u", PF_KTHREAD | PF_FORKNOEXEC | PF_MEMALLOC | PF_KSWAPD, 0, 0, 0, KS, 0,
		       0.00005f },
	[K_HWRNG] = { "hwrng", PF_KT, 0, 0, 0, KS, 0, 0.000001f },
	[K_UNBOUND_HI] = { "kworker/u%u:0-kvfree_rcu_reclaim", PF_KT_WORKER, -20, 0, 0, KI, 0, 0.00001f },
	[K_JBD2] = { "jbd2/vda1-8", PF_KTHREAD | PF_FORKNOEXEC, 0, 0, 0, KS, 0, 0.0001f },
	[K_IRQ_ACPI] = { "irq/9-acpi", PF_KT, 0, 1, 50, KS, 0, 0.0f },
	[K_LATE_EVENTS] = { "kworker/%u:%u-events", PF_KT_WORKER, 0, 0, 0, KI, 1, 0.0002f },
	[K_LATE_POWER] = { "kworker/%u:%u-events_power_efficient", PF_KT_WORKER, 0, 0, 0, KI, 1, 0.0001f },
	[K_LATE_UNBOUND] = { "kworker/u%u:%u-events_unbound", PF_KT_WORKER, 0, 0, 0, KI, 0, 0.0002f },
};

const char *const sy_kt_rescuers[] = {
	"rcu_gp", "sync_wq", "kvfree_rcu_reclaim", "slub_flushwq", "netns", "mm_percpu_wq",
	"inet_frag_wq", "writeback", "kblockd", "blkcg_punt_bio", "quota_events_unbound",
	"kthrotld", "mld", "ipv6_addrconf", "kstrp", "ext4-rsv-conversion",
};
_Static_assert(sizeof(sy_kt_rescuers) / sizeof(sy_kt_rescuers[0]) == NR_RESCUERS, "NR_RESCUERS");
