import { describe, expect, test } from 'vitest';
import { parseTokenExchange } from '../auth/client/exchange-settings.js';
import { parseGatewayConfig } from './config.js';
import { credentialOf } from './credential-sources.js';

const endpoint = 'https://idp.example.com/oauth2/token';

describe('"auth": { "tokenExchange" } in a gateway config', () => {
  test("becomes the entry's tokenExchange; its own Authorization header still lists the tools", () => {
    const options = parseGatewayConfig(
      {
        servers: {
          billing: {
            url: 'https://billing.example.com/mcp',
            headers: { Authorization: 'Bearer listing-token' },
            auth: {
              tokenExchange: {
                tokenEndpoint: endpoint,
                clientId: 'candor-gateway',
                clientSecretEnv: 'GATEWAY_SECRET',
                audience: 'billing-api',
                scopes: ['billing:read'],
                actor: true,
              },
            },
          },
        },
      },
      '/tmp/gateway.json',
    );
    const billing = options.servers.billing!;
    expect(billing.tokenExchange).toEqual({
      tokenEndpoint: endpoint,
      clientId: 'candor-gateway',
      clientSecretEnv: 'GATEWAY_SECRET',
      audience: 'billing-api',
      scopes: ['billing:read'],
      actor: true,
    });
    expect(billing.auth).toBeUndefined();
    expect(billing.perUser).toBeUndefined();
  });

  test('mistakes are named with the key and what is accepted', () => {
    expect(() => parseTokenExchange({ clientId: 'x' }, 'gw.json: "billing"')).toThrow(
      /needs "tokenEndpoint" and "clientId"/,
    );
    expect(() => parseTokenExchange({ tokenEndpoint: endpoint, clientId: 'x', audiance: 'a' }, 'w')).toThrow(
      /unknown key "auth".tokenExchange.audiance/,
    );
    expect(() => parseTokenExchange({ tokenEndpoint: 'not a url', clientId: 'x' }, 'w')).toThrow(/must be a URL/);
    expect(() => parseTokenExchange({ tokenEndpoint: endpoint, clientId: 'x', scopes: ['a b'] }, 'w')).toThrow(
      /scope names/,
    );
    expect(() => parseTokenExchange({ tokenEndpoint: endpoint, clientId: 'x', actor: true }, 'w')).toThrow(
      /actor needs the gateway's client secret/,
    );
    expect(() =>
      parseGatewayConfig(
        {
          servers: {
            b: {
              url: 'https://b.example.com/mcp',
              auth: { perUser: true, tokenExchange: { tokenEndpoint: endpoint, clientId: 'x' } },
            },
          },
        },
        '/tmp/g.json',
      ),
    ).toThrow(/"tokenExchange" or "perUser", not both/);
  });
});

describe('the credential source an audit record names', () => {
  test('per-person sign-in, a shared sign-in or header, and none', () => {
    const url = 'https://notes.example.com/mcp';
    expect(credentialOf({ url, perUser: true, auth: 'oauth' })).toEqual({ source: 'per-person', audience: url });
    expect(credentialOf({ url, auth: 'oauth' })).toEqual({ source: 'shared', audience: url });
    expect(credentialOf({ url, headers: { authorization: 'Bearer x' } })).toEqual({ source: 'shared', audience: url });
    expect(credentialOf({ url })).toEqual({ source: 'none' });
    expect(credentialOf({ command: 'node', args: ['notes.mjs'] })).toEqual({ source: 'none' });
  });
});
