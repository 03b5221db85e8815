// SPDX-License-Identifier: MIT
/*
 * waits.c - where the synthetic tasks wait in the kernel: the function
 * wchan names, the kernel stack under it and the syscall it was entered by.
 *
 * The functions, their sizes and the stacks are those of the reference
 * Linux 6.18 kernel, read from its /proc/<pid>/stack for tasks asleep in
 * each way (the D-state and kjournald2 frames, which could not be caught
 * there, follow the same build's layout).  Each program's threads sleep in
 * the way such programs do: servers in epoll_wait, shells in wait4 or
 * pselect6 on the terminal, thread pools in futex; each kernel thread kind
 * in its loop.  A running task has no wait channel and an empty stack; a
 * zombie's syscall file reads "-1 0x0 0x0".  The argument registers, the
 * user stack pointer and pc are drawn from the task's detail stream so they
 * point into its own stack and libc (or executable) mappings.
 */
#include "waits.h"

/* One frame: a function of the table below and the return address's offset in it. */
#define F(sym, off) { KS_##sym, off }
#define SYSCALL_TAIL F(DO_SYSCALL_64, 0x71), F(ENTRY_SYSCALL, 0x76)
#define KTHREAD_TAIL F(KTHREAD, 0xfa), F(RET_FROM_FORK, 0x151), F(RET_FROM_FORK_ASM, 0x1a)

const struct sy_ksym sy_ksyms[NR_KSYMS] = {
#define KSYM_ENTRY(id, name, size) [KS_##id] = { name, size },
	SY_KSYMS(KSYM_ENTRY)
#undef KSYM_ENTRY
};

