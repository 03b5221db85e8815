// SPDX-License-Identifier: MIT
/*
 * cmdline.c - the argv and environment blocks at the top of a process's
 * stack, expanded from the catalog's templates.
 *
 * Both are laid out as the kernel shows them in /proc/<pid>/cmdline and
 * environ: NUL-separated strings with a trailing NUL.  The environment is
 * drawn from the stream of the process that set it up, so a whole login
 * session or service tree shares the same variables, as inherited ones do.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "mm_int.h"

int sy_login_name(char *out, uint32_t uid)
{
	if (uid >= UID_FIRST_USER && uid - UID_FIRST_USER < NR_USER_NAMES)
		return sprintf(out, "%s", sy_user_names[uid - UID_FIRST_USER]);
	return sprintf(out, "u%u", uid);
}

void sy_user_home(char *out, size_t n, uint32_t uid)
{
	char name[32];

	if (uid == UID_ROOT) {
		snprintf(out, n, "/root");
		return;
	}
	sy_login_name(name, uid);
	snprintf(out, n, "/home/%s", name);
}

/* The environment names root too (USER=root, HOME=/root); argv templates name login users only. */
static int user_name(char *out, uint32_t uid)
{
	if (uid == UID_ROOT)
		return sprintf(out, "root");
	return sy_login_name(out, uid);
}

/*
 * argv from a program's template (see struct prog): alternatives by
 * instance, '|' as the NUL between arguments, placeholders expanded.
 * Writes into s->argbuf with the trailing NUL; returns the length.
 */
size_t sy_expand_argv(struct synth *s, const struct layout *L)
{
	const char *e, *t = sy_nth_field(L->pg->argv, '\n', sy_count_fields(L->pg->argv, '\n'),
					 L->g->inst, &e);
	char *out = s->argbuf, *end = s->argbuf + sizeof(s->argbuf) - 80;

	for (; t < e && out < end; t++) {
		if (*t == '|') {
			*out++ = '\0';
		} else if (*t == '{' && t + 2 < e && t[2] == '}') {
			uint32_t uid = t[1] == 'U' ? L->g->inst : L->g->uid;

			switch (t[1]) {
			case 'u':
			case 'U':
				out += sy_login_name(out, uid);
				break;
			case 't':
				out += sprintf(out, "%u", L->g->inst);
				break;
			case 'i':
				out += sprintf(out, "%u", L->g->inst % 1000);
				break;
			case 'c':
				out += sprintf(out, "%u", s->o->cpus);
				break;
			case 'h':
				for (int k = 0; k < 4; k++)
					out += sprintf(out, "%016llx", (unsigned long long)rng_next(L->r));
				break;
			case 'a':
				out += sprintf(out, "%u", (unsigned int)rng_range(L->r, 1, 254));
				break;
			case 'p':
				out += sprintf(out, "%u", (unsigned int)rng_range(L->r, 32768, 60999));
				break;
			case 'C': {
				/* a backend's client, as its socket shows it */
				uint32_t be;
				unsigned int port;

				sy_net_pg_client(s->o->seed, (size_t)(L->g - s->gen), &be, &port);
				out += sprintf(out, "10.0.%u.%u(%u)", (be >> 16) & 0xff, be >> 24, port);
				break;
			}
			}
			t += 2;
		} else {
			*out++ = *t;
		}
	}
	*out++ = '\0';
	return (size_t)(out - s->argbuf);
}

/*
 * The environments by where they came from, '|'-separated.  Placeholders
 * name the process that set the environment up: {u} its user, {H} the
 * home, {n} the uid, {t} the session (pts) number, {r} its pid; and its
 * draws: {x} the unit's invocation id, {j} the journal stream's inode,
 * {i} {p} the ssh client's address and port, {h} the container's hostname;
 * and {j} the inode of the service's stdout socket (its journal stream).
 */
static const char *const env_templates[] = {
	[ENV_SERVICE] = "LANG=C.UTF-8|PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin|"
			"INVOCATION_ID={x}|JOURNAL_STREAM=8:{j}|SYSTEMD_EXEC_PID={r}",
	[ENV_INIT] = "HOME=/|init=/sbin/init|NETWORK_SKIP_ENSLAVED=|TERM=linux|"
		     "BOOT_IMAGE=/boot/vmlinuz-6.18.0-uprocfs|drop_caps=|PATH=/sbin:/usr/sbin:/bin:/usr/bin|"
		     "PWD=/|rootmnt=/root",
	[ENV_LOGIN] = "SHELL=/bin/bash|PWD={H}|LOGNAME={u}|XDG_SESSION_TYPE=tty|MOTD_SHOWN=pam|HOME={H}|"
		      "LANG=C.UTF-8|SSH_CONNECTION={i} {p} 10.0.0.5 22|XDG_SESSION_CLASS=user|"
		      "TERM=xterm-256color|USER={u}|SHLVL=1|XDG_SESSION_ID={t}|XDG_RUNTIME_DIR=/run/user/{n}|"
		      "SSH_CLIENT={i} {p} 22|PATH=/usr/local/bin:/usr/bin:/bin:/usr/games|SSH_TTY=/dev/pts/{t}",
	[ENV_CRON] = "HOME={H}|LOGNAME={u}|PATH=/usr/bin:/bin|SHELL=/bin/sh|PWD={H}",
	[ENV_CONTAINER] = "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin|HOSTNAME={h}|HOME=/root",
};

