// SPDX-License-Identifier: MIT
/*
 * bench_seeds.c - `uprocfs bench seeds`: the five kernel threads uprocfs
 * starts from, rerun on uprocfs.  For each, the renderer as the kernel wrote
 * it before its patch (bench/before/, libc printf) and ours, on the same
 * synthetic data, through the same read protocol, alternating in one run;
 * then the live kernel's file on this machine as the anchor.
 *
 *   seed 000  /proc/<pid>/status   open + read + close       kernel 11.26 s -> 9.74 s
 *   seed 002  /proc/stat           seek 0 + read              kernel 0.142 s -> 0.096 s
 *   seed 003  /proc/<pid>/maps     seek 0 + read              kernel 1.561 s -> 0.986 s
 *   seed 004  /proc/schedstat      whole-file reads           kernel 3.58 ms -> 3.18 ms
 *
 * With --callgrind every case is rerun under valgrind for a fixed count and
 * reported in instructions per file read, which the VM's noise cannot move.
 */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "before.h"
#include "bench.h"
#include "spec.h"
#include "uprocfs/load.h"
#include "uprocfs/procfs.h"

#define READ_BUF (1u << 20)

/* Kernel ratios from the seed threads (before / after). */
#define KERNEL_STATUS (11.26 / 9.74)
#define KERNEL_STAT (0.142 / 0.096)
#define KERNEL_MAPS (1.561 / 0.986)
#define KERNEL_SCHEDSTAT (3.58 / 3.18)

enum read_mode {
	OPEN_READ_CLOSE, /* a fresh open each time (top's pattern for status) */
	SEEK_READ,       /* one open, then lseek 0 and read to EOF (python's f.seek(0); f.read()) */
};

/* How to open one variant of a file. */
struct variant {
	int (*show)(struct seq_file *, void *);
	const struct seq_operations *ops;
	size_t first_size;
};

struct read_job {
	struct variant var;
	struct pfs_ctx ctx;
	enum read_mode mode;
	size_t iters;
	struct seq_file m;  /* SEEK_READ keeps it open */
	char *buf;
	size_t bytes;       /* of the last read, to check both variants agree */
};

static int job_open(struct read_job *j, struct seq_file *m)
{
	if (j->var.ops)
		return seq_open(m, j->var.ops, &j->ctx);
	if (j->var.first_size)
		return seq_single_open_size(m, j->var.show, &j->ctx, j->var.first_size);
	return seq_single_open(m, j->var.show, &j->ctx);
}

static size_t read_to_eof(struct seq_file *m, char *buf)
{
	loff_t pos = 0;
	size_t have = 0;
	ssize_t n;

	while ((n = seq_read(m, buf + have, READ_BUF - have, &pos)) > 0)
		have += (size_t)n;
	if (n < 0) {
		fprintf(stderr, "bench seeds: read failed: %s\n", strerror((int)-n));
		exit(1);
	}
	return have;
}

static void job_pass(void *arg)
{
	struct read_job *j = arg;

	for (size_t i = 0; i < j->iters; i++) {
		if (j->mode == OPEN_READ_CLOSE) {
			struct seq_file m;
			if (job_open(j, &m))
				exit(1);
			j->bytes = read_to_eof(&m, j->buf);
			seq_release(&m);
		} else {
			loff_t pos = 0;
			seq_lseek(&j->m, 0, SEEK_SET, &pos);
			j->bytes = read_to_eof(&j->m, j->buf);
		}
	}
	bench_escape(j->buf);
}

static void job_init(struct read_job *j, const struct variant *v, const struct pfs_ctx *ctx,
		     enum read_mode mode, size_t iters)
{
	memset(j, 0, sizeof(*j));
	j->var = *v;
	j->ctx = *ctx;
	j->mode = mode;
	j->iters = iters;
	j->buf = malloc(READ_BUF);
	if (!j->buf || (mode == SEEK_READ && job_open(j, &j->m))) {
		fprintf(stderr, "bench seeds: out of memory\n");
		exit(1);
	}
}

