/** Rules about how tools are named and titled. */
import { deriveTitle } from '../../tool/title.js';
import { toolLabel } from '../manifest.js';
import type { LintRule } from '../types.js';

/** The spec's tool-name pattern (2025-11-25, "Tool names"). */
const NAME_PATTERN = /^[A-Za-z0-9._-]{1,128}$/;

export const namePattern: LintRule = {
  id: 'name-pattern',
  severity: 'error',
  summary: 'Tool names match ^[A-Za-z0-9._-]{1,128}$.',
  explanation:
    'The spec (2025-11-25, "Tool names"): names SHOULD be 1 to 128 characters of ASCII letters, digits, underscore, hyphen and dot, case-sensitive. Clients that prefix names with a server id, or pass them on to model APIs with stricter patterns, break on spaces, slashes or non-ASCII letters.',
  *check({ tools }) {
    for (const tool of tools) {
      if (typeof tool.raw.name !== 'string' || tool.raw.name === '') {
        yield { tool: toolLabel(tool), message: `The tool at position ${tool.index} has no name.` };
        continue;
      }
      if (NAME_PATTERN.test(tool.name)) continue;
      const bad = [...new Set([...tool.name].filter((c) => !/[A-Za-z0-9._-]/.test(c)))];
      const why =
        tool.name.length > 128
          ? `is ${tool.name.length} characters long`
          : `contains ${bad
              .map((c) => (c === ' ' ? 'a space' : JSON.stringify(c)))
              .join(', ')
              .replace(/, ([^,]*)$/, ' and $1')}`;
      const suggestion = tool.name
        .replace(/[^A-Za-z0-9._-]+/g, '_')
        .replace(/^_+|_+$/g, '')
        .slice(0, 64);
      yield {
        tool: toolLabel(tool),
        message: `The tool name ${JSON.stringify(tool.name)} ${why}, which the spec's name pattern does not allow.`,
        fix: `Rename it, e.g. ${JSON.stringify(suggestion || 'tool')}.`,
      };
    }
  },
};

export const nameDuplicate: LintRule = {
  id: 'name-duplicate',
  severity: 'error',
  summary: 'Tool names are unique within a server.',
  explanation:
    'The spec: tool names SHOULD be unique within a server. A host keeps one of two tools with the same name (which one depends on the host), so the other can never be called, and pins or approvals attach to the wrong definition.',
  *check({ tools }) {
    const seen = new Map<string, number>();
    for (const tool of tools) if (tool.name !== '') seen.set(tool.name, (seen.get(tool.name) ?? 0) + 1);
    for (const [name, count] of seen) {
      if (count < 2) continue;
      yield {
        tool: name,
        message: `${count} tools are named ${JSON.stringify(name)}.`,
        fix: 'Give each tool its own name.',
      };
    }
  },
};

export const nameLength: LintRule = {
  id: 'name-length',
  severity: 'warning',
  summary: 'Tool names are at most 64 characters.',
  explanation:
    "Claude's connector directory requires tool names of at most 64 characters, and model APIs that receive MCP tools as functions cap function names at 64 too; hosts that add a server prefix get there sooner. An error in the anthropic profile.",
  *check({ tools }) {
    for (const tool of tools) {
      if (tool.name.length <= 64) continue;
      yield {
        tool: toolLabel(tool),
        message: `${toolLabel(tool)} is ${tool.name.length} characters long (limit 64).`,
        fix: 'Shorten the name; put detail in the title and description.',
      };
    }
  },
};

export const titleMissing: LintRule = {
  id: 'title-missing',
  severity: 'warning',
  summary: 'Tools have a human-readable title.',
  explanation:
    "The spec shows `title`, then `annotations.title`, then `name` to people; without a title, users approve calls to `mcp_srv_do_x`. Claude's directory requires a title. An error in the anthropic profile.",
  *check({ tools }) {
    for (const tool of tools) {
      const title = tool.title ?? tool.annotations.title;
      if (typeof title === 'string' && title.trim() !== '') continue;
      const suggestion = deriveTitle(tool.name);
      yield {
        tool: toolLabel(tool),
        message: `${toolLabel(tool)} has no title.`,
        fix: `Add "title": ${JSON.stringify(suggestion)} (and the same "annotations": { "title": … } for older hosts).`,
        patch: { title: suggestion },
      };
    }
  },
};

export const nameShadowsTool: LintRule = {
  id: 'name-shadows-tool',
  severity: 'error',
  summary: "A tool's name is not the name of another server's tool the host already runs.",
  explanation:
    "A server that adds a tool named like one of another server's (its own read_file beside the filesystem server's) competes for the calls meant for that tool: models pick tools by name and description, and a host that shows bare names cannot tell them apart. Checked where the other servers are known: at the door of candor gateway and in candor pin.",
  *check({ tools, otherServers }) {
    if (!otherServers) return;
    for (const tool of tools) {
      const owners = [...otherServers].filter(([, names]) => names.includes(tool.name)).map(([server]) => server);
      if (owners.length === 0) continue;
      yield {
        tool: toolLabel(tool),
        message: `${toolLabel(tool)} has the same name as a tool of ${owners.join(', ')}.`,
        fix: 'Rename the tool, or accept the finding for this tool if both servers are yours.',
      };
    }
  },
};

export const namingRules: readonly LintRule[] = [namePattern, nameDuplicate, nameLength, titleMissing, nameShadowsTool];
