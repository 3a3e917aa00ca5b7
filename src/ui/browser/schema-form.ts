/**
 * A tool's input schema as a form. Fields for what a form can say (strings,
 * numbers, integers, booleans, enums at the top level); everything else is
 * edited in the JSON box, which always holds the arguments that will be sent.
 */
import { CandorError } from '../../errors.js';
import { h } from './dom.js';

interface PropertySchema {
  type?: string | string[];
  enum?: unknown[];
  description?: string;
  default?: unknown;
  title?: string;
}

/** The form plus the JSON box; `args()` parses the box (throws with a readable message). */
export interface ArgsEditor {
  element: HTMLElement;
  args(): Record<string, unknown>;
}

function typeOf(schema: PropertySchema): string | undefined {
  const types = Array.isArray(schema.type) ? schema.type.filter((t) => t !== 'null') : [schema.type];
  return types.length === 1 ? types[0] : undefined;
}

/** Build the editor for one input schema. */
export function argsEditor(schema: { properties?: Record<string, PropertySchema>; required?: string[] }): ArgsEditor {
  const properties = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const values: Record<string, unknown> = {};
  const box = h('textarea', { 'data-json': '', rows: '4', spellcheck: 'false', 'aria-label': 'Arguments as JSON' });
  const sync = () => {
    box.value = JSON.stringify(values, null, 2);
  };
  const fields: HTMLElement[] = [];
  for (const [name, property] of Object.entries(properties)) {
    const type = typeOf(property);
    const label = `${name}${required.has(name) ? ' *' : ''}`;
    const hint = property.description ? h('small', {}, property.description) : null;
    let input: HTMLInputElement | HTMLSelectElement;
    if (Array.isArray(property.enum) && property.enum.every((v) => typeof v === 'string')) {
      input = h(
        'select',
        { name },
        h('option', { value: '' }, '—'),
        ...property.enum.map((v) => h('option', { value: String(v) }, String(v))),
      );
      input.addEventListener('change', () => {
        if (input.value === '') delete values[name];
        else values[name] = input.value;
        sync();
      });
    } else if (type === 'boolean') {
      input = h('input', { type: 'checkbox', name });
      input.addEventListener('change', () => {
        values[name] = (input as HTMLInputElement).checked;
        sync();
      });
    } else if (type === 'string' || type === 'number' || type === 'integer') {
      input = h('input', { type: type === 'string' ? 'text' : 'number', name, step: type === 'integer' ? '1' : 'any' });
      input.addEventListener('input', () => {
        const raw = input.value;
        if (raw === '') delete values[name];
        else values[name] = type === 'string' ? raw : Number(raw);
        sync();
      });
    } else {
      fields.push(
        h(
          'div',
          { class: 'field' },
          h('span', {}, label),
          h('small', {}, 'Edit this one in the JSON box below.'),
          hint,
        ),
      );
      continue;
    }
    fields.push(h('label', { class: 'field' }, h('span', {}, label), input, hint));
  }
  sync();
  const element = h(
    'div',
    { class: 'args' },
    ...fields,
    h('label', { class: 'field json' }, h('span', {}, 'Arguments (JSON, sent as is)'), box),
  );
  return {
    element,
    args: () => {
      let value: unknown;
      try {
        value = JSON.parse(box.value || '{}');
      } catch (error) {
        throw new CandorError(`The arguments are not JSON: ${(error as Error).message}`, { code: 'invalid_arguments' });
      }
      if (value === null || typeof value !== 'object' || Array.isArray(value))
        throw new CandorError('The arguments must be a JSON object.', { code: 'invalid_arguments' });
      return value as Record<string, unknown>;
    },
  };
}
