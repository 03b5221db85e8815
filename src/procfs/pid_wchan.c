// SPDX-License-Identifier: MIT
/*
 * pid_wchan.c - where a task waits: /proc/<pid>/wchan, stack and syscall.
 *
 * Mirrors fs/proc/base.c of Linux 6.18: proc_pid_wchan (the bare name of
 * get_wchan()'s function, no newline, or "0" for a running task, one with
 * none, or a reader without ptrace read access), proc_pid_stack (one
 * "[<0>] %pB" line per frame: the address hidden, name+offset/size and the
 * module) and proc_pid_syscall (task_current_syscall: "running", or the
 * number, six argument registers, the user stack pointer and pc).  Who may
 * read stack and syscall is the file table's rule, checked when read.
 */
#include "render.h"

int pfs_show_pid_wchan(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	const char *name = c->ptrace_ok ? mach_ksym_name(c->mach, c->thread->wchan_sym) : NULL;

	(void)v;
	if (name)
		seq_puts(m, name);
	else
		seq_putc(m, '0');
	return 0;
}

/* %pB: "name+0xoff/0xsize", then " [module]" for a module's function. */
static void put_frame(struct seq_file *m, const struct mach_machine *mach, const struct mach_kframe *f)
{
	const struct mach_ksym *k = f->sym < mach->nksyms ? &mach->ksyms[f->sym] : NULL;

	seq_puts(m, "[<0>] ");
	seq_puts(m, k && k->name ? k->name : "0x0");
	if (k && k->name) {
		seq_put_hex_ll(m, "+0x", f->off, 1);
		seq_put_hex_ll(m, "/0x", k->size, 1);
		if (k->module) {
			seq_puts(m, " [");
			seq_puts(m, k->module);
			seq_putc(m, ']');
		}
	}
	seq_putc(m, '\n');
}

int pfs_show_pid_stack(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	const struct mach_machine *mach = c->mach;
	uint32_t id = c->thread->kstack;

	(void)v;
	if (!id || id >= mach->nkstacks)
		return 0; /* nothing to unwind: a zombie's stack is gone */
	for (unsigned int i = 0; i < mach->kstacks[id].nframes; i++)
		put_frame(m, mach, &mach->kstacks[id].frames[i]);
	return 0;
}

int pfs_show_pid_syscall(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	const struct mach_thread *t = c->thread;
	const struct mach_syscall *sc = &t->syscall;

	(void)v;
	/* task_current_syscall gives up on a runnable task, unless it reads itself */
	if (t->state == MACH_TASK_RUNNING && t->tid != c->caller_tid) {
		seq_puts(m, "running\n");
		return 0;
	}
	seq_put_decimal_ll(m, NULL, sc->nr);
	if (sc->nr >= 0)
		for (int i = 0; i < 6; i++)
			seq_put_hex_ll(m, " 0x", sc->args[i], 1);
	seq_put_hex_ll(m, " 0x", sc->sp, 1);
	seq_put_hex_ll(m, " 0x", sc->pc, 1);
	seq_putc(m, '\n');
	return 0;
}
