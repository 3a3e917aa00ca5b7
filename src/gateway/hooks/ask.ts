/**
 * One question to a hook: the document POSTed as JSON, the answer read under a size
 * limit and checked, all within the timeout (which aborts the request rather than
 * leaving it running). Redirects are refused: the checked URL is the only place the
 * document goes.
 */
import type { CallToolResult } from '../../tool/types.js';
import { isRecord } from '../../util/is-record.js';
import type { HookAnswer, HookDocument } from './types.js';

// A replaced result travels in the answer; this is room for a large one, and the limit
// keeps a misbehaving hook from filling the gateway's memory.
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

/** Why a hook gave no usable answer (never the document or the answer's text). */
export interface HookUnanswered {
  failed: string;
}

async function readCapped(response: Response): Promise<string | HookUnanswered> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      await reader.cancel();
      return { failed: `its answer is over ${MAX_ANSWER_BYTES} bytes` };
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The answer if it is one of the three forms, else why not. A deny is a deny however it
 * is dressed (no reason, an HTTP error status): a hook that says no is never "failed",
 * so hooks that fail open cannot turn it into a yes.
 */
function answerOf(value: unknown): HookAnswer | HookUnanswered {
  if (!isRecord(value)) return { failed: 'its answer is not a JSON object' };
  if (value.decision === 'allow') return { decision: 'allow' };
  if (isDeny(value)) {
    const reason = typeof value.reason === 'string' && value.reason.trim() !== '' ? value.reason : 'no reason given';
    return { decision: 'deny', reason };
  }
  if (value.decision === 'replace') {
    if (!isRecord(value.result) || !Array.isArray(value.result.content))
      return { failed: 'it answered "replace" without a "result" holding a "content" array' };
    return { decision: 'replace', result: value.result as unknown as CallToolResult };
  }
  return { failed: 'its "decision" is not "allow", "deny" or "replace"' };
}

function isDeny(value: Record<string, unknown>): boolean {
  return typeof value.decision === 'string' && value.decision.trim().toLowerCase() === 'deny';
}

/**
 * Ask a hook; resolves to its answer, or to why there is none.
 *
 * @example
 * ```ts
 * const answer = await askHook('http://127.0.0.1:8787/before', document, { timeoutMs: 2000 });
 * if ('failed' in answer) console.error(`the hook failed: ${answer.failed}`);
 * ```
 */
export async function askHook(
  url: string,
  document: HookDocument,
  options: { timeoutMs: number },
): Promise<HookAnswer | HookUnanswered> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  const late = { failed: `it did not answer within ${options.timeoutMs} ms` };
  try {
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(document),
        redirect: 'error',
        signal: controller.signal,
      });
    } catch (error) {
      if (controller.signal.aborted) return late;
      const cause = (error as Error).cause as { code?: string } | undefined;
      return { failed: `it could not be reached (${cause?.code ?? (error as Error).message})` };
    }
    let text: string | HookUnanswered;
    try {
      text = await readCapped(response);
    } catch {
      return controller.signal.aborted ? late : { failed: 'its answer could not be read' };
    }
    if (typeof text !== 'string') return text;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return { failed: response.ok ? 'its answer is not JSON' : `it answered HTTP ${response.status}` };
    }
    // An error status holds no answer, unless what it says is a deny (obeyed whatever the status).
    if (!response.ok)
      return isRecord(parsed) && isDeny(parsed) ? answerOf(parsed) : { failed: `it answered HTTP ${response.status}` };
    return answerOf(parsed);
  } finally {
    clearTimeout(timer);
  }
}
