import { describe, expect, it } from 'vitest';
import { isCandorError } from '../errors.js';
import { mergeServices, parseListEntry, servicesOfServerJson } from './list-entry.js';
import type { ServerJson } from './server-json.js';

const server = (meta: unknown) => ({ name: 'a/b', description: 'x', version: '1', _meta: meta }) as ServerJson;
const thrown = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return isCandorError(error) ? error.message : `not a CandorError: ${error}`;
  }
  return 'nothing thrown';
};

describe('list entries naming their doubles', () => {
  it('reads a line: the target, then each --service (spaced or with =)', () => {
    expect(parseListEntry('  pkg@1.0.0  ')).toEqual({ target: 'pkg@1.0.0', services: [] });
    expect(parseListEntry('pkg@1 --service postgres=DATABASE_URL --service=https-api=api.x.com,up.x.com')).toEqual({
      target: 'pkg@1',
      services: [
        { kind: 'postgres', env: ['DATABASE_URL'] },
        { kind: 'https-api', hosts: ['api.x.com', 'up.x.com'] },
      ],
    });
  });

  it('refuses another option, a --service without a value, and a double candor lacks, naming the line', () => {
    expect(thrown(() => parseListEntry('pkg --env A=1'))).toBe(
      'pkg --env A=1: after the target a list line takes only --service KIND[=VALUE], not --env.',
    );
    expect(thrown(() => parseListEntry('pkg --service'))).toContain('--service needs a double');
    expect(thrown(() => parseListEntry('pkg --service oracle'))).toMatch(
      /^pkg --service oracle: .*no double named "oracle"/,
    );
  });

  it("reads a server.json's _meta and refuses a value that is not an array of --service values", () => {
    expect(servicesOfServerJson(server(undefined), 'f.json')).toEqual([]);
    expect(servicesOfServerJson(server({ 'dev.candor/services': ['page', 'redis=CACHE'] }), 'f.json')).toEqual([
      { kind: 'page' },
      { kind: 'redis', env: ['CACHE'] },
    ]);
    expect(thrown(() => servicesOfServerJson(server({ 'dev.candor/services': 'postgres' }), 'f.json'))).toContain(
      'f.json: $._meta["dev.candor/services"]: must be an array',
    );
  });

  it("keeps the run's double of a kind over the server's own", () => {
    expect(mergeServices([{ kind: 'postgres' }], [{ kind: 'postgres', env: ['PG'] }, { kind: 'page' }])).toEqual([
      { kind: 'postgres' },
      { kind: 'page' },
    ]);
  });
});
