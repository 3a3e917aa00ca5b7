/**
 * Setup's look at each server before the gateway takes it over: start it, list its
 * tools, run lint and the scan at the door over them. A server that cannot start is
 * kept (it stays quarantined) and the reason is reported.
 */
import { scanAtTheDoor } from '../host/door-scan.js';
import { lint } from '../lint/lint.js';
import { entryToTarget } from '../targets/config-file.js';
import { connectTarget } from '../targets/connect.js';
import { listAllTools } from '../targets/list.js';
import type { WireToolLike } from '../tool/annotations.js';
import type { ServerEntry } from './types.js';

/** What setup learned about one server. */
export interface ServerReview {
  server: string;
  /** Its tools, when it started. */
  tools?: WireToolLike[];
  /** Why it did not start. */
  failed?: string;
  /** Lint findings by severity. */
  lint: { error: number; warning: number; info: number };
  /** Tools the scan at the door keeps out, with the rules. */
  blocked: Array<{ tool: string; rules: string[] }>;
}

/**
 * Start one server as the gateway would, and review its tools.
 *
 * @example
 * ```ts
 * const review = await reviewServer('memory', { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] }, { file: 'mcp.json' });
 * ```
 */
export async function reviewServer(
  server: string,
  entry: ServerEntry,
  options: {
    file: string;
    timeoutMs?: number;
    /** The tools of the servers pinned already, by server: the door checks the newcomer against them. */
    otherServers?: ReadonlyMap<string, readonly string[]>;
  },
): Promise<ServerReview> {
  const review: ServerReview = { server, lint: { error: 0, warning: 0, info: 0 }, blocked: [] };
  const target = entryToTarget(server, entry, options.file);
  try {
    const connection = await connectTarget(target, { timeoutMs: options.timeoutMs ?? 30_000, stderrLines: 5 });
    try {
      const listed = await listAllTools(connection.client, { timeoutMs: options.timeoutMs ?? 30_000 });
      review.tools = listed.filter(
        (tool): tool is WireToolLike =>
          typeof tool === 'object' && tool !== null && typeof (tool as { name?: unknown }).name === 'string',
      );
    } finally {
      await connection.close();
    }
  } catch (error) {
    review.failed = (error as Error).message.split('\n')[0] ?? String(error);
    return review;
  }
  for (const finding of lint(review.tools).findings) review.lint[finding.severity] += 1;
  const scan = scanAtTheDoor(review.tools, options.otherServers ? { otherServers: options.otherServers } : {});
  for (const [tool, findings] of scan.findings) {
    const blocking = scan.blocking(tool);
    if (blocking.length > 0 && findings.length > 0) review.blocked.push({ tool, rules: blocking.map((f) => f.ruleId) });
  }
  return review;
}
