/**
 * candor: MCP tools whose annotations tell the truth.
 * Curated named exports only (no `export *`); Node-only parts live at subpath exports.
 */

// Errors
export {
  CandorError,
  DefinitionError,
  isDefinitionError,
  isProtocolError,
  isToolError,
  ProtocolError,
  ToolError,
} from './errors.js';
export { disableVariable } from './registry/env.js';
// Registry
export type {
  ChangeReason,
  ManifestPage,
  RegistryEvents,
  SearchPage,
  ToolRegistryOptions,
  ToolSelector,
} from './registry/registry.js';
export { ToolRegistry } from './registry/registry.js';
export type { SearchQuery } from './registry/search.js';
// The tool model
export type { ArgsOf, ToolConfig, ToolLike } from './tool/define.js';
export { BaseTool, defineTool, toToolDefinition } from './tool/define.js';
export { effectFromHints, hintsFromEffects, SPEC_DEFAULT_HINTS } from './tool/effects.js';
export { inferEffects } from './tool/infer.js';
export { TOOL_NAME_PATTERN } from './tool/name.js';
export type { SchemaInput } from './tool/schema.js';
export { EMPTY_INPUT_SCHEMA, formatIssues } from './tool/schema.js';
export { deriveTitle, splitWords } from './tool/title.js';
export type {
  AuthInfo,
  CallToolResult,
  CompiledSchema,
  ContentBlock,
  Declaration,
  Effect,
  ElicitParams,
  ElicitResult,
  HandlerReturn,
  HintName,
  HintSource,
  HttpInfo,
  Inference,
  JsonSchema,
  LogLevel,
  RateLimit,
  ResolvedHints,
  SampleParams,
  SampleResult,
  ToolAnnotations,
  ToolContext,
  ToolDefinition,
  ToolHandler,
  ToolUi,
  ValidationIssue,
  ValidationResult,
  WireTool,
  World,
} from './tool/types.js';
export type { CandorToolMeta } from './tool/wire.js';
export { CANDOR_META_KEY } from './tool/wire.js';
