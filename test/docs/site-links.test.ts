/**
 * The built site's link check finds what it must: a link to a page that is not there, an
 * anchor no element carries, on the same page and on another; and passes what lands.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { deadLinks } from '../support/site-links.js';

const dist = mkdtempSync(path.join(tmpdir(), 'candor-site-links-'));
afterAll(() => rmSync(dist, { recursive: true, force: true }));

function page(file: string, body: string): void {
  mkdirSync(path.dirname(path.join(dist, file)), { recursive: true });
  writeFileSync(path.join(dist, file), `<!doctype html><html><body>${body}</body></html>`);
}

describe('deadLinks', () => {
  it('finds missing pages and anchors, and passes links that land', () => {
    page('index.html', '<h1 id="top">Home</h1><a href="/serve/oauth#bearer-tokens">ok</a><a href="#top">ok</a>');
    page(
      'serve/oauth.html',
      [
        '<h2 id="bearer-tokens">Bearer</h2><a id="_meta-6"></a>',
        '<a href="./redis">sibling</a>',
        '<a class="x" href="../index#nowhere">bad anchor</a>',
        '<a href="/missing">no page</a>',
        '<a href="#_meta-6">explicit anchor</a>',
        '<a href="https://example.com/#x">elsewhere</a>',
        '<a href="/serve/oauth?x=1&amp;y=2#bearer-tokens">query</a>',
      ].join(''),
    );
    const { dead, checked } = deadLinks(dist);
    expect(checked).toBe(7);
    expect(dead).toEqual([
      { page: '/serve/oauth.html', href: './redis', problem: 'no such page' },
      { page: '/serve/oauth.html', href: '../index#nowhere', problem: 'no element with id "nowhere"' },
      { page: '/serve/oauth.html', href: '/missing', problem: 'no such page' },
    ]);
  });
});
