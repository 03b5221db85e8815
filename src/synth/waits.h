/* SPDX-License-Identifier: MIT */
/*
 * waits.h - the kernel functions and stacks synthetic tasks wait in
 * (waits.c), and the ways of waiting the generator assigns (wait_assign.c).
 */
#ifndef UPROCFS_SYNTH_WAITS_H
#define UPROCFS_SYNTH_WAITS_H

#include <stdint.h>

#include "synth_int.h"

/* The kernel functions: id, name, size in bytes (Linux 6.18, x86_64, the reference build). */
#define SY_KSYMS(X)                                                                  \
	X(DO_SYSCALL_64, "do_syscall_64", 0x280)                                     \
	X(ENTRY_SYSCALL, "entry_SYSCALL_64_after_hwframe", 0x7e)                     \
	X(DO_EPOLL_WAIT, "do_epoll_wait", 0x5e0)                                     \
	X(X64_SYS_EPOLL_WAIT, "__x64_sys_epoll_wait", 0x130)                         \
	X(DO_COMPAT_EPOLL_PWAIT, "do_compat_epoll_pwait.part.0", 0x80)               \
	X(X64_SYS_EPOLL_PWAIT, "__x64_sys_epoll_pwait", 0x150)                       \
	X(POLL_SCHEDULE_TIMEOUT, "poll_schedule_timeout.constprop.0", 0x90)          \
	X(DO_SELECT, "do_select", 0x940)                                             \
	X(CORE_SYS_SELECT, "core_sys_select", 0x4d0)                                 \
	X(DO_PSELECT, "do_pselect.constprop.0", 0x1a0)                               \
	X(X64_SYS_PSELECT6, "__x64_sys_pselect6", 0xa0)                              \
	X(DO_SYS_POLL, "do_sys_poll", 0x5c0)                                         \
	X(X64_SYS_POLL, "__x64_sys_poll", 0x190)                                     \
	X(X64_SYS_PPOLL, "__x64_sys_ppoll", 0x190)                                   \
	X(HRTIMER_NANOSLEEP, "hrtimer_nanosleep", 0x130)                             \
	X(COMMON_NSLEEP, "common_nsleep", 0x60)                                      \
	X(X64_SYS_CLOCK_NANOSLEEP, "__x64_sys_clock_nanosleep", 0x150)               \
	X(ANON_PIPE_READ, "anon_pipe_read", 0x440)                                   \
	X(VFS_READ, "vfs_read", 0x3d0)                                               \
	X(KSYS_READ, "ksys_read", 0xf0)                                              \
	X(UNIX_STREAM_READ_GENERIC, "unix_stream_read_generic", 0xcd0)               \
	X(UNIX_STREAM_RECVMSG, "unix_stream_recvmsg", 0xa0)                          \
	X(SOCK_RECVMSG, "sock_recvmsg", 0xc0)                                        \
	X(SOCK_READ_ITER, "sock_read_iter", 0x140)                                   \
	X(FUTEX_DO_WAIT, "futex_do_wait", 0x90)                                      \
	X(FUTEX_WAIT_INNER, "__futex_wait", 0x100)                                   \
	X(FUTEX_WAIT, "futex_wait", 0x150)                                           \
	X(DO_FUTEX, "do_futex", 0x250)                                               \
	X(X64_SYS_FUTEX, "__x64_sys_futex", 0x230)                                   \
	X(DO_SYS_PAUSE, "__do_sys_pause", 0x50)                                      \
	X(DO_WAIT, "do_wait", 0x120)                                                 \
	X(KERNEL_WAIT4, "kernel_wait4", 0x190)                                       \
	X(DO_SYS_WAIT4, "__do_sys_wait4", 0xf0)                                      \
	X(INET_CSK_ACCEPT, "inet_csk_accept", 0x3b0)                                 \
	X(INET_ACCEPT, "inet_accept", 0x80)                                          \
	X(DO_ACCEPT, "do_accept", 0x1a0)                                             \
	X(SYS_ACCEPT4, "__sys_accept4", 0x100)                                       \
	X(X64_SYS_ACCEPT, "__x64_sys_accept", 0x30)                                  \
	X(WAIT_WOKEN, "wait_woken", 0x90)                                            \
	X(INOTIFY_READ, "inotify_read", 0x390)                                       \
	X(N_TTY_READ, "n_tty_read", 0x660)                                           \
	X(TTY_READ, "tty_read", 0x290)                                               \
	X(SIGSUSPEND, "sigsuspend.isra.0", 0xb0)                                     \
	X(X64_SYS_RT_SIGSUSPEND, "__x64_sys_rt_sigsuspend", 0x80)                    \
	X(SKB_WAIT_FOR_MORE_PACKETS, "__skb_wait_for_more_packets", 0x170)           \
	X(SKB_RECV_UDP, "__skb_recv_udp", 0x310)                                     \
	X(UDP_RECVMSG, "udp_recvmsg", 0x550)                                         \
	X(SYS_RECVFROM, "__sys_recvfrom", 0x1b0)                                     \
	X(X64_SYS_RECVFROM, "__x64_sys_recvfrom", 0x40)                              \
	X(DO_SIGTIMEDWAIT, "do_sigtimedwait.isra.0", 0x1f0)                          \
	X(X64_SYS_RT_SIGTIMEDWAIT, "__x64_sys_rt_sigtimedwait", 0x130)               \
	X(DO_SIGNAL_STOP, "do_signal_stop", 0x210)                                   \
	X(GET_SIGNAL, "get_signal", 0x8a0)                                           \
	X(ARCH_DO_SIGNAL, "arch_do_signal_or_restart", 0x2a0)                        \
	X(EXIT_TO_USER_MODE_LOOP, "exit_to_user_mode_loop", 0xe0)                    \
	X(FOLIO_WAIT_BIT_COMMON, "folio_wait_bit_common", 0x330)                     \
	X(FILEMAP_GET_PAGES, "filemap_get_pages", 0x7b0)                             \
	X(FILEMAP_READ, "filemap_read", 0x3b0)                                       \
	X(KTHREADD, "kthreadd", 0x310)                                               \
	X(KTHREAD, "kthread", 0x240)                                                 \
	X(RET_FROM_FORK, "ret_from_fork", 0x170)                                     \
	X(RET_FROM_FORK_ASM, "ret_from_fork_asm", 0x30)                              \
	X(WORKER_THREAD, "worker_thread", 0x310)                                     \
	X(RESCUER_THREAD, "rescuer_thread", 0x5d0)                                   \
	X(SMPBOOT_THREAD_FN, "smpboot_thread_fn", 0x220)                             \
	X(RCU_GP_FQS_LOOP, "rcu_gp_fqs_loop", 0x530)                                 \
	X(RCU_GP_KTHREAD, "rcu_gp_kthread", 0x160)                                   \
	X(RCU_TASKS_ONE_GP, "rcu_tasks_one_gp", 0x430)                               \
	X(RCU_TASKS_KTHREAD, "rcu_tasks_kthread", 0xa0)                              \
	X(KTHREAD_WORKER_FN, "kthread_worker_fn", 0x260)                             \
	X(DEVTMPFS_WORK_LOOP, "devtmpfs_work_loop", 0x48d)                           \
	X(DEVTMPFSD, "devtmpfsd", 0x30)                                              \
	X(HWRNG_FILLFN, "hwrng_fillfn", 0x3d0)                                       \
	X(IRQ_THREAD, "irq_thread", 0x2b0)                                           \
	X(KAUDITD_THREAD, "kauditd_thread", 0x2f0)                                   \
	X(KCOMPACTD, "kcompactd", 0x470)                                             \
	X(KHUGEPAGED, "khugepaged", 0x9c0)                                           \
	X(KSM_SCAN_THREAD, "ksm_scan_thread", 0x2200)                                \
	X(KSWAPD, "kswapd", 0x370)                                                   \
	X(OOM_REAPER, "oom_reaper", 0x360)                                           \
	X(WATCHDOG, "watchdog", 0x3d0)                                               \
	X(KJOURNALD2, "kjournald2", 0x2a0)

