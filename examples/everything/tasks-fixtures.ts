/**
 * The tools the official conformance suite's tasks-extension scenarios
 * (SEP-2663, `@modelcontextprotocol/conformance` 0.2.x, `tasks-*`) call.
 */
import type { ToolDefinition } from '../../src/index.js';

export const taskTools: ToolDefinition[] = [];
