/**
 * The network allow-list's listeners inside a Node server's own process:
 * `node --import <this file> server.js …` in the sandbox, with the rules in
 * CANDOR_SANDBOX_FORWARD. The server's main module starts only once every listener
 * listens (a preloaded module's top-level await), so even its first connection finds
 * them, and no second Node process is started (a Node start-up, ~40 ms, saved). The
 * variable is removed before the server runs, so processes it forks or workers it
 * starts (which inherit `--import`) do nothing. Imports only Node's own modules.
 */
import { FORWARD_RULES_ENV, type ForwardRule, listenForwards } from './forwarding.js';

const rules = process.env[FORWARD_RULES_ENV];
delete process.env[FORWARD_RULES_ENV];
if (rules !== undefined) {
  try {
    await listenForwards(JSON.parse(rules) as ForwardRule[]);
  } catch (error) {
    process.stderr.write(`candor sandbox: cannot listen for the network allow-list: ${(error as Error).message}\n`);
    process.exit(1);
  }
}
