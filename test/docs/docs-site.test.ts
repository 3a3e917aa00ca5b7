/**
 * The documentation site as a reader gets it: `npm run docs` builds it, every page
 * listed in llms.txt opens in Chromium (playwright-core, Debian's chromium) without a
 * console error, each page's Markdown copy is served beside it, and the site's search
 * finds a tool by name, every internal link and anchor lands, and the sidebar reads in
 * learning order.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO } from '../support/cli-harness.js';
import { deadLinks } from '../support/site-links.js';
import { launchChromium } from '../support/ui-support.js';

const DIST = path.join(REPO, 'docs', '.vitepress', 'dist');
let server: Server;
let base: string;
let browser: Browser;

/** The built site over loopback HTTP, with VitePress's clean URLs (/serve/oauth → serve/oauth.html). */
function serveDist(): Promise<Server> {
  const types: Record<string, string> = {
    '.html': 'text/html',
    '.js': 'text/javascript',
    '.css': 'text/css',
    '.md': 'text/markdown',
    '.txt': 'text/plain',
    '.json': 'application/json',
    '.png': 'image/png',
    '.svg': 'image/svg+xml',
    '.woff2': 'font/woff2',
  };
  const found = (url: string): string | undefined => {
    const clean = path.normalize(decodeURIComponent(url.split('?')[0]!)).replace(/^(\.\.[/\\])+/, '');
    for (const candidate of [clean, `${clean}.html`, path.join(clean, 'index.html')]) {
      const file = path.join(DIST, candidate);
      if (file.startsWith(DIST) && existsSync(file) && !file.endsWith(path.sep) && path.extname(file)) return file;
    }
    return undefined;
  };
  return new Promise((resolve) => {
    const http = createServer((request, response) => {
      const file = found(request.url ?? '/');
      if (!file) {
        response.writeHead(404).end('not found');
        return;
      }
      response.writeHead(200, { 'content-type': types[path.extname(file)] ?? 'application/octet-stream' });
      response.end(readFileSync(file));
    });
    http.listen(0, '127.0.0.1', () => resolve(http));
  });
}

beforeAll(async () => {
  execFileSync('npm', ['run', 'docs'], { cwd: REPO, stdio: 'pipe', timeout: 300_000 });
  server = await serveDist();
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchChromium();
}, 360_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

/** The pages llms.txt lists, as Markdown paths (/serve/oauth.md). */
function listedPages(): string[] {
  const llms = readFileSync(path.join(DIST, 'llms.txt'), 'utf8');
  return [...llms.matchAll(/\]\((\/[^)]+\.md)\)/g)].map((m) => m[1]!);
}

