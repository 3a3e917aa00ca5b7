/**
 * What a tool answered: its text, for the idempotency check, and
 * whether it was an error. "ok" means the tool did its work: not `isError`, not
 * an error answered as plain text (`Error: …`), and not an error object
 * (`{"success": false, …}`, `{"error": …}`, GraphQL's `errors` without data),
 * which many servers send without `isError` and which would otherwise pass for
 * an exercised call whose silence proves nothing. The error is kept whole (up to
 * a bound a report can carry): the real cause is often at its end.
 */
import { isRecord } from '../util/is-record.js';

/** At most this much answer text is kept. */
const ANSWER_LIMIT = 4096;
/** At most this much of an error is kept; past it the report says how much was left out. */
const ERROR_LIMIT = 16_384;
/** Text longer than this is not parsed as an error object (a tool's large JSON result is data). */
const PARSE_LIMIT = 1 << 20;

/** A text answer that is an error said in words: `Error: …`, `Failed to …`, `{"error": …}`. */
const ERROR_TEXT =
  /^\s*(?:(?:error|exception|failed|failure)\b\s*(?:[:!-]|to\b|while\b|executing\b|calling\b|reading\b|writing\b|\(|$)|\{\s*"(?:error|isError)"\s*:(?!\s*(?:null|false)))/i;

/** A value that says something: not null, false, 0 or ''. */
const present = (value: unknown) =>
  value !== undefined && value !== null && value !== false && value !== 0 && value !== '';

/** What an error field says, as one line of text. */
function said(value: unknown): string {
  if (typeof value === 'string') return value;
  if (isRecord(value) && typeof value.message === 'string') return value.message;
  return JSON.stringify(value) ?? String(value);
}

/**
 * Why a JSON object answer is an error, or `undefined` when it is not one: `success`/`ok`
 * false, `status: "error"` with a message, an `error` field that says something, or GraphQL's
 * `errors` with no data.
 */
export function errorObject(value: unknown): string | undefined {
  if (!isRecord(value)) return undefined;
  const message = [value.error, value.message, value.errors, value.detail].find(present);
  const because = message === undefined ? '' : `: ${said(message)}`;
  if (value.success === false || value.ok === false)
    return `answered an error object (${value.success === false ? 'success' : 'ok'}: false)${because}`;
  // `status: "failed"` is often data (a job's state); `status: "error"` beside its message is an answer's failure.
  if (typeof value.status === 'string' && value.status.toLowerCase() === 'error' && message !== undefined)
    return `answered an error object (status: "error")${because}`;
  if (present(value.error)) return `answered an error object (an error field): ${said(value.error)}`;
  if (Array.isArray(value.errors) && value.errors.length > 0 && !present(value.data))
    return `answered an error object (errors, no data): ${value.errors.map(said).join('; ')}`;
  return undefined;
}

/** A text block parsed as a JSON object, when it is one (and small enough to be an answer rather than data). */
function parsedObject(text: string): unknown {
  if (text.length > PARSE_LIMIT || !/^\s*\{/.test(text)) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** An error kept whole up to {@link ERROR_LIMIT}, and saying so past it. */
function whole(text: string): string {
  return text.length <= ERROR_LIMIT
    ? text
    : `${text.slice(0, ERROR_LIMIT)}… (${text.length - ERROR_LIMIT} more characters)`;
}

/**
 * The answer of a `tools/call`: its text, and the error when it is one.
 *
 * @example
 * ```ts
 * readAnswer({ content: [{ type: 'text', text: 'Error: no such file' }] }); // { text: 'Error: no such file', error: 'Error: no such file (answered as text, without isError)' }
 * readAnswer({ content: [{ type: 'text', text: '{"success":false,"error":"quota"}' }] }).error; // 'answered an error object (success: false): quota'
 * ```
 */
export function readAnswer(result: unknown): { text: string; error?: string } {
  const r = (typeof result === 'object' && result !== null ? result : {}) as {
    isError?: unknown;
    content?: unknown;
    structuredContent?: unknown;
  };
  const blocks = Array.isArray(r.content) ? (r.content as Array<{ type?: unknown; text?: unknown }>) : [];
  const texts = blocks.filter((b) => typeof b.text === 'string').map((b) => b.text as string);
  const structured = r.structuredContent === undefined ? '' : JSON.stringify(r.structuredContent);
  const text = [...texts, structured].filter(Boolean).join('\n').slice(0, ANSWER_LIMIT);
  const words = whole(texts.join(' ').replace(/\s+/g, ' ').trim());
  if (r.isError === true) return { text, error: words || 'the tool reported an error' };
  const object =
    errorObject(r.structuredContent) ?? (texts.length === 1 ? errorObject(parsedObject(texts[0]!)) : undefined);
  if (object !== undefined) return { text, error: whole(object) };
  // Only an answer made of text alone can be an error in words; a file's content in a resource block is not.
  if (texts.length > 0 && texts.length === blocks.length && ERROR_TEXT.test(texts[0]!)) {
    return { text, error: `${words} (answered as text, without isError)` };
  }
  return { text };
}
