/**
 * `--format sarif`: SARIF 2.1.0 (OASIS), the format code-scanning UIs read. One run; the
 * rules with their explanations; one result per finding with the server and tool as
 * logical locations (and the config file or module as the physical location when there
 * is one); ignored findings as suppressed results with the ignore's reason; servers that
 * failed to start as tool execution notifications.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ServerReport } from '../../targets/lint-targets.js';
import { RULES } from '../rules/index.js';
import type { Finding, Severity, SuppressedFinding } from '../types.js';
import type { SourceLocation } from './tool-definitions.js';

const LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = { error: 'error', warning: 'warning', info: 'note' };

export interface SarifOptions {
  /** The candor version to put in `tool.driver.version`. */
  version?: string;
  /** Base for relative artifact URIs (default: process.cwd()). */
  cwd?: string;
  /** The rules to describe (default: lint's); `candor observe` passes its own. */
  rules?: ReadonlyArray<{ id: string; severity: string; summary: string; explanation: string }>;
  /** Where each tool is defined in source (by tool name): a result about that tool points at that line. */
  definitions?: ReadonlyMap<string, SourceLocation>;
}

/**
 * Render reports as a SARIF 2.1.0 log (a JSON string).
 *
 * @example
 * ```ts
 * await writeFile('candor.sarif', formatSarif(reports, { version: '0.1.0' }));
 * ```
 */
export function formatSarif(reports: readonly ServerReport[], options: SarifOptions = {}): string {
  const cwd = options.cwd ?? process.cwd();
  const rules = options.rules ?? RULES;
  const ruleIndex = new Map(rules.map((r, i) => [r.id, i]));
  const results: unknown[] = [];
  const notifications: unknown[] = [];
  for (const report of reports) {
    const file = artifactOf(report, cwd);
    if (report.status === 'failed') {
      notifications.push({
        level: 'error',
        message: { text: `${report.label}: failed to start: ${report.error}` },
        ...(file ? { locations: [{ physicalLocation: { artifactLocation: { uri: file } } }] } : {}),
        properties: { server: report.label, ...(report.errorCode ? { errorCode: report.errorCode } : {}) },
      });
      continue;
    }
    const place = (f: Finding) => placeOf(f, file, options.definitions, cwd);
    for (const f of report.result.findings) results.push(toResult(f, report.label, place(f), ruleIndex));
    for (const f of report.result.suppressed) results.push(toResult(f, report.label, place(f), ruleIndex));
  }
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'candor',
            informationUri: 'https://www.npmjs.com/package/candor',
            ...(options.version ? { version: options.version } : {}),
            rules: rules.map((rule) => ({
              id: rule.id,
              shortDescription: { text: rule.summary },
              fullDescription: { text: rule.explanation },
              help: { text: `${rule.summary}\n\n${rule.explanation}` },
              defaultConfiguration:
                rule.severity === 'off'
                  ? { enabled: false, level: 'warning' }
                  : { level: LEVEL[rule.severity as keyof typeof LEVEL] },
            })),
          },
        },
        invocations: [
          {
            executionSuccessful: reports.every((r) => r.status === 'ok'),
            ...(notifications.length > 0 ? { toolExecutionNotifications: notifications } : {}),
          },
        ],
        results,
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}

/** A SARIF physical location: the tool's definition when it was found, else the server's file. */
type Place = { artifactLocation: { uri: string }; region?: { startLine: number; startColumn: number } };

function placeOf(
  f: Finding,
  file: string | undefined,
  definitions: ReadonlyMap<string, SourceLocation> | undefined,
  cwd: string,
): Place | undefined {
  const definition = f.tool === undefined ? undefined : definitions?.get(f.tool);
  if (definition)
    return {
      artifactLocation: { uri: uriOf(definition.file, cwd) },
      region: { startLine: definition.line, startColumn: definition.column },
    };
  return file ? { artifactLocation: { uri: file } } : undefined;
}

function toResult(
  f: Finding | SuppressedFinding,
  server: string,
  place: Place | undefined,
  ruleIndex: Map<string, number>,
): unknown {
  const fullName = f.tool === undefined ? server : `${server}/${f.tool}`;
  const location = {
    ...(place ? { physicalLocation: place } : {}),
    logicalLocations: [{ name: f.tool ?? server, fullyQualifiedName: fullName, kind: f.tool ? 'function' : 'module' }],
  };
  const fingerprint = createHash('sha256')
    .update(`${server}\0${f.tool ?? ''}\0${f.ruleId}\0${f.message}`)
    .digest('hex');
  return {
    ruleId: f.ruleId,
    ...(ruleIndex.has(f.ruleId) ? { ruleIndex: ruleIndex.get(f.ruleId) } : {}),
    level: LEVEL[f.severity],
    message: { text: f.fix ? `${f.message} Fix: ${f.fix}` : f.message },
    locations: [location],
    partialFingerprints: { 'candorFinding/v1': fingerprint.slice(0, 32) },
    ...('reason' in f ? { suppressions: [{ kind: 'external', justification: f.reason }] } : {}),
    properties: {
      server,
      ...(f.tool !== undefined ? { tool: f.tool } : {}),
      ...(f.patch ? { suggestedAnnotations: f.patch } : {}),
    },
  };
}

/** The file a server came from: its config file, or the module itself. */
function artifactOf(report: ServerReport, cwd: string): string | undefined {
  const t = report.target;
  const file = t.source?.file ?? (t.kind === 'module' ? t.path : undefined);
  return file ? uriOf(file, cwd) : undefined;
}

/** A path relative to the working directory (as code scanning expects), else a file: URL. */
function uriOf(file: string, cwd: string): string {
  const rel = path.relative(cwd, file);
  return rel.startsWith('..') || path.isAbsolute(rel) ? pathToFileURL(file).href : rel.split(path.sep).join('/');
}