static void job_fini(struct read_job *j)
{
	if (j->mode == SEEK_READ)
		seq_release(&j->m);
	free(j->buf);
}

/* --- the live kernel ------------------------------------------------------ */

struct live_job {
	const char *path;
	enum read_mode mode;
	size_t iters;
	int fd;
	char *buf;
};

static void live_read_to_eof(int fd, char *buf)
{
	ssize_t n;

	while ((n = read(fd, buf, READ_BUF)) > 0)
		;
}

static void live_pass(void *arg)
{
	struct live_job *j = arg;

	for (size_t i = 0; i < j->iters; i++) {
		if (j->mode == OPEN_READ_CLOSE) {
			int fd = open(j->path, O_RDONLY | O_CLOEXEC);
			if (fd < 0)
				return;
			live_read_to_eof(fd, j->buf);
			close(fd);
		} else {
			lseek(j->fd, 0, SEEK_SET);
			live_read_to_eof(j->fd, j->buf);
		}
	}
}

/* Nanoseconds per read of @path on the live kernel, or 0 if it does not exist. */
static double live_ns_per_read(const char *path, enum read_mode mode, size_t iters, int passes)
{
	struct live_job j = { .path = path, .mode = mode, .iters = iters, .fd = -1 };
	double ns, unused;

	j.fd = open(path, O_RDONLY | O_CLOEXEC);
	if (j.fd < 0)
		return 0;
	j.buf = malloc(READ_BUF);
	if (!j.buf)
		exit(1);
	bench_pair(live_pass, &j, live_pass, &j, passes, &ns, &unused);
	close(j.fd);
	free(j.buf);
	return ns / (double)iters;
}

/* --- callgrind ------------------------------------------------------------ */

/*
 * The function valgrind collects in (--toggle-collect): everything the reads
 * execute, nothing of the set-up.
 */
__attribute__((noinline)) void bench_seeds_measured(struct read_job *j)
{
	job_pass(j);
	__asm__ volatile("" ::: "memory");
}

/* Instructions per read of one case variant, from a child run under callgrind. */
static double callgrind_ir(const struct bench_opts *o, const char *case_name, const char *variant,
			   size_t count)
{
	char out[] = "/tmp/uprocfs-cg-XXXXXX";
	char outarg[64], countarg[32], line[512];
	int fd = mkstemp(out);
	double total = 0;
	pid_t pid;
	int status;
	FILE *f;

	if (fd < 0)
		return 0;
	close(fd);
	snprintf(outarg, sizeof(outarg), "--callgrind-out-file=%s", out);
	snprintf(countarg, sizeof(countarg), "%zu", count);
	pid = fork();
	if (pid == 0) {
		int devnull = open("/dev/null", O_WRONLY);
		if (devnull >= 0) {
			dup2(devnull, 1);
			dup2(devnull, 2);
		}
		execlp("valgrind", "valgrind", "--tool=callgrind", outarg,
		       "--toggle-collect=bench_seeds_measured", o->self_exe, "bench", "--cg-case",
		       case_name, variant, countarg, (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "bench seeds: callgrind run of %s/%s failed (is valgrind installed?)\n",
			case_name, variant);
		unlink(out);
		return 0;
	}
	f = fopen(out, "r");
	while (f && fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "summary:", 8) || !strncmp(line, "totals:", 7)) {
			total = strtod(strchr(line, ':') + 1, NULL);
			break;
		}
	}
	if (f)
		fclose(f);
	unlink(out);
	return total / (double)count;
}

/* --- the machines --------------------------------------------------------- */

static struct mach_machine *synth(const char *spec)
{
	struct mach_machine *m;
	char err[256];

	if (mach_from_spec(spec, &m, err, sizeof(err))) {
		fprintf(stderr, "bench seeds: %s\n", err);
		exit(1);
	}
	return m;
}

