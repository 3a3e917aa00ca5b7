/**
 * What a tool answered: its text, for the idempotency check, and
 * whether it was an error. "ok" means the tool did its work: not `isError`, and
 * not an error answered as plain text (`Error: …`, `{"error": …}`), which many
 * servers send without `isError` and which would otherwise pass for an
 * exercised call whose silence proves nothing.
 */

/** At most this much answer text is kept. */
const ANSWER_LIMIT = 4096;

/** A text answer that is an error said in words: `Error: …`, `Failed to …`, `{"error": …}`. */
const ERROR_TEXT =
  /^\s*(?:(?:error|exception|failed|failure)\b\s*(?:[:!-]|to\b|while\b|executing\b|calling\b|reading\b|writing\b|\(|$)|\{\s*"(?:error|isError)"\s*:(?!\s*(?:null|false)))/i;

/**
 * The answer of a `tools/call`: its text, and the error when it is one.
 *
 * @example
 * ```ts
 * readAnswer({ content: [{ type: 'text', text: 'Error: no such file' }] }); // { text: 'Error: no such file', error: 'Error: no such file (answered as text, without isError)' }
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
  const said = texts.join(' ').replace(/\s+/g, ' ').trim().slice(0, 200);
  if (r.isError === true) return { text, error: said || 'the tool reported an error' };
  // Only an answer made of text alone can be an error in words; a file's content in a resource block is not.
  if (texts.length > 0 && texts.length === blocks.length && ERROR_TEXT.test(texts[0]!)) {
    return { text, error: `${said} (answered as text, without isError)` };
  }
  return { text };
}
