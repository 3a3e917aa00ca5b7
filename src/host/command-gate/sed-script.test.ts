import { describe, expect, it } from 'vitest';
import { unsafeSedScript } from './sed-script.js';

describe('unsafeSedScript', () => {
  const safe = [
    'p',
    '1,10p',
    's/a/b/g',
    's|/usr|/opt|2',
    '/^#/d',
    '$!N;P;D',
    'y/abc/xyz/',
    '/start/,/end/{s/x/y/;p}',
    'r other.txt',
    '10q',
    's/hello/world/I',
  ];
  for (const script of safe) {
    it(`finds nothing unsafe in ${JSON.stringify(script)}`, () => {
      expect(unsafeSedScript(script)).toBeUndefined();
    });
  }
  const unsafe: Array<[string, string]> = [
    ['w out.txt', 'writes a file'],
    ['1W out.txt', 'writes a file'],
    ['s/a/b/w out.txt', '"w" flag'],
    ['s/a/b/e', '"e" flag'],
    ['e rm -rf ~', 'runs a shell command'],
    ['p;w x', 'writes a file'],
    ['s/a/b', 'malformed'],
    ['k', 'does not know'],
  ];
  for (const [script, reason] of unsafe) {
    it(`finds ${JSON.stringify(script)} unsafe (${reason})`, () => {
      expect(unsafeSedScript(script)).toContain(reason);
    });
  }
});
