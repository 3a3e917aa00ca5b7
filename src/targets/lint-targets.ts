/**
 * Linting several servers: connect (or import) each target, list its tools and
 * resources, lint, close. Servers run concurrently up to a cap; a server that fails to
 * start is reported as failed, never skipped.
 */

import { lint } from '../lint/lint.js';
import type { LintOptions, LintResult } from '../lint/types.js';
import { connectTarget } from './connect.js';
import { listAllResources, listAllTools } from './list.js';
import { loadModuleTarget } from './module.js';
import type { Target } from './types.js';

/** The outcome for one server. */
export type ServerReport =
  | { label: string; target: Target; status: 'ok'; result: LintResult; durationMs: number }
  | { label: string; target: Target; status: 'failed'; error: string; errorCode?: string; durationMs: number };

/** Progress events, for a display. */
export type LintProgress =
  | { type: 'start'; label: string; index: number; total: number }
  | { type: 'done'; report: ServerReport; index: number; total: number; finished: number };

export interface LintTargetsOptions {
  /** Rules, profile and ignores (the resources are read from each server). */
  lint?: Omit<LintOptions, 'resources' | 'resourceTemplates' | 'server'>;
  /** How many servers to check at once (default 4). */
  concurrency?: number;
  /** Handshake and per-request timeout in milliseconds (default 30 s). */
  timeoutMs?: number;
  /** The protocol era to speak (default `auto`: 2026-07-28 where the server offers it). */
  era?: 'legacy' | 'modern' | 'auto';
  onProgress?: (event: LintProgress) => void;
}

/**
 * Lint every target; reports come back in target order whatever order they finish in.
 *
 * @example
 * ```ts
 * const targets = await parseTargets({ config: 'claude_desktop_config.json' });
 * const reports = await lintTargets(targets, { concurrency: 4 });
 * reports.filter((r) => r.status === 'failed').map((r) => r.label);
 * ```
 */
export async function lintTargets(
  targets: readonly Target[],
  options: LintTargetsOptions = {},
): Promise<ServerReport[]> {
  const { concurrency = 4, timeoutMs = 30_000, onProgress } = options;
  const cap = Math.max(1, Math.floor(concurrency));
  const reports: ServerReport[] = new Array(targets.length);
  let next = 0;
  let finished = 0;
  const worker = async (): Promise<void> => {
    while (next < targets.length) {
      const index = next++;
      const target = targets[index]!;
      onProgress?.({ type: 'start', label: target.label, index, total: targets.length });
      const report = await lintOne(target, { ...options, timeoutMs });
      reports[index] = report;
      finished++;
      onProgress?.({ type: 'done', report, index, total: targets.length, finished });
    }
  };
  await Promise.all(Array.from({ length: Math.min(cap, targets.length) }, worker));
  return reports;
}

async function lintOne(target: Target, options: LintTargetsOptions & { timeoutMs: number }): Promise<ServerReport> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const lintOptions: LintOptions = { ...options.lint, server: target.label };
  try {
    if (target.kind === 'module') {
      const manifest = await loadModuleTarget(target);
      const result = lint(manifest.tools, {
        ...lintOptions,
        ...(manifest.resources ? { resources: manifest.resources } : {}),
        ...(manifest.resourceTemplates ? { resourceTemplates: manifest.resourceTemplates } : {}),
      });
      return { label: target.label, target, status: 'ok', result, durationMs: elapsed() };
    }
    const conn = await connectTarget(target, {
      timeoutMs: options.timeoutMs,
      clientInfo: { name: 'candor-lint', version: '0' },
      ...(options.era ? { era: options.era } : {}),
    });
    try {
      const tools = await listAllTools(conn.client, { timeoutMs: options.timeoutMs });
      const { resources, resourceTemplates } = await listAllResources(conn.client, {
        timeoutMs: options.timeoutMs,
      }).catch(() => ({ resources: undefined, resourceTemplates: undefined }));
      const result = lint(tools, {
        ...lintOptions,
        ...(resources ? { resources } : {}),
        ...(resourceTemplates ? { resourceTemplates } : {}),
      });
      return { label: target.label, target, status: 'ok', result, durationMs: elapsed() };
    } finally {
      await conn.close();
    }
  } catch (error) {
    const err = error as { message?: unknown; code?: unknown };
    return {
      label: target.label,
      target,
      status: 'failed',
      error: typeof err?.message === 'string' ? err.message : String(error),
      ...(typeof err?.code === 'string' ? { errorCode: err.code } : {}),
      durationMs: elapsed(),
    };
  }
}
