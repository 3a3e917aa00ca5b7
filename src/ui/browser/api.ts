import { CandorError } from '../../errors.js';

/** Talking to the console's Node side: the token from the URL fragment on every request. */

const token = new URLSearchParams(location.hash.slice(1)).get('token') ?? '';

/** The per-launch token (empty when the page was opened without it). */
export function apiToken(): string {
  return token;
}

/** A refusal or failure the API reported. */
export class ApiFailure extends CandorError {
  override readonly name = 'ApiFailure';
  readonly status: number;
  constructor(status: number, message: string) {
    super(message, { code: 'console_request_failed' });
    this.status = status;
  }
}

async function parse<T>(response: Response): Promise<T> {
  const body = (await response.json().catch(() => ({ error: `HTTP ${response.status}` }))) as { error?: string };
  if (!response.ok) throw new ApiFailure(response.status, body.error ?? `HTTP ${response.status}`);
  return body as T;
}

/** GET a JSON API path. */
export async function getJson<T>(path: string): Promise<T> {
  return parse<T>(await fetch(path, { headers: { 'X-Candor-Token': token } }));
}

/** POST JSON to an API path. */
export async function postJson<T>(path: string, body: unknown): Promise<T> {
  return parse<T>(
    await fetch(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Candor-Token': token },
      body: JSON.stringify(body),
    }),
  );
}

/** The console's event stream (EventSource cannot send headers, so the token goes in the query). */
export function events(): EventSource {
  return new EventSource(`/api/events?token=${encodeURIComponent(token)}`);
}
