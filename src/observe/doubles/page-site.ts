/**
 * The pages of the local page double: a small shop-like site with links, a table, a
 * search form (GET) and an order form (POST), so a browser tool has something to
 * navigate, read, click and fill. Plain HTML, no scripts, the same every run.
 */

/** A page: status, title and body HTML. */
export interface Page {
  status: number;
  title: string;
  body: string;
}

/** The items the site lists (seeded names a tool's arguments may use). */
export const PAGE_ITEMS = [
  { id: 1, name: 'Blue notebook', price: '4.50' },
  { id: 2, name: 'Red pencil', price: '0.80' },
  { id: 3, name: 'Green stapler', price: '12.00' },
] as const;

/** The paths a tool may navigate to. */
export const PAGE_PATHS = ['/', '/items/1', '/items/2', '/items/3', '/about', '/search', '/order'] as const;

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const table = (items: ReadonlyArray<(typeof PAGE_ITEMS)[number]>) =>
  `<table id="items"><thead><tr><th>Id</th><th>Name</th><th>Price</th></tr></thead><tbody>${items
    .map(
      (item) =>
        `<tr><td>${item.id}</td><td><a href="/items/${item.id}">${escapeHtml(item.name)}</a></td><td>${item.price}</td></tr>`,
    )
    .join('')}</tbody></table>`;

const nav =
  '<nav><a href="/">Home</a> · <a href="/about">About</a> · <a href="/order">Order</a></nav>' +
  '<form id="search" method="get" action="/search"><label>Search <input name="q" type="search"></label> <button type="submit">Search</button></form>';

const orderForm =
  '<form id="order" method="post" action="/order"><label>Item <select name="item">' +
  PAGE_ITEMS.map((item) => `<option value="${item.id}">${escapeHtml(item.name)}</option>`).join('') +
  '</select></label> <label>Quantity <input name="quantity" type="number" value="1"></label> ' +
  '<label>Email <input name="email" type="email"></label> <button type="submit">Place order</button></form>';

/**
 * The page for a GET (`query` is the raw query string of a search).
 *
 * @example
 * ```ts
 * pageFor('/items/1', '').title; // 'Blue notebook'
 * ```
 */
export function pageFor(path: string, query: string): Page {
  if (path === '/' || path === '/index.html') {
    return { status: 200, title: 'Stationery shop', body: `<h1>Stationery shop</h1>${nav}${table(PAGE_ITEMS)}` };
  }
  if (path === '/about') {
    return { status: 200, title: 'About', body: `<h1>About</h1>${nav}<p>A page candor serves for browser tools.</p>` };
  }
  if (path === '/order') return { status: 200, title: 'Order', body: `<h1>Order</h1>${nav}${orderForm}` };
  if (path === '/search') {
    const term = (new URLSearchParams(query).get('q') ?? '').toLowerCase();
    const found = PAGE_ITEMS.filter((item) => item.name.toLowerCase().includes(term));
    return { status: 200, title: 'Search', body: `<h1>Search</h1>${nav}<p>${found.length} found</p>${table(found)}` };
  }
  const id = path.startsWith('/items/') ? Number(path.slice('/items/'.length)) : Number.NaN;
  const item = PAGE_ITEMS.find((i) => i.id === id);
  if (item) {
    return {
      status: 200,
      title: item.name,
      body: `<h1>${escapeHtml(item.name)}</h1>${nav}<p id="price">Price: ${item.price}</p><p><a href="/order">Order it</a></p>`,
    };
  }
  return { status: 404, title: 'Not found', body: `<h1>Not found</h1>${nav}` };
}

/** The page a form submission answers with. */
export function submittedPage(): Page {
  return {
    status: 200,
    title: 'Order placed',
    body: `<h1>Order placed</h1>${nav}<p id="confirmation">Thank you: order 1001 is placed.</p>`,
  };
}

/** A page as an HTML document. */
export function html(page: Page): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(page.title)}</title></head><body>${page.body}</body></html>`;
}
