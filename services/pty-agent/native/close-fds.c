/*
 * close-fds: runs a program with only stdin, stdout and stderr open.
 *
 * Why: the pty pairs the agent opens (node-pty's openpty) are not close-on-exec, and Node cannot
 * set the flag on a descriptor it did not open. Without this, every program a session or a task
 * starts inherited descriptors of the agent: a task held every session's pty master (it could
 * read another session's output and type into its shell), and every session held the pair of the
 * session that was open when the spawner was forked. The spawner (hosts/spawner/spawner-main.ts)
 * and the process executor (tasks/task-executor.ts) start each program through this.
 *
 * argv: close-fds <program> [args...]   (the program is looked up on PATH, as execvp does)
 * Exit 127: the program was not found; 126: it could not be run (as a shell reports them).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv) {
  if (argc < 2) {
    fputs("usage: close-fds <program> [args...]\n", stderr);
    return 127;
  }
  if (close_range(3, ~0U, 0) != 0) {
    long max = sysconf(_SC_OPEN_MAX);
    for (long fd = 3; fd < (max > 0 ? max : 65536); fd++) close((int)fd);
  }
  execvp(argv[1], argv + 1);
  int err = errno;
  fprintf(stderr, "%s: %s\n", argv[1], strerror(err));
  return err == ENOENT ? 127 : 126;
}
