/**
 * `candor auth login|status|logout <target>`: sign in to a remote MCP server
 * that uses OAuth, see which sign-ins are stored, and forget (and revoke) one. `<target>`
 * is a URL or `config.json#name`, as for every other command. Token values are never
 * printed: `status` shows the issuer, scopes and expiry only.
 */
import type { Command } from 'commander';
import { CredentialsStore, canonicalResource, type StoredSignIn } from '../../auth/client/credentials-store.js';
import { signOut } from '../../auth/client/sign-in.js';
import { parseTargets } from '../../targets/parse.js';
import type { HttpTarget } from '../../targets/types.js';
import { CliError, EXIT } from '../cli-error.js';
import { signInTarget } from '../sign-in.js';

interface LoginOptions {
  browser: boolean;
  scope?: string[];
  timeout: string;
}

const out = (line: string) => process.stdout.write(`${line}\n`);

/** The one HTTP target a word names (a URL or `file.json#name`). */
async function httpTarget(word: string): Promise<HttpTarget> {
  let targets: Awaited<ReturnType<typeof parseTargets>>;
  try {
    targets = await parseTargets({ targets: [word] });
  } catch (error) {
    throw new CliError((error as Error).message, { exitCode: EXIT.usage, cause: error });
  }
  if (targets.length !== 1) {
    const names = targets.map((t) => t.source?.name ?? t.label);
    throw new CliError(`${word} names ${targets.length} servers (${names.join(', ')}); pick one with ${word}#name.`, {
      exitCode: EXIT.usage,
    });
  }
  const target = targets[0]!;
  if (target.kind === 'invalid') throw new CliError(target.reason, { exitCode: EXIT.usage });
  if (target.kind !== 'http') {
    throw new CliError(
      `${target.label} is a ${target.kind === 'stdio' ? 'stdio' : 'local module'} server; OAuth sign-in is for servers reached over HTTP.`,
      { exitCode: EXIT.usage },
    );
  }
  return target;
}

function describe(entry: StoredSignIn, now = Date.now()): Record<string, unknown> {
  const tokens = entry.tokens;
  const expiresAt = tokens?.expires_at;
  return {
    resource: entry.resource,
    issuer: entry.issuer ?? null,
    client: entry.client?.client_id ?? null,
    scope: tokens?.scope ?? null,
    signedIn: tokens !== undefined,
    refreshable: tokens?.refresh_token !== undefined,
    expiresAt: expiresAt === undefined ? null : new Date(expiresAt).toISOString(),
    expired: expiresAt === undefined ? false : expiresAt <= now,
    savedAt: entry.savedAt ?? null,
  };
}

function statusLine(entry: StoredSignIn): string {
  const d = describe(entry);
  const state = !d.signedIn
    ? 'not signed in (client registered)'
    : d.expired
      ? d.refreshable
        ? 'signed in (access token expired; refreshed on next use)'
        : 'expired: sign in again'
      : 'signed in';
  const parts = [
    `${entry.resource}: ${state}`,
    d.issuer ? `issuer ${d.issuer}` : undefined,
    d.scope ? `scopes ${d.scope}` : undefined,
    d.expiresAt && !d.expired ? `expires ${d.expiresAt}` : undefined,
  ].filter(Boolean);
  return parts.join('; ');
}

/** Register `candor auth`. */
export function registerAuth(program: Command): void {
  const authCommand = program
    .command('auth')
    .description('sign in to remote MCP servers that use OAuth, list sign-ins, sign out')
    .addHelpText(
      'after',
      `
Sign-ins are stored in $CANDOR_CREDENTIALS, else $XDG_CONFIG_HOME/candor/credentials.json,
else ~/.config/candor/credentials.json (folder 0700, file 0600). Every command that connects
to the server (inspect, call, lint, pin, verify, ui, gateway) uses and refreshes them.

Examples:
  candor auth login https://mcp.example.com/mcp
  candor auth login .mcp.json#linear --no-browser
  candor auth status
  candor auth logout .mcp.json#linear`,
    );

  authCommand
    .command('login')
    .argument('<target>', 'the server: a URL or config.json#name')
    .description('sign in through the browser (or with client credentials, when the entry says so)')
    .option('--no-browser', 'print the sign-in URL instead of starting a browser')
    .option('--scope <scope...>', 'ask for these scopes too (besides the ones the server names)')
    .option('--timeout <seconds>', 'give up waiting for the browser after this many seconds', '300')
    .action(async (word: string, options: LoginOptions) => {
      const seconds = Number(options.timeout);
      if (!(seconds > 0)) {
        throw new CliError(`--timeout must be a positive number of seconds; got ${options.timeout}.`, {
          exitCode: EXIT.usage,
        });
      }
      const target = await httpTarget(word);
      const scopes = options.scope?.flatMap((s) => s.split(/[\s,]+/)).filter(Boolean);
      const result = await signInTarget(target, {
        noBrowser: !options.browser,
        timeoutMs: seconds * 1000,
        ...(scopes && scopes.length > 0 ? { scopes } : {}),
      });
      const expires = result.expiresAt ? `; expires ${new Date(result.expiresAt).toISOString()}` : '';
      out(
        `Signed in to ${target.label}${result.issuer ? ` (issuer ${result.issuer})` : ''}${result.scope ? `; scopes ${result.scope}` : ''}${expires}${result.refreshable ? '; refreshed automatically' : ''}.`,
      );
    });

  authCommand
    .command('status')
    .argument('[target]', 'one server: a URL or config.json#name (default: every stored sign-in)')
    .description('show stored sign-ins: issuer, scopes, expiry (never the tokens)')
    .option('--json', 'print JSON')
    .action(async (word: string | undefined, options: { json?: boolean }) => {
      const store = new CredentialsStore();
      let entries: StoredSignIn[];
      if (word === undefined) entries = await store.list();
      else {
        const target = await httpTarget(word);
        const entry = await store.get(target.url);
        entries = entry ? [entry] : [];
        if (!entry && !options.json) {
          out(`${target.label}: not signed in. Sign in with: candor auth login ${word}`);
          process.exitCode = EXIT.failure;
          return;
        }
      }
      if (options.json) {
        out(JSON.stringify({ file: store.file, signIns: entries.map((e) => describe(e)) }, null, 2));
        return;
      }
      if (entries.length === 0) {
        out(`No sign-ins stored (${store.file}).`);
        return;
      }
      for (const entry of entries) out(statusLine(entry));
    });

  authCommand
    .command('logout')
    .argument('<target>', 'the server: a URL or config.json#name')
    .description('forget the sign-in, revoking its tokens where the authorization server allows (RFC 7009)')
    .action(async (word: string) => {
      const target = await httpTarget(word);
      const result = await signOut({
        serverUrl: target.url,
        store: new CredentialsStore(),
        ...(target.auth ? { client: target.auth.client } : {}),
      });
      if (!result.removed) {
        out(`${target.label}: no sign-in stored for ${canonicalResource(target.url)}.`);
        return;
      }
      const how = result.revoked
        ? ' (tokens revoked at the authorization server)'
        : result.revokeError
          ? ` (forgotten here; the authorization server did not revoke the tokens: ${result.revokeError})`
          : ' (forgotten here; the authorization server has no revocation endpoint)';
      out(`Signed out of ${target.label}${how}.`);
    });
}
