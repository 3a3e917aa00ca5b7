/**
 * The `candor ui` console page: servers, the tool table (hints with spec
 * defaults marked, filters with the registry's search semantics), a tool's
 * detail (schema form, lint, pin diff), calls through the host policy with
 * the confirmation dialog, results, Views, the servers' resources and prompts, and the
 * session log.
 */
import type { CallOutcome } from '../../host/types.js';
import type { ConsoleQuestion } from '../server/confirm-broker.js';
import type { ServerOffersRow } from '../server/offers.js';
import type { ReviewItem } from '../server/review.js';
import type { SessionEntry } from '../server/session-log.js';
import type { ToolDetail, ToolRow } from '../server/tool-rows.js';
import { apiToken, events, getJson, postJson } from './api.js';
import { ConfirmDialog } from './confirm-dialog.js';
import { h, json } from './dom.js';
import { renderOffers } from './offers-pane.js';
import { resultCard } from './result-view.js';
import { renderReview } from './review-pane.js';
import { argsEditor } from './schema-form.js';
import { openView } from './view-host.js';

interface ServerInfo {
  name: string;
  status: string;
  era?: string;
  protocolVersion?: string;
  trust: string;
  tools: number;
  error?: string;
  findings: Array<{ ruleId: string; severity: string; message: string }>;
  pins: { changed?: unknown[]; added?: unknown[]; removed?: unknown[] } | null;
}

interface State {
  policy: string;
  sandboxOrigin: string;
  servers: ServerInfo[];
}

const HINTS = [
  ['readOnlyHint', 'readOnly', 'Read-only'],
  ['destructiveHint', 'destructive', 'Destructive'],
  ['idempotentHint', 'idempotent', 'Idempotent'],
  ['openWorldHint', 'openWorld', 'Open world'],
] as const;

const $ = (id: string) => document.getElementById(id)!;
const dialogs = $('dialogs');
const confirmDialog = new ConfirmDialog(dialogs);
let state: State;
const pending = new Map<string, ReturnType<typeof resultCard>>();

function renderServers(): void {
  $('policy').textContent = `policy: ${state.policy}`;
  $('servers').replaceChildren(
    h('h2', {}, 'Servers'),
    ...state.servers.map((s) =>
      h(
        'article',
        { class: `server ${s.status}`, 'data-server': s.name },
        h('h3', {}, s.name),
        h(
          'p',
          {},
          `${s.status} · ${s.era === 'modern' ? '2026-07-28 era' : s.era === 'legacy' ? '2025 era' : 'era unknown'}${s.protocolVersion ? ` (${s.protocolVersion})` : ''}`,
        ),
        h(
          'p',
          { class: s.trust },
          s.trust === 'trusted' ? 'trusted: hints may relax prompts' : 'untrusted: hints only tighten',
        ),
        h('p', {}, `${s.tools} tools`),
        s.error ? h('p', { class: 'error' }, s.error) : null,
        s.findings.length > 0 ? h('p', { class: 'muted' }, `${s.findings.length} server-wide lint findings`) : null,
      ),
    ),
  );
}

function renderFilters(tags: readonly string[]): void {
  const form = $('filters') as HTMLFormElement;
  const select = (name: string, label: string) =>
    h(
      'label',
      {},
      label,
      h(
        'select',
        { name },
        h('option', { value: 'any' }, 'any'),
        h('option', { value: 'true' }, 'yes'),
        h('option', { value: 'false' }, 'no'),
      ),
    );
  form.replaceChildren(
    h('input', {
      type: 'search',
      name: 'text',
      placeholder: 'Search name, title, description',
      'aria-label': 'Search tools',
    }),
    ...HINTS.map(([, key, label]) => select(key, label)),
    h(
      'label',
      {},
      'Server',
      h(
        'select',
        { name: 'server' },
        h('option', { value: '' }, 'all'),
        ...state.servers.map((s) => h('option', { value: s.name }, s.name)),
      ),
    ),
    h(
      'label',
      {},
      'Tag',
      h('select', { name: 'tag' }, h('option', { value: '' }, 'any'), ...tags.map((t) => h('option', { value: t }, t))),
    ),
  );
  form.addEventListener('input', () => void loadTools());
  form.addEventListener('submit', (event) => event.preventDefault());
}

/** A "yes" that means danger (destructive, open world) reads as a warning, not as read-only's reassuring green. */
const RISKY: ReadonlySet<string> = new Set(['destructiveHint', 'openWorldHint']);

/** Where a hint came from, in words. */
const SOURCE_WORDS: Record<string, string> = {
  server: 'stated by the server',
  default: "the spec's worst-case default (the server said nothing)",
  override: 'your overrides file',
  evidence: 'made stricter by candor on evidence',
};

function hintCell(row: ToolRow, hint: (typeof HINTS)[number][0]): HTMLElement {
  const value = row.hints[hint];
  const defaulted = row.defaulted.includes(hint);
  return h(
    'td',
    {
      class: `hint ${value ? 'yes' : 'no'}${value && RISKY.has(hint) ? ' risky' : ''}${defaulted ? ' defaulted' : ''}`,
      title: defaulted ? 'not stated by the server: the spec default applies' : 'stated',
    },
    value ? 'yes' : 'no',
    defaulted ? h('small', {}, ' (default)') : null,
  );
}

