import { describe, expect, test } from 'vitest';
import { loadSandboxEngine, runScript } from './sandbox.js';
import { HaltScript, ScriptError } from './script-error.js';

/** A host whose one tool echoes its arguments, counting calls. */
function echoHost() {
  const calls: Array<{ name: string; args: unknown }> = [];
  return {
    calls,
    call: async (name: string, args: unknown) => {
      calls.push({ name, args });
      return { name, args };
    },
  };
}

async function failure(code: string, limits = {}): Promise<ScriptError> {
  const host = echoHost();
  const error = await runScript({ code, names: ['echo'], call: host.call, limits }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ScriptError);
  return error as ScriptError;
}

const engineAtStart = await loadSandboxEngine();

describe('runScript', () => {
  test('a script calls a tool, gets JSON back, logs, and returns a JSON value', async () => {
    const host = echoHost();
    const out = await runScript({
      code: 'const r = await tools.echo({ q: 1 }); console.log("got", r.name); return { r, n: [1, 2] };',
      names: ['echo'],
      call: host.call,
    });
    expect(JSON.parse(out.json!)).toEqual({ r: { name: 'echo', args: { q: 1 } }, n: [1, 2] });
    expect(out.logs).toEqual(['got echo']);
    expect(host.calls).toEqual([{ name: 'echo', args: { q: 1 } }]);
  });

  test('a tool error rejects that call only; the script may catch it', async () => {
    const out = await runScript({
      code: 'try { await tools.echo({}); } catch (e) { return e.name + ": " + e.message; }',
      names: ['echo'],
      call: async () => {
        throw new Error('no such note');
      },
    });
    expect(out.json).toBe('"ToolCallError: no such note"');
  });

  test('a halting error ends the whole run even when the script catches', async () => {
    const stop = new ScriptError('stopped', 'denied');
    const error = await runScript({
      code: 'try { await tools.echo({}); } catch { return "caught"; }',
      names: ['echo'],
      call: async () => {
        throw new HaltScript(stop);
      },
    }).catch((e: unknown) => e);
    expect(error).toBe(stop);
  });

  test('a throw names the script line', async () => {
    const error = await failure('const a = 1;\nconst b = 2;\nthrow new TypeError("bad " + a);');
    expect(error.kind).toBe('threw');
    expect(error.line).toBe(3);
    expect(error.message).toBe('TypeError: bad 1 (script line 3)');
  });

  test('a syntax error is reported before anything runs', async () => {
    const host = echoHost();
    const error = await runScript({ code: 'await tools.echo({});\nlet x = ;', names: ['echo'], call: host.call }).catch(
      (e: ScriptError) => e,
    );
    expect((error as ScriptError).kind).toBe('syntax');
    expect((error as ScriptError).line).toBe(2);
    expect(host.calls).toEqual([]);
  });
});

