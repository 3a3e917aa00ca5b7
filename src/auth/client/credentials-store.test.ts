import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CredentialsStore, canonicalResource, credentialsPath } from './credentials-store.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'candor-credentials-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('CredentialsStore', () => {
  it('resolves the path from CANDOR_CREDENTIALS, then XDG_CONFIG_HOME, then ~/.config', () => {
    expect(credentialsPath({ CANDOR_CREDENTIALS: '/x/c.json' })).toBe('/x/c.json');
    expect(credentialsPath({ XDG_CONFIG_HOME: '/home/me/.cfg' })).toBe('/home/me/.cfg/candor/credentials.json');
    expect(credentialsPath({ XDG_CONFIG_HOME: 'relative' })).toMatch(/\.config\/candor\/credentials\.json$/);
  });

  it('keys entries by the canonical resource URL', async () => {
    expect(canonicalResource('HTTPS://MCP.Example.com:443/mcp#x')).toBe('https://mcp.example.com/mcp');
    expect(canonicalResource('https://mcp.example.com/')).toBe('https://mcp.example.com');
    const store = new CredentialsStore(path.join(dir, 'c', 'credentials.json'));
    await store.update('HTTPS://MCP.Example.com/mcp', (e) => ({ ...e, issuer: 'https://as.example' }));
    expect((await store.get('https://mcp.example.com/mcp'))?.issuer).toBe('https://as.example');
    expect(statSync(path.join(dir, 'c')).mode & 0o777).toBe(0o700);
    expect(statSync(store.file).mode & 0o777).toBe(0o600);
  });

  it('two stores (two processes) writing at once lose nothing: the file lock serialises them', async () => {
    const file = path.join(dir, 'credentials.json');
    const a = new CredentialsStore(file);
    const b = new CredentialsStore(file);
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        (i % 2 ? a : b).update(`https://s${i}.example/mcp`, (e) => ({ ...e, issuer: `i${i}` })),
      ),
    );
    expect((await a.list()).map((e) => e.issuer).sort()).toHaveLength(40);
    expect(readFileSync(file, 'utf8')).toContain('"version": 1');
  });

  it('a lock left by a crashed process is taken over once stale', async () => {
    const file = path.join(dir, 'credentials.json');
    writeFileSync(`${file}.lock`, '99999');
    const old = new Date(Date.now() - 60_000);
    const { utimesSync } = await import('node:fs');
    utimesSync(`${file}.lock`, old, old);
    await new CredentialsStore(file).update('https://x.example/mcp', (e) => e);
    expect(await new CredentialsStore(file).get('https://x.example/mcp')).toBeDefined();
  });

  it('never overwrites a file it cannot read', async () => {
    const file = path.join(dir, 'credentials.json');
    writeFileSync(file, '{"version": 2}');
    const store = new CredentialsStore(file);
    await expect(store.update('https://x.example/mcp', (e) => e)).rejects.toThrow('not a candor credentials file');
    expect(readFileSync(file, 'utf8')).toBe('{"version": 2}');
  });
});
