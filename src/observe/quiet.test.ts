import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { asleepUntil, QuietWatch } from './quiet.js';

const sleeping = (syscall: string) => ({ state: 'S', syscall, runs: '1' });

describe('asleepUntil', () => {
  const until = 10_000;
  it('counts a wait without a deadline as asleep: epoll with -1, read, a futex without a timeout', () => {
    expect(asleepUntil(sleeping('232 0x3 0x7ffd 0x400 0xffffffff 0x0 0x0'), { arch: 'x64', until })).toBe(true);
    expect(asleepUntil(sleeping('281 0x9 0x7f49 0x400 0xffffffffffffffff 0x0'), { arch: 'x64', until })).toBe(true);
    expect(asleepUntil(sleeping('0 0x0 0x7ffd 0x10000 0x0 0x0 0x0'), { arch: 'x64', until })).toBe(true);
    expect(asleepUntil(sleeping('202 0x7e0e8b0 0x189 0x0 0x0 0x0 0x0'), { arch: 'x64', until })).toBe(true);
    expect(asleepUntil(sleeping('22 0x4 0xffff 0x400 0xffffffff 0x0'), { arch: 'arm64', until })).toBe(true);
  });

  it('counts a timer as asleep only when it began after a known time and ends past the period', () => {
    const timer = sleeping('281 0xd 0x7ffc 0x400 0x1e0f 0x0'); // 7695 ms
    expect(asleepUntil(timer, { arch: 'x64', until })).toBe(false);
    expect(asleepUntil(timer, { arch: 'x64', until, began: 9_000 })).toBe(true);
    expect(asleepUntil(timer, { arch: 'x64', until, began: 2_000 })).toBe(false);
  });

  it('does not count a sleep whose deadline it cannot read, a running or stopped thread, or an unknown arch', () => {
    expect(asleepUntil(sleeping('202 0x7e0e8b0 0x189 0x0 0x7ffd1000 0x0'), { arch: 'x64', until })).toBe(false);
    expect(asleepUntil(sleeping('230 0x1 0x0 0x7ffd 0x0'), { arch: 'x64', until })).toBe(false);
    expect(asleepUntil({ state: 'R', syscall: 'running', runs: '1' }, { arch: 'x64', until })).toBe(false);
    expect(asleepUntil({ state: 't', syscall: '257 0x1', runs: '1' }, { arch: 'x64', until })).toBe(false);
    expect(asleepUntil(sleeping('232 0x3 0x7ffd 0x400 0xffffffff'), { arch: 'mips', until })).toBe(false);
    expect(asleepUntil({ state: 'Z', syscall: '', runs: '1' }, { arch: 'x64', until })).toBe(true);
  });
});

describe('QuietWatch on real processes', () => {
  let child: ChildProcess | undefined;
  let dir: string | undefined;
  afterEach(() => {
    child?.kill('SIGKILL');
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /**
   * A node process that runs `onLine` for each line on stdin and then answers (as a server answers
   * the fence), and a watch over it once it listens.
   */
  async function start(onLine: string): Promise<{ watch: QuietWatch; send(): Promise<unknown>; file: string }> {
    dir = mkdtempSync(path.join(tmpdir(), 'candor-quiet-'));
    const file = path.join(dir, 'late.txt');
    const script = `const fs = require('node:fs'); const cp = require('node:child_process'); const file = ${JSON.stringify(file)};
process.stdin.on('data', () => { ${onLine}; process.stdout.write('done\\n'); }); process.stdout.write('ready\\n');`;
    child = spawn(process.execPath, ['-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
    await new Promise((resolve) => child!.stdout!.once('data', resolve));
    const watch = new QuietWatch(child.pid);
    const send = () => {
      const answered = new Promise((resolve) => child!.stdout!.once('data', resolve));
      child!.stdin!.write('go\n');
      return answered;
    };
    return { watch, send, file };
  }

  it('ends at once for a process with nothing to do', async () => {
    const { watch } = await start('');
    watch.read();
    expect(await watch.settle(Date.now() + 60_000)).toBe('quiet');
  });

  it('waits for a timer the process set, so the write it makes lands before the wait ends', async () => {
    const { watch, send, file } = await start("setTimeout(() => fs.writeFileSync(file, 'x'), 80);");
    watch.read();
    await send();
    expect(await watch.settle(Date.now() + 60_000)).toBe('quiet');
    expect(existsSync(file)).toBe(true);
  });

  it('waits, up to its late bound, for a timer that flushes what the request queued, and not for a later one', async () => {
    // A queue written out every 400 ms, as servers batch their history: past the 150 ms period, within the late bound.
    const soon = await start(
      "globalThis.queue ??= []; queue.push('line'); globalThis.flush ??= setInterval(() => { if (queue.length) fs.appendFileSync(file, queue.splice(0).join('\\n')); }, 400);",
    );
    soon.watch.read();
    await soon.send();
    const at = Date.now();
    expect(await soon.watch.settle(at + 150, at + 1000)).toBe('quiet');
    expect(existsSync(soon.file)).toBe(true);
    child?.kill('SIGKILL');
    const later = await start('globalThis.later ??= setTimeout(() => {}, 30_000);');
    later.watch.read();
    await later.send();
    // A second for a loaded machine to let the process go back to sleep. The late bound stays
    // short of V8's own delayed tasks (a few seconds on), which the wait would rightly hold for;
    // the timer, 30 s away, is past both.
    const now = Date.now();
    expect(await later.watch.settle(now + 1000, now + 2000)).toBe('quiet');
  });

  it('waits for a child process the call left running', async () => {
    const { watch, send, file } = await start(
      "cp.spawn('sh', ['-c', 'sleep 0.1; echo x > ' + JSON.stringify(file)], { stdio: 'ignore' });",
    );
    watch.read();
    await send();
    expect(await watch.settle(Date.now() + 60_000)).toBe('quiet');
    expect(existsSync(file)).toBe(true);
  });

  it('waits out the whole period when it cannot read the processes', async () => {
    const watch = new QuietWatch(undefined);
    expect(await watch.settle(Date.now() + 20)).toBe('time');
    expect(await new QuietWatch(process.pid, 'mips').settle(Date.now() + 20)).toBe('time');
  });
});
