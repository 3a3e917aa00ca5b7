import { describe, expect, it } from 'vitest';
import { looksSecret, scrubEnv } from './scrub-env.js';

describe('looksSecret', () => {
  const secrets = [
    'GITHUB_TOKEN',
    'GH_TOKEN',
    'NPM_TOKEN',
    'npm_config__authToken',
    'OPENAI_API_KEY',
    'ANTHROPIC_API_KEY',
    'AWS_ACCESS_KEY_ID',
    'AWS_SECRET_ACCESS_KEY',
    'AWS_SESSION_TOKEN',
    'PGPASSWORD',
    'MYSQL_PWD',
    'DB_PASS',
    'GOOGLE_APPLICATION_CREDENTIALS',
    'SSH_AUTH_SOCK',
    'SENTRY_DSN',
    'SESSION_COOKIE',
    'JWT_SECRET',
    'STRIPE_APIKEY',
    'GPG_PRIVATE_KEY',
  ];
  for (const name of secrets) {
    it(`withholds ${name}`, () => expect(looksSecret(name, 'x')).toBe(true));
  }

  const ordinary = [
    'PATH',
    'HOME',
    'LANG',
    'LC_ALL',
    'TERM',
    'TZ',
    'USER',
    'SHELL',
    'TMPDIR',
    'PWD',
    'OLDPWD',
    'NODE_ENV',
    'KEYBOARD_LAYOUT',
    'MONKEY',
  ];
  for (const name of ordinary) {
    it(`keeps ${name}`, () => expect(looksSecret(name, '/usr/bin')).toBe(false));
  }

  it('withholds a URL that carries a password, whatever the name', () => {
    expect(looksSecret('DATABASE_URL', 'postgres://app:hunter2@db.internal/app')).toBe(true);
    expect(looksSecret('HOMEPAGE', 'https://example.com/a@b')).toBe(false);
  });
});

describe('scrubEnv', () => {
  it('removes secrets, keeps the rest, and lets the operator allow names back', () => {
    const env = { PATH: '/usr/bin', HOME: '/home/a', GITHUB_TOKEN: 'ghp_x', NPM_TOKEN: 'n', UNSET: undefined };
    expect(scrubEnv(env)).toEqual({
      env: { PATH: '/usr/bin', HOME: '/home/a' },
      removed: ['GITHUB_TOKEN', 'NPM_TOKEN'],
    });
    expect(scrubEnv(env, ['NPM_TOKEN']).env).toEqual({ PATH: '/usr/bin', HOME: '/home/a', NPM_TOKEN: 'n' });
  });
});
