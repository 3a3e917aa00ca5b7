/**
 * Write docs/reference/api/ with TypeDoc (run by `npm run docs`): one Markdown page per
 * entry point of package.json's "exports", so the API pages cover exactly the curated
 * public surface.
 */
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { Application, Converter, ReflectionKind } from 'typedoc';

const root = path.join(import.meta.dirname, '..');
const out = path.join(root, 'docs', 'reference', 'api');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  exports: Record<string, string | { types?: string }>;
};

/** `./dist/src/host/index.d.ts` → `src/host/index.ts`: the source of each export's types, by import name. */
const entries = Object.entries(pkg.exports).flatMap(([subpath, value]) =>
  typeof value === 'object' && value.types
    ? [
        {
          name: `candor${subpath.slice(1)}`,
          file: value.types.replace(/^\.\/dist\//, '').replace(/\.d\.ts$/, '.ts'),
        },
      ]
    : [],
);
const entryPoints = entries.map((entry) => path.join(root, entry.file));
/** TypeDoc's own module name for a file (its path without `/index` and the extension). */
const byTypeDocName = new Map(entries.map((e) => [e.file.replace(/(\/index)?\.ts$/, ''), e.name]));

rmSync(out, { recursive: true, force: true });
const app = await Application.bootstrapWithPlugins({
  entryPoints,
  tsconfig: path.join(root, 'tsconfig.build.json'),
  plugin: ['typedoc-plugin-markdown'],
  out,
  readme: 'none',
  name: 'candor API',
  excludePrivate: true,
  excludeInternal: true,
  gitRevision: 'main',
  sourceLinkExternal: false,
  disableSources: true,
  outputFileStrategy: 'modules',
  entryFileName: 'index',
  hidePageHeader: true,
  hideBreadcrumbs: true,
  useCodeBlocks: true,
  // TypeDoc's links name its own anchors (`#_meta-6` for the seventh `_meta` heading,
  // `#default_limits`); VitePress slugs and numbers headings its own way, so five links
  // led nowhere. An explicit anchor on each heading makes every link land.
  useHTMLAnchors: true,
  validation: { notExported: false, invalidLink: true, rewrittenLink: true },
} as Parameters<typeof Application.bootstrapWithPlugins>[0]);
// Pages are named as people import them (`candor/host`), not by source folder.
app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
  for (const module of context.project.getChildrenByKind(ReflectionKind.Module)) {
    const name = byTypeDocName.get(module.name);
    if (name === undefined) throw new Error(`No package export for TypeDoc module ${module.name}.`);
    module.name = name;
  }
});
const project = await app.convert();
if (!project || app.logger.hasErrors()) throw new Error('TypeDoc could not convert the entry points.');
await app.generateOutputs(project);
console.log(`wrote ${path.relative(process.cwd(), out)}/ (${entries.length} entry points)`);
