// SPDX-License-Identifier: MIT
/*
 * backend.c - /proc from a snapshot, answered as the FUSE mount answers
 * (backend.h): the same walk (lookup by lookup, the table's entries and
 * the model's tasks), attributes (src/fuse/attr.c fs_node_stat), listings
 * (src/fuse/readdir.c), access rules (pfs_access_check) and errors.
 *
 * A call resolves its path against the snapshot held for it and renders
 * before giving the snapshot back: the text a reader gets was made whole at
 * one served time, as a FUSE open's seq_file is.
 */
#include <dirent.h>
#include <errno.h>
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "backend.h"
#include "fuse/node.h"
#include "snapshot.h"
#include "source/source_int.h"

/* The capabilities the daemon assumes a root reader holds (fs_reader), and the kernel's checks need. */
#define NEEDED_CAPS                                                                                             \
	((1ull << CAP_DAC_OVERRIDE) | (1ull << CAP_DAC_READ_SEARCH) | (1ull << CAP_SYS_PTRACE) |              \
	 (1ull << CAP_SYS_ADMIN) | (1ull << CAP_SYS_NICE))

static struct {
	bool ready;
	pid_t pid;            /* this process, in the run's namespace */
	int creds;            /* 1: root with NEEDED_CAPS; 0: passed on; -1: look again */
} B = { .creds = -1 };

static __thread pid_t my_tid __attribute__((tls_model("initial-exec")));

bool plb_init(void)
{
	B.ready = pls_init();
	B.pid = (pid_t)syscall(SYS_getpid);
	return B.ready;
}

bool plb_candidate(const char *path)
{
	return path[0] == '/' && !strncmp(path, "/proc", 5) && (path[5] == '/' || !path[5]);
}

void plb_creds_changed(void)
{
	__atomic_store_n(&B.creds, -1, __ATOMIC_RELAXED);
}

void plb_after_fork_child(void)
{
	B.pid = (pid_t)syscall(SYS_getpid);
	my_tid = 0;
	pls_after_fork_child();
}

/*
 * The run mounts its tree for root only (no allow_other): the kernel
 * refuses everyone else before the daemon hears of it.  Root readers are
 * checked by the daemon as holding every capability; one that dropped some
 * is left to the kernel too.
 */
static bool creds_served(void)
{
	int c = __atomic_load_n(&B.creds, __ATOMIC_RELAXED);

	if (c < 0) {
		uid_t r, e, s;
		gid_t gr, ge, gs;
		struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
		struct __user_cap_data_struct d[2];
		uint64_t eff;

		c = 0;
		if (!syscall(SYS_getresuid, &r, &e, &s) && !syscall(SYS_getresgid, &gr, &ge, &gs) &&
		    !syscall(SYS_capget, &h, d) && !(r | e | s | gr | ge | gs)) {
			eff = d[0].effective | (uint64_t)d[1].effective << 32;
			c = (eff & NEEDED_CAPS) == NEEDED_CAPS;
		}
		__atomic_store_n(&B.creds, c, __ATOMIC_RELAXED);
	}
	return c == 1;
}

static void reader(struct pfs_reader *r)
{
	if (!my_tid)
		my_tid = (pid_t)syscall(SYS_gettid);
	*r = (struct pfs_reader){ .pid = B.pid, .tid = my_tid, .uid = 0, .gid = 0, .cap_sys_ptrace = true,
				  .cap_sys_admin = true, .cap_sys_nice = true };
}

/* A path resolved against a held snapshot. */
struct res {
	struct pl_hold h;
	struct pfs_reader r;
	struct pfs_node n;
	struct pfs_ctx c;     /* bound to n */
};

static bool mirrored(pid_t pid)
{
	pid_t from = pls_ctl()->mirror_from;

	return pid && from && pid >= from;
}

/*
 * One lookup of the walk, as fs_op_lookup does it: a directory with an
 * access rule (fdinfo/) is checked first, then the child must exist.
 */
static int lookup(struct res *x, const char *name)
{
	const struct mach_machine *m = x->h.snap->mach;
	struct pfs_node child;
	struct pfs_ctx cc = { .mach = m, .caller_pid = x->r.pid, .caller_tid = x->r.tid };
	int rc;

	if (!pfs_node_is_dir(&x->n))
		return x->n.entry->kind == PFS_LINK ? PLB_PASS : -ENOTDIR;
	if (x->n.entry && x->n.entry->access && x->n.pid) {
		struct pfs_ctx dc = x->c;

		rc = pfs_access_check(&x->n, &x->r, &dc);
		if (rc)
			return rc == -EACCES ? -EACCES : -ENOENT;
	}
	if (pfs_child(&x->n, name, &x->c, &child))
		return -ENOENT;
	if (mirrored(child.pid))
		return PLB_PASS;
	if (pfs_bind(m, &child, &cc))
		return -ENOENT;
	x->n = child;
	x->c = cc;
	return 0;
}

