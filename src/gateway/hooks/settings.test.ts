import { describe, expect, it } from 'vitest';
import { hookSettings, hookSettingsFlag, isLoopbackHost } from './settings.js';

describe('hook settings', () => {
  it('takes https anywhere and plain http to loopback only', () => {
    expect(hookSettings({ beforeCall: 'https://guard.example.com/before' })).toEqual({
      beforeCall: 'https://guard.example.com/before',
    });
    for (const url of ['http://127.0.0.1:8787/x', 'http://localhost/x', 'http://[::1]:9/x'])
      expect(hookSettings({ afterCall: url })).toEqual({ afterCall: url });
    expect(hookSettings({ afterCall: 'http://192.168.1.9/after' })).toBe(
      'afterCall is plain http to 192.168.1.9; use https, a loopback address, or set "allowRemoteHttp": true.',
    );
    expect(hookSettings({ afterCall: 'http://192.168.1.9/after', allowRemoteHttp: true })).toEqual({
      afterCall: 'http://192.168.1.9/after',
      allowRemoteHttp: true,
    });
  });

  it('refuses other schemes, credentials in the URL, and bad timeouts', () => {
    expect(hookSettings({ beforeCall: 'file:///etc/passwd' })).toBe(
      'beforeCall must be an https: URL, or http: to a loopback address.',
    );
    expect(hookSettings({ beforeCall: 'https://me:pw@guard.example.com/' })).toBe(
      'beforeCall must not carry a user or password (it would be logged).',
    );
    for (const timeoutMs of [0, -5, 60_001, 1e12, Number.POSITIVE_INFINITY, '500'])
      expect(hookSettings({ timeoutMs })).toMatch(
        /^timeoutMs must be a number of milliseconds above 0 and at most 60000 \(got /,
      );
    expect(hookSettings({ timeoutMs: 60_000 })).toEqual({ timeoutMs: 60_000 });
    expect(hookSettings('http://127.0.0.1')).toMatch(/^must be an object/);
  });

  it('knows the loopback names and addresses, and nothing that only looks like them', () => {
    expect(['localhost', '127.0.0.1', '127.9.8.7', '[::1]'].every(isLoopbackHost)).toBe(true);
    expect(['127.0.0.1.nip.io', 'localhost.example.com', '10.0.0.1', '0.0.0.0'].some(isLoopbackHost)).toBe(false);
  });
});

describe('--hooks', () => {
  it('reads key=value pairs, numbers and booleans as the config holds them, URLs with their query strings', () => {
    expect(hookSettingsFlag('beforeCall=http://127.0.0.1:8787/before?team=a&x=1,timeoutMs=500,failure=open')).toEqual({
      beforeCall: 'http://127.0.0.1:8787/before?team=a&x=1',
      timeoutMs: 500,
      failure: 'open',
    });
  });

  it("goes over the config's hooks and checks the whole", () => {
    expect(hookSettingsFlag('afterCall=http://10.0.0.5/after', { allowRemoteHttp: true, failure: 'closed' })).toEqual({
      allowRemoteHttp: true,
      afterCall: 'http://10.0.0.5/after',
      failure: 'closed',
    });
    expect(hookSettingsFlag('failure=open', { beforeCall: 'https://g.example/b', failure: 'closed' })).toEqual({
      beforeCall: 'https://g.example/b',
      failure: 'open',
    });
  });

  it('says what is wrong, naming the flag', () => {
    expect(hookSettingsFlag('beforeCall')).toBe(
      '--hooks expects key=value pairs separated by commas, e.g. --hooks beforeCall=http://127.0.0.1:8787/before,failure=closed (got "beforeCall").',
    );
    expect(hookSettingsFlag('timeoutMs=soon')).toBe(
      '--hooks: timeoutMs must be a number of milliseconds above 0 and at most 60000 (got "soon"); a hook holds its call while it thinks.',
    );
    expect(hookSettingsFlag('before=https://g.example/b')).toBe(
      '--hooks: unknown key "before"; expected "beforeCall", "afterCall", "timeoutMs", "failure", "allowRemoteHttp".',
    );
  });
  it('refuses a key given twice with different values, naming both', () => {
    expect(hookSettingsFlag('failure=open,failure=closed')).toBe(
      '--hooks: failure is given twice (open, then closed); give each key once.',
    );
    expect(hookSettingsFlag('failure=open,failure=open')).toEqual({ failure: 'open' });
  });
});
