import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { findSecrets, redact } from './secrets.js';

const alnum = (n: number) =>
  [...randomBytes(n)].map((b) => 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'[b % 62]).join('');

describe('secrets in result text', () => {
  it('redacts the whole AWS secret key even though the preset rule reports a range starting at the name', async () => {
    // With digits (the guard's own rule for named values covers the key too) and without
    // (one key in a thousand: only the preset rule's range, which stops 16 characters
    // short). Ending in "+" the preset rule misses it (it wants a word boundary after the
    // key) and the guard's own rule redacts the key alone.
    const letters = alnum(400).replace(/\d/g, '').slice(0, 40);
    for (const [value, name] of [
      [`${alnum(39)}7`, ''],
      [letters, ''],
      [`${letters.slice(0, 38)}/+`, 'aws_secret_access_key = '],
    ]) {
      const text = `[default]\naws_secret_access_key = ${value}\nregion = us-east-1`;
      const shown = redact(text, await findSecrets(text));
      expect(shown, value).toBe(`[default]\n${name}[redacted: secret]\nregion = us-east-1`);
    }
  });

  it('widens a range that stops inside a token to where the token ends, and no further', () => {
    expect(redact('key=abcdEFGH1234 rest', [{ kind: 'secret', rule: 'r', range: [4, 8] }])).toBe(
      'key=[redacted: secret] rest',
    );
    expect(redact('key=abcd "EFGH"', [{ kind: 'secret', rule: 'r', range: [4, 8] }])).toBe(
      'key=[redacted: secret] "EFGH"',
    );
  });

  it('redacts a JSON Web Token and a hex API key next to its name, and leaves the rest', async () => {
    const jwt = `${Buffer.from('{"alg":"HS256"}').toString('base64url')}.${Buffer.from('{"sub":"ada"}').toString('base64url')}.${randomBytes(32).toString('base64url')}`;
    const hex = randomBytes(24).toString('hex');
    const text = JSON.stringify({ user: 'ada', session: jwt, api_key: hex });
    expect(redact(text, await findSecrets(text))).toBe(
      '{"user":"ada","session":"[redacted: secret]","api_key":"[redacted: secret]"}',
    );
  });

  it('redacts high-entropy values after secret-like names in the casings names are written in', async () => {
    const values = Array.from({ length: 6 }, () => `${alnum(24)}9`);
    const text = [
      `apiKey: "${values[0]}"`,
      `PASSWORD=${values[1]}`,
      `"client_secret":"${values[2]}"`,
      `AUTH_TOKEN = '${values[3]}'`,
      `passwd: ${values[4]}`,
      `Secret: ${values[5]}`,
    ].join('\n');
    const shown = redact(text, await findSecrets(text));
    for (const value of values) expect(shown).not.toContain(value);
  });

  it('finds nothing in placeholders, versions and words next to secret-like names', async () => {
    const text = 'password: changeme\ntoken = xxxxxxxxxxxxxxxxxxxx\napi_key: "$API_KEY"\nsecret_version = 1.2.3-beta.4';
    expect(await findSecrets(text)).toEqual([]);
  });

  it('takes a value that names a token, secret or password for a name, not a secret', async () => {
    const code = 'exports.exchangeX509Token = exchangeX509Token;\nconst clientSecret = readClientSecret2FromVault;';
    expect(await findSecrets(code)).toEqual([]);
    // The same shape with a random value is still a secret.
    const value = `${alnum(20)}7`;
    expect(
      redact(`exports.accessToken = ${value};`, await findSecrets(`exports.accessToken = ${value};`)),
    ).not.toContain(value);
  });
});
