/**
 * Pins at run time: which of a server's tools are new, changed or renamed
 * since the lockfile, what that means for a call (block, ask or warn), and
 * re-approval. A changed tool stays blocked until it is approved again
 * ("Pins").
 */
import { CandorError } from '../../errors.js';
import type { WireToolLike } from '../../tool/annotations.js';
import type { CatalogTool, PinChangeMode, PinState, PinsConfig } from '../types.js';
import { comparePins, type PinReport } from './compare.js';
import { formatChange } from './field-diff.js';
import { emptyLockfile, type Lockfile, readLockfile, writeLockfile } from './lockfile.js';
import { hashDefinition, pinnedDefinition } from './pin-hash.js';

/** What pins say about one call. */
export interface PinVerdict {
  decision: 'allow' | 'ask' | 'deny';
  reason?: string;
  warning?: string;
}

/**
 * The lockfile in memory, with the host's change policy.
 *
 * @example
 * ```ts
 * const guard = await PinGuard.open({ file: 'candor.lock.json', onChange: 'block' });
 * const states = guard.review('memory', tools);
 * guard.verdict(catalogTool); // { decision: 'deny', reason: 'memory__delete: changed since pinned: …' }
 * ```
 */
export class PinGuard {
  readonly #file: string | undefined;
  readonly #onChange: PinChangeMode;
  readonly #onNew: PinChangeMode | 'allow';
  #lock: Lockfile;
  readonly #reports = new Map<string, PinReport>();
  readonly #current = new Map<string, Map<string, WireToolLike>>();

  private constructor(config: PinsConfig, lock: Lockfile) {
    this.#file = config.file;
    this.#onChange = config.onChange ?? 'block';
    this.#onNew = config.onNew ?? 'ask';
    this.#lock = lock;
  }

  /** Open the lockfile (a missing file is an empty lock). */
  static async open(config: PinsConfig): Promise<PinGuard> {
    const lock = config.lock ?? (config.file ? await readLockfile(config.file) : undefined) ?? emptyLockfile();
    return new PinGuard(config, lock);
  }

  /** The lock as it stands (including approvals made since it was read). */
  get lock(): Lockfile {
    return this.#lock;
  }

  /** Compare a server's current tools with its pins; returns each tool's pin state. */
  review(server: string, tools: readonly WireToolLike[]): Map<string, PinState> {
    this.#current.set(server, new Map(tools.map((tool) => [tool.name, tool])));
    const pins = this.#lock.servers[server];
    const states = new Map<string, PinState>();
    if (!pins) {
      for (const tool of tools) states.set(tool.name, { status: 'unpinned' });
      this.#reports.delete(server);
      return states;
    }
    const report = comparePins(pins, tools);
    this.#reports.set(server, report);
    for (const name of report.unchanged) states.set(name, { status: 'pinned' });
    for (const name of report.added) states.set(name, { status: 'new' });
    for (const change of report.changed) states.set(change.name, { status: 'changed', changes: change.changes });
    for (const rename of report.renamed) {
      states.set(rename.to, { status: 'renamed', changes: rename.changes, previousName: rename.from });
    }
    return states;
  }

  /** The last drift report of a server (undefined when the server is not pinned). */
  report(server: string): PinReport | undefined {
    return this.#reports.get(server);
  }

  /** What the pins say about calling a tool now. */
  verdict(tool: CatalogTool): PinVerdict {
    const { pin } = tool;
    if (pin.status === 'pinned' || pin.status === 'unpinned') return { decision: 'allow' };
    let mode: PinChangeMode | 'allow';
    let what: string;
    if (pin.status === 'new') {
      mode = this.#onNew;
      what = `${tool.name} is new since ${tool.server} was pinned`;
    } else {
      mode = this.#onChange;
      const changes = (pin.changes ?? []).map(formatChange).join('; ');
      what =
        pin.status === 'renamed'
          ? `${tool.name} was renamed from ${pin.previousName}${changes ? ` and changed: ${changes}` : ''}`
          : `${tool.name} changed since it was pinned: ${changes || 'its definition differs'}`;
    }
    if (mode === 'allow') return { decision: 'allow' };
    if (mode === 'warn') return { decision: 'allow', warning: what };
    if (mode === 'ask') return { decision: 'ask', reason: `${what}. Approve to pin the new definition.` };
    return { decision: 'deny', reason: `${what}. It is blocked until re-approved (candor pin, or host.pins.approve).` };
  }

  /**
   * Accept a tool's current definition into the lock (re-approval). For a
   * renamed tool, the old name's pin goes.
   */
  approve(tool: Pick<CatalogTool, 'server' | 'toolName' | 'pin'>): void {
    const wire = this.#current.get(tool.server)?.get(tool.toolName);
    if (!wire) return;
    this.#lock.servers[tool.server] ??= { tools: {} };
    const pins = this.#lock.servers[tool.server]!;
    const definition = pinnedDefinition(wire);
    pins.tools[tool.toolName] = { hash: hashDefinition(definition), definition };
    if (tool.pin.status === 'renamed' && tool.pin.previousName) delete pins.tools[tool.pin.previousName];
  }

  /** Pin every current tool of a server (what `candor pin` does), dropping removed ones. */
  pinServer(server: string): void {
    const tools = [...(this.#current.get(server)?.values() ?? [])];
    const pins: Lockfile['servers'][string] = { tools: {} };
    for (const wire of tools) {
      const definition = pinnedDefinition(wire);
      pins.tools[wire.name] = { hash: hashDefinition(definition), definition };
    }
    this.#lock.servers[server] = pins;
  }

  /** Read the lockfile again (a person pinned with `candor pin` meanwhile); a file that went missing keeps the lock as it was. */
  async reload(): Promise<void> {
    if (!this.#file) return;
    this.#lock = (await readLockfile(this.#file)) ?? this.#lock;
  }

  /** Write the lockfile (to `path`, or the file it was opened from). */
  async save(path = this.#file): Promise<void> {
    if (!path) {
      throw new CandorError('No lockfile path: pass one to save(), or open the pins with { file }.', {
        code: 'lockfile_path_missing',
      });
    }
    await writeLockfile(path, this.#lock);
  }
}
