import { describe, expect, it } from 'vitest';
import { isCandorError } from '../errors.js';
import { parseGatewayConfig } from './config.js';

const FILE = '/work/candor.gateway.json';
const EXPECTED =
  'results, hooks, servers, mcpServers, policy, overrides, lock, approvalsFile, commandTools, rateLimits, quotas, quotaCounts, taint, audit, timeoutMs, confirmTimeoutMs, reconnect, sandbox, toolList, codeMode, scripts, alwaysList, prefix, profiles, rules, groupsClaim, departmentClaim';

function refusal(config: unknown): string {
  try {
    parseGatewayConfig(config, FILE);
  } catch (error) {
    if (!isCandorError(error)) throw error;
    expect(error.code).toBe('invalid_gateway_config');
    return error.message;
  }
  throw new Error('the config was accepted');
}

describe('every mistake of a gateway config in one run', () => {
  it('names each mistake with its JSON path, with did-you-mean for misspelt keys', () => {
    const message = refusal({
      polcy: 'plan',
      servers: {
        memory: { comand: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] },
        files: { command: 'npx', trust: 'yes', timeoutMs: -1 },
      },
      timeoutMs: 0,
      profiles: { reader: { servers: ['memory'], readonly: true } },
      reconnect: { initialDelayMs: 'soon', maxDelayMs: -5 },
    });
    const lines = message.split('\n');
    expect(lines[0]).toBe(`${FILE}: 8 problems:`);
    expect(lines.slice(1).sort()).toEqual(
      [
        '  polcy: unknown key; did you mean "policy"? Expected one of results, hooks, servers, mcpServers, policy, overrides, lock, approvalsFile, commandTools, rateLimits, quotas, quotaCounts, taint, audit, timeoutMs, confirmTimeoutMs, reconnect, sandbox, toolList, codeMode, scripts, alwaysList, prefix, profiles, rules, groupsClaim, departmentClaim.',
        '  servers.memory: neither "command" (stdio) nor "url" (HTTP) is set. Did you mean "command" (not "comand")?',
        '  servers.files.trust: must be "trusted" or "untrusted".',
        '  servers.files.timeoutMs: must be a positive number.',
        '  timeoutMs: must be a positive number.',
        '  profiles.reader.readonly: unknown key; did you mean "readOnly"? Expected one of servers, tools, readOnly, toolList, taint, codeMode, groups, departments.',
        '  reconnect.initialDelayMs: must be a positive number.',
        '  reconnect.maxDelayMs: must be a positive number.',
      ].sort(),
    );
  });

  it('does not report a second problem for a setting that names an entry with a mistake', () => {
    const message = refusal({
      servers: { memory: { comand: 'npx' } },
      rateLimits: { servers: { memory: { windowMs: 60000, max: 10 } } },
      quotas: [{ servers: ['memory'], max: 5, windowMs: 60000 }],
      profiles: { reader: { servers: ['memory'] } },
    });
    expect(message).toBe(
      `${FILE}: servers.memory: neither "command" (stdio) nor "url" (HTTP) is set. Did you mean "command" (not "comand")?`,
    );
  });

  it('keeps one mistake on one line, as before', () => {
    expect(refusal({ servers: { m: { command: 'npx' } }, servrs: {} })).toBe(
      `${FILE}: servrs: unknown key; did you mean "servers"? Expected one of ${EXPECTED}.`,
    );
    expect(refusal({ servers: { m: { command: 'npx' } }, prefix: 'sometimes' })).toBe(
      `${FILE}: prefix: must be "always" (server__tool), "never" (upstream names) or "on-clash".`,
    );
  });

  it('offers no guess for a key far from every known one, and no guess for a short key that is not close', () => {
    expect(refusal({ servers: { m: { command: 'npx' } }, zzzzzzzzzz: 1 })).toBe(
      `${FILE}: zzzzzzzzzz: unknown key; expected one of ${EXPECTED}.`,
    );
    expect(refusal({ servers: { m: { arg: ['x'] } } })).toBe(
      `${FILE}: servers.m: neither "command" (stdio) nor "url" (HTTP) is set.`,
    );
  });

  it('checks a long misspelt key in time linear in its length', () => {
    const key = 'p'.repeat(1_000_000);
    expect(refusal({ servers: { m: { command: 'npx' } }, [key]: 1 })).toContain('unknown key; expected one of');
  });
});