describe('escapes and exhaustion fail safely', () => {
  test('no ambient authority: process, require, fetch, timers, the Function constructor reach nothing', async () => {
    const out = await runScript({
      code: `return [
        typeof process, typeof require, typeof fetch, typeof setTimeout, typeof WebAssembly, typeof import.meta,
        constructor.constructor('return typeof process')(),
        tools.echo.constructor('return typeof globalThis.process')(),
        Object.getPrototypeOf(tools.echo).constructor === Function,
      ];`,
      names: ['echo'],
      call: echoHost().call,
    }).catch((e: ScriptError) => e);
    // import.meta is a syntax error outside a module: the whole script is refused.
    expect((out as ScriptError).kind).toBe('syntax');
    const plain = await runScript({
      code: `return [typeof process, typeof require, typeof fetch, typeof setTimeout, typeof WebAssembly,
        constructor.constructor('return typeof process')(),
        tools.echo.constructor('return typeof globalThis.process')(),
        Object.getPrototypeOf(tools.echo).constructor === Function];`,
      names: ['echo'],
      call: echoHost().call,
    });
    expect(JSON.parse(plain.json!)).toEqual([
      'undefined',
      'undefined',
      'undefined',
      'undefined',
      'undefined',
      'undefined',
      'undefined',
      true,
    ]);
  });

  test('polluting prototypes and the API objects stays inside the script; the host gets only names and JSON', async () => {
    const host = echoHost();
    const out = await runScript({
      code: `
        Object.prototype.polluted = 'yes';
        JSON.stringify = () => '{"evil":true}';
        try { tools.echo = () => 'replaced'; } catch {}
        try { tools.other = () => 1; } catch {}
        const r = await tools.echo({ a: 1 });
        return [typeof tools.other, r.args.a];`,
      names: ['echo'],
      call: host.call,
    });
    expect(JSON.parse(out.json!.replace('{"evil":true}', 'null'))).toBeDefined();
    expect(host.calls).toEqual([{ name: 'echo', args: { a: 1 } }]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test('an unbounded loop stops at the CPU limit', async () => {
    expect((await failure('while (true) {}', { cpuMs: 100 })).kind).toBe('cpu');
  });

  test('an unbounded loop after a tool call stops too', async () => {
    expect((await failure('await tools.echo({}); for (;;) {}', { cpuMs: 100 })).kind).toBe('cpu');
  });

  test('an unbounded allocation stops at the memory limit', async () => {
    expect((await failure('return "x".repeat(1e8).length', { memoryBytes: 8 * 1024 * 1024 })).kind).toBe('memory');
    expect(
      (
        await failure('const a = []; for (;;) a.push({ a: [1, 2, 3] });', {
          memoryBytes: 8 * 1024 * 1024,
          cpuMs: 10_000,
        })
      ).kind,
    ).toBe('memory');
  });

  test('unbounded recursion stops at the stack limit', async () => {
    expect((await failure('function f() { return f() + 1; } return f();')).kind).toBe('memory');
  });

  test('huge outputs stop at the output limit: a returned value and console lines', async () => {
    expect((await failure('return "x".repeat(100000);', { outputBytes: 1024 })).kind).toBe('output');
    expect((await failure('for (;;) console.log("line");', { outputBytes: 1024 })).kind).toBe('output');
  });

  test('a promise flood of tool calls stops at the call limit', async () => {
    const host = echoHost();
    const out = await runScript({
      code: `const all = await Promise.allSettled(Array.from({ length: 500 }, () => tools.echo({})));
        return all.filter((r) => r.status === 'rejected').length;`,
      names: ['echo'],
      call: host.call,
      limits: { maxCalls: 20 },
    });
    expect(out.json).toBe('480');
    expect(host.calls).toHaveLength(20);
  });

  test('a flood of promises without tool calls stops at a limit', async () => {
    const error = await failure('let p = Promise.resolve(); for (;;) p = p.then(() => 1);', {
      cpuMs: 200,
      memoryBytes: 8 * 1024 * 1024,
    });
    expect(['cpu', 'memory']).toContain(error.kind);
  });

  test('memory exhausted so far that not even an error can be made is reported as memory, not as a thrown null', async () => {
    // With time to spare the flood reaches the memory limit, where QuickJS throws null.
    const error = await failure('let p = Promise.resolve(); for (;;) p = p.then(() => 1);', {
      cpuMs: 60_000,
      deadlineMs: 120_000,
      memoryBytes: 8 * 1024 * 1024,
    });
    expect(error.kind).toBe('memory');
    expect(error.message).toMatch(/out of memory.*throws null itself/);
    expect((await failure('throw null;')).kind).toBe('memory');
  });

  test('re-entrancy: a tool call made while another is in flight reaches the host one by one, by name only', async () => {
    let inFlight = 0;
    let most = 0;
    const out = await runScript({
      code: `const r = await Promise.all([tools.echo({ i: 1 }), tools.echo({ i: 2 }), tools.echo({ i: 3 })]);
        return r.map((x) => x.args.i);`,
      names: ['echo'],
      call: async (_name, args) => {
        inFlight++;
        most = Math.max(most, inFlight);
        await Promise.resolve();
        inFlight--;
        return { args };
      },
    });
    expect(out.json).toBe('[1,2,3]');
    expect(most).toBeGreaterThanOrEqual(1);
  });

  test('a script awaiting what never settles ends at once instead of hanging', async () => {
    expect((await failure('await new Promise(() => {});')).kind).toBe('stalled');
  });

  test('the deadline ends a script whose tool call never answers', async () => {
    const error = await runScript({
      code: 'await tools.echo({});',
      names: ['echo'],
      call: () => new Promise(() => {}),
      limits: { deadlineMs: 50 },
    }).catch((e: ScriptError) => e);
    expect((error as ScriptError).kind).toBe('deadline');
  });

  test('a cancelled request ends the run', async () => {
    const controller = new AbortController();
    const running = runScript({
      code: 'await tools.echo({});',
      names: ['echo'],
      call: () => {
        controller.abort();
        return new Promise(() => {});
      },
      signal: controller.signal,
    });
    expect(((await running.catch((e: ScriptError) => e)) as ScriptError).kind).toBe('stopped');
  });

  test('every failure above freed its runtime cleanly: the engine was never reloaded', async () => {
    expect(await loadSandboxEngine()).toBe(engineAtStart);
  });

  test('runs are isolated: a global set by one run is absent in the next', async () => {
    await runScript({ code: 'globalThis.leak = 1;', names: [], call: echoHost().call });
    const out = await runScript({ code: 'return typeof leak;', names: [], call: echoHost().call });
    expect(out.json).toBe('"undefined"');
  });
});
