/* SPDX-License-Identifier: MIT */
/* cli.h - the subcommands of the uprocfs command line. */
#ifndef UPROCFS_CLI_H
#define UPROCFS_CLI_H

/** `uprocfs render [--machine SPEC] PATH...` */
int cmd_render(int argc, char **argv);
/** `uprocfs verify [--proc DIR] [PID...]` */
int cmd_verify(int argc, char **argv);
/** `uprocfs capture [--pid PID]... DIR` */
int cmd_capture(int argc, char **argv);

/** `uprocfs mount [--machine SPEC] [--foreground] MOUNTPOINT` */
int cmd_mount(int argc, char **argv);
/** `uprocfs run [--machine SPEC] -- CMD [ARGS...]` */
int cmd_run(int argc, char **argv);

#endif
