/**
 * The site's pages, read from the folders: each face is a folder of docs/ and each page
 * a Markdown file titled by its first heading, so a page added to a folder shows up in
 * the sidebar and in llms.txt without editing this file.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** The faces, in reading order, with their folder (or single page). */
export const FACES = [
  { text: 'Get started', items: ['get-started.md'] },
  { text: 'Build', dir: 'build', extra: ['modern-era.md'] },
  { text: 'Serve', dir: 'serve', extra: ['deployment.md'] },
  { text: 'Check', dir: 'check' },
  { text: 'Host', dir: 'host' },
  { text: 'Gateway', dir: 'gateway' },
  { text: 'Console', items: ['console.md'] },
  { text: 'Scorecard', dir: 'scorecard' },
  { text: 'Reference', dir: 'reference' },
  { text: 'Benchmarks', items: ['benchmarks.md'] },
  { text: 'Internals', dir: 'internals' },
] as const;

/** Source files that are not pages of the site. */
export const EXCLUDED = ['perf-issue-24.md', 'README.md'];

export interface Page {
  /** Path under docs/, e.g. serve/oauth.md. */
  file: string;
  /** The page's URL path, e.g. /serve/oauth. */
  link: string;
  title: string;
  face: string;
}

function titleOf(file: string): string {
  const text = readFileSync(file, 'utf8');
  const heading = /^#\s+(.+)$/m.exec(text)?.[1] ?? path.basename(file, '.md');
  return heading.replace(/`/g, '');
}

const exists = (file: string) => {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
};

/** Every page, face by face (index pages first). */
export function pages(root: string): Page[] {
  const out: Page[] = [];
  for (const face of FACES) {
    const files: string[] = [];
    if ('items' in face) files.push(...face.items);
    if ('dir' in face) {
      const dir = path.join(root, face.dir);
      const names = exists(path.join(dir, 'index.md')) ? ['index.md'] : [];
      try {
        for (const name of readdirSync(dir).sort()) if (name.endsWith('.md') && name !== 'index.md') names.push(name);
      } catch {}
      files.push(...names.map((name) => `${face.dir}/${name}`));
    }
    if ('extra' in face) files.push(...face.extra);
    for (const file of files) {
      if (EXCLUDED.includes(file) || !exists(path.join(root, file))) continue;
      const link = `/${file.replace(/(^|\/)index\.md$/, '$1').replace(/\.md$/, '')}`;
      out.push({ file, link, title: titleOf(path.join(root, file)), face: face.text });
    }
  }
  return out;
}