void sy_env_draws(uint64_t seed, uint32_t eroot, struct sy_env_draws *d)
{
	struct rng er;

	rng_init(&er, seed, KEY_ENV + eroot);
	d->x0 = rng_next(&er);
	d->x1 = rng_next(&er);
	d->h = rng_next(&er);
	d->j = rng_range(&er, 10000, 99999);
	d->a = (unsigned int)rng_range(&er, 1, 254);
	d->b = (unsigned int)rng_range(&er, 1, 254);
	d->port = (unsigned int)rng_range(&er, 32768, 60999);
}

/*
 * The environment block, NUL-separated with a trailing NUL, into
 * s->envbuf; its length.  Drawn from the stream of the process that set it
 * up, so a whole session or service tree shares the same variables.
 */
static size_t expand_env(struct synth *s, const struct layout *L)
{
	const struct gen *root = &s->gen[L->g->eroot];
	const char *t = env_templates[L->g->env];
	char *out = s->envbuf, *end = s->envbuf + sizeof(s->envbuf) - 80;
	struct sy_env_draws d;

	sy_env_draws(s->o->seed, L->g->eroot, &d);
	for (; *t && out < end; t++) {
		/* no stream, no JOURNAL_STREAM: journald's own output, a getty's terminal (sy_net_service_root) */
		if ((t == env_templates[L->g->env] || t[-1] == '|') && L->g->env == ENV_SERVICE &&
		    !sy_net_service_root(s, L->g->eroot) &&
		    !strncmp(t, "JOURNAL_STREAM=", 15)) {
			t = strchr(t, '|');
			if (!t)
				break;
			continue;
		}
		if (*t == '|') {
			*out++ = '\0';
			continue;
		}
		if (*t != '{' || !t[1] || t[2] != '}') {
			*out++ = *t;
			continue;
		}
		switch (t[1]) {
		case 'u':
			out += user_name(out, root->uid);
			break;
		case 'H':
			if (root->uid == UID_ROOT) {
				out += sprintf(out, "/root");
			} else {
				out += sprintf(out, "/home/");
				out += user_name(out, root->uid);
			}
			break;
		case 'n':
			out += sprintf(out, "%u", root->uid);
			break;
		case 't':
			out += sprintf(out, "%u", root->inst);
			break;
		case 'x':
			out += sprintf(out, "%016llx%016llx", (unsigned long long)d.x0, (unsigned long long)d.x1);
			break;
		case 'j':
			/* the service's stdout, a stream to journald, is this socket */
			out += sprintf(out, "%llu", (unsigned long long)sy_net_stdout_inode(s->m->procs[L->g->eroot].tgid));
			break;
		case 'r':
			out += sprintf(out, "%d", (int)s->m->procs[L->g->eroot].tgid);
			break;
		case 'i':
			out += sprintf(out, "10.0.%u.%u", d.a, d.b);
			break;
		case 'p':
			out += sprintf(out, "%u", d.port);
			break;
		case 'h':
			out += sprintf(out, "%012llx", (unsigned long long)(d.h >> 16));
			break;
		}
		t += 2;
	}
	*out++ = '\0';
	return (size_t)(out - s->envbuf);
}

int sy_intern_env(struct synth *s, const struct layout *L, char **text, size_t *len)
{
	/* the block is a function of (eroot, template) alone: a service's workers find their master's */
	struct sy_env_memo *e = &s->env_memo[L->g->eroot % SY_ENV_MEMO];

	if (!e->text || e->eroot != L->g->eroot || e->env != L->g->env) {
		size_t n = expand_env(s, L);
		char *at = sy_intern(s, s->envbuf, n);

		if (!at)
			return -ENOMEM;
		*e = (struct sy_env_memo){ .text = at, .len = n, .eroot = L->g->eroot, .env = L->g->env };
	}
	*text = e->text;
	*len = e->len;
	return 0;
}
