import { describe, expect, test } from 'vitest';
import { planText, toolReferences } from './script-plan.js';

describe('toolReferences', () => {
  test('finds tools named by dot or by literal key, in order of first mention', () => {
    expect(
      toolReferences(`const a = await tools.notes__search({});
        await tools [ "files.delete-all" ]({});
        await tools?.notes__search({});
        await tools.notes__delete({ id: a[0].id });`),
    ).toEqual({ names: ['notes__search', 'files.delete-all', 'notes__delete'], dynamic: false });
  });

  test('a computed name, a bare use of tools or a template with a hole make the plan dynamic', () => {
    expect(toolReferences('const n = "x"; await tools[n]({});').dynamic).toBe(true);
    expect(toolReferences('for (const k of Object.keys(tools)) {}').dynamic).toBe(true);
    // A template literal with a hole: the name is computed.
    expect(toolReferences(`await tools[\`a\${'$'}{b}\`]({});`).dynamic).toBe(true);
    expect(toolReferences('const mytools = 1; x.tools.y(); toolsy();')).toEqual({ names: [], dynamic: false });
  });

  test('runs in time linear in the text on pathological input', () => {
    const spaces = `tools${' '.repeat(2_000_000)}`;
    const many = 'tools['.repeat(200_000);
    const quotes = `tools["${'a'.repeat(1_000_000)}`;
    for (const code of [spaces, many, quotes]) expect(toolReferences(code).dynamic).toBe(true);
  });
});

describe('planText', () => {
  test('shows the call waiting, the calls made and ahead, and what answering does', () => {
    const text = planText(
      {
        made: [{ tool: 'a__read', effect: 'read', openWorld: false, outcome: 'ok' }],
        next: { tool: 'a__delete', effect: 'destructive', openWorld: false, args: { id: 7 } },
        ahead: [{ tool: 'a__post', effect: 'additive', openWorld: true }],
        dynamic: true,
      },
      'destructive calls always ask.',
    );
    expect(text).toBe(`candor: a script wants to run a__delete. Allow this script?
Why asked: destructive calls always ask.
Next call: a__delete [writes (destructive), closed world] with id=7
Calls made so far (1):
  - a__read [read-only, closed world]: ok
Calls ahead named in the script:
  - a__post [writes (additive), open world]
The script also reaches tools by computed names: it may call others.
Allowing runs the rest of this script without asking again (unless untrusted content arrives after this answer); denying stops it here.`);
  });
});
