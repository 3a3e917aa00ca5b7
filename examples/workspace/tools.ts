/**
 * The workspace tool pack: what a coding agent needs, sandboxed to one root
 * folder, each tool declaring its effects honestly so the MCP hints on the wire
 * tell hosts the truth.
 *
 * | tool | effect | world |
 * |---|---|---|
 * | read_file, list_directory, glob, grep_search, file_info | read | closed |
 * | create_file, create_directory | additive | closed |
 * | overwrite_file, str_replace, apply_patch, move_path, delete_path | destructive | closed |
 * | web_fetch | read | open |
 * | run_command | destructive | open |
 */
import type { ToolDefinition } from '../../src/tool/types.js';
import { resolveLimits, type WorkspaceOptions } from './options.js';
import { Sandbox } from './sandbox.js';
import { applyPatchTool } from './tools/apply-patch.js';
import type { WorkspaceContext } from './tools/context.js';
import { createDirectoryTool } from './tools/create-directory.js';
import { createFileTool, overwriteFileTool } from './tools/create-file.js';
import { deletePathTool } from './tools/delete-path.js';
import { fileInfoTool } from './tools/file-info.js';
import { globTool } from './tools/glob.js';
import { grepSearchTool } from './tools/grep-search.js';
import { listDirectoryTool } from './tools/list-directory.js';
import { movePathTool } from './tools/move-path.js';
import { readFileTool } from './tools/read-file.js';
import { runCommandTool } from './tools/run-command.js';
import { strReplaceTool } from './tools/str-replace.js';
import { webFetchTool } from './tools/web-fetch.js';

/**
 * Make the workspace tools for one root folder.
 *
 * @example
 * ```ts
 * const tools = createWorkspaceTools({ root: './my-project', limits: { commandTimeoutMs: 10_000 } });
 * tools.map((t) => `${t.name}: ${t.effect}`); // ['read_file: read', …, 'run_command: destructive']
 * ```
 */
export function createWorkspaceTools(options: WorkspaceOptions): ToolDefinition[] {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('createWorkspaceTools expects an options object: { root, … }.');
  }
  const ws: WorkspaceContext = {
    sandbox: new Sandbox(options.root),
    limits: resolveLimits(options.limits),
    options: Object.freeze({ ...options }),
  };
  return [
    readFileTool(ws),
    listDirectoryTool(ws),
    globTool(ws),
    grepSearchTool(ws),
    fileInfoTool(ws),
    createFileTool(ws),
    createDirectoryTool(ws),
    overwriteFileTool(ws),
    strReplaceTool(ws),
    applyPatchTool(ws),
    movePathTool(ws),
    deletePathTool(ws),
    webFetchTool(ws),
    runCommandTool(ws),
  ];
}