/* A typical user process: the first with an mm and a full set of mappings. */
static const struct mach_process *typical_process(const struct mach_machine *m, size_t min_vmas)
{
	const struct mach_process *best = NULL;

	for (size_t i = 0; i < m->nprocs; i++) {
		const struct mach_process *p = &m->procs[i];
		if (p->mm && p->mm->nvmas >= min_vmas && p->threads[0].state != MACH_TASK_ZOMBIE) {
			if (!best || labs((long)p->mm->nvmas - 40) < labs((long)best->mm->nvmas - 40))
				best = p;
		}
	}
	if (!best) {
		fprintf(stderr, "bench seeds: the synthetic machine has no user process\n");
		exit(1);
	}
	return best;
}

static struct pfs_ctx pid_ctx(const struct mach_machine *m, const struct mach_process *p)
{
	return (struct pfs_ctx){ .mach = m, .proc = p, .thread = &p->threads[0], .whole = true,
				 .ptrace_ok = true };
}

/*
 * Give @p an mm of @n mappings laid out as a process with many shared
 * objects maps them: five file mappings per object, then an anonymous one.
 */
static void grow_mm(struct mach_process *p, size_t n)
{
	static const unsigned int perms[] = { MACH_VM_READ, MACH_VM_READ | MACH_VM_EXEC, MACH_VM_READ,
					      MACH_VM_READ, MACH_VM_READ | MACH_VM_WRITE };
	struct mach_vma *v = calloc(n, sizeof(*v));
	uint64_t addr = 0x7f1c2a000000ull, inode = 300000;
	char name[96];

	if (!v)
		exit(1);
	for (size_t i = 0; i < n; i++) {
		size_t k = i % 6;
		uint64_t len = 4096 * (1 + (i * 7919) % 97);

		v[i].start = addr;
		v[i].end = addr + len;
		addr += len;
		if (k == 5) {
			v[i].flags = MACH_VM_READ | MACH_VM_WRITE;
			v[i].kind = MACH_VMA_ANON;
			inode++;
			continue;
		}
		v[i].flags = perms[k];
		v[i].offset = k ? 4096 * (uint64_t)(k * 13) : 0;
		v[i].dev_major = 0xfe;
		v[i].inode = inode;
		v[i].kind = MACH_VMA_FILE;
		snprintf(name, sizeof(name), "/usr/lib/x86_64-linux-gnu/libplugin-%zu.so.%zu", i / 6, i % 3);
		v[i].name = strdup(name);
	}
	if (p->mm->vmas)
		mach_vmas_free(p->mm->vmas, p->mm->nvmas);
	p->mm->vmas = v;
	p->mm->nvmas = n;
	p->mm->maker = NULL; /* it stores these */
}

/* Keep the first @slots irq numbers, most of them zero. */
static void set_irq_slots(struct mach_machine *m, unsigned int slots)
{
	unsigned int kept = 0;

	for (unsigned int i = 0; i < m->nirqs; i++) {
		if (m->irqs[i].irq < slots)
			m->irqs[kept++] = m->irqs[i];
		else
			free(m->irqs[i].per_cpu);
	}
	m->nirqs = kept;
	m->nr_irqs = slots;
}

