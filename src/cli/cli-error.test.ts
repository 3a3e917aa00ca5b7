import { describe, expect, it } from 'vitest';
import { CandorError } from '../errors.js';
import { CliError, reportError } from './cli-error.js';

function printed(error: unknown, debug = false): { text: string; code: number } {
  let text = '';
  const code = reportError(error, { debug, write: (t) => (text += t) });
  return { text, code };
}

const HINT = '(run with --debug for the stack trace)';

describe('the --debug hint', () => {
  it('is offered for an error nobody meant to throw', () => {
    const { text, code } = printed(new TypeError("Cannot read properties of undefined (reading 'tools')"));
    expect(text).toBe(`candor: Cannot read properties of undefined (reading 'tools')\n${HINT}\n`);
    expect(code).toBe(1);
  });

  it("is not offered for candor's own errors, which say what to fix", () => {
    expect(
      printed(new CandorError('/x/candor.gateway.json: polcy: unknown key.', { code: 'invalid_gateway_config' })).text,
    ).toBe('candor: /x/candor.gateway.json: polcy: unknown key.\n');
    expect(printed(new CliError('Unknown tool "raed_file".', { exitCode: 2 }))).toEqual({
      text: 'candor: Unknown tool "raed_file".\n',
      code: 2,
    });
  });

  it("is not offered for the system's errors, which name the file and the call", () => {
    const error = Object.assign(new Error("EACCES: permission denied, open '/etc/shadow'"), {
      code: 'EACCES',
      syscall: 'open',
    });
    expect(printed(error).text).toBe("candor: EACCES: permission denied, open '/etc/shadow'\n");
  });

  it('gives the stack with --debug, for every kind', () => {
    for (const error of [new TypeError('boom'), new CandorError('bad', { code: 'usage' })]) {
      const { text } = printed(error, true);
      expect(text).toMatch(/\n\s+at /);
      expect(text).not.toContain(HINT);
    }
  });
});
