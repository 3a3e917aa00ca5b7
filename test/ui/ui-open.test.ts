/**
 * `candor ui --open`: on Linux it hands the console's URL, token
 * included, to `xdg-open`; where there is no opener it says so and serves on.
 * The opener here is a script first on PATH that records what it was given.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureUiBuilt, startUi } from '../support/ui-support.js';

let dir: string;

beforeAll(() => {
  ensureUiBuilt();
  dir = mkdtempSync(path.join(tmpdir(), 'candor-ui-open-'));
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('candor ui --open', () => {
  it.skipIf(process.platform !== 'linux')('gives xdg-open exactly the URL it printed', async () => {
    const bin = path.join(dir, 'bin');
    const record = path.join(dir, 'opened.txt');
    mkdirSync(bin);
    writeFileSync(path.join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s\\n' "$@" > '${record}'\n`);
    chmodSync(path.join(bin, 'xdg-open'), 0o755);
    const ui = await startUi(['--example', 'notes-app', '--open'], {
      env: { PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` },
    });
    try {
      await expect.poll(() => existsSync(record), { timeout: 10_000 }).toBe(true);
      expect(readFileSync(record, 'utf8')).toBe(`${ui.url}\n`);
    } finally {
      await ui.stop();
    }
  });

  it.skipIf(process.platform !== 'linux')(
    'says it could not open a browser when there is none, and serves on',
    async () => {
      const empty = path.join(dir, 'empty');
      mkdirSync(empty);
      const ui = await startUi(['--example', 'notes-app', '--open'], { env: { PATH: empty } });
      try {
        await expect.poll(() => ui.output(), { timeout: 10_000 }).toContain('could not open a browser');
        const answer = await fetch(`${ui.origin}/api/state`, { headers: { 'X-Candor-Token': ui.token } });
        expect(answer.status).toBe(200);
      } finally {
        await ui.stop();
      }
    },
  );
});
