/**
 * Globs in the gateway config that match no upstream tool are warned about at start,
 * each by its config path (a real upstream over stdio, its tools listed first); globs
 * that match, by the namespaced name or the server's own, are not.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createGateway } from '../../src/gateway/index.js';
import { ensureBuilt } from '../support/cli-harness.js';

const fixture = join(import.meta.dirname, '../fixtures/gateway/upstream.mjs');
const closers: Array<() => Promise<unknown>> = [];

beforeAll(() => ensureBuilt(), 120_000);
afterAll(async () => {
  for (const close of closers.reverse()) await close().catch(() => {});
});

test('a rule, quota, profile, command tool and guard glob that match nothing are each warned about', async () => {
  const warnings: string[] = [];
  const gateway = await createGateway({
    servers: {
      notes: {
        command: process.execPath,
        args: [fixture],
        stderr: 'ignore',
        results: { tools: { 'read_*': { secrets: 'block' }, 'fetch_*': { injection: 'block' } } },
      },
    },
    policy: {
      preset: 'default',
      rules: [
        { decision: 'deny', tools: 'notes__delete_*' },
        { decision: 'deny', tools: ['nots__delete_*', 'notes__write_note'] },
      ],
    },
    quotas: [{ tools: ['gihtub__*'], max: 5, windowMs: 60_000 }],
    profiles: { reader: { tools: ['notes__read_*'] }, typo: { tools: ['notes__raed_*'] } },
    commandTools: { notes__run_shel: { argument: 'command' } },
    logger: { error() {}, info() {}, debug() {}, warn: (message: string) => warnings.push(message) },
  });
  closers.push(() => gateway.close());
  const unmatched = warnings.filter((w) => w.includes('matches no tool'));
  expect(unmatched.sort()).toEqual(
    [
      'commandTools.notes__run_shel "notes__run_shel" matches no tool of the upstreams; check the name.',
      'policy.rules[1].tools[0] "nots__delete_*" matches no tool of the upstreams; check the name.',
      'profiles.typo.tools[0] "notes__raed_*" matches no tool of the upstreams; check the name.',
      'quotas[0].tools[0] "gihtub__*" matches no tool of the upstreams; check the name.',
      'servers.notes.results.tools.fetch_* "fetch_*" matches no tool of the upstreams; check the name.',
    ].sort(),
  );
});