/*
 * Resolve absolute @path: 0 with the snapshot held (pls_leave it), or
 * -errno or PLB_PASS with nothing held.
 */
static int resolve_pass(const char *path, bool follow, struct res *x);

static int resolve(const char *path, bool follow, struct res *x)
{
	int rc = resolve_pass(path, follow, x);

	if (rc == PLB_PASS)
		PLS_COUNT(passes);
	return rc;
}

static int resolve_pass(const char *path, bool follow, struct res *x)
{
	const struct pl_ctl *ctl;
	const char *p = path + 5;
	char name[256];
	int rc;

	if (!B.ready || !creds_served())
		return PLB_PASS;
	ctl = pls_ctl();
	if (ctl->hidepid || ctl->subset_pid)
		return PLB_PASS; /* the mount's answers depend on the reader: the daemon gives them */
	if (pls_enter(&x->h))
		return PLB_PASS;
	reader(&x->r);
	x->n = pfs_root();
	x->c = (struct pfs_ctx){ .mach = x->h.snap->mach, .caller_pid = x->r.pid, .caller_tid = x->r.tid };
	pfs_bind(x->c.mach, &x->n, &x->c);
	while (*p) {
		const char *end;
		size_t len;

		while (*p == '/')
			p++;
		end = strchrnul(p, '/');
		len = (size_t)(end - p);
		if (!len)
			break;
		if (len >= sizeof(name)) {
			rc = -ENAMETOOLONG;
			goto fail;
		}
		memcpy(name, p, len);
		name[len] = '\0';
		rc = lookup(x, name);
		if (rc)
			goto fail;
		p = end;
	}
	if (follow && x->n.entry && x->n.entry->kind == PFS_LINK) {
		rc = PLB_PASS; /* where it leads: the kernel follows it through the mount */
		goto fail;
	}
	return 0;
fail:
	pls_leave(&x->h);
	return rc;
}

/* The attributes of @x's node, as fs_node_stat and the kernel's FUSE client give them. */
static void attrs(const struct res *x, struct stat *st)
{
	const struct stat *root = pls_root_stat();
	const struct pfs_node *n = &x->n;

	memset(st, 0, sizeof(*st));
	st->st_dev = root->st_dev;
	st->st_blksize = root->st_blksize;
	st->st_ino = node_ino(n);
	st->st_mode = pfs_node_mode(n, NULL);
	st->st_nlink = pfs_node_is_dir(n) ? 2 : 1;
	st->st_atim = st->st_mtim = st->st_ctim = root->st_mtim; /* the mount's time */
	if (!n->entry)
		return;
	if (pfs_node_mode_needs_machine(n))
		st->st_mode = pfs_node_mode(n, &x->c);
	if (!n->pid)
		return;
	src_task_owner(x->c.mach, x->c.proc, x->c.thread, st);
	pfs_node_attr(n, &x->c, st);
}

int plb_stat(const char *path, bool follow, struct stat *st)
{
	struct res x;
	int rc = resolve(path, follow, &x);

	if (rc)
		return rc;
	attrs(&x, st);
	pls_leave(&x.h);
	return 0;
}

int plb_access(const char *path, int mode, bool follow)
{
	struct res x;
	struct stat st;
	int rc = resolve(path, follow, &x);

	if (rc)
		return rc;
	attrs(&x, &st);
	pls_leave(&x.h);
	if (mode & W_OK)
		return -EROFS; /* a read-only mount */
	if ((mode & X_OK) && !S_ISDIR(st.st_mode) && !(st.st_mode & 0111))
		return -EACCES; /* root too needs an execute bit on a file */
	return 0;
}

/* fs_op_opendir's checks beyond existence: a directory with an access rule (fdinfo/). */
static int dir_access(struct res *x)
{
	struct pfs_ctx dc = x->c;

	if (!x->n.entry || !x->n.entry->access || !x->n.pid)
		return 0;
	return pfs_access_check(&x->n, &x->r, &dc);
}

