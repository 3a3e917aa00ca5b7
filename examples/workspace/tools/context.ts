/** What every workspace tool factory receives: the sandbox, the limits and the operator's options. */
import type { ResolvedLimits, WorkspaceOptions } from '../options.js';
import type { Sandbox } from '../sandbox.js';

export interface WorkspaceContext {
  readonly sandbox: Sandbox;
  readonly limits: ResolvedLimits;
  readonly options: Readonly<WorkspaceOptions>;
}

/** Tags shared by the pack, so operators can enable or disable groups (`registry.disable({ tags: ['write'] })`). */
export const TAGS = {
  files: 'files',
  read: 'read',
  write: 'write',
  search: 'search',
  web: 'web',
  shell: 'shell',
} as const;
