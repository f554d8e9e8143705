import { mkdirSync, statSync } from 'node:fs';

/**
 * Makes sure PTYWS_STATE_DIR is this process's own: created 0700 when missing, and refused at
 * start when another user owns it or when group or others may write to it. Others who could write
 * there could plant a symlink where the service writes (the audit trail, transcripts) or replace
 * its sockets and scripts; a predictable default (`/tmp/pty-ws-<uid>`) pre-created by someone else
 * is refused the same way. A symlink to a directory is followed: the directory it names is checked.
 */
export function checkStateDir(dir: string, uid: number | undefined = process.getuid?.()): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = statSync(dir);
  if (!st.isDirectory()) throw new Error(`PTYWS_STATE_DIR ${dir} is not a directory`);
  if (uid !== undefined && st.uid !== uid) {
    throw new Error(
      `PTYWS_STATE_DIR ${dir} is owned by uid ${st.uid}, not by this process (uid ${uid}): ` +
        'refusing a state directory another user controls; remove it or set PTYWS_STATE_DIR to a directory of your own',
    );
  }
  if ((st.mode & 0o022) !== 0) {
    throw new Error(
      `PTYWS_STATE_DIR ${dir} is writable by ${st.mode & 0o002 ? 'others' : 'its group'} ` +
        `(mode ${(st.mode & 0o7777).toString(8).padStart(4, '0')}): chmod 700 it, or choose another directory`,
    );
  }
}
