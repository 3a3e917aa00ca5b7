/**
 * What the console's tool table shows, computed from the host's catalog:
 * one row per tool, filtered with the registry's own search semantics
 * (`SearchIndex`: every text word must match name, title or description;
 * hint filters are exact), lint findings per server, pin state and diff.
 */
import type { Host } from '../../host/host-api.js';
import { formatChange } from '../../host/pins/field-diff.js';
import type { CatalogTool } from '../../host/types.js';
import { lint } from '../../lint/lint.js';
import type { Finding } from '../../lint/types.js';
import { SearchIndex, type SearchQuery } from '../../registry/search.js';
import type { ToolDefinition } from '../../tool/types.js';

/** One row of the tool table. */
export interface ToolRow {
  name: string;
  server: string;
  toolName: string;
  title: string;
  hints: CatalogTool['hints'];
  /** Hints nobody stated: the spec's worst-case default applies. */
  defaulted: Array<keyof CatalogTool['hints']>;
  trust: CatalogTool['trust'];
  tags: string[];
  visibility: CatalogTool['visibility'];
  resourceUri?: string;
  /** A person may call it from the console: visible to the model (app-only tools belong to their View). */
  callable: boolean;
  pin: CatalogTool['pin']['status'];
  findings: { error: number; warning: number; info: number };
}

/** The detail pane of one tool. */
export interface ToolDetail extends ToolRow {
  description: string;
  inputSchema: CatalogTool['inputSchema'];
  outputSchema?: CatalogTool['outputSchema'];
  hintSources: CatalogTool['hintSources'];
  corrections: CatalogTool['corrections'];
  requiresUserInteraction: boolean;
  lint: Finding[];
  pinChanges: string[];
  previousName?: string;
  warnings: string[];
}

/** The filters the table sends (query string). */
export interface RowQuery {
  text?: string;
  readOnly?: boolean;
  destructive?: boolean;
  idempotent?: boolean;
  openWorld?: boolean;
  server?: string;
  tag?: string;
}

/**
 * The catalog as the console sees it; rebuilt when a server's tools change.
 *
 * @example
 * ```ts
 * const table = new ToolTable(host);
 * table.rows({ readOnly: true, text: 'file' }).map((row) => row.name);
 * ```
 */
export class ToolTable {
  readonly #host: Host;
  #index = new SearchIndex();
  #lint = new Map<string, Finding[]>();

  constructor(host: Host) {
    this.#host = host;
    this.rebuild();
  }

  rebuild(): void {
    const index = new SearchIndex();
    const byServer = new Map<string, CatalogTool[]>();
    for (const tool of this.#host.catalog()) {
      // SearchIndex reads name, title, description, hints, tags and category of a
      // definition; the namespaced catalog entry supplies them (category = server).
      index.add({
        name: tool.name,
        title: tool.title,
        description: tool.description,
        hints: tool.hints,
        tags: tool.tags,
        category: tool.server,
      } as unknown as ToolDefinition);
      byServer.set(tool.server, [...(byServer.get(tool.server) ?? []), tool]);
    }
    const findings = new Map<string, Finding[]>();
    for (const [server, tools] of byServer) {
      findings.set(
        server,
        lint(
          tools.map((t) => t.wire),
          { server },
        ).findings,
      );
    }
    this.#index = index;
    this.#lint = findings;
  }

  rows(query: RowQuery = {}): ToolRow[] {
    const search: SearchQuery = { limit: 1000 };
    if (query.text) search.text = query.text;
    for (const hint of ['readOnly', 'destructive', 'idempotent', 'openWorld'] as const) {
      if (typeof query[hint] === 'boolean') search[hint] = query[hint];
    }
    if (query.server) search.category = query.server;
    if (query.tag) search.tags = [query.tag];
    const names = this.#index.match(search, new Set()).tools.map((def) => def.name);
    return names.flatMap((name) => {
      const tool = this.#host.tool(name);
      return tool ? [this.#row(tool)] : [];
    });
  }

  detail(name: string): ToolDetail | undefined {
    const tool = this.#host.tool(name);
    if (!tool) return undefined;
    const detail: ToolDetail = {
      ...this.#row(tool),
      description: tool.description,
      inputSchema: tool.inputSchema,
      hintSources: tool.hintSources,
      corrections: tool.corrections,
      requiresUserInteraction: tool.requiresUserInteraction,
      lint: this.#findings(tool),
      pinChanges: (tool.pin.changes ?? []).map(formatChange),
      warnings: tool.warnings,
    };
    if (tool.outputSchema) detail.outputSchema = tool.outputSchema;
    if (tool.pin.previousName) detail.previousName = tool.pin.previousName;
    return detail;
  }

  /** Server-wide findings (those naming no tool) and the count per server. */
  serverFindings(server: string): Finding[] {
    return (this.#lint.get(server) ?? []).filter((f) => f.tool === undefined);
  }

  #findings(tool: CatalogTool): Finding[] {
    return (this.#lint.get(tool.server) ?? []).filter((f) => f.tool === tool.toolName);
  }

  #row(tool: CatalogTool): ToolRow {
    const findings = { error: 0, warning: 0, info: 0 };
    for (const finding of this.#findings(tool)) findings[finding.severity]++;
    const row: ToolRow = {
      name: tool.name,
      server: tool.server,
      toolName: tool.toolName,
      title: tool.title,
      hints: tool.hints,
      defaulted: (Object.keys(tool.hintSources) as Array<keyof CatalogTool['hints']>).filter(
        (hint) => tool.hintSources[hint] === 'default',
      ),
      trust: tool.trust,
      tags: tool.tags,
      visibility: tool.visibility,
      callable: tool.visibility.includes('model'),
      pin: tool.pin.status,
      findings,
    };
    if (tool.ui?.resourceUri) row.resourceUri = tool.ui.resourceUri;
    return row;
  }
}
