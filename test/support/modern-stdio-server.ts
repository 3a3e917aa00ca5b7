/** The interop fixture served over stdio (spawned by test/modern-stdio.test.ts). */
import { buildModernServer } from './modern-fixture.js';

buildModernServer().server.stdio();
