// SPDX-License-Identifier: MIT
/*
 * tty_drivers.c - /proc/tty/drivers.
 *
 * Mirrors fs/proc/proc_tty.c show_tty_driver of Linux 6.18: "%-20s /dev/%-8s
 * %3d %7s %s" rows of name, device node, major, minor range and type.  ps and
 * htop read it to name the controlling terminal of tty_nr.  The list is the
 * drivers a typical x86 VM registers (the reference VM's).
 */
#include "render.h"

struct tty_driver_row {
	const char *name, *node;
	unsigned int major;
	const char *minors, *type;
};

static const struct tty_driver_row rows[] = {
	{ "/dev/tty", "/dev/tty", 5, "0", "system:/dev/tty" },
	{ "/dev/console", "/dev/console", 5, "1", "system:console" },
	{ "/dev/ptmx", "/dev/ptmx", 5, "2", "system" },
	{ "/dev/vc/0", "/dev/vc/0", 4, "0", "system:vtmaster" },
	{ "serial", "/dev/ttyS", 4, "64", "serial" },
	{ "pty_slave", "/dev/pts", 136, "0-1048575", "pty:slave" },
	{ "pty_master", "/dev/ptm", 128, "0-1048575", "pty:master" },
	{ "unknown", "/dev/tty", 4, "1-63", "console" },
};

/* Left-justify @s in @width columns. */
static void put_left(struct seq_file *m, const char *s, size_t width)
{
	size_t n = __builtin_strlen(s);

	seq_puts(m, s);
	while (n++ < width)
		seq_putc(m, ' ');
}

/* Right-justify @s in @width columns. */
static void put_right(struct seq_file *m, const char *s, size_t width)
{
	size_t n = __builtin_strlen(s);

	while (n++ < width)
		seq_putc(m, ' ');
	seq_puts(m, s);
}

int pfs_show_tty_drivers(struct seq_file *m, void *v)
{
	(void)v;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		put_left(m, rows[i].name, 20);
		seq_putc(m, ' ');
		put_left(m, rows[i].node, 8);
		seq_put_decimal_ull_width(m, " ", rows[i].major, 3);
		seq_putc(m, ' ');
		put_right(m, rows[i].minors, 7);
		seq_putc(m, ' ');
		seq_puts(m, rows[i].type);
		seq_putc(m, '\n');
	}
	return 0;
}