/* pfs_render with the refusals of open and of read apart: 0, or -errno from open; read's in f->read_err. */
static int render(struct res *x, struct plb_file *f)
{
	struct seq_file m;
	size_t cap = 4096, have = 0;
	loff_t pos = 0;
	char *buf;
	int rc;

	rc = pfs_open(&m, &x->n, &x->c);
	if (rc)
		return rc;
	buf = malloc(cap);
	for (;;) {
		ssize_t got;

		if (buf && cap - have < 2048) {
			char *bigger = realloc(buf, cap * 2);

			if (!bigger) {
				free(buf);
				buf = NULL;
			} else {
				buf = bigger;
				cap *= 2;
			}
		}
		if (!buf) {
			f->read_err = ENOMEM;
			break;
		}
		got = seq_read(&m, buf + have, cap - have, &pos);
		if (got < 0)
			f->read_err = (int)-got;
		if (got <= 0)
			break;
		have += (size_t)got;
	}
	seq_release(&m);
	if (f->read_err) {
		free(buf);
		buf = NULL;
		have = 0;
	}
	f->text = buf;
	f->len = have;
	return 0;
}

int plb_open(const char *path, bool follow, struct plb_file *f)
{
	struct res x;
	int rc = resolve(path, follow, &x);

	memset(f, 0, sizeof(*f));
	if (rc)
		return rc;
	if (pfs_node_is_dir(&x.n)) {
		f->dir = true;
		rc = dir_access(&x);
	} else if (x.n.entry->kind == PFS_LINK) {
		rc = -ELOOP; /* O_NOFOLLOW on a symlink */
	} else {
		/* fs_op_open: the source's open (access rules), then the seq_file */
		rc = pfs_access_check(&x.n, &x.r, &x.c);
		if (!rc && x.c.read_denied)
			f->read_err = x.c.read_err ? x.c.read_err : EACCES;
		else if (!rc)
			rc = render(&x, f);
		f->whole_at_zero = pfs_node_whole_at_zero(&x.n, &x.c);
	}
	pls_leave(&x.h);
	if (!rc)
		PLS_COUNT(opens);
	return rc;
}

int plb_readlink(const char *path, char *buf, size_t size, size_t *len)
{
	char target[PFS_LINK_MAX];
	struct res x;
	int rc = resolve(path, false, &x);

	if (rc)
		return rc;
	if (!x.n.entry || x.n.entry->kind != PFS_LINK) {
		pls_leave(&x.h);
		return -EINVAL;
	}
	rc = pfs_access_check(&x.n, &x.r, &x.c);
	if (!rc)
		rc = x.n.entry->readlink(&x.c, target, sizeof(target));
	pls_leave(&x.h);
	if (rc)
		return rc == -ESRCH ? -ENOENT : rc;
	*len = strlen(target);
	if (*len > size)
		*len = size;
	memcpy(buf, target, *len);
	return 0;
}

/* A growing listing. */
struct list {
	struct plb_dirent *v;
	size_t n, cap;
	bool failed;
};

static void add(struct list *l, const char *name, const struct pfs_node *n, mode_t mode, uint64_t off)
{
	struct plb_dirent *e;

	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 64;
		struct plb_dirent *v = realloc(l->v, cap * sizeof(*v));

		if (!v) {
			l->failed = true;
			return;
		}
		l->v = v;
		l->cap = cap;
	}
	e = &l->v[l->n++];
	snprintf(e->name, sizeof(e->name), "%s", name);
	e->ino = node_ino(n);
	e->type = S_ISDIR(mode) ? DT_DIR : S_ISLNK(mode) ? DT_LNK : DT_REG;
	e->off = (off_t)off;
}

/* readdir.c's offsets: fixed entries from 1, each collection k in its own range above 2^32 * (k + 1). */
#define ID_OFFSET_BASE (1ull << 32)

