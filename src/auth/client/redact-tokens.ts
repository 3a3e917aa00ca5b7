/**
 * Tokens out of messages: a message that quotes an authorization server or a transport
 * may carry a token or a secret; what a person or a log sees never does.
 */

/**
 * Replace anything that looks like a bearer token or a JWT in a message.
 *
 * @example
 * ```ts
 * redactTokens('Bearer abc.def'); // 'Bearer [token]'
 * ```
 */
export function redactTokens(text: string): string {
  return text
    .replace(/\beyJ[\w-]+\.[\w-]+\.[\w-]*/g, '[token]')
    .replace(/(access_token|refresh_token|id_token|client_secret|code)(["'=:\s]+)[\w.~+/-]{8,}/gi, '$1$2[redacted]')
    .replace(/Bearer\s+[\w.~+/-]+=*/gi, 'Bearer [token]');
}
