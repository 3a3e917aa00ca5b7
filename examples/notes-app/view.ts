/**
 * The notes View: one HTML document, no dependencies, no network. It speaks the
 * MCP Apps JSON-RPC dialect over `postMessage` by hand (ui/initialize, the
 * tool-input and tool-result notifications, tools/call, size-changed), which
 * keeps the resource small and readable.
 */
export const NOTES_VIEW_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Notes</title>
<style>
  :root { color-scheme: light dark; --fg: #1d1d1f; --bg: #ffffff; --muted: #6e6e73; --line: #d2d2d7; --accent: #0b57d0; }
  :root[data-theme="dark"] { --fg: #f5f5f7; --bg: #1c1c1e; --muted: #a1a1a6; --line: #3a3a3c; --accent: #8ab4f8; }
  body { margin: 0; padding: 12px 14px; font: 14px/1.4 system-ui, sans-serif; color: var(--fg); background: var(--bg); }
  h1 { font-size: 15px; margin: 0 0 8px; }
  ul { list-style: none; padding: 0; margin: 0 0 10px; }
  li { padding: 6px 0; border-bottom: 1px solid var(--line); }
  li small { color: var(--muted); margin-right: 6px; }
  .add { display: flex; gap: 6px; }
  input { flex: 1; padding: 5px 7px; border: 1px solid var(--line); border-radius: 6px; background: transparent; color: inherit; }
  button { padding: 5px 12px; border: 0; border-radius: 6px; background: var(--accent); color: #fff; cursor: pointer; }
  #status { color: var(--muted); font-size: 12px; min-height: 1.4em; margin-top: 6px; }
</style>
</head>
<body>
<h1>Notes</h1>
<ul id="notes"><li><small>waiting for the host…</small></li></ul>
<div class="add">
  <input id="text" name="text" placeholder="A new note" maxlength="500" aria-label="A new note">
  <button id="add" type="button">Add</button>
</div>
<div id="status" role="status"></div>
<script>
(() => {
  let nextId = 1;
  const pending = new Map();
  const post = (message) => window.parent.postMessage(message, '*');
  const request = (method, params) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      post({ jsonrpc: '2.0', id, method, params });
    });
  const notify = (method, params) => post({ jsonrpc: '2.0', method, params });
  const status = (text) => { document.getElementById('status').textContent = text; };

  const render = (notes) => {
    const list = document.getElementById('notes');
    list.replaceChildren();
    if (!Array.isArray(notes) || notes.length === 0) {
      const li = document.createElement('li');
      li.textContent = 'No notes yet.';
      list.append(li);
    } else {
      for (const note of notes) {
        const li = document.createElement('li');
        li.dataset.note = String(note.id);
        const id = document.createElement('small');
        id.textContent = '#' + note.id;
        li.append(id, document.createTextNode(String(note.text)));
        list.append(li);
      }
    }
    sendSize();
  };
  const fromResult = (result) => {
    const notes = result && result.structuredContent && result.structuredContent.notes;
    if (notes) render(notes);
  };
  const sendSize = () => {
    const box = document.documentElement.getBoundingClientRect();
    notify('ui/notifications/size-changed', { width: Math.ceil(box.width), height: Math.ceil(box.height) });
  };
  const applyContext = (context) => {
    if (context && (context.theme === 'dark' || context.theme === 'light')) document.documentElement.dataset.theme = context.theme;
  };

  window.addEventListener('message', (event) => {
    if (event.source !== window.parent) return;
    const message = event.data;
    if (!message || message.jsonrpc !== '2.0') return;
    if (message.id !== undefined && !message.method) {
      const waiter = pending.get(message.id);
      if (!waiter) return;
      pending.delete(message.id);
      if (message.error) waiter.reject(new Error(message.error.message));
      else waiter.resolve(message.result);
      return;
    }
    if (message.method === 'ui/notifications/tool-result') fromResult(message.params);
    else if (message.method === 'ui/notifications/host-context-changed') applyContext(message.params);
    else if (message.id !== undefined) {
      // ping, ui/resource-teardown: nothing to clean up, answer at once.
      post({ jsonrpc: '2.0', id: message.id, result: {} });
    }
  });

  /** Call a tool of this View's server through the host; resolves to the result or rejects with the host's refusal. */
  window.callTool = (name, args) => request('tools/call', { name, arguments: args || {} });

  // A button, not a form: hosts sandbox Views without allow-forms, which blocks form submission.
  const add = async () => {
    const input = document.getElementById('text');
    const text = input.value.trim();
    if (!text) return;
    status('Adding…');
    try {
      const result = await window.callTool('add_note', { text });
      if (result.isError) status('The server said: ' + ((result.content && result.content[0] && result.content[0].text) || 'error'));
      else { input.value = ''; status('Added.'); fromResult(result); }
    } catch (error) {
      status('Refused: ' + error.message);
    }
  };
  document.getElementById('add').addEventListener('click', add);
  document.getElementById('text').addEventListener('keydown', (event) => {
    if (event.key === 'Enter') add();
  });

  new ResizeObserver(sendSize).observe(document.body);
  request('ui/initialize', {
    appInfo: { name: 'candor-notes-view', version: '0.1.0' },
    appCapabilities: {},
    protocolVersion: '2026-01-26',
  }).then((result) => {
    applyContext(result && result.hostContext);
    notify('ui/notifications/initialized', {});
  }, (error) => status('The host refused to initialise: ' + error.message));
})();
</script>
</body>
</html>
`;
