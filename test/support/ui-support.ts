/**
 * What the `candor ui` browser tests share: the built CLI started
 * like a person starts it, and Debian's Chromium driven by playwright-core
 * (no browser download; `.ci/run` installs the `chromium` package).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { CLI, ensureBuilt, REPO } from './cli-harness.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Build dist/ (tsc) and dist/ui (esbuild) when the sources are newer. */
export function ensureUiBuilt(): void {
  ensureBuilt();
  const browserDir = path.join(REPO, 'src', 'ui', 'browser');
  const built = path.join(REPO, 'dist', 'ui', 'console.js');
  const newest = Math.max(
    ...[browserDir, path.join(REPO, 'src', 'ui', 'shared')].flatMap((dir) =>
      readdirSync(dir).map((f) => statSync(path.join(dir, f)).mtimeMs),
    ),
  );
  if (existsSync(built) && statSync(built).mtimeMs >= newest) return;
  execFileSync(
    'flock',
    [
      path.join(REPO, 'node_modules', '.candor-build.lock'),
      process.execPath,
      path.join(REPO, 'scripts', 'build-ui.mjs'),
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
}

/** A running `candor ui`. */
export interface UiProcess {
  child: ChildProcess;
  url: string;
  origin: string;
  token: string;
  output(): string;
  stop(): Promise<void>;
}

/** Start `candor ui …` and wait for the URL it prints. */
export function startUi(args: readonly string[], options: { env?: NodeJS.ProcessEnv } = {}): Promise<UiProcess> {
  const child = spawn(process.execPath, [CLI, 'ui', ...args], {
    cwd: REPO,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`candor ui printed no URL in 30 s:\n${out}`));
    }, 30_000);
    const check = () => {
      const match = /Open (http:\/\/127\.0\.0\.1:\d+)\/#token=([A-Za-z0-9_-]+)/.exec(out);
      if (!match) return;
      clearTimeout(timer);
      child.stdout!.off('data', check);
      resolve({
        child,
        url: `${match[1]}/#token=${match[2]}`,
        origin: match[1]!,
        token: match[2]!,
        output: () => out,
        stop: () =>
          new Promise((done) => {
            if (child.exitCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
            setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
          }),
      });
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`candor ui exited (${code}) before printing a URL:\n${out}`));
    });
  });
}

/** Headless Chromium from the system, nothing downloaded. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

let scratch: string | undefined;

/**
 * Where a README screenshot goes: `docs/<name>` when it is missing or
 * CANDOR_UPDATE_SCREENSHOTS=1, else a scratch folder, so every test run still
 * takes (and checks) the screenshot without rewriting the committed image.
 */
export function screenshotPath(name: string): string {
  const committed = path.join(REPO, 'docs', name);
  if (process.env.CANDOR_UPDATE_SCREENSHOTS === '1' || !existsSync(committed)) return committed;
  scratch ??= mkdtempSync(path.join(tmpdir(), 'candor-ui-shots-'));
  return path.join(scratch, name);
}

/** A `candor ui` and a Chromium page on it, ready; `close()` stops both. */
export interface OpenConsole {
  ui: UiProcess;
  browser: Browser;
  page: import('playwright-core').Page;
  close(): Promise<void>;
}

/**
 * Start `candor ui …` and open its console in headless Chromium, waiting until the page is ready.
 *
 * @example
 * ```ts
 * const { page, close } = await openConsole(['--config', config, '--lock', lock]);
 * ```
 */
export async function openConsole(args: readonly string[]): Promise<OpenConsole> {
  const [ui, browser] = await Promise.all([startUi(args), launchChromium()]);
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.goto(ui.url);
  await page.waitForSelector('body[data-ready="true"]');
  return {
    ui,
    browser,
    page,
    close: async () => {
      await browser.close();
      await ui.stop();
    },
  };
}
