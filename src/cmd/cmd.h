/*
 * cmd: shared declarations for command files.
 * A command file starts with SCORCH_COMMAND(name, "one-line summary") at
 * file scope and defines int cmd_<name>(int argc, char **argv), where
 * argv[0] is the command name. It returns the process exit status:
 * 0 success, 1 error in the input or the run, 2 usage error.
 */
#ifndef SCORCH_CMD_CMD_H
#define SCORCH_CMD_CMD_H

#define SCORCH_COMMAND(n, s) int cmd_##n(int argc, char **argv);

#endif
