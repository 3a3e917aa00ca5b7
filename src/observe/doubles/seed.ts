/**
 * The default data a database double starts with: a small shop (customers,
 * products, orders, notes) in SQL that PostgreSQL, MariaDB and SQLite all
 * accept, the same as Redis keys, and the names an argument generator may
 * use (`seeds`): a tool that needs a table name, an id or a key gets one that
 * exists, so a read finds rows and a delete has something to delete.
 */
import { createHash } from 'node:crypto';

const CUSTOMERS = [
  [1, 'Ada Lovelace', 'ada@example.com'],
  [2, 'Alan Turing', 'alan@example.com'],
  [3, 'Grace Hopper', 'grace@example.com'],
] as const;

const PRODUCTS = [
  [1, 'notebook', 'A5 dotted notebook', 4.5],
  [2, 'pencil', 'HB pencil', 0.8],
  [3, 'lamp', 'Desk lamp', 24.0],
] as const;

const ORDERS = [
  [1, 1, 1, 2, 'shipped'],
  [2, 2, 3, 1, 'pending'],
  [3, 3, 2, 10, 'pending'],
] as const;

const NOTES = [
  [1, 'welcome', 'Seeded by candor for observing a server.'],
  [2, 'todo', 'Restock pencils.'],
] as const;

const quote = (value: string | number) => (typeof value === 'number' ? String(value) : `'${value}'`);
const rows = (list: ReadonlyArray<ReadonlyArray<string | number>>) =>
  list.map((row) => `(${row.map(quote).join(', ')})`).join(',\n  ');

/** The seed as SQL every database double runs (plain types and syntax the three dialects share). */
export const SEED_SQL = `CREATE TABLE customers (id INTEGER PRIMARY KEY, name VARCHAR(100) NOT NULL, email VARCHAR(200));
CREATE TABLE products (id INTEGER PRIMARY KEY, name VARCHAR(100) NOT NULL, description VARCHAR(200), price DECIMAL(10,2));
CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL, product_id INTEGER NOT NULL, quantity INTEGER NOT NULL, status VARCHAR(20) NOT NULL);
CREATE TABLE notes (id INTEGER PRIMARY KEY, title VARCHAR(100) NOT NULL, body TEXT);
INSERT INTO customers (id, name, email) VALUES
  ${rows(CUSTOMERS)};
INSERT INTO products (id, name, description, price) VALUES
  ${rows(PRODUCTS)};
INSERT INTO orders (id, customer_id, product_id, quantity, status) VALUES
  ${rows(ORDERS)};
INSERT INTO notes (id, title, body) VALUES
  ${rows(NOTES)};
`;

/** Names the seed in a template's name: a changed seed makes new templates, never reuses old ones. */
export const SEED_TAG = createHash('sha256').update(SEED_SQL).digest('hex').slice(0, 10);

/** The seed as Redis commands: one hash per customer and product, a list, a counter, a set. */
export const SEED_REDIS: ReadonlyArray<readonly string[]> = [
  ...CUSTOMERS.map(([id, name, email]) => ['HSET', `customer:${id}`, 'name', name, 'email', email]),
  ...PRODUCTS.map(([id, name, description, price]) => [
    'HSET',
    `product:${id}`,
    'name',
    name,
    'description',
    description,
    'price',
    String(price),
  ]),
  ['RPUSH', 'orders:pending', '2', '3'],
  ['SET', 'counter:visits', '42'],
  ['SADD', 'tags', 'stationery', 'lighting'],
  ...NOTES.map(([id, title, body]) => ['SET', `note:${title}`, `${id}: ${body}`]),
];

const SQL_SEEDS: Record<string, string[]> = {
  table: ['customers', 'products', 'orders', 'notes'],
  column: ['id', 'name', 'email', 'status', 'title'],
  id: ['1', '2', '3'],
  name: CUSTOMERS.map(([, name]) => name),
  email: CUSTOMERS.map(([, , email]) => email),
  product: PRODUCTS.map(([, name]) => name),
  status: ['pending', 'shipped'],
  query: ['SELECT id, name, email FROM customers ORDER BY id'],
  // A statement property goes by these names as often as by `query` (the reference PostgreSQL server's `sql`).
  sql: ['SELECT id, name, email FROM customers ORDER BY id'],
  statement: ['SELECT id, name, email FROM customers ORDER BY id'],
};

/**
 * The names a SQL double's seed holds, for argument generation (`table`, `id`, `name`, …),
 * with the schema the database calls its own.
 */
export function sqlSeeds(schema: string, database: string): Record<string, string[]> {
  return { ...SQL_SEEDS, schema: [schema], database: [database] };
}

/** The names the Redis seed holds: keys, and the patterns they follow. */
export const REDIS_SEEDS: Record<string, string[]> = {
  key: [...new Set(SEED_REDIS.map(([, key]) => key!))],
  pattern: ['customer:*', 'product:*', 'note:*'],
  id: ['1', '2', '3'],
  name: CUSTOMERS.map(([, name]) => name),
};