describe('the documentation site', () => {
  it('lists every page in llms.txt, with a Markdown copy of each', async () => {
    const pages = listedPages();
    expect(pages).toContain('/gateway/setup.md');
    expect(pages).toContain('/check/lint.md');
    for (const page of pages) {
      const response = await fetch(`${base}${page}`);
      expect(response.status, page).toBe(200);
      expect(await response.text(), page).toBe(readFileSync(path.join(REPO, 'docs', page), 'utf8'));
    }
  });

  it("has a TypeDoc page for every package export, with every name of that export's API report", () => {
    const apiDir = path.join(REPO, 'docs', 'reference', 'api');
    const headings = new Map<string, Set<string>>();
    for (const file of readdirSync(apiDir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.md'))) {
      const text = readFileSync(path.join(apiDir, file), 'utf8');
      const names = [...text.matchAll(/^#{2,5} (.+)$/gm)].map((m) =>
        m[1]!
          .replace(/^`[a-z]+` /, '')
          .replace(/\\|~~/g, '')
          .replace(/\(\)$/, '')
          .trim(),
      );
      headings.set(/^# (.+)$/m.exec(text)![1]!.trim(), new Set(names));
    }
    const exportsMap = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')).exports as Record<
      string,
      unknown
    >;
    for (const subpath of Object.keys(exportsMap).filter((s) => s !== './package.json')) {
      expect(headings.has(`candor${subpath.slice(1)}`), subpath).toBe(true);
    }
    const reports = readdirSync(path.join(REPO, 'api')).filter((f) => f.endsWith('.api.md'));
    expect(reports.length).toBeGreaterThan(5);
    for (const report of reports) {
      const text = readFileSync(path.join(REPO, 'api', report), 'utf8');
      const title = /^# (.+)$/m.exec(text)![1]!.trim();
      for (const [, name] of text.matchAll(/^- `([^`]+)`: \w+/gm)) {
        expect(headings.get(title)?.has(name!), `${title}: ${name}`).toBe(true);
      }
    }
  });

  it('opens every page in Chromium without a console error', async () => {
    const context = await browser.newContext();
    try {
      for (const page of ['/', ...listedPages().map((p) => p.replace(/(index)?\.md$/, ''))]) {
        const tab = await context.newPage();
        const errors: string[] = [];
        tab.on('console', (message) => {
          if (message.type() === 'error') errors.push(message.text());
        });
        tab.on('pageerror', (error) => errors.push(error.message));
        tab.on('response', (answer) => {
          if (answer.status() >= 400) errors.push(`${answer.status()} ${answer.url()}`);
        });
        const response = await tab.goto(`${base}${page}`, { waitUntil: 'load' });
        expect(response?.status(), page).toBe(200);
        await tab.locator('.VPContent').waitFor();
        expect(await tab.locator('h1').first().textContent(), page).toBeTruthy();
        expect(errors, page).toEqual([]);
        await tab.close();
      }
    } finally {
      await context.close();
    }
  }, 240_000);

  it("finds a tool by name with the site's search", async () => {
    const tab = await browser.newPage();
    try {
      await tab.goto(`${base}/`, { waitUntil: 'load' });
      await tab.locator('.VPNavBarSearch button').first().click();
      await tab.locator('#localsearch-input').fill('read_file');
      const results = tab.locator('.VPLocalSearchBox .result');
      await results.first().waitFor();
      // Each result shows the section's title and the words around the match.
      const links = await results.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('href') ?? ''));
      // read_file is defined on the tools page and served by the workspace example.
      expect(
        links.some((link) => link.startsWith('/build/tools')),
        links.join('\n'),
      ).toBe(true);
    } finally {
      await tab.close();
    }
  }, 60_000);

  it('has no dead internal link or anchor on any page', () => {
    const { dead, checked } = deadLinks(DIST);
    expect(checked).toBeGreaterThan(1000);
    expect(dead).toEqual([]);
  });

  it('reads in learning order, with Reference in the top navigation', async () => {
    const tab = await browser.newPage();
    try {
      await tab.goto(`${base}/get-started`, { waitUntil: 'load' });
      const nav = await tab.locator('.VPNavBarMenu a').allTextContents();
      expect(nav.map((t) => t.trim())).toEqual([
        'Get started',
        'Build',
        'Serve',
        'Check',
        'Host',
        'Gateway',
        'Scale',
        'Reference',
      ]);
      const groups = (await tab.locator('.VPSidebar .VPSidebarItem.level-0 > .item h2').allTextContents()).map((t) =>
        t.trim(),
      );
      expect(groups.slice(0, 10)).toEqual([
        'Get started',
        'Build',
        'Serve',
        'Check',
        'Scorecard',
        'Host',
        'Gateway',
        'Console',
        'Scale',
        'Reference',
      ]);
      // Get started leads on to defining tools, not to a later topic.
      expect(await tab.locator('.pager-link.next').getAttribute('href')).toBe('/build/tools');
      await tab.goto(`${base}/host/agent-frameworks`, { waitUntil: 'load' });
      // The gateway starts where most people meet it: setup in front of the client they have.
      expect(await tab.locator('.pager-link.next').getAttribute('href')).toBe('/gateway/setup');
    } finally {
      await tab.close();
    }
  }, 60_000);
});
