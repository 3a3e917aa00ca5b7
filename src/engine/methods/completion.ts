/** `completion/complete` for prompt arguments and resource template variables. */
import { isProtocolError, ProtocolError } from '../../errors.js';
import type { Completer } from '../../resources/types.js';
import type { MethodHandler } from '../engine.js';
import { INTERNAL_ERROR } from '../jsonrpc.js';
import { invalidParams, optionalObject } from './params.js';

/** The spec caps a completion answer at 100 values. */
const MAX_VALUES = 100;

export const complete: MethodHandler = async (params, scope) => {
  const ref = optionalObject(params, 'ref');
  const argument = optionalObject(params, 'argument');
  if (ref === undefined) throw invalidParams('"ref" must be a prompt or resource reference.');
  if (argument === undefined || typeof argument.name !== 'string' || typeof argument.value !== 'string') {
    throw invalidParams('"argument" must be { name: string, value: string }.');
  }
  const context = optionalObject(params, 'context');
  const contextArgs = (optionalObject(context ?? {}, 'arguments') ?? {}) as Record<string, string>;
  let completer: Completer | undefined;
  if (ref.type === 'ref/prompt') {
    if (typeof ref.name !== 'string') throw invalidParams('"ref.name" must be a string.');
    const prompt = scope.engine.prompts?.get(ref.name);
    if (prompt === undefined) throw invalidParams(`Unknown prompt: ${ref.name}`);
    completer = prompt.complete[argument.name];
  } else if (ref.type === 'ref/resource') {
    if (typeof ref.uri !== 'string') throw invalidParams('"ref.uri" must be a string.');
    const found = scope.engine.resources?.completer(ref.uri, argument.name);
    if (found === null || found === undefined) {
      if (found === null || scope.engine.resources === undefined)
        throw invalidParams(`Unknown resource template: ${ref.uri}`);
    } else completer = found;
  } else {
    throw invalidParams('"ref.type" must be "ref/prompt" or "ref/resource".');
  }
  if (completer === undefined) return { completion: { values: [], hasMore: false } };
  let values: readonly string[];
  try {
    values = await completer(argument.value, { arguments: contextArgs });
  } catch (error) {
    if (isProtocolError(error)) throw error;
    scope.engine.logger.error('completion failed', { requestId: scope.id, error });
    throw new ProtocolError(INTERNAL_ERROR, 'Completion failed with an internal error; details are in the server log.');
  }
  const strings = Array.isArray(values) ? values.filter((v): v is string => typeof v === 'string') : [];
  return {
    completion: {
      values: strings.slice(0, MAX_VALUES),
      total: strings.length,
      hasMore: strings.length > MAX_VALUES,
    },
  };
};