function renderTools(rows: ToolRow[]): void {
  const head = h(
    'thead',
    {},
    h(
      'tr',
      {},
      ...[
        'Tool',
        'Title',
        ...HINTS.map(([, , label]) => label),
        'Trust',
        'Tags',
        'Visibility',
        'UI',
        'Lint findings',
        'Pin',
        '',
      ].map((t) => h('th', {}, t)),
    ),
  );
  const body = h(
    'tbody',
    {},
    ...rows.map((row) => {
      const call = h(
        'button',
        {
          type: 'button',
          'data-action': 'call',
          disabled: !row.callable,
          title: row.callable ? 'Call through the host policy' : 'App-only: its View calls it',
        },
        'Call',
      );
      call.addEventListener('click', (event) => {
        event.stopPropagation();
        void select(row.name, true);
      });
      const tr = h(
        'tr',
        { 'data-tool': row.name, tabindex: '0' },
        h('td', {}, h('code', {}, row.name)),
        h('td', {}, row.title),
        ...HINTS.map(([hint]) => hintCell(row, hint)),
        h('td', { class: row.trust }, row.trust),
        h('td', {}, row.tags.join(', ')),
        h('td', {}, row.visibility.join(' + ')),
        h('td', {}, row.resourceUri ? h('code', {}, row.resourceUri) : '—'),
        h(
          'td',
          {
            class: row.findings.error ? 'lint error' : row.findings.warning ? 'lint warning' : 'lint',
            title: "What candor lint found in this tool's definition (open the tool for the details)",
          },
          lintWords(row.findings),
        ),
        h('td', { class: `pin ${row.pin}` }, row.pin),
        h('td', {}, call),
      );
      tr.addEventListener('click', () => void select(row.name, false));
      tr.addEventListener('keydown', (event) => {
        if (event.key === 'Enter') void select(row.name, false);
      });
      return tr;
    }),
  );
  $('tools').replaceChildren(head, body);
}

function lintWords(findings: ToolRow['findings']): string {
  const parts = [
    [findings.error, 'error'],
    [findings.warning, 'warning'],
    [findings.info, 'note'],
  ]
    .filter(([count]) => (count as number) > 0)
    .map(([count, word]) => `${count} ${word}${count === 1 ? '' : 's'}`);
  return parts.length > 0 ? parts.join(', ') : 'none';
}

async function loadTools(): Promise<void> {
  const data = new FormData($('filters') as HTMLFormElement);
  const query = new URLSearchParams();
  data.forEach((value, key) => {
    if (typeof value === 'string' && value !== '' && value !== 'any') query.set(key, value);
  });
  const { tools } = await getJson<{ tools: ToolRow[] }>(`/api/tools?${query}`);
  renderTools(tools);
}

async function select(name: string, callNow: boolean): Promise<void> {
  const detail = await getJson<ToolDetail>(`/api/tool?name=${encodeURIComponent(name)}`);
  const editor = argsEditor(detail.inputSchema as never);
  const run = h(
    'button',
    { type: 'submit', 'data-action': 'call', disabled: !detail.callable },
    detail.callable ? 'Call' : 'App-only: called by its View',
  );
  const error = h('p', { class: 'error', role: 'alert' });
  const form = h('form', { class: 'call-form' }, editor.element, run, error);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    try {
      error.textContent = '';
      void call(detail, editor.args());
    } catch (problem) {
      error.textContent = (problem as Error).message;
    }
  });
  const hasRequired = ((detail.inputSchema as { required?: string[] }).required ?? []).length > 0;
  const article = h(
    'article',
    { 'data-detail': detail.name },
    h('h2', {}, detail.title, ' ', h('code', {}, detail.name)),
    h('p', { class: 'description' }, detail.description || '(no description)'),
    h(
      'p',
      { class: 'muted' },
      `Where each hint comes from: ${HINTS.map(([hint, , label]) => `${label.toLowerCase()}: ${SOURCE_WORDS[detail.hintSources[hint]] ?? detail.hintSources[hint]}`).join('; ')}.`,
      detail.requiresUserInteraction ? ' · every call is confirmed (requiresUserInteraction)' : '',
    ),
    detail.corrections.length > 0 ? h('p', { class: 'warning' }, `Tightened: ${json(detail.corrections)}`) : null,
    form,
    h('h3', {}, 'Lint'),
    detail.lint.length === 0
      ? h('p', { class: 'muted' }, 'No findings.')
      : h(
          'ul',
          { class: 'lint' },
          ...detail.lint.map((f) =>
            h(
              'li',
              { class: f.severity },
              `${f.severity} ${f.ruleId}: ${f.message}`,
              f.fix ? h('small', {}, ` Fix: ${f.fix}`) : null,
            ),
          ),
        ),
    h('h3', {}, `Pin: ${detail.pin}`),
    detail.pinChanges.length > 0
      ? h('ul', { class: 'pin-diff' }, ...detail.pinChanges.map((c) => h('li', {}, c)))
      : null,
    h('details', {}, h('summary', {}, 'Input schema'), h('pre', {}, json(detail.inputSchema))),
    detail.outputSchema
      ? h('details', {}, h('summary', {}, 'Output schema'), h('pre', {}, json(detail.outputSchema)))
      : null,
  );
  showDetail(name, article);
  if (callNow && detail.callable && !hasRequired) void call(detail, editor.args());
  else if (callNow) (form.querySelector('input, select, textarea') as HTMLElement | null)?.focus();
}

