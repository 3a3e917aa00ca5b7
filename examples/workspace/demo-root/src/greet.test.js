import assert from 'node:assert/strict';
import { test } from 'node:test';
import { farewell, greet } from './greet.js';

test('greet says hello', () => {
  assert.equal(greet('Ada'), 'Hello, Ada!');
});

test('farewell says goodbye', () => {
  assert.equal(farewell('Ada'), 'Goodbye, Ada.');
});