/* Three domain levels (SMT pairs, 18-CPU clusters, the package) on every CPU. */
static void three_domains(struct mach_machine *m)
{
	static const enum mach_sd_level levels[3] = { MACH_SD_SMT, MACH_SD_MC, MACH_SD_PKG };
	static const unsigned int spans[3] = { 2, 18, 0 };

	for (unsigned int c = 0; c < m->ncpus; c++) {
		struct mach_cpu_schedstat *s = &m->cpus[c].sched;

		for (unsigned int d = 0; d < s->ndomains; d++)
			mach_bitmap_free(&s->domains[d].span);
		free(s->domains);
		s->domains = calloc(3, sizeof(*s->domains));
		s->ndomains = 3;
		for (unsigned int d = 0; d < 3; d++) {
			struct mach_sched_domain *sd = &s->domains[d];
			unsigned int width = spans[d] ? spans[d] : m->ncpus;
			unsigned int first = c / width * width;

			sd->level = levels[d];
			if (mach_bitmap_alloc(&sd->span, m->nr_cpu_ids))
				exit(1);
			for (unsigned int b = first; b < first + width && b < m->ncpus; b++)
				mach_bitmap_set(&sd->span, b);
			for (int t = 0; t < MACH_NR_IDLE_TYPES; t++)
				for (int k = 0; k < MACH_NR_LB_STATS; k++)
					sd->lb[t][k] = (c * 31 + d * 7 + (unsigned int)t * 3 + (unsigned int)k) % 5 ? 0 : 1000 + c;
			for (int k = 0; k < MACH_NR_DOMAIN_TAIL; k++)
				sd->tail[k] = (c + (unsigned int)k) % 4 ? 0 : 17 * c;
		}
	}
	m->profile.has_schedstat = true;
}

/* --- the cases ------------------------------------------------------------ */

struct seed_case {
	const char *name;       /* JSON case name */
	const char *spec;       /* the synthetic machine */
	int kind;               /* what to adjust and which file */
	unsigned int arg;       /* irq slots / VMA count */
	enum read_mode mode;
	size_t iters, quick_iters;
	double kernel_ratio;
};

enum { CASE_STATUS, CASE_STAT, CASE_MAPS, CASE_MAPS_NOFAST, CASE_SCHEDSTAT };

static const struct seed_case cases[] = {
	{ "status", "synth", CASE_STATUS, 0, OPEN_READ_CLOSE, 1000000, 40000, KERNEL_STATUS },
	{ "stat_2cpu_424irq", "synth:cpus=2,tasks=60", CASE_STAT, 424, SEEK_READ, 1000, 1000, KERNEL_STAT },
	{ "stat_2cpu_64irq", "synth:cpus=2,tasks=60", CASE_STAT, 64, SEEK_READ, 1000, 1000, KERNEL_STAT },
	{ "stat_2cpu_4096irq", "synth:cpus=2,tasks=60", CASE_STAT, 4096, SEEK_READ, 1000, 1000, KERNEL_STAT },
	{ "stat_64cpu_64irq", "synth:cpus=64,tasks=60", CASE_STAT, 64, SEEK_READ, 1000, 1000, KERNEL_STAT },
	{ "stat_64cpu_4096irq", "synth:cpus=64,tasks=60", CASE_STAT, 4096, SEEK_READ, 1000, 1000, KERNEL_STAT },
	{ "stat_1024cpu_64irq", "synth:cpus=1024,tasks=60", CASE_STAT, 64, SEEK_READ, 1000, 300, KERNEL_STAT },
	{ "stat_1024cpu_4096irq", "synth:cpus=1024,tasks=60", CASE_STAT, 4096, SEEK_READ, 1000, 300, KERNEL_STAT },
	{ "maps_40vma", "synth", CASE_MAPS, 40, SEEK_READ, 10000, 3000, KERNEL_MAPS },
	{ "maps_1000vma", "synth", CASE_MAPS, 1000, SEEK_READ, 10000, 300, KERNEL_MAPS },
	{ "maps_1000vma_fastpath", "synth", CASE_MAPS_NOFAST, 1000, SEEK_READ, 10000, 300, 0 },
	{ "schedstat_72cpu", "synth:cpus=72,tasks=60", CASE_SCHEDSTAT, 0, SEEK_READ, 10000, 1000, KERNEL_SCHEDSTAT },
};
#define NCASES (sizeof(cases) / sizeof(cases[0]))

struct prepared {
	struct mach_machine *mach;
	struct pfs_ctx ctx;
	struct variant before, after;
	const char *baseline_name;
};

