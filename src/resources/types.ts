/**
 * Resource types: definitions are plain data (like tools); `read` is the only
 * function, and what it returns is normalised to `resources/read` contents.
 */
import type { AskOptions, AuthInfo, ElicitParams, ElicitResult, HttpInfo } from '../tool/types.js';
import type { TemplateVariables, UriTemplate } from './uri-template.js';

/** MCP Apps: the mime type of a `ui://` resource (ext-apps 2026-01-26). */
export const MCP_APP_MIME_TYPE = 'text/html;profile=mcp-app';

/** `annotations` of a resource (audience, priority, lastModified). */
export interface ResourceAnnotations {
  audience?: Array<'user' | 'assistant'>;
  priority?: number;
  lastModified?: string;
}

/** An icon (2025-11-25). */
export interface Icon {
  src: string;
  mimeType?: string;
  sizes?: string[];
  theme?: 'light' | 'dark';
}

/** One item of `resources/read` contents: text or base64 blob. */
export type ResourceContents =
  | { uri: string; mimeType?: string; text: string; _meta?: { [key: string]: unknown } }
  | { uri: string; mimeType?: string; blob: string; _meta?: { [key: string]: unknown } };

/**
 * What `read` may return:
 * - a string (text with the resource's mime type),
 * - bytes (`Uint8Array`, sent base64 as a blob),
 * - `{ text }` / `{ blob }` items (uri and mimeType filled in), or an array of them,
 * - a full `{ contents: [...] }` result.
 */
export type ReadReturn =
  | string
  | Uint8Array
  | Partial<ResourceContents>
  | Array<Partial<ResourceContents>>
  | { contents: Array<Partial<ResourceContents>>; _meta?: { [key: string]: unknown } };

/** What `read` gets. */
export interface ResourceContext {
  /** The URI being read. */
  readonly uri: string;
  readonly signal: AbortSignal;
  readonly auth?: AuthInfo;
  readonly http?: HttpInfo;
  readonly session?: { readonly id: string };
  /**
   * Ask the user (form elicitation), as a tool's `ctx.elicit`. In the
   * 2026-07-28 era the answer arrives on a retry (`input_required`): the
   * read runs again from the start, so ask before doing anything else.
   */
  elicit(params: ElicitParams, options?: AskOptions): Promise<ElicitResult>;
  /** A yes/no question (one checkbox); false on decline or cancel. */
  confirm(message: string, options?: AskOptions): Promise<boolean>;
}

/** Context of a template read: the URI's variables too. */
export interface TemplateContext extends ResourceContext {
  readonly variables: TemplateVariables;
}

/**
 * Suggest values for an argument or template variable (`completion/complete`).
 * Return at most 100 values; more are cut and `hasMore` is set.
 */
export type Completer = (
  value: string,
  context: { arguments: Record<string, string> },
) => readonly string[] | Promise<readonly string[]>;

/** The `resources/list` entry of a resource. */
export interface WireResource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  annotations?: ResourceAnnotations;
  icons?: Icon[];
  _meta?: { [key: string]: unknown };
}

/** The `resources/templates/list` entry of a template. */
export interface WireResourceTemplate {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: ResourceAnnotations;
  icons?: Icon[];
  _meta?: { [key: string]: unknown };
}

/** A resolved resource: plain data plus `read`. */
export interface ResourceDefinition {
  readonly kind: 'resource';
  readonly uri: string;
  readonly name: string;
  readonly mimeType?: string;
  readonly wire: Readonly<WireResource>;
  readonly read: (ctx: ResourceContext) => ReadReturn | Promise<ReadReturn>;
}

/** A resolved resource template. */
export interface ResourceTemplateDefinition {
  readonly kind: 'resource-template';
  readonly uriTemplate: string;
  readonly name: string;
  readonly mimeType?: string;
  readonly matcher: UriTemplate;
  readonly complete: Readonly<Record<string, Completer>>;
  readonly wire: Readonly<WireResourceTemplate>;
  readonly read: (ctx: TemplateContext) => ReadReturn | Promise<ReadReturn>;
  /** Optional: the concrete resources the template currently stands for (added to `resources/list`). */
  readonly list?: () => readonly WireResource[] | Promise<readonly WireResource[]>;
}
