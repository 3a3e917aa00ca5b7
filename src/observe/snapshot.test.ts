import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { diffSnapshots, snapshot } from './snapshot.js';

const TAG = 'Signature: 8a477f597d28d172789f06886806bc55\n';
let root: string;

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'candor-snapshot-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const at = (...parts: string[]) => path.join(root, ...parts);

describe('diffSnapshots and cache tags', () => {
  it('takes a folder made with its CACHEDIR.TAG for a cache, on the call that made it and later ones', async () => {
    const initial = await snapshot([root]);
    mkdirSync(at('.cache-of-mine'));
    writeFileSync(at('.cache-of-mine', 'CACHEDIR.TAG'), TAG);
    writeFileSync(at('.cache-of-mine', 'entry'), '1');
    const first = await snapshot([root]);
    expect(diffSnapshots(initial, first, initial)).toMatchObject({ created: [], modified: [] });
    expect(diffSnapshots(initial, first, initial).cached).toHaveLength(3);
    writeFileSync(at('.cache-of-mine', 'entry'), '2');
    expect(diffSnapshots(first, await snapshot([root]), initial)).toMatchObject({
      modified: [],
      cached: [at('.cache-of-mine', 'entry')],
    });
  });

  it('does not honour a tag dropped into a folder that existed, even an empty root, or one without the signature', async () => {
    const initial = await snapshot([root]);
    writeFileSync(at('CACHEDIR.TAG'), TAG);
    writeFileSync(at('data.txt'), 'mine');
    const first = await snapshot([root]);
    expect(diffSnapshots(initial, first, initial).created.sort()).toEqual([at('CACHEDIR.TAG'), at('data.txt')]);
    writeFileSync(at('more.txt'), 'mine too');
    expect(diffSnapshots(first, await snapshot([root]), initial).created).toEqual([at('more.txt')]);
    mkdirSync(at('fake'));
    writeFileSync(at('fake', 'CACHEDIR.TAG'), 'Signature: not the one\n');
    expect(diffSnapshots(initial, await snapshot([root]), initial).created).toContain(at('fake', 'CACHEDIR.TAG'));
  });
});
