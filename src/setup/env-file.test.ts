import { describe, expect, it } from 'vitest';
import { parseEnvFile } from './env-file.js';

describe('an env file as VS Code loads it', () => {
  it('reads NAME=value lines, export, quotes and comments', () => {
    const text = '# keys\nAPI_KEY="a b#c"\nexport DEBUG=1 # on\n\nSINGLE=\'x=y\'\n=nameless\nbad name=1\nEMPTY=\r\n';
    expect(parseEnvFile(text)).toEqual({ API_KEY: 'a b#c', DEBUG: '1', SINGLE: 'x=y', EMPTY: '' });
  });

  it('reads a large file of one kind of line in one pass', () => {
    const lines = 200_000;
    const parsed = parseEnvFile(`${'K=" #"\n'.repeat(lines)}${'='.repeat(100_000)}\n${'#'.repeat(100_000)}`);
    expect(parsed).toEqual({ K: ' #' });
  });
});
