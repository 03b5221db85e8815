/* SPDX-License-Identifier: MIT */
/*
 * sysctl_keys.h - the keys a Linux 6.18 x86_64 /proc/sys holds, with their
 * modes and the values of a freshly booted server (sysctl_keys_*.c), for
 * the generator (sysctl.c) to set up and then fit to the machine.
 *
 * The inventory and the modes are those of the reference VM's 6.18 kernel
 * (research notes section 29), less its vendor keys (kernel/init_private*).
 * Values are typed where the kernel's handler prints numbers.
 */
#ifndef UPROCFS_SYNTH_SYSCTL_KEYS_H
#define UPROCFS_SYNTH_SYSCTL_KEYS_H

#include <stddef.h>
#include <stdint.h>

enum sy_key_kind {
	SY_NUM,    /* signed numbers (proc_dointvec & co) */
	SY_UNUM,   /* unsigned numbers beyond what a signed one holds (proc_doulongvec_minmax) */
	SY_STR,    /* text */
	SY_EMPTY,  /* reads nothing */
	SY_UNSET,  /* a read fails with EIO */
	SY_WO,     /* write-only */
	SY_DER,    /* another part of the model holds it (mach_sysctl_src_of) */
};

#define SY_KEY_MAXVALS 7

struct sy_key {
	const char *path;         /* under /proc/sys, or under a template's directory */
	uint16_t mode;
	uint8_t kind;             /* enum sy_key_kind */
	uint8_t n;                /* numbers */
	uint64_t v[SY_KEY_MAXVALS];
	const char *s;            /* SY_STR */
};

#define SY_NVALS(...) ((uint8_t)(sizeof((uint64_t[]){ __VA_ARGS__ }) / sizeof(uint64_t)))
#define NUM(p, md, ...) { p, md, SY_NUM, SY_NVALS(__VA_ARGS__), { __VA_ARGS__ }, NULL }
#define UNUM(p, md, ...) { p, md, SY_UNUM, SY_NVALS(__VA_ARGS__), { __VA_ARGS__ }, NULL }
#define STR(p, md, str) { p, md, SY_STR, 0, { 0 }, str }
#define EMPTY(p, md) { p, md, SY_EMPTY, 0, { 0 }, NULL }
#define UNSET(p, md) { p, md, SY_UNSET, 0, { 0 }, NULL }
#define WO(p, md) { p, md, SY_WO, 0, { 0 }, NULL }
#define DER(p, md) { p, md, SY_DER, 0, { 0 }, NULL }

/* abi, debug, dev, fs, kernel, user, vm */
extern const struct sy_key sy_keys_sys[];
extern const size_t sy_nkeys_sys;
/* net, but the per-device directories */
extern const struct sy_key sy_keys_net[];
extern const size_t sy_nkeys_net;
/* the per-device directories, with the values of conf/all and IPv4's neigh/default */
extern const struct sy_key sy_keys_conf4[], sy_keys_conf6[], sy_keys_neigh[];
extern const size_t sy_nkeys_conf4, sy_nkeys_conf6, sy_nkeys_neigh;

#endif
