import { describe, expect, it } from 'vitest';
import type { CatalogTool } from '../../host/types.js';
import { appMayCall } from './view-gate.js';

const tool = (meta: unknown) =>
  ({ wire: { name: 't', inputSchema: { type: 'object' }, _meta: meta } }) as unknown as CatalogTool;

describe('appMayCall', () => {
  it('lets apps call a tool whose visibility is absent or includes "app", in any order or length', () => {
    expect(appMayCall(tool(undefined))).toBe(true);
    expect(appMayCall(tool({ ui: { resourceUri: 'ui://x' } }))).toBe(true);
    expect(appMayCall(tool({ ui: { visibility: ['app'] } }))).toBe(true);
    expect(appMayCall(tool({ ui: { visibility: ['model', 'app'] } }))).toBe(true);
    expect(appMayCall(tool({ ui: { visibility: ['app', 'model'] } }))).toBe(true);
  });

  it('refuses model-only tools and visibility values that are not arrays', () => {
    expect(appMayCall(tool({ ui: { visibility: ['model'] } }))).toBe(false);
    expect(appMayCall(tool({ ui: { visibility: [] } }))).toBe(false);
    expect(appMayCall(tool({ ui: { visibility: 'app' } }))).toBe(false);
  });
});
