/**
 * Why an HTTP connection to a server failed, in words a newcomer can act on: fetch
 * says only "fetch failed" and keeps the cause (refused, DNS, TLS) a level or two
 * down; the SDK keeps the HTTP status in its error's data.
 */

/** Walk an error's cause chain (and AggregateError's errors), nearest first. */
function* chain(error: unknown): Generator<Record<string, unknown>> {
  const queue: unknown[] = [error];
  for (let seen = 0; queue.length > 0 && seen < 12; seen++) {
    const e = queue.shift();
    if (typeof e !== 'object' || e === null) continue;
    const record = e as Record<string, unknown>;
    yield record;
    if (record.cause !== undefined) queue.push(record.cause);
    if (Array.isArray(record.errors)) queue.push(...record.errors);
  }
}

const TLS = /^(ERR_SSL_|ERR_TLS_|CERT_|SELF_SIGNED|DEPTH_ZERO_SELF_SIGNED|UNABLE_TO_(GET|VERIFY)_)/;

/** What each HTTP status means for an MCP endpoint, and what to do. */
function statusReason(url: URL, status: number, statusText: string): string {
  if (status === 401)
    return `the server wants a sign-in (HTTP 401). Run candor auth login ${url.href}, or send the token it expects in a header.`;
  if (status === 403)
    return 'the server refused access (HTTP 403): the credentials were read but do not allow this (check their scopes or role).';
  if (status === 404)
    return `nothing at ${url.pathname} (HTTP 404). Check the path in the URL: MCP servers usually answer at /mcp.`;
  if (status === 405)
    return 'the endpoint does not take POST (HTTP 405); it may be an old SSE endpoint. Use the server’s Streamable HTTP URL.';
  return `the server answered HTTP ${status}${statusText ? ` ${statusText}` : ''}.`;
}

/**
 * The cause of a failed connection to `url`, with the next step, or undefined when the
 * error says nothing more than its own message.
 *
 * @example
 * ```ts
 * httpFailure('http://127.0.0.1:4000/mcp', error);
 * // 'nothing is listening at 127.0.0.1:4000 (connection refused). Start the server, or check the port in the URL.'
 * ```
 */
export function httpFailure(url: string, error: unknown): string | undefined {
  let where: URL;
  try {
    where = new URL(url);
  } catch {
    return undefined;
  }
  for (const e of chain(error)) {
    const data = typeof e.data === 'object' && e.data !== null ? (e.data as Record<string, unknown>) : e;
    if (typeof data.status === 'number' && data.status >= 400)
      return statusReason(where, data.status, typeof data.statusText === 'string' ? data.statusText : '');
    const code = typeof e.code === 'string' ? e.code : '';
    if (code === 'ECONNREFUSED')
      return `nothing is listening at ${where.host} (connection refused). Start the server, or check the port in the URL.`;
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
      return `the name ${where.hostname} was not found (DNS). Check the host name in the URL.`;
    if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH')
      return `${where.hostname} cannot be reached from this machine (no route). Check the address and your network.`;
    if (code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT')
      return `${where.host} did not accept the connection in time. Check the address, and any firewall in between.`;
    if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET')
      return `${where.host} closed the connection. Check that the URL is an MCP endpoint, and http:// versus https://.`;
    if (code === 'ERR_SSL_WRONG_VERSION_NUMBER')
      return `TLS failed: ${where.host} does not speak https on that port. Try http://${where.host}${where.pathname}.`;
    if (TLS.test(code))
      return `TLS failed: the server's certificate is not trusted here (${code}). Use a trusted certificate, or point NODE_EXTRA_CA_CERTS at your CA's file.`;
    if (e.message === 'bad port')
      return `fetch refuses port ${where.port} (a port browsers block for safety). Serve MCP on another port.`;
  }
  return undefined;
}
