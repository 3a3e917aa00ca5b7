/**
 * Can this machine sandbox? Linux, bubblewrap, user namespaces. Asked
 * once per process and remembered; the answer is a clear error naming what is
 * missing, never a silent run without the sandbox.
 */
import { execFileSync } from 'node:child_process';
import { CandorError, type CandorErrorCode } from '../errors.js';
import { bwrapArgs } from './bwrap.js';

/** What a caller needs beside bubblewrap (observe needs strace), and how it is named in errors. */
export interface PlatformNeeds {
  /** Who asks, for the messages: "candor observe". */
  who: string;
  /** Error code of the thrown CandorError. */
  code: CandorErrorCode;
  /** Extra programs: [program, Debian package]. */
  tools?: ReadonlyArray<readonly [string, string]>;
  /** The program the namespace check runs (default `true`). */
  probe?: readonly string[];
  /** What the machine lacks when the probe fails (default: user namespaces). */
  probeHint?: string;
}

const known = new Map<string, CandorError | null>();

/**
 * Throw a CandorError saying what is missing when this machine cannot run the sandbox.
 *
 * @example
 * ```ts
 * checkSandboxPlatform({ who: 'candor gateway', code: 'sandbox_unsupported' });
 * ```
 */
export function checkSandboxPlatform(needs: PlatformNeeds): void {
  const key = JSON.stringify(needs);
  if (!known.has(key)) known.set(key, probe(needs));
  const error = known.get(key);
  if (error) throw error;
}

function probe(needs: PlatformNeeds): CandorError | null {
  const { who, code } = needs;
  if (process.platform !== 'linux') {
    return new CandorError(
      `${who} needs Linux for its sandbox (bubblewrap namespaces); this is ${process.platform}. Run it in a Linux VM or CI.`,
      { code },
    );
  }
  for (const [tool, pkg] of [['bwrap', 'bubblewrap'] as const, ...(needs.tools ?? [])]) {
    try {
      execFileSync(tool, ['--version'], { stdio: 'ignore' });
    } catch {
      return new CandorError(
        `${who} needs ${tool} for its sandbox: install it (Debian/Ubuntu: apt-get install ${pkg}).`,
        {
          code,
        },
      );
    }
  }
  const [command = 'true', ...args] = needs.probe ?? ['true'];
  try {
    execFileSync('bwrap', bwrapArgs({ network: 'loopback', command, args }), { stdio: 'ignore', timeout: 10_000 });
  } catch {
    return new CandorError(
      `${who} cannot start a sandbox here: ${needs.probeHint ?? 'bubblewrap needs user namespaces (containers often forbid them)'}. Nothing was run.`,
      { code },
    );
  }
  return null;
}
