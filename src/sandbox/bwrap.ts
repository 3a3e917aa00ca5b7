/**
 * A sandbox plan as bubblewrap arguments (one sandbox for observe and the
 * gateway). Always: the whole filesystem read-only, a fresh /dev and /proc, its own
 * PID namespace (every process the program starts dies with it: when bwrap's init
 * exits the kernel kills the rest), --die-with-parent (it dies with whoever started
 * it), and its own user namespace with no capabilities: bwrap run by root otherwise
 * keeps every capability, and the program could unmount what hides the real HOME.
 */
import type { SandboxPlan } from './types.js';

/** The bwrap arguments that run `plan`; the program is `bwrap`. */
export function bwrapArgs(plan: SandboxPlan): string[] {
  const args = ['--die-with-parent', '--unshare-user', '--cap-drop', 'ALL'];
  for (const cap of plan.keepCapabilities ?? []) args.push('--cap-add', cap);
  if (plan.network === 'loopback') args.push('--unshare-net');
  args.push('--unshare-pid', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc');
  for (const dir of plan.hide ?? []) args.push('--tmpfs', dir);
  for (const dir of plan.read ?? []) args.push('--ro-bind', dir, dir);
  for (const dir of plan.write ?? []) args.push('--bind', dir, dir);
  for (const [source, inside] of plan.mounts ?? []) args.push('--ro-bind', source, inside);
  if (plan.chdir) args.push('--chdir', plan.chdir);
  if (plan.clearEnv) args.push('--clearenv');
  for (const [name, value] of Object.entries(plan.env ?? {})) args.push('--setenv', name, value);
  args.push('--', plan.command, ...plan.args);
  return args;
}
