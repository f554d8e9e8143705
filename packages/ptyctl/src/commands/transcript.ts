import type { Command } from 'commander';
import { usageError } from '../exit-codes';

/**
 * Reserved: the rendering spec describes GET /api/v1/sessions/{id}/transcript, which this server
 * does not implement yet. The command exists so scripts get a clear, stable answer (exit 2).
 */
export function registerTranscript(program: Command): void {
  program
    .command('transcript')
    .description('(not available yet) read a session transcript')
    .argument('<session>', 'session id')
    .allowUnknownOption()
    .action(() => {
      throw usageError('transcript is not available yet: the server has no transcript API');
    });
}
