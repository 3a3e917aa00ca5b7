import { describe, expect, test } from 'vitest';
import { InputRequiredError } from './input-required-error.js';
import { Interactions } from './interactions.js';

const FORM = { elicitation: { form: {} }, sampling: {}, roots: {} };
const ASK = { message: 'Name?', requestedSchema: { type: 'object', properties: {} } };

function round(answers: Map<string, unknown> = new Map(), offered?: Map<string, unknown>) {
  const adopted = new Map<string, unknown>();
  const ended: InputRequiredError[] = [];
  const asked = new Interactions(
    FORM,
    answers,
    'The tool "t"',
    (reason) => ended.push(reason),
    offered && { answers: offered, adopt: (key, answer) => adopted.set(key, answer) },
  );
  return { asked, adopted, ended };
}

describe('Interactions', () => {
  test('numbers questions unless the handler names them', () => {
    const { asked } = round();
    expect(() => asked.elicit(ASK)).toThrow(InputRequiredError);
    expect(() => asked.elicit(ASK, { key: 'who' })).toThrow(InputRequiredError);
    expect(() => asked.listRoots()).toThrow(InputRequiredError);
    expect([...asked.requests.keys()]).toEqual(['elicit-0', 'who', 'roots-1']);
  });

  test('refuses a key used twice in one run, or one that is not a name of 1–200 characters', () => {
    const { asked } = round(new Map([['who', { action: 'decline' }]]));
    expect(asked.elicit(ASK, { key: 'who' })).toEqual({ action: 'decline' });
    expect(() => asked.elicit(ASK, { key: 'who' })).toThrow('two questions with the key "who"');
    expect(() => asked.elicit(ASK, { key: '' })).toThrow('1 to 200 characters');
    expect(() => asked.elicit(ASK, { key: 'x'.repeat(201) })).toThrow('1 to 200 characters');
  });

  test('takes an answer offered unasked only when its shape fits the question, and adopts it', () => {
    const offered = new Map<string, unknown>([
      ['who', { action: 'accept', content: { name: 'Ada' } }],
      ['roots-0', { action: 'accept' }],
    ]);
    const { asked, adopted } = round(new Map(), offered);
    expect(asked.elicit(ASK, { key: 'who' })).toEqual({ action: 'accept', content: { name: 'Ada' } });
    // An elicitation result offered for a roots question does not fit: asked instead.
    expect(() => asked.listRoots()).toThrow(InputRequiredError);
    expect([...adopted.keys()]).toEqual(['who']);
    expect([...asked.requests.keys()]).toEqual(['roots-0']);
  });
});
