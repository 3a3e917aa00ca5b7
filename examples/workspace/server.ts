/**
 * The workspace server: the tool pack served by a candor server, with
 * instructions that tell the model where it is and how to work.
 */
import { type CandorServer, createServer, type ServerOptions } from '../../src/server/create-server.js';
import type { WorkspaceOptions } from './options.js';
import { createWorkspaceTools } from './tools.js';

/** Workspace options plus any `createServer` option except the tools themselves. */
export interface WorkspaceServerOptions
  extends WorkspaceOptions,
    Partial<Omit<ServerOptions, 'tools' | 'registry' | 'resources' | 'prompts'>> {}

/**
 * Create the workspace MCP server for a root folder.
 *
 * @example
 * ```ts
 * const server = createWorkspaceServer({ root: './project' });
 * server.stdio();
 * ```
 */
export function createWorkspaceServer(options: WorkspaceServerOptions): CandorServer {
  const {
    root,
    allowPrivateNetwork,
    allowedHosts,
    commandAllowShell,
    commandEnvAllow,
    commandEnv,
    limits,
    resolveHost,
    ...serverOptions
  } = options;
  const tools = createWorkspaceTools({
    root,
    allowPrivateNetwork,
    allowedHosts,
    commandAllowShell,
    commandEnvAllow,
    commandEnv,
    limits,
    resolveHost,
  });
  return createServer({
    name: 'workspace',
    version: '0.1.0',
    title: 'Workspace',
    description: 'Files, search, patches, web fetch and commands inside one root folder.',
    instructions:
      'All paths are relative to the workspace root. Read before you edit: read_file, list_directory, glob and grep_search change nothing. ' +
      'Create new files with create_file; edit existing ones with str_replace (one exact, unique match) or apply_patch (a unified diff, all or nothing); ' +
      'overwrite_file replaces a whole file. run_command takes an argv array and runs without a shell.',
    ...serverOptions,
    tools,
  });
}
