/**
 * The redirect end of a browser sign-in (RFC 8252 §7.3): a one-shot HTTP listener on
 * 127.0.0.1 (never `localhost`, never a public interface) at a free port, waiting for
 * `/callback?code=…&state=…[&iss=…]`. The `state` is checked before anything else is
 * read; an `error=` answer becomes a clear refusal; nothing arriving within the timeout
 * (5 minutes by default) ends the wait.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CandorError } from '../../errors.js';

/** What the authorization server sent back. */
export interface AuthorizationResponse {
  code: string;
  /** RFC 9207's issuer identifier, when the server sends one. */
  iss?: string;
}

/** The small page a browser lands on after a sign-in; `text` may come from an authorization server, so it is escaped. */
export function signInPage(title: string, text: string): string {
  return `<!doctype html><meta charset="utf-8"><title>${escapeHtml(title)}</title><body style="font:16px system-ui;margin:3em"><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p></body>`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * A listening loopback redirect endpoint.
 *
 * @example
 * ```ts
 * const redirect = await LoopbackRedirect.listen();
 * // … send the person to the authorization URL with redirect_uri = redirect.url …
 * const { code, iss } = await redirect.wait(expectedState, 300_000);
 * ```
 */
export class LoopbackRedirect {
  readonly #server: Server;
  readonly url: string;
  #expectedState: string | undefined;
  #settle: ((result: AuthorizationResponse | Error) => void) | undefined;
  #early: AuthorizationResponse | Error | undefined;

  private constructor(server: Server, port: number) {
    this.#server = server;
    this.url = `http://127.0.0.1:${port}/callback`;
  }

  /**
   * Listen on 127.0.0.1: on `port` when given and free (a client registered with that
   * redirect URI keeps working), else on a free port.
   */
  static async listen(port = 0): Promise<LoopbackRedirect> {
    const server = createServer();
    const bound = await new Promise<number>((resolve, reject) => {
      const tryPort = (p: number) => {
        server.once('error', (error: NodeJS.ErrnoException) => {
          if (p !== 0 && error.code === 'EADDRINUSE') tryPort(0);
          else reject(error);
        });
        server.listen(p, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
      };
      tryPort(port);
    });
    const redirect = new LoopbackRedirect(server, bound);
    server.on('request', (req, res) => redirect.#handle(req, res));
    return redirect;
  }

  /** The port the listener is bound to. */
  get port(): number {
    return Number(new URL(this.url).port);
  }

  /** Wait for the browser to come back with `state`; rejects on a mismatch, an error answer or the timeout. */
  wait(expectedState: string, timeoutMs: number): Promise<AuthorizationResponse> {
    this.#expectedState = expectedState;
    return new Promise<AuthorizationResponse>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#settle = undefined;
        reject(
          new CandorError(`No answer from the browser sign-in within ${Math.round(timeoutMs / 1000)} s; gave up.`, {
            code: 'auth_timeout',
          }),
        );
      }, timeoutMs);
      this.#settle = (result) => {
        clearTimeout(timer);
        this.#settle = undefined;
        if (result instanceof Error) reject(result);
        else resolve(result);
      };
      if (this.#early !== undefined) this.#settle(this.#early);
    });
  }

  /** Stop listening (open keep-alive connections from the browser are closed too). */
  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #handle(req: IncomingMessage, res: ServerResponse): void {
    const host = req.headers.host ?? '';
    if (host !== `127.0.0.1:${this.port}`) {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('wrong Host');
      return;
    }
    const url = new URL(req.url ?? '/', this.url);
    if (req.method !== 'GET' || url.pathname !== '/callback') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const params = url.searchParams;
    let result: AuthorizationResponse | Error;
    if (this.#expectedState === undefined || params.get('state') !== this.#expectedState) {
      result = new CandorError(
        'The sign-in answer carried the wrong state parameter (RFC 6749 §10.12); refused. Start the sign-in again.',
        { code: 'auth_state_mismatch' },
      );
    } else if (params.has('error')) {
      const error = params.get('error') ?? '';
      const description = params.get('error_description');
      result = new CandorError(
        `The authorization server refused the sign-in: ${error}${description ? ` (${description})` : ''}.`,
        { code: error === 'invalid_scope' ? 'auth_invalid_scope' : 'auth_refused' },
      );
    } else if (!params.get('code')) {
      result = new CandorError('The sign-in answer has no authorization code; refused.', { code: 'auth_refused' });
    } else {
      const iss = params.get('iss');
      result = { code: params.get('code')!, ...(iss !== null ? { iss } : {}) };
    }
    const ok = !(result instanceof Error);
    res
      .writeHead(ok ? 200 : 400, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
      .end(
        ok
          ? signInPage('Signed in', 'candor has what it needs; you can close this tab.')
          : signInPage('Sign-in failed', 'candor refused this answer; see the terminal.'),
      );
    if (this.#settle) this.#settle(result);
    else this.#early ??= result;
  }
}