/** The detail opens in a row right under its tool's row (else, filtered out, in the side pane). */
function showDetail(name: string, article: HTMLElement): void {
  document.querySelectorAll('tr.detail-row').forEach((open) => {
    open.remove();
  });
  $('detail').replaceChildren();
  const row = Array.from(document.querySelectorAll<HTMLTableRowElement>('#tools tr[data-tool]')).find(
    (tr) => tr.dataset.tool === name,
  );
  if (!row) {
    $('detail').replaceChildren(article);
    return;
  }
  row.after(h('tr', { class: 'detail-row' }, h('td', { colspan: String(row.cells.length) }, article)));
}

async function call(detail: ToolDetail, args: Record<string, unknown>): Promise<void> {
  const callId = crypto.randomUUID();
  const card = resultCard(detail.name, 'console');
  pending.set(callId, card);
  $('results').prepend(card.element);
  try {
    const outcome = await postJson<CallOutcome>('/api/call', { tool: detail.name, args, callId });
    card.fill(outcome);
    if (outcome.status === 'ok' && detail.resourceUri) {
      await openView({
        container: $('views'),
        dialogs,
        sandboxOrigin: state.sandboxOrigin,
        tool: detail.name,
        args,
        outcome,
      });
    }
  } catch (error) {
    card.fill({ status: 'failed', message: (error as Error).message });
  } finally {
    pending.delete(callId);
  }
}

function listen(): void {
  const stream = events();
  stream.addEventListener('open', () => {
    $('connection').textContent = 'connected';
  });
  stream.addEventListener('error', () => {
    $('connection').textContent = 'reconnecting…';
  });
  stream.addEventListener('confirm', (event) =>
    confirmDialog.ask(JSON.parse((event as MessageEvent).data) as ConsoleQuestion),
  );
  stream.addEventListener('confirm-settled', (event) =>
    confirmDialog.settled((JSON.parse((event as MessageEvent).data) as { id: string }).id),
  );
  stream.addEventListener('progress', (event) => {
    const data = JSON.parse((event as MessageEvent).data) as {
      callId?: string;
      progress: number;
      total?: number;
      message?: string;
    };
    pending
      .get(data.callId ?? '')
      ?.progress(`${data.progress}${data.total ? `/${data.total}` : ''}${data.message ? ` ${data.message}` : ''}`);
  });
  stream.addEventListener('log', (event) => {
    const data = JSON.parse((event as MessageEvent).data) as { server: string; level?: string; data?: unknown };
    $('server-logs').prepend(
      h('li', {}, `${data.server} ${data.level ?? ''}: ${typeof data.data === 'string' ? data.data : json(data.data)}`),
    );
  });
  stream.addEventListener('session', (event) => addEntry(JSON.parse((event as MessageEvent).data) as SessionEntry));
  stream.addEventListener('tools-changed', () => void refresh());
}

function addEntry(entry: SessionEntry): void {
  $('session').prepend(
    h(
      'li',
      { class: entry.kind, 'data-entry': entry.kind },
      h('time', {}, entry.at.slice(11, 19)),
      ` ${entry.origin} `,
      entry.tool ? h('code', {}, entry.tool) : null,
      ` ${entry.summary}`,
    ),
  );
}

async function loadReview(): Promise<void> {
  const { items } = await getJson<{ items: ReviewItem[] }>('/api/review');
  renderReview($('review'), items, () => void refresh());
}

async function loadOffers(): Promise<void> {
  const { servers } = await getJson<{ servers: ServerOffersRow[] }>('/api/offers');
  renderOffers($('offers'), servers);
}

async function refresh(): Promise<void> {
  state = await getJson<State>('/api/state');
  renderServers();
  await loadTools();
  await loadReview();
  await loadOffers();
}

async function start(): Promise<void> {
  if (!apiToken()) {
    document.body.replaceChildren(
      h('p', { class: 'error' }, 'This page needs the token: open the full URL candor ui printed (…/#token=…).'),
    );
    return;
  }
  state = await getJson<State>('/api/state');
  renderServers();
  const all = await getJson<{ tools: ToolRow[] }>('/api/tools');
  renderFilters([...new Set(all.tools.flatMap((t) => t.tags))].sort());
  await loadTools();
  await loadReview();
  await loadOffers();
  for (const entry of (await getJson<{ entries: SessionEntry[] }>('/api/log')).entries) addEntry(entry);
  listen();
  document.body.dataset.ready = 'true';
}

start().catch((error: Error) => {
  document.body.prepend(h('p', { class: 'error', role: 'alert' }, `candor ui could not start: ${error.message}`));
});
