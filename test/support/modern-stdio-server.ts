/**
 * The interop fixture served over stdio (spawned by test/engine/modern-stdio.test.ts);
 * with the argument `only`, a server that speaks only 2026-07-28 (test/engine/modern-only.test.ts).
 */
import { buildModernServer } from './modern-fixture.js';

buildModernServer({ modernOnly: process.argv[2] === 'only' }).server.stdio();
