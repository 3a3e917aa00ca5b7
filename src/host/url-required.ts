/**
 * A 2025-11-25 server may refuse a call with URLElicitationRequiredError
 * (-32042): the person must first open one or more URLs (a sign-in, a consent).
 * The client's own URL-mode elicitation handler shows them (input-answerers.ts);
 * when every one was accepted the call is worth one more try.
 */
import { type Client, ProtocolError } from '@modelcontextprotocol/client';
import { answererOf } from './input-answerers.js';

/** The spec's URLElicitationRequiredError code (2025-11-25). */
export const URL_ELICITATION_REQUIRED = -32042;
/** More URLs than this in one refusal is not a sign-in flow: they are not shown. */
const MAX_URLS = 4;

/**
 * Show the URLs a -32042 refusal names through the client's elicitation handler; true when
 * every one was accepted (opened), false when the error is another one or anything was declined.
 *
 * @example
 * ```ts
 * if (await openedUrlsFor(client, error)) return retry();
 * ```
 */
export async function openedUrlsFor(client: Client, error: unknown): Promise<boolean> {
  if (!(error instanceof ProtocolError) || error.code !== URL_ELICITATION_REQUIRED) return false;
  const listed = (error.data as { elicitations?: unknown } | undefined)?.elicitations;
  if (!Array.isArray(listed) || listed.length === 0 || listed.length > MAX_URLS) return false;
  const ask = answererOf(client, 'elicitation/create');
  if (!ask) return false;
  for (const params of listed) {
    if (typeof params !== 'object' || params === null || (params as { mode?: unknown }).mode !== 'url') return false;
    const answer = (await ask({ method: 'elicitation/create', params })) as { action?: unknown } | undefined;
    if (answer?.action !== 'accept') return false;
  }
  return true;
}
