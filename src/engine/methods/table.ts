/**
 * The method tables: method name → handler. The dispatcher looks methods up
 * here and nowhere else, so adding a method (or an era's variant of one) is
 * one line.
 */
import type { MethodHandler, NotificationHandler } from '../engine.js';
import { complete } from './completion.js';
import { cancelled, initialize, initialized, ping, setLevel } from './lifecycle.js';
import { getPrompt, listPrompts } from './prompts.js';
import { listResources, listResourceTemplates, readResource, subscribe, unsubscribe } from './resources.js';
import { cancelTask, getTask, getTaskResult, listTasks } from './tasks.js';
import { callTool, listTools } from './tools.js';

/** Requests the server answers. */
export const methodTable: ReadonlyMap<string, MethodHandler> = new Map<string, MethodHandler>([
  ['initialize', initialize],
  ['ping', ping],
  ['tools/list', listTools],
  ['tools/call', callTool],
  ['resources/list', listResources],
  ['resources/templates/list', listResourceTemplates],
  ['resources/read', readResource],
  ['resources/subscribe', subscribe],
  ['resources/unsubscribe', unsubscribe],
  ['prompts/list', listPrompts],
  ['prompts/get', getPrompt],
  ['completion/complete', complete],
  ['logging/setLevel', setLevel],
  ['tasks/get', getTask],
  ['tasks/result', getTaskResult],
  ['tasks/list', listTasks],
  ['tasks/cancel', cancelTask],
]);

/** Notifications the server acts on (others are ignored, as JSON-RPC allows). */
export const notificationTable: ReadonlyMap<string, NotificationHandler> = new Map<string, NotificationHandler>([
  ['notifications/initialized', initialized],
  ['notifications/cancelled', cancelled],
]);
