import type { Command } from 'commander';
import { createToken, listTokens, revokeToken, type CreateTokenRequest, type TokenView } from '../api';
import { settingsOf } from '../context';
import { missingSubcommand, usageError } from '../exit-codes';
import { printJson, printTable } from '../format';
import { scopeList, seconds } from '../parsers';

interface CreateFlags {
  scope?: string[];
  session?: string;
  ttl?: number;
  label?: string;
  json?: boolean;
}

function tokenState(t: TokenView, now = Date.now()): string {
  if (t.revoked_at) return 'revoked';
  if (t.expires_at && Date.parse(t.expires_at) <= now) return 'expired';
  return 'active';
}

export function registerToken(program: Command): void {
  const token = program.command('token').description('mint, list and revoke access tokens (needs pty:admin)');

  token
    .command('create')
    .description('mint a token; prints the token itself, which is shown this once only')
    .requiredOption(
      '-s, --scope <scope>',
      'pty:observe, pty:control or pty:admin (repeatable or comma-separated)',
      scopeList,
    )
    .option('--session <id>', 'limit the token to one session')
    .option('--ttl <seconds>', 'expire after this many seconds', seconds)
    .option('--label <text>', 'a name to recognise the token by in `token list`')
    .option('--json', 'print the token and its record as JSON')
    .action(async (flags: CreateFlags, cmd: Command) => {
      const settings = settingsOf(cmd);
      if (!flags.scope || flags.scope.length === 0) throw usageError('give at least one --scope');
      const req: CreateTokenRequest = { scopes: flags.scope };
      if (settings.instance !== undefined) req.instance_id = settings.instance;
      if (flags.session !== undefined) req.session_id = flags.session;
      if (flags.ttl !== undefined) req.ttl_seconds = flags.ttl;
      if (flags.label !== undefined) req.label = flags.label;
      const minted = await createToken(settings, req);
      // Printing the secret is this command's purpose; it goes to stdout alone so
      // `TOKEN=$(ptyctl token create …)` works, and the note goes to stderr.
      if (flags.json) printJson(minted);
      else process.stdout.write(`${minted.token}\n`);
      process.stderr.write(
        `token ${minted.token_id} (${minted.scopes.join(',')}) created; the server keeps only its hash, so store it now\n`,
      );
    });

  token
    .command('list')
    .alias('ls')
    .description('list tokens (never the secrets: the server stores only their hashes)')
    .option('--json', 'print a JSON array of tokens')
    .action(async (flags: { json?: boolean }, cmd: Command) => {
      const tokens = await listTokens(settingsOf(cmd));
      if (flags.json) return printJson(tokens);
      printTable(
        ['TOKEN ID', 'STATE', 'SCOPES', 'SESSION', 'LABEL', 'EXPIRES', 'LAST USED'],
        tokens.map((t) => [
          t.token_id,
          tokenState(t),
          t.scopes.join(','),
          t.session_id,
          t.label,
          t.expires_at,
          t.last_used_at,
        ]),
      );
    });

  token
    .command('revoke')
    .description('revoke a token; its live connections are closed')
    .argument('<token-id>', 'the token_id from `token list` (not the token itself)')
    .option('--json', 'print the revoked token record as JSON')
    .action(async (id: string, flags: { json?: boolean }, cmd: Command) => {
      const revoked = await revokeToken(settingsOf(cmd), id);
      if (flags.json) printJson(revoked);
      else process.stdout.write(`revoked ${revoked.token_id}\n`);
    });

  // After the subcommands: they inherit settings made before they were added, and must keep
  // rejecting excess arguments.
  token.helpCommand(true).allowExcessArguments().action(missingSubcommand('token', 'create, list or revoke'));
}
