/**
 * The internal links of a built static site (VitePress's `dist/`): every `<a href>` that
 * stays on the site must open a page that exists and, when it names an anchor, an element
 * with that id on the page. Read from the files, so the check needs no server or browser.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** A link that leads nowhere: the page it is on, the href, and why. */
export interface DeadLink {
  page: string;
  href: string;
  problem: string;
}

function htmlFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.html'))
    .map((name) => path.join(dir, name));
}

const unescapeHtml = (text: string) =>
  text
    .replaceAll('&amp;', '&')
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>');

/** The file a site path opens with clean URLs (`/serve/oauth` → serve/oauth.html), if any. */
function fileFor(dist: string, sitePath: string): string | undefined {
  const clean = path.join(dist, sitePath);
  if (!clean.startsWith(dist)) return undefined;
  for (const candidate of [clean, `${clean}.html`, path.join(clean, 'index.html')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/**
 * Every dead internal link and anchor of the built site at `dist`, and how many links were checked.
 *
 * @example
 * ```ts
 * const { dead } = deadLinks('docs/.vitepress/dist');
 * ```
 */
export function deadLinks(dist: string): { dead: DeadLink[]; checked: number } {
  const ids = new Map<string, Set<string>>();
  const idsOf = (file: string) => {
    let found = ids.get(file);
    if (!found) {
      found = new Set([...readFileSync(file, 'utf8').matchAll(/\sid="([^"]*)"/g)].map((m) => unescapeHtml(m[1]!)));
      ids.set(file, found);
    }
    return found;
  };
  const dead: DeadLink[] = [];
  let checked = 0;
  for (const file of htmlFiles(dist)) {
    const page = `/${path.relative(dist, file)}`;
    for (const match of readFileSync(file, 'utf8').matchAll(/<a\s[^>]*?href="([^"]*)"/g)) {
      const href = unescapeHtml(match[1]!);
      if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('//')) continue; // another site, mailto:, …
      checked++;
      const hash = href.indexOf('#');
      const target = hash < 0 ? href : href.slice(0, hash);
      const anchor = hash < 0 ? '' : decodeURIComponent(href.slice(hash + 1));
      const sitePath =
        target === '' ? page : target.startsWith('/') ? target : path.posix.join(path.posix.dirname(page), target);
      const opened = target === '' ? file : fileFor(dist, decodeURIComponent(sitePath.split('?')[0]!));
      if (!opened) {
        dead.push({ page, href, problem: 'no such page' });
        continue;
      }
      if (anchor !== '' && opened.endsWith('.html') && !idsOf(opened).has(anchor))
        dead.push({ page, href, problem: `no element with id "${anchor}"` });
    }
  }
  return { dead, checked };
}