static void prepare(const struct seed_case *c, struct prepared *p)
{
	struct mach_process *proc;

	memset(p, 0, sizeof(*p));
	p->mach = synth(c->spec);
	p->ctx = (struct pfs_ctx){ .mach = p->mach, .ptrace_ok = true };
	p->baseline_name = "printf_before";
	switch (c->kind) {
	case CASE_STATUS:
		proc = (struct mach_process *)typical_process(p->mach, 10);
		p->ctx = pid_ctx(p->mach, proc);
		p->before.show = before_show_pid_status;
		p->after.show = pfs_show_pid_status;
		break;
	case CASE_STAT:
		set_irq_slots(p->mach, c->arg);
		p->before.show = before_show_stat;
		p->after.show = pfs_show_stat;
		p->before.first_size = p->after.first_size = pfs_stat_first_size(&p->ctx);
		break;
	case CASE_MAPS:
	case CASE_MAPS_NOFAST:
		proc = (struct mach_process *)typical_process(p->mach, 10);
		grow_mm(proc, c->arg);
		p->ctx = pid_ctx(p->mach, proc);
		p->before.ops = c->kind == CASE_MAPS ? &before_pid_maps_ops : &nofastpath_pid_maps_ops;
		p->after.ops = &pfs_pid_maps_ops;
		if (c->kind == CASE_MAPS_NOFAST)
			p->baseline_name = "putters_no_fastpath";
		break;
	case CASE_SCHEDSTAT:
		three_domains(p->mach);
		p->before.ops = &before_schedstat_ops;
		p->after.ops = &pfs_schedstat_ops;
		break;
	}
}

/* `uprocfs bench --cg-case CASE before|after COUNT`: the callgrind child. */
int bench_seeds_callgrind_child(const char *case_name, const char *variant, const char *count)
{
	struct prepared p;
	struct read_job j;
	size_t i;

	for (i = 0; i < NCASES && strcmp(cases[i].name, case_name); i++)
		;
	if (i == NCASES)
		return 2;
	prepare(&cases[i], &p);
	job_init(&j, !strcmp(variant, "before") ? &p.before : &p.after, &p.ctx, cases[i].mode,
		 strtoul(count, NULL, 10));
	bench_seeds_measured(&j);
	job_fini(&j);
	mach_free(p.mach);
	return 0;
}

struct seed_result {
	const char *name;
	double ratio, kernel_ratio;
};

static void plot(const struct bench_opts *o, const struct seed_result *r, size_t n)
{
	char data[32];
	FILE *f = bench_plot_data(data, "seeds");

	if (!f)
		return;
	for (size_t i = 0; i < n; i++)
		if (r[i].kernel_ratio > 0)
			fprintf(f, "\"%s\" %.3f %.3f\n", r[i].name, r[i].kernel_ratio, r[i].ratio);
	fclose(f);
	bench_plot_draw(o, data, "seeds",
			"set title 'Speed-up of each seed patch: kernel (as reported) vs uprocfs (before/after)'\n"
			"set ylabel 'before / after (log scale)'\n"
			"set logscale y\nset yrange [1:*]\n"
			"set style data histograms\nset style histogram clustered gap 1\n"
			"set style fill solid 0.8 border -1\nset boxwidth 0.9\n"
			"set xtics rotate by -30 noenhanced\nset key top left\nset grid ytics\n"
			"plot '%s' using 2:xtic(1) title 'kernel patch' lc rgb '#999999', "
			"'' using 3 title 'uprocfs' lc rgb '#1f77b4'\n");
}

/*
 * The anchor: the live kernel's open+read+close of this process's own file,
 * against ours rendering exactly those bytes (the file loaded into a model
 * with the loader, so both print the same text), side by side.
 */
