import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readApprovals } from './approvals-file.js';
import { Confirmations } from './confirmations.js';

const dir = mkdtempSync(path.join(tmpdir(), 'candor-approvals-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('approvals file', () => {
  it('keeps allow-always across restarts, keyed by the pin hash, so a changed tool asks again', async () => {
    const file = path.join(dir, 'candor.approvals.json');
    const first = new Confirmations({ approved: await readApprovals(file), file });
    first.remember({ name: 'memory__read_graph', hash: 'sha256:one' });
    await first.saved();
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      approvalsVersion: 1,
      approvals: { memory__read_graph: ['sha256:one'] },
    });
    const second = new Confirmations({ approved: await readApprovals(file), file });
    expect(second.remembered({ name: 'memory__read_graph', hash: 'sha256:one' })).toBe(true);
    expect(second.remembered({ name: 'memory__read_graph', hash: 'sha256:two' })).toBe(false);
    second.forget('memory__read_graph');
    await second.saved();
    expect(JSON.parse(readFileSync(file, 'utf8')).approvals).toEqual({});
  });

  it('starts empty without a file and refuses a broken one with a clear error', async () => {
    expect((await readApprovals(path.join(dir, 'absent.json'))).size).toBe(0);
    const broken = path.join(dir, 'broken.json');
    writeFileSync(broken, '{"approvalsVersion": 1, "approvals": ');
    await expect(readApprovals(broken)).rejects.toThrow(/not valid JSON/);
    writeFileSync(broken, '{"approvalsVersion": 2, "approvals": {}}');
    await expect(readApprovals(broken)).rejects.toThrow(/must look like/);
  });
});
