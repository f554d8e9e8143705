import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';

const FLAGS = {
  read: constants.O_RDONLY,
  append: constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT,
  'read-append': constants.O_RDWR | constants.O_APPEND | constants.O_CREAT,
  write: constants.O_WRONLY | constants.O_CREAT,
  replace: constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC,
} as const;

/**
 * Opens a file the service keeps (audit trail, transcripts, push outbox) without following a
 * symlink in its last component (O_NOFOLLOW): a link planted where the service writes would
 * otherwise make it append to whatever file the link names. A link is an error that says so.
 */
export async function openNoFollow(file: string, how: keyof typeof FLAGS, mode = 0o600): Promise<FileHandle> {
  try {
    return await open(file, FLAGS[how] | constants.O_NOFOLLOW, mode);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOOP') {
      throw new Error(`${file} is a symbolic link; refusing to follow it (remove the link)`, { cause: err });
    }
    throw err;
  }
}
