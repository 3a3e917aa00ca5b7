import { describe, expect, it } from 'vitest';
import type { ServerJson } from './server-json.js';
import { planServerJson } from './server-json-plan.js';

const base = { name: 'io.github.x/y', description: 'd', version: '1.0.0' };

describe('planServerJson', () => {
  it('fills {variables} in arguments and environment, takes given values for open inputs, and lists the required ones missing', () => {
    const server: ServerJson = {
      ...base,
      packages: [
        {
          registryType: 'npm',
          identifier: '@x/server',
          version: '1.2.3',
          runtimeHint: 'node',
          runtimeArguments: [
            { type: 'named', name: '--max-old-space-size', value: '{mb}', variables: { mb: { default: '512' } } },
          ],
          packageArguments: [
            { type: 'positional', valueHint: 'root', isRequired: true },
            { type: 'named', name: '--stdio' },
            { type: 'named', name: '--mode', default: 'safe' },
          ],
          environmentVariables: [
            { name: 'API_KEY', isRequired: true, isSecret: true },
            { name: 'REGION', default: 'eu' },
            { name: 'AUTH', value: 'Bearer {token}', variables: { token: { isRequired: true } } },
          ],
          transport: { type: 'stdio' },
        },
      ],
    };
    const plan = planServerJson(server, { REGION: 'us' });
    expect(plan).toMatchObject({
      kind: 'package',
      spec: '@x/server@1.2.3',
      runtimeArgs: ['--max-old-space-size', '512'],
      packageArgs: ['--stdio', '--mode', 'safe'],
      env: { REGION: 'us', AUTH: 'Bearer {token}' },
    });
    expect(plan.missing.sort()).toEqual(['API_KEY', 'root', 'token']);
    const given = planServerJson(server, { API_KEY: 'k', root: '/data', token: 't' });
    expect(given).toMatchObject({ packageArgs: ['/data', '--stdio', '--mode', 'safe'], missing: [] });
    expect(given.kind === 'package' && given.env).toEqual({ API_KEY: 'k', REGION: 'eu', AUTH: 'Bearer t' });
  });

  it('passes over packages it cannot start and takes the first remote, saying why', () => {
    const plan = planServerJson(
      {
        ...base,
        packages: [{ registryType: 'pypi', identifier: 'x', version: '1', transport: { type: 'stdio' } }],
        remotes: [{ type: 'sse', url: 'https://{host}/sse', variables: { host: { default: 'example.com' } } }],
      },
      {},
    );
    expect(plan).toMatchObject({ kind: 'remote', url: 'https://example.com/sse', transport: 'sse' });
    expect(plan.notes).toEqual(['packages[0] is pypi (only npm is installed)']);
  });

  it('throws when nothing can be scanned', () => {
    expect(() => planServerJson(base as ServerJson, {})).toThrow('neither packages nor remotes');
  });
});
