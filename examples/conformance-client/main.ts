/**
 * candor's MCP client under the official conformance suite's client scenarios
 * (`@modelcontextprotocol/conformance client --command …`), mostly the `auth/*` ones.
 * The suite starts a scenario server and runs this with its URL as the last
 * argument; `MCP_CONFORMANCE_SCENARIO` names the scenario and `MCP_CONFORMANCE_CONTEXT`
 * carries a pre-registered client where the scenario has one.
 *
 * It connects the way every candor command does (`connectTarget` with the stored-sign-in
 * provider), signs in when asked (the scenario's authorization endpoint answers with a
 * redirect, followed by the scripted browser in test/support), lists the tools and calls
 * each one, signing in again with more scopes on a step-up. Sign-ins go to a temporary
 * credentials file.
 *
 * The calls' arguments are the scenario's own where its context lists `toolCalls`, else
 * made from each tool's input schema. The client declares form elicitation and accepts
 * every request with values made from its requested schema (2026-07-28 sends them as
 * `input_required` rounds, answered and retried by the SDK client with `requestState`).
 * The JSON Schema preservation scenario asks for its focal tool's input schema back, as
 * candor's client listed it, through its echo tool.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CredentialsStore } from '../../src/auth/client/credentials-store.js';
import type { OAuthClientSettings } from '../../src/auth/client/settings.js';
import { signIn } from '../../src/auth/client/sign-in.js';
import { findSignInRequired, type SignInRequiredError } from '../../src/auth/client/sign-in-required.js';
import { generateArguments } from '../../src/observe/arguments.js';
import { connectTarget } from '../../src/targets/connect.js';
import { listAllTools } from '../../src/targets/list.js';
import type { HttpTarget } from '../../src/targets/types.js';

const BROWSER = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../test/support/oauth-browser.mjs');
/** The Client ID Metadata Document URL the suite's CIMD scenario serves (it cannot be hosted here). */
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';

const url = process.argv.at(-1);
if (!url?.startsWith('http')) {
  console.error('usage: main.ts <server-url>');
  process.exit(2);
}
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as {
  client_id?: string;
  client_secret?: string;
  /** The calls a scenario wants made, with their arguments (e.g. values to mirror into headers). */
  toolCalls?: { name: string; arguments: Record<string, unknown> }[];
};
/** The JSON Schema preservation scenario's tools: the echo takes the focal tool's schema back. */
const SCHEMA_ECHO = { tool: 'json_schema_echo', focal: 'json_schema_2020_12_tool' };

const client: OAuthClientSettings = { clientMetadataUrl: CLIENT_METADATA_URL };
if (context.client_id) client.clientId = context.client_id;
if (context.client_secret) client.clientSecret = context.client_secret;
if (scenario.includes('client-credentials')) client.grant = 'client_credentials';

const dir = mkdtempSync(path.join(tmpdir(), 'candor-conformance-client-'));
const store = new CredentialsStore(path.join(dir, 'credentials.json'));
const target: HttpTarget = {
  kind: 'http',
  url,
  transport: 'streamable-http',
  label: 'conformance',
  auth: { mode: 'oauth', client },
};

/** The suite's authorization endpoint redirects at once: the scripted browser follows it to our loopback. */
const open = (authorizationUrl: string) =>
  new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [BROWSER, authorizationUrl], { stdio: 'inherit' });
    child.once('error', reject);
    child.once('exit', () => resolve());
  });

let signIns = 0;
async function signInFor(required: SignInRequiredError): Promise<boolean> {
  if (++signIns > 3) return false;
  await signIn({
    serverUrl: url!,
    store,
    client,
    label: target.label,
    loginCommand: required.command,
    ...(required.scope ? { scopes: required.scope.split(' ') } : {}),
    open,
    timeoutMs: 20_000,
  });
  return true;
}

/** Arguments for a tool: made from its input schema (smallest valid values), `{}` where none fit. */
function argumentsFor(tool: { inputSchema?: unknown }): Record<string, unknown> {
  const schema = tool.inputSchema;
  if (typeof schema !== 'object' || schema === null) return {};
  return generateArguments(schema as Record<string, unknown>, { seed: 1, workdir: dir }) ?? {};
}

async function session(): Promise<void> {
  const connection = await connectTarget(target, {
    credentials: store,
    era: 'auto',
    clientInfo: { name: 'candor-conformance-client', version: '0' },
    onSignInRequired: signInFor,
    capabilities: { elicitation: { form: {} } },
    onClient: (sdk) =>
      sdk.setRequestHandler('elicitation/create', async (request) => {
        const requested = (request.params as { requestedSchema?: unknown }).requestedSchema;
        const content =
          typeof requested === 'object' && requested !== null
            ? generateArguments(requested as Record<string, unknown>, { seed: 1, workdir: dir, optional: true })
            : undefined;
        return { action: 'accept', content: (content ?? {}) as Record<string, string | number | boolean> };
      }),
  });
  try {
    // The SDK's list leaves out tools whose x-mcp-header declarations are invalid (the spec's
    // MUST) and keeps the schemas it mirrors Mcp-Param headers from; candor's raw list is what
    // inspect, lint and pin read, so the schema echoed back is taken from it.
    const { tools } = await connection.client.listTools();
    const raw = (await listAllTools(connection.client)) as { name?: string; inputSchema?: unknown }[];
    const calls =
      context.toolCalls ??
      tools.map((tool) => ({
        name: tool.name,
        arguments:
          tool.name === SCHEMA_ECHO.tool
            ? { schema: raw.find((t) => t.name === SCHEMA_ECHO.focal)?.inputSchema ?? {} }
            : argumentsFor(tool),
      }));
    for (const call of calls) {
      try {
        await connection.client.callTool(call);
      } catch (error) {
        // A sign-in (step-up) is handled by the caller; any other failed call is the scenario's
        // to judge (json-schema-ref-no-deref's server lists a tool it does not serve).
        if (findSignInRequired(error)) throw error;
        console.error(`candor conformance client: ${call.name}: ${(error as Error).message}`);
      }
    }
  } finally {
    await connection.close();
  }
}

try {
  for (let attempt = 0; ; attempt++) {
    try {
      await session();
      break;
    } catch (error) {
      const required = findSignInRequired(error);
      // A step-up mid-session: sign in with the wider scopes and run the session again.
      if (!required || attempt >= 2 || !(await signInFor(required))) throw error;
    }
  }
} catch (error) {
  console.error(`candor conformance client: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