const struct sy_wait_kind sy_waits[NR_WAITS] = {
	[W_EPOLL] = { 232, { F(DO_EPOLL_WAIT, 0x588), F(X64_SYS_EPOLL_WAIT, 0x6c), SYSCALL_TAIL } },
	[W_EPOLL_PWAIT] = { 281, { F(DO_EPOLL_WAIT, 0x588), F(DO_COMPAT_EPOLL_PWAIT, 0xe),
				   F(X64_SYS_EPOLL_PWAIT, 0x8c), SYSCALL_TAIL } },
	[W_SELECT] = { 270, { F(POLL_SCHEDULE_TIMEOUT, 0x37), F(DO_SELECT, 0x65c), F(CORE_SYS_SELECT, 0x231),
			      F(DO_PSELECT, 0xe9), F(X64_SYS_PSELECT6, 0x63), SYSCALL_TAIL } },
	[W_POLL] = { 7, { F(POLL_SCHEDULE_TIMEOUT, 0x37), F(DO_SYS_POLL, 0x437), F(X64_SYS_POLL, 0x4e),
			  SYSCALL_TAIL } },
	[W_PPOLL] = { 271, { F(POLL_SCHEDULE_TIMEOUT, 0x37), F(DO_SYS_POLL, 0x437), F(X64_SYS_PPOLL, 0xdf),
			     SYSCALL_TAIL } },
	[W_NANOSLEEP] = { 230, { F(HRTIMER_NANOSLEEP, 0xb5), F(COMMON_NSLEEP, 0x30),
				 F(X64_SYS_CLOCK_NANOSLEEP, 0xde), SYSCALL_TAIL } },
	[W_PIPE_READ] = { 0, { F(ANON_PIPE_READ, 0x393), F(VFS_READ, 0x397), F(KSYS_READ, 0xc3), SYSCALL_TAIL } },
	[W_UNIX_READ] = { 0, { F(UNIX_STREAM_READ_GENERIC, 0x70d), F(UNIX_STREAM_RECVMSG, 0x8b),
			       F(SOCK_RECVMSG, 0xb2), F(SOCK_READ_ITER, 0xc1), F(VFS_READ, 0x397),
			       F(KSYS_READ, 0xc3), SYSCALL_TAIL } },
	[W_FUTEX] = { 202, { F(FUTEX_DO_WAIT, 0x46), F(FUTEX_WAIT_INNER, 0x8a), F(FUTEX_WAIT, 0x9a),
			     F(DO_FUTEX, 0xfd), F(X64_SYS_FUTEX, 0x12d), SYSCALL_TAIL } },
	[W_PAUSE] = { 34, { F(DO_SYS_PAUSE, 0x2a), SYSCALL_TAIL } },
	[W_WAIT4] = { 61, { F(DO_WAIT, 0x53), F(KERNEL_WAIT4, 0xe3), F(DO_SYS_WAIT4, 0xb8), SYSCALL_TAIL } },
	[W_ACCEPT] = { 43, { F(INET_CSK_ACCEPT, 0x1f2), F(INET_ACCEPT, 0x2f), F(DO_ACCEPT, 0x108),
			     F(SYS_ACCEPT4, 0x84), F(X64_SYS_ACCEPT, 0x17), SYSCALL_TAIL } },
	[W_INOTIFY] = { 0, { F(WAIT_WOKEN, 0x89), F(INOTIFY_READ, 0x2f6), F(VFS_READ, 0xbb), F(KSYS_READ, 0x6f),
			     SYSCALL_TAIL } },
	[W_TTY_READ] = { 0, { F(WAIT_WOKEN, 0x89), F(N_TTY_READ, 0x4bd), F(TTY_READ, 0x11f), F(VFS_READ, 0x2a4),
			      F(KSYS_READ, 0x6f), SYSCALL_TAIL } },
	[W_SIGSUSPEND] = { 130, { F(SIGSUSPEND, 0x77), F(X64_SYS_RT_SIGSUSPEND, 0x6f), SYSCALL_TAIL } },
	[W_RECV_UDP] = { 45, { F(SKB_WAIT_FOR_MORE_PACKETS, 0x120), F(SKB_RECV_UDP, 0x1ee), F(UDP_RECVMSG, 0x13a),
			       F(SOCK_RECVMSG, 0xab), F(SYS_RECVFROM, 0x117), F(X64_SYS_RECVFROM, 0x20),
			       SYSCALL_TAIL } },
	[W_SIGTIMEDWAIT] = { 128, { F(DO_SIGTIMEDWAIT, 0x156), F(X64_SYS_RT_SIGTIMEDWAIT, 0xc5), SYSCALL_TAIL } },
	[W_STOPPED] = { 230, { F(DO_SIGNAL_STOP, 0x16f), F(GET_SIGNAL, 0x242), F(ARCH_DO_SIGNAL, 0x71),
			       F(EXIT_TO_USER_MODE_LOOP, 0x6b), F(DO_SYSCALL_64, 0x23b), F(ENTRY_SYSCALL, 0x76) } },
	[W_IO] = { 0, { F(FOLIO_WAIT_BIT_COMMON, 0x13e), F(FILEMAP_GET_PAGES, 0x6a9), F(FILEMAP_READ, 0x10e),
			F(VFS_READ, 0x1f7), F(KSYS_READ, 0x6f), SYSCALL_TAIL } },
	[W_KTHREADD] = { -2, { F(KTHREADD, 0x2f0), F(RET_FROM_FORK, 0x151), F(RET_FROM_FORK_ASM, 0x1a) } },
	[W_WORKER] = { -2, { F(WORKER_THREAD, 0x98), KTHREAD_TAIL } },
	[W_RESCUER] = { -2, { F(RESCUER_THREAD, 0x4b6), KTHREAD_TAIL } },
	[W_SMPBOOT] = { -2, { F(SMPBOOT_THREAD_FN, 0x18c), KTHREAD_TAIL } },
	[W_RCU_GP] = { -2, { F(RCU_GP_FQS_LOOP, 0x103), F(RCU_GP_KTHREAD, 0xc8), KTHREAD_TAIL } },
	[W_RCU_TASKS] = { -2, { F(RCU_TASKS_ONE_GP, 0x205), F(RCU_TASKS_KTHREAD, 0x91), KTHREAD_TAIL } },
	[W_KWORKER_FN] = { -2, { F(KTHREAD_WORKER_FN, 0x10c), KTHREAD_TAIL } },
	[W_DEVTMPFS] = { -2, { F(DEVTMPFS_WORK_LOOP, 0x488), F(DEVTMPFSD, 0x22), KTHREAD_TAIL } },
	[W_HWRNG] = { -2, { F(HWRNG_FILLFN, 0x1e0), KTHREAD_TAIL } },
	[W_IRQ_THREAD] = { -2, { F(IRQ_THREAD, 0xaf), KTHREAD_TAIL } },
	[W_KAUDITD] = { -2, { F(KAUDITD_THREAD, 0x1c7), KTHREAD_TAIL } },
	[W_KCOMPACTD] = { -2, { F(KCOMPACTD, 0x407), KTHREAD_TAIL } },
	[W_KHUGEPAGED] = { -2, { F(KHUGEPAGED, 0x52f), KTHREAD_TAIL } },
	[W_KSMD] = { -2, { F(KSM_SCAN_THREAD, 0x12cb), KTHREAD_TAIL } },
	[W_KSWAPD] = { -2, { F(KSWAPD, 0x364), KTHREAD_TAIL } },
	[W_OOM_REAPER] = { -2, { F(OOM_REAPER, 0x2ef), KTHREAD_TAIL } },
	[W_WATCHDOG] = { -2, { F(WATCHDOG, 0x6e), KTHREAD_TAIL } },
	[W_JBD2] = { -2, { F(KJOURNALD2, 0x24d), KTHREAD_TAIL } },
};
