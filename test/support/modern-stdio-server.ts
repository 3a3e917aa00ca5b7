/** The interop fixture served over stdio (spawned by test/engine/modern-stdio.test.ts). */
import { buildModernServer } from './modern-fixture.js';

buildModernServer().server.stdio();
