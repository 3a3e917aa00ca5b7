/**
 * The result guard in a worker thread: where a result's checks do not finish within the
 * slice the gateway gives them on its own thread, they run here, where they can be stopped
 * (the worker is terminated at the deadline) and where they hold up no other call.
 */
import { parentPort } from 'node:worker_threads';
import type { CallToolResult } from '../../tool/types.js';
import { type GuardedTool, guardResult } from './inspect.js';
import type { ResultGuardSettings } from './types.js';

/** A job for the worker. */
export interface GuardJob {
  id: number;
  result: CallToolResult;
  tool: GuardedTool;
  settings: ResultGuardSettings;
}

const port = parentPort;
if (port !== null) {
  port.on('message', async (job: GuardJob) => {
    try {
      port.postMessage({ id: job.id, guarded: await guardResult(job.result, job.tool, job.settings) });
    } catch (error) {
      port.postMessage({ id: job.id, error: (error as Error).message });
    }
  });
  port.postMessage({ ready: true });
}
