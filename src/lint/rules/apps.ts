/**
 * MCP Apps rules (extension `io.modelcontextprotocol/ui`, 2026-01-26): the `_meta.ui`
 * link and visibility of a tool, and app-only tools that write.
 */
import { explainEffects } from '../../tool/infer.js';
import { toolLabel } from '../manifest.js';
import type { LintRule } from '../types.js';

/** True when `uri` is produced by an RFC 6570 template (level 1: `{var}` matches one path-free segment). */
export function matchesTemplate(template: string, uri: string): boolean {
  const pattern = template
    .split(/(\{[^}]*\})/)
    .map((part) =>
      part.startsWith('{')
        ? part.startsWith('{+') || part.startsWith('{#')
          ? '.*'
          : '[^/?#]*'
        : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('');
  return new RegExp(`^${pattern}$`).test(uri);
}

export const uiMetaInvalid: LintRule = {
  id: 'ui-meta-invalid',
  severity: 'error',
  summary: '`_meta.ui.resourceUri` is a ui:// URI and `_meta.ui.visibility` lists only "model" and "app".',
  explanation:
    'MCP Apps: a tool links its view with `_meta.ui.resourceUri`, which must be a `ui://` resource, and `visibility` is an array of "model" and/or "app" (default both). Hosts ignore or reject anything else, so the view never shows or the tool is hidden from the wrong party.',
  *check({ tools }) {
    for (const tool of tools) {
      if (!tool.ui) continue;
      const { resourceUri, visibility } = tool.ui;
      if (resourceUri !== undefined && (typeof resourceUri !== 'string' || !resourceUri.startsWith('ui://'))) {
        yield {
          tool: toolLabel(tool),
          message: `${toolLabel(tool)}: _meta.ui.resourceUri is ${JSON.stringify(resourceUri)}, not a ui:// URI.`,
          fix: 'Serve the view as a ui:// resource (mimeType text/html;profile=mcp-app) and link that URI.',
        };
      }
      const ok = Array.isArray(visibility) && visibility.every((v) => v === 'model' || v === 'app');
      if (visibility !== undefined && !ok) {
        yield {
          tool: toolLabel(tool),
          message: `${toolLabel(tool)}: _meta.ui.visibility is ${JSON.stringify(visibility)}, not a list of "model" and "app".`,
          fix: 'Use ["model", "app"] (the default), ["model"] or ["app"].',
        };
      }
    }
  },
};

export const uiResourceMissing: LintRule = {
  id: 'ui-resource-missing',
  severity: 'error',
  summary: "A tool's ui:// view is a resource the server actually serves.",
  explanation:
    'The host fetches the view named by `_meta.ui.resourceUri` with resources/read before rendering the tool result. A link to a resource that `resources/list` (or a resource template) does not offer renders nothing, or an error, in every host.',
  *check({ tools, resources, resourceTemplates = [] }) {
    if (resources === undefined) return; // not known: lint ran without the resources list
    for (const tool of tools) {
      const uri = tool.ui?.resourceUri;
      if (typeof uri !== 'string' || !uri.startsWith('ui://')) continue;
      if (resources.has(uri) || resourceTemplates.some((t) => matchesTemplate(t, uri))) continue;
      yield {
        tool: toolLabel(tool),
        message: `${toolLabel(tool)} links the view ${uri}, which the server does not serve.`,
        fix: `Register a resource at ${uri} (mimeType text/html;profile=mcp-app), or fix the link.`,
      };
    }
  },
};

export const appOnlyWriteUnannotated: LintRule = {
  id: 'app-only-write-unannotated',
  severity: 'warning',
  summary: 'An app-only tool (visibility without "model") that writes still declares its hints.',
  explanation:
    'Tools whose `_meta.ui.visibility` lacks "model" are hidden from the model and called by the app view, but the host still mediates those calls and decides confirmation from the annotations (MCP Apps: annotations still apply to app-only tools that write). Without hints, the host must treat every button press as destructive and open-world, or, if it reads absent as false, as harmless.',
  *check({ tools }) {
    for (const tool of tools) {
      const visibility = tool.ui?.visibility;
      if (!Array.isArray(visibility) || visibility.includes('model')) continue;
      const declared = ['readOnlyHint', 'destructiveHint'].some((h) => typeof tool.annotations[h] === 'boolean');
      if (declared) continue;
      const e = explainEffects(tool.name, tool.description);
      if (e.effect === 'read' && e.confidence !== 'low') continue;
      const destructive = e.effect === 'destructive';
      yield {
        tool: toolLabel(tool),
        message: `${toolLabel(tool)} is app-only and ${e.confidence === 'low' ? 'may write' : 'writes'} (${e.effect}, by its name) but sets no readOnlyHint or destructiveHint.`,
        fix: `Add "annotations": { "readOnlyHint": false, "destructiveHint": ${destructive}, "openWorldHint": ${e.world === 'open'} } (check the values).`,
        patch: { readOnlyHint: false, destructiveHint: destructive, openWorldHint: e.world === 'open' },
      };
    }
  },
};

export const appRules: readonly LintRule[] = [uiMetaInvalid, uiResourceMissing, appOnlyWriteUnannotated];
