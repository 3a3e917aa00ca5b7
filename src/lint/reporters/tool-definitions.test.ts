import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findToolDefinitions } from './tool-definitions.js';

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), 'candor-definitions-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), text);
  }
  return root;
}

describe('findToolDefinitions', () => {
  it('finds a quoted tool name and a Python function name, at the name itself', async () => {
    const root = tree({
      'src/tools.ts': "import x from 'y';\n\nserver.registerTool(\n  'read_file',\n  { annotations: {} },\n);\n",
      'server.py': '@mcp.tool()\nasync def search_notes(query: str):\n    pass\n',
    });
    const found = await findToolDefinitions(['read_file', 'search_notes', 'missing_tool'], root);
    expect(found.get('read_file')).toEqual({ file: path.join(root, 'src/tools.ts'), line: 4, column: 4 });
    expect(found.get('search_notes')).toEqual({ file: path.join(root, 'server.py'), line: 2, column: 11 });
    expect(found.has('missing_tool')).toBe(false);
  });

  it('prefers hand-written source over build output, and a line naming a tool over a stray mention', async () => {
    const root = tree({
      'dist/index.js': 'tools.push({ name: "write_note" });\n',
      'src/a.ts': "log('write_note');\n",
      'src/b.ts': "export const tool = { name: 'write_note' };\n",
    });
    expect((await findToolDefinitions(['write_note'], root)).get('write_note')?.file).toBe(path.join(root, 'src/b.ts'));
  });

  it('leaves out dependencies, type declarations and files past the size cap', async () => {
    const root = tree({
      'node_modules/lib/index.js': "name: 'delete_all'\n",
      'src/types.d.ts': "type T = 'delete_all';\n",
      'src/big.ts': `${' '.repeat(2_000)}'delete_all'\n`,
    });
    expect((await findToolDefinitions(['delete_all'], root, { maxFileBytes: 1_000 })).size).toBe(0);
  });

  it('matches names literally: a name with pattern characters finds only itself', async () => {
    const root = tree({ 'src/a.ts': "const a = 'get.items';\nconst b = 'get_items';\n" });
    const found = await findToolDefinitions(['get.items', 'get_items', 'get*'], root);
    expect(found.get('get.items')?.line).toBe(1);
    expect(found.get('get_items')?.line).toBe(2);
    expect(found.has('get*')).toBe(false);
  });
});