/* The pids (of the root) or tids (of task/) of @dir: the snapshot's, then the run's own. */
static void list_ids(struct res *x, const struct pfs_entry *coll, struct list *l)
{
	const struct mach_machine *m = x->c.mach;
	struct pfs_node child = { .entry = coll, .scope = x->n.entry ? x->n.scope : PFS_SCOPE_GLOBAL,
				  .pid = x->n.pid, .tid = x->n.tid };
	char num[16];

	if (coll->coll == PFS_COLL_PIDS) {
		pid_t from = pls_ctl()->mirror_from, ids[256];
		size_t got;

		for (size_t i = 0; i < m->nprocs && (!from || m->procs[i].tgid < from); i++) {
			child.pid = m->procs[i].tgid;
			snprintf(num, sizeof(num), "%d", (int)child.pid);
			add(l, num, &child, S_IFDIR, ID_OFFSET_BASE + (uint64_t)child.pid);
		}
		for (pid_t after = from - 1; from && (got = pls_real_pids(after, ids, 256)) > 0; after = ids[got - 1])
			for (size_t i = 0; i < got; i++) {
				child.pid = ids[i];
				snprintf(num, sizeof(num), "%d", (int)ids[i]);
				add(l, num, &child, S_IFDIR, ID_OFFSET_BASE + (uint64_t)ids[i]);
			}
		return;
	}
	/* a process's threads, ascending (as model_list_ids sorts them) */
	size_t first = l->n;

	for (unsigned int i = 0; x->c.proc && i < x->c.proc->nthreads; i++) {
		child.tid = x->c.proc->threads[i].tid;
		snprintf(num, sizeof(num), "%d", (int)child.tid);
		add(l, num, &child, S_IFDIR, ID_OFFSET_BASE + (uint64_t)child.tid);
	}
	for (size_t i = first + 1; !l->failed && i < l->n; i++)
		for (size_t j = i; j > first && l->v[j - 1].off > l->v[j].off; j--) {
			struct plb_dirent t = l->v[j];

			l->v[j] = l->v[j - 1];
			l->v[j - 1] = t;
		}
}

/* The instances of a collection of the model (fd numbers, /proc/sys entries); NULL @coll: all, merged. */
static void list_instances(struct res *x, const struct pfs_entry *coll, uint64_t base, struct list *l)
{
	const struct pfs_coll_ops *ops = pfs_coll_ops(coll ? coll->coll : pfs_dir_coll(&x->n, 0)->coll);
	struct pfs_ctx vc = x->c;
	struct pfs_node child;
	uint64_t pos = 0;
	char name[256];

	/* the source's open of the directory: a refusal lists nothing */
	if (pfs_access_check(&x->n, &x->r, &vc))
		return;
	while (coll ? pfs_dir_next_instance(&x->n, coll, &vc, &pos, &child, name, sizeof(name))
		    : pfs_dir_next_merged(&x->n, &vc, &pos, &child, name, sizeof(name))) {
		struct pfs_ctx cc = vc;

		add(l, name, &child, pfs_node_mode(&child, &cc), base + (ops->numeric ? child.inst + 1ull : pos));
	}
}

int plb_list(const char *path, struct plb_dirent **ents, size_t *n)
{
	struct list l = { 0 };
	const struct pfs_entry *coll;
	struct res x;
	unsigned int pos = 0;
	const char *name;
	struct pfs_node child;
	int rc = resolve(path, true, &x);

	if (rc)
		return rc;
	if (!pfs_node_is_dir(&x.n)) {
		pls_leave(&x.h);
		return -ENOTDIR;
	}
	rc = dir_access(&x);
	if (rc) {
		pls_leave(&x.h);
		return rc;
	}
	add(&l, ".", &x.n, S_IFDIR, 1);
	add(&l, "..", &x.n, S_IFDIR, 2);
	for (uint64_t i = 3; pfs_dir_next(&x.n, NULL, &pos, &name, &child); i++) {
		struct pfs_ctx cc = x.c;

		if (!pfs_bind(x.c.mach, &child, &cc))
			add(&l, name, &child, pfs_node_mode(&child, NULL), i);
	}
	/* a directory none of whose entries exists lists an error (net/ of a zombie), as the mount's readdir */
	if (x.n.entry && x.n.entry->empty_list_err && l.n == 2) {
		pls_leave(&x.h);
		free(l.v);
		return x.n.entry->empty_list_err;
	}
	if (pfs_dir_merged(&x.n)) {
		list_instances(&x, NULL, ID_OFFSET_BASE, &l);
	} else {
		for (unsigned int k = 0; (coll = pfs_dir_coll(&x.n, k)); k++) {
			if (coll->coll == PFS_COLL_PIDS || coll->coll == PFS_COLL_TIDS)
				list_ids(&x, coll, &l);
			else
				list_instances(&x, coll, ID_OFFSET_BASE * (k + 1), &l);
		}
	}
	pls_leave(&x.h);
	if (l.failed) {
		free(l.v);
		return -ENOMEM;
	}
	*ents = l.v;
	*n = l.n;
	return 0;
}
