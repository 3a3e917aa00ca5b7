/** Rules about what a model reads to choose and call a tool: descriptions. */

import { isRecord } from '../../util/is-record.js';
import { toolLabel } from '../manifest.js';
import type { LintRule } from '../types.js';

export const descriptionMissing: LintRule = {
  id: 'description-missing',
  severity: 'warning',
  summary: 'Tools have a description.',
  explanation:
    'The model chooses tools from their descriptions; a tool without one is picked by its name alone, or never. Claude and ChatGPT directory reviews both require one.',
  *check({ tools }) {
    for (const tool of tools) {
      if (tool.description !== undefined && tool.description.trim() !== '') continue;
      yield {
        tool: toolLabel(tool),
        message: `${toolLabel(tool)} has no description.`,
        fix: 'Add a description: what it does, what it returns, and when not to use it.',
      };
    }
  },
};

export const descriptionOneWord: LintRule = {
  id: 'description-one-word',
  severity: 'warning',
  summary: 'A description is more than one word.',
  explanation:
    'A one-word description ("Echo", "Search") tells the model nothing the name did not; it cannot tell when to use the tool, what it returns, or what it changes.',
  *check({ tools }) {
    for (const tool of tools) {
      const words = (tool.description ?? '').trim().split(/\s+/).filter(Boolean);
      if (words.length !== 1) continue;
      yield {
        tool: toolLabel(tool),
        message: `${toolLabel(tool)}'s description is one word (${JSON.stringify(words[0])}).`,
        fix: 'Write a sentence: what it does, what it returns, what it changes.',
      };
    }
  },
};

export const paramDescriptionMissing: LintRule = {
  id: 'param-description-missing',
  severity: 'info',
  summary: 'Input parameters have descriptions.',
  explanation:
    'The model fills arguments from the input schema; a parameter without a description is guessed from its name (is `path` absolute or relative? is `limit` bytes or lines?). A warning in the strict profile.',
  *check({ tools }) {
    for (const tool of tools) {
      const props = isRecord(tool.inputSchema?.properties) ? tool.inputSchema.properties : {};
      const bare = Object.entries(props)
        .filter(([, schema]) => {
          if (!isRecord(schema)) return false;
          if (typeof schema.$ref === 'string') return false; // described where it is defined
          return typeof schema.description !== 'string' || schema.description.trim() === '';
        })
        .map(([name]) => name);
      if (bare.length === 0) continue;
      yield {
        tool: toolLabel(tool),
        message: `${toolLabel(tool)}: parameter${bare.length === 1 ? '' : 's'} ${bare.map((b) => JSON.stringify(b)).join(', ')} ha${bare.length === 1 ? 's' : 've'} no description.`,
        fix: 'Describe each parameter (zod: .describe("…"); JSON Schema: "description").',
      };
    }
  },
};

export const documentationRules: readonly LintRule[] = [
  descriptionMissing,
  descriptionOneWord,
  paramDescriptionMissing,
];
