/**
 * The documentation site (VitePress). Pages come from the folders (pages.mts); the
 * build also writes llms.txt and a Markdown copy of every page next to its HTML, for
 * agents that read docs.
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitepress';
import { EXCLUDED, FACES, pages } from './pages.mts';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const all = pages(root);

export default defineConfig({
  title: 'candor',
  description: 'MCP tools whose annotations tell the truth.',
  cleanUrls: true,
  head: [['link', { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' }]],
  srcExclude: EXCLUDED,
  // Links to repository files (examples/, src/) are written as code, not links; the rest must resolve.
  ignoreDeadLinks: false,
  themeConfig: {
    search: {
      provider: 'local',
      options: {
        // The generated API pages and the scorecard's page per server (every tool of 151 servers) would drown
        // the concept pages in fuzzy matches; each has its own index.
        _render: (src, env, md) =>
          env.relativePath.startsWith('reference/api/') || env.relativePath.startsWith('scorecard/by-server/')
            ? ''
            : md.render(src, env),
      },
    },
    nav: FACES.filter((face) => face.nav && all.some((page) => page.face === face.text)).map((face) => ({
      text: face.text,
      link: all.find((page) => page.face === face.text)!.link,
    })),
    sidebar: FACES.map((face) => ({
      text: face.text,
      items: all.filter((page) => page.face === face.text).map((page) => ({ text: page.title, link: page.link })),
    })).filter((group) => group.items.length > 0),
    outline: [2, 3],
  },
  buildEnd(site) {
    const lines = ['# candor', '', '> MCP tools whose annotations tell the truth.', ''];
    for (const face of FACES) {
      const inFace = all.filter((page) => page.face === face.text);
      if (inFace.length === 0) continue;
      lines.push(`## ${face.text}`, '');
      for (const page of inFace) {
        const target = path.join(site.outDir, page.file);
        mkdirSync(path.dirname(target), { recursive: true });
        copyFileSync(path.join(root, page.file), target);
        lines.push(`- [${page.title}](/${page.file})`);
      }
      lines.push('');
    }
    writeFileSync(path.join(site.outDir, 'llms.txt'), lines.join('\n'));
  },
});