enum sy_ksym_id {
	KS_NONE,
#define KSYM_ID(id, name, size) KS_##id,
	SY_KSYMS(KSYM_ID)
#undef KSYM_ID
	NR_KSYMS
};

struct sy_ksym {
	const char *name;
	uint32_t size;
};

extern const struct sy_ksym sy_ksyms[NR_KSYMS];

/* The ways a task waits; each is one stack, a syscall and, for user tasks, a register pattern. */
enum sy_wait {
	W_NONE,           /* running, or a zombie: no wait */
	W_EPOLL, W_EPOLL_PWAIT, W_SELECT, W_POLL, W_PPOLL, W_NANOSLEEP, W_PIPE_READ, W_UNIX_READ,
	W_FUTEX, W_PAUSE, W_WAIT4, W_ACCEPT, W_INOTIFY, W_TTY_READ, W_SIGSUSPEND, W_RECV_UDP,
	W_SIGTIMEDWAIT, W_STOPPED, W_IO,
	/* kernel threads: no syscall (the zeroed registers read "0 0x0 ...") */
	W_KTHREADD, W_WORKER, W_RESCUER, W_SMPBOOT, W_RCU_GP, W_RCU_TASKS, W_KWORKER_FN, W_DEVTMPFS,
	W_HWRNG, W_IRQ_THREAD, W_KAUDITD, W_KCOMPACTD, W_KHUGEPAGED, W_KSMD, W_KSWAPD, W_OOM_REAPER,
	W_WATCHDOG, W_JBD2,
	NR_WAITS
};

#define SY_MAX_FRAMES 10

struct sy_wait_kind {
	int nr;                   /* the syscall number; -2: a kernel thread's */
	struct {
		uint16_t sym;     /* enum sy_ksym_id; KS_NONE ends the stack */
		uint16_t off;
	} frames[SY_MAX_FRAMES];
};

extern const struct sy_wait_kind sy_waits[NR_WAITS];

#endif
