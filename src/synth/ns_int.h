/* SPDX-License-Identifier: MIT */
/*
 * ns_int.h - what the generator's namespace files (ns_plan.c,
 * ns_cgroups.c, ns_mounts.c) hand each other.
 */
#ifndef UPROCFS_SYNTH_NS_INT_H
#define UPROCFS_SYNTH_NS_INT_H

#include "devices.h"
#include "synth_int.h"

/* The random streams of containers and pods: + the plan index of their first process (or shim). */
#define KEY_CONTAINER 0x400000000ull

/** What a mount table of the machine will hold, decided with the plan and filled after meminfo. */
enum sy_mnt_kind {
	MP_HOST,        /* the initial mount namespace */
	MP_DEVTMPFS,    /* kdevtmpfs's: devtmpfs alone */
	MP_SERVICE,     /* a service's PrivateTmp namespace: the host's mounts as slaves, two tmp binds */
	MP_CONTAINER,   /* a docker container's */
	MP_POD,         /* a Kubernetes container's */
};

struct sy_mnt_plan {
	uint8_t kind;           /* enum sy_mnt_kind */
	uint32_t owner;         /* plan index: the service, or the container's first process */
	int first_id;           /* its mounts' ids count up from here */
	uint32_t first_minor;   /* its own anonymous superblocks: 0:first_minor and up */
};

/** A user whose systemd --user has /run/user/UID mounted on the host. */
struct sy_run_user {
	uint32_t uid;
	int id;                 /* the mount's id */
	uint32_t minor;
};

/* The state of the namespace plan, kept through the build (read-only once planned). */
struct sy_ns_state {
	size_t cg_cap, css_cap, css_of_cap, css_of_len, nsset_cap, tbl_cap, mplan_cap, run_cap;
	uint32_t *css_of_cg;            /* per group: the css_set of a task in it, MACH_NONE: none yet */
	uint64_t *cg_hash;              /* open addressing: (parent, name) -> its key's high half, group + 1; 0: empty */
	size_t cg_hash_cap;             /* a power of two, at least twice the groups */
	uint64_t next_cg_id;
	uint32_t next_ino;              /* the next namespace inode */
	unsigned int nnet_own;          /* containers given a network namespace (SY_NET_MAX_CONTAINERS) */
	int next_mnt_id;
	uint32_t next_minor;
	struct sy_mnt_plan *mplan;      /* one per m->mnt_tables */
	struct sy_run_user *run_users;
	size_t nrun_users;
	uint32_t *next_nspid;           /* per container (by its first process): the next pid inside */
	uint32_t service_nsset[NR_PROGS]; /* a service's private namespace set, 0: none yet */
};

/** Make *@arr hold @need elements of @elem bytes (capacity *@cap, doubled), new ones zeroed: 0 or -ENOMEM. */
int ns_grow(void **arr, size_t *cap, size_t need, size_t elem);
/** Give back what ns_grow's doubling left unused past @n elements (a later ns_grow grows it again). */
void ns_fit(void **arr, size_t *cap, size_t n, size_t elem);

/** The root group and the v2 hierarchy. */
int ns_cgroups_init(struct synth *s);

/** Put planned process @idx (parent @parent, NONE for init) in its group: gen[idx].css_set. */
int ns_place(struct synth *s, size_t idx, int parent);

/** The uid of the pod whose shim is planned at @shim: a UUID with @sep between its groups. */
void ns_pod_uid(const struct synth *s, size_t shim, char sep, char out[37]);

/** The number of mounts a table of @kind holds. */
unsigned int ns_mnt_count(const struct synth *s, enum sy_mnt_kind kind);

/** Fill table @t as plan @mp says (its mounts' strings allocated): 0 or -ENOMEM. */
int ns_fill_table(const struct synth *s, const struct sy_mnt_plan *mp, struct mach_mnt_table *t);

/** The plan index of the shim whose container's first process is @owner (the build's processes). */
size_t ns_container_shim(const struct synth *s, size_t owner);

/**
 * Fill container or pod table @t as plan @mp says, its shim at plan index
 * @shim and tmpfs sizes from @ram_kb: what ns_fill_table does for it,
 * reading only the seed, the plan and s->blockfs (a maker's replay).
 * 0 or -ENOMEM.
 */
int ns_fill_container(const struct synth *s, const struct sy_mnt_plan *mp, size_t shim, uint64_t ram_kb,
		      struct mach_mnt_table *t);

/*
 * Whether containers' and pods' tables are made on demand (*@made): then
 * the maker keeps what their replay reads besides their plans.  0,
 * -ENOMEM, or -EOVERFLOW when a disk's options do not fit the maker.
 */
int sy_maker_mounts_begin(struct synth *s, bool *made);

/** Leave table @t, planned as @mp with its shim at plan index @shim, to the maker (after sy_maker_mounts_begin). */
void sy_maker_keep_mounts(struct synth *s, const struct sy_mnt_plan *mp, size_t shim, struct mach_mnt_table *t);

#endif /* UPROCFS_SYNTH_NS_INT_H */
