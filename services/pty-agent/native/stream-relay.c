/*
 * stream-relay: reads a pty master for the agent while one of its sessions streams.
 *
 * Why a process: a tty hands its reader at most 4 KiB per read and holds little more, so the
 * program writing to it waits whenever its reader is busy elsewhere. The agent's event loop also
 * frames, logs and sends what it read; this process does nothing but read, so the tty is drained
 * while the agent works on the last batch (~10 % more MB/s for one `cat` on a 2-core machine).
 * It is started only while a session streams to one reader: for a keystroke's echo it would be one
 * more hop, and many readers, not the tty, set a fan-out's pace (ARCHITECTURE.md has the figures).
 * A few lines of C rather than a library: Node has no poll(2) on an inherited fd outside its own
 * event loop, which is the loop this takes the reads off.
 *
 * fd 4: the pty master (non-blocking, shared with the agent, which keeps writing input to it).
 * fd 1: what was read, in order (the agent reads it to its end before reading the tty itself).
 *       Reads are gathered and written once the tty has been quiet for 1 ms or 60 KiB are waiting.
 *       Written one 4 KiB read at a time, each woke the agent for 4 KiB: the service (agent and
 *       relay) spent 63–76 % of a core during a stream; gathered, 44–56 %, and it streamed faster.
 * fd 3: the stop line: readable or closed means stop. What was read is written first; what the
 *       tty still holds is left to the agent's own reader.
 * Exit 0: stopped, or the tty ended (EIO once every slave fd is closed). Exit 1: fd 1 failed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <unistd.h>

enum { STOP_FD = 3, PTY_FD = 4 };
/** How long the tty may be quiet before what was gathered is written. */
enum { GATHER_MS = 1 };

static char buf[65536];
static size_t len;

/** Writes what was gathered; -1 if fd 1 failed. */
static int flush_gathered(void) {
  const char *p = buf;
  while (len > 0) {
    ssize_t w = write(1, p, len);
    if (w < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    p += w;
    len -= (size_t)w;
  }
  return 0;
}

int main(void) {
  /* Nothing else the agent had open may stay open here: a copy of the pty's slave would keep
     the tty from ever ending. */
  if (close_range(PTY_FD + 1, ~0U, 0) != 0)
    for (int fd = PTY_FD + 1; fd < 1024; fd++) close(fd);
  struct pollfd fds[2] = {{.fd = STOP_FD, .events = POLLIN}, {.fd = PTY_FD, .events = POLLIN}};
  for (;;) {
    int ready = poll(fds, 2, len > 0 ? GATHER_MS : -1);
    if (ready < 0) {
      if (errno == EINTR) continue;
      return 1;
    }
    if (ready == 0) {
      if (flush_gathered() != 0) return 1;
      continue;
    }
    if (fds[0].revents) return flush_gathered() != 0;
    if (!fds[1].revents) continue;
    ssize_t n = read(PTY_FD, buf + len, sizeof buf - len);
    if (n < 0) {
      if (errno == EAGAIN || errno == EINTR) continue;
      return flush_gathered() != 0; /* EIO: every slave fd is closed */
    }
    if (n == 0) return flush_gathered() != 0;
    len += (size_t)n;
    /* A tty read brings at most 4 KiB: write before the next could not fit. */
    if (sizeof buf - len < 4096 && flush_gathered() != 0) return 1;
  }
}