static void live_anchor(const struct bench_opts *o, const char *file, size_t iters, int passes)
{
	struct mach_load_opts lo = { .npids = 1, .no_tasks = true };
	struct mach_load_report rep = { 0 };
	struct mach_machine *m = NULL;
	struct read_job ours;
	char path[64], err[256], name[48], note[128];
	pid_t self = getpid();
	double ours_ns, kernel_ns, unused;
	struct pfs_node f;
	struct pfs_ctx ctx;
	struct variant v = { 0 };

	lo.pids = &self;
	snprintf(path, sizeof(path), "/proc/%d/%s", (int)self, file);
	if (pfs_load_tree("/proc", &lo, &m, &rep, err, sizeof(err)) ||
	    pfs_resolve(m, path, &f, &ctx, err, sizeof(err))) {
		fprintf(stderr, "bench seeds: live %s: %s\n", file, err);
		mach_load_report_free(&rep);
		mach_free(m);
		return;
	}
	mach_load_report_free(&rep);
	v.show = f.entry->show;
	v.ops = f.entry->ops;
	job_init(&ours, &v, &ctx, OPEN_READ_CLOSE, iters);
	bench_pair(job_pass, &ours, job_pass, &ours, 3, &ours_ns, &unused); /* warm */
	bench_pair(job_pass, &ours, job_pass, &ours, passes, &ours_ns, &unused);
	kernel_ns = live_ns_per_read(path, OPEN_READ_CLOSE, iters, passes);
	snprintf(name, sizeof(name), "live_self_%s", file);
	snprintf(note, sizeof(note), "%zu B, the same bytes: goal kernel/ours >= 20", ours.bytes);
	struct bench_result r = {
		.bench = "seeds", .case_name = name, .unit = "ns/open+read+close",
		.value = ours_ns / (double)iters, .baseline = "live_kernel",
		.baseline_value = kernel_ns, .note = note,
	};
	bench_report(o, &r);
	job_fini(&ours);
	mach_free(m);
}

int bench_seeds(const struct bench_opts *o)
{
	struct seed_result results[NCASES];
	size_t nresults = 0;
	int passes = o->quick ? 9 : 21;

	for (size_t i = 0; i < NCASES; i++) {
		const struct seed_case *c = &cases[i];
		size_t iters = o->quick ? c->quick_iters : c->iters;
		size_t per_pass = (iters + (size_t)passes - 1) / (size_t)passes;
		struct read_job before, after;
		struct prepared p;
		double before_ns, after_ns;
		char note[160] = "";

		bench_progress(o, "seeds: %s", c->name);
		prepare(c, &p);
		job_init(&before, &p.before, &p.ctx, c->mode, per_pass);
		job_init(&after, &p.after, &p.ctx, c->mode, per_pass);
		bench_pair(job_pass, &before, job_pass, &after, passes, &before_ns, &after_ns);
		if (before.bytes != after.bytes) {
			fprintf(stderr, "bench seeds: %s: before printed %zu bytes, after %zu\n", c->name,
				before.bytes, after.bytes);
			return 1;
		}
		struct bench_result r = {
			.bench = "seeds", .case_name = c->name, .unit = "ns/read",
			.value = after_ns / (double)per_pass, .baseline = p.baseline_name,
			.baseline_value = before_ns / (double)per_pass, .kernel_ratio = c->kernel_ratio,
		};
		snprintf(note, sizeof(note), "%zu B", after.bytes);
		r.note = note;
		if (o->callgrind) {
			size_t count = c->kind == CASE_STAT || c->kind == CASE_SCHEDSTAT ? 20 : 200;
			r.cand_ir = callgrind_ir(o, c->name, "after", count);
			r.base_ir = callgrind_ir(o, c->name, "before", count);
		}
		bench_report(o, &r);
		results[nresults++] = (struct seed_result){ c->name, r.baseline_value / r.value, c->kernel_ratio };
		job_fini(&before);
		job_fini(&after);
		mach_free(p.mach);
	}
	live_anchor(o, "status", o->quick ? 2000 : 20000, passes);
	live_anchor(o, "stat", o->quick ? 2000 : 20000, passes);
	live_anchor(o, "maps", o->quick ? 1000 : 10000, passes);
	bench_progress(o, "%s", "");
	if (o->plot)
		plot(o, results, nresults);
	return 0;
}
