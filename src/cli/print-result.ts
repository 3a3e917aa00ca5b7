/**
 * A `tools/call` result for people: text blocks as they are, other blocks as a
 * one-line description, structured content as JSON when there is no text.
 */

interface Block {
  type: string;
  text?: string;
  mimeType?: string;
  data?: string;
  uri?: string;
  name?: string;
  resource?: { uri?: string; text?: string; mimeType?: string };
}

/**
 * Render a result's content for the terminal.
 *
 * @example
 * ```ts
 * formatResult({ content: [{ type: 'text', text: 'hello' }] }); // 'hello'
 * ```
 */
export function formatResult(result: { content?: unknown; structuredContent?: unknown }): string {
  const blocks = Array.isArray(result.content) ? (result.content as Block[]) : [];
  const parts: string[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case 'text':
        parts.push(block.text ?? '');
        break;
      case 'image':
      case 'audio':
        parts.push(
          `[${block.type}: ${block.mimeType ?? 'unknown type'}, ${Math.floor(((block.data ?? '').length * 3) / 4)} bytes]`,
        );
        break;
      case 'resource_link':
        parts.push(`[resource link: ${block.uri ?? ''}${block.name ? ` (${block.name})` : ''}]`);
        break;
      case 'resource':
        parts.push(
          block.resource?.text !== undefined
            ? `[resource ${block.resource.uri ?? ''}]\n${block.resource.text}`
            : `[resource ${block.resource?.uri ?? ''}: ${block.resource?.mimeType ?? 'binary'}]`,
        );
        break;
      default:
        parts.push(`[${block.type} block]`);
    }
  }
  if (parts.length === 0 && result.structuredContent !== undefined) {
    parts.push(JSON.stringify(result.structuredContent, null, 2));
  }
  return parts.join('\n');
}
