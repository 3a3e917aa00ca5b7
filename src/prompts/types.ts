/** Prompt types: plain-data definitions with one `get` function. */

import type { Completer, Icon } from '../resources/types.js';
import type { AskOptions, AuthInfo, ElicitParams, ElicitResult, HttpInfo } from '../tool/types.js';

/** One declared prompt argument (prompt arguments are strings on the wire). */
export interface PromptArgument {
  name: string;
  title?: string;
  description?: string;
  required?: boolean;
}

/** A message of a `prompts/get` result. */
export interface PromptMessage {
  role: 'user' | 'assistant';
  content: { type: string; [key: string]: unknown };
}

/** The `prompts/get` result. */
export interface GetPromptResult {
  description?: string;
  messages: PromptMessage[];
  _meta?: { [key: string]: unknown };
}

/**
 * What `get` may return: a string (one user text message), a list of messages
 * (a message's `content` may be a plain string), or a full result.
 */
export type PromptReturn =
  | string
  | Array<PromptMessage | { role: 'user' | 'assistant'; content: string }>
  | GetPromptResult;

/** What `get` receives besides the arguments. */
export interface PromptContext {
  readonly name: string;
  readonly signal: AbortSignal;
  readonly auth?: AuthInfo;
  readonly http?: HttpInfo;
  readonly session?: { readonly id: string };
  /**
   * Ask the user (form elicitation), as a tool's `ctx.elicit`. In the
   * 2026-07-28 era the answer arrives on a retry (`input_required`): the
   * handler runs again from the start, so ask before doing anything else.
   */
  elicit(params: ElicitParams, options?: AskOptions): Promise<ElicitResult>;
  /** A yes/no question (one checkbox); false on decline or cancel. */
  confirm(message: string, options?: AskOptions): Promise<boolean>;
}

/** The `prompts/list` entry of a prompt. */
export interface WirePrompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
  icons?: Icon[];
  _meta?: { [key: string]: unknown };
}

/** Validation of prompt arguments: parsed value or problems with their argument names. */
export type PromptArgsCheck =
  | { ok: true; value: Record<string, unknown> }
  | { ok: false; issues: Array<{ path: ReadonlyArray<string | number>; message: string }> };

/** A resolved prompt. */
export interface PromptDefinition {
  readonly kind: 'prompt';
  readonly name: string;
  readonly wire: Readonly<WirePrompt>;
  readonly complete: Readonly<Record<string, Completer>>;
  readonly validate: (args: Record<string, string>) => PromptArgsCheck | Promise<PromptArgsCheck>;
  readonly get: (args: any, ctx: PromptContext) => PromptReturn | Promise<PromptReturn>;
}
