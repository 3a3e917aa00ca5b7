import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { isCandorError } from '../errors.js';
import { parseService, startServices } from './services.js';

describe('parseService', () => {
  it('reads a kind, an alias, and the variables that get the URL', () => {
    expect(parseService('postgres')).toEqual({ kind: 'postgres' });
    expect(parseService('MariaDB')).toEqual({ kind: 'mysql' });
    expect(parseService('redis=CACHE_URL')).toEqual({ kind: 'redis', env: ['CACHE_URL'] });
    expect(parseService('pg=A_URL, B_URL')).toEqual({ kind: 'postgres', env: ['A_URL', 'B_URL'] });
  });

  it('refuses an unknown kind and a bad variable name, clearly', () => {
    const unknown = (() => {
      try {
        parseService('mongodb');
      } catch (error) {
        return error;
      }
    })();
    expect(isCandorError(unknown) && unknown.code).toBe('observe_double_failed');
    expect(() => parseService('mongodb')).toThrow('candor has postgres, mysql, redis, sqlite');
    expect(() => parseService('postgres=')).toThrow('after "=" comes the environment variable');
    expect(() => parseService('postgres=1BAD')).toThrow('"1BAD" is not a variable name');
  });

  it("reads an API's host names after https-api=, and a page's variable", () => {
    expect(parseService('https-api=API.GitHub.com, uploads.github.com.')).toEqual({
      kind: 'https-api',
      hosts: ['api.github.com', 'uploads.github.com'],
    });
    expect(parseService('https=api.example.test,api.example.test')).toEqual({
      kind: 'https-api',
      hosts: ['api.example.test'],
    });
    expect(parseService('page=START_URL')).toEqual({ kind: 'page', env: ['START_URL'] });
    for (const bad of ['https-api', 'https-api=', 'https-api=127.0.0.1', 'https-api=localhost', 'https-api=a_b.test']) {
      expect(() => parseService(bad), bad).toThrow(`after "https-api=" come the API's host names`);
    }
    // A name longer than DNS allows is refused before any pattern reads it.
    expect(() => parseService(`https-api=${'a.'.repeat(50_000)}-`)).toThrow('is not a remote host name');
  });
});

describe('startServices', () => {
  it('starts nothing, and fills nothing, when asked for nothing', async () => {
    const services = await startServices([]);
    expect(services.env).toEqual({});
    expect(services.fill('{postgres} {workdir}')).toBe('{postgres} {workdir}');
    expect(await services.changes()).toEqual([]);
    await services.stop();
  });

  it('points named variables and {sqlite} placeholders at a started double, and sees its writes', async () => {
    const services = await startServices([{ kind: 'sqlite', env: ['APP_DB'] }]);
    try {
      const file = services.env.APP_DB!;
      expect(Object.keys(services.env)).toEqual(['APP_DB']);
      expect(services.fill('--db={sqlite} --dir {sqlite.path}')).toBe(`--db=${file} --dir ${file}`);
      expect(services.sandbox.write).toEqual([file.slice(0, file.lastIndexOf('/'))]);
      expect(services.seeds.table).toContain('customers');
      await services.mark();
      execFileSync('sqlite3', [file, 'DELETE FROM customers WHERE id = 2']);
      expect(await services.changes()).toEqual([
        { kind: 'db-write', service: 'sqlite', table: 'customers', inserted: 0, updated: 0, deleted: 1 },
      ]);
    } finally {
      await services.stop();
    }
  });

  it("routes an API's names on 443 to the double, trusts its CA, and offers its URL to url properties", async () => {
    const services = await startServices([{ kind: 'https-api', hosts: ['api.example.test'] }]);
    try {
      const [route] = services.sandbox.destinations ?? [];
      expect(route).toMatchObject({ host: 'api.example.test', port: 443, target: { host: '127.0.0.1' } });
      // The name is resolved through the bridge's own address for the route, never also as 127.0.0.1.
      expect(services.sandbox.hosts).toEqual([]);
      expect(services.env.NODE_EXTRA_CA_CERTS).toMatch(/ca\.pem$/);
      expect(services.sandbox.mounts).toContainEqual([
        services.env.NODE_EXTRA_CA_CERTS,
        services.env.NODE_EXTRA_CA_CERTS,
      ]);
      expect(services.fill('--base {https-api}')).toBe('--base https://api.example.test');
      expect(services.seeds.url).toEqual(['https://api.example.test']);
    } finally {
      await services.stop();
    }
  });

  it('refuses the same kind twice', async () => {
    await expect(startServices([{ kind: 'sqlite' }, { kind: 'sqlite' }])).rejects.toThrow('given twice');
  });
});
