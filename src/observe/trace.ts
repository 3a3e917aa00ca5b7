/**
 * Reading `strace -f` output: each line `PID syscall(args) = ret`
 * becomes an effect on the system — files written, created, truncated,
 * renamed, deleted, directories made or removed, modes and owners changed,
 * programs executed, sockets connected. Only what the kernel did counts as
 * done; a failed `connect` still counts as an attempt (evidence of intent).
 * Calls split across lines (`<unfinished ...>` / `<... resumed>`) are joined.
 */
import path from 'node:path';

/** One thing a process did (or tried). */
export type TracedEffect =
  | {
      kind: 'write' | 'create' | 'truncate' | 'delete' | 'mkdir' | 'rmdir' | 'chmod' | 'chown';
      path: string;
      line: string;
    }
  | { kind: 'rename'; path: string; to: string; line: string }
  | { kind: 'exec'; path: string; line: string }
  | {
      kind: 'connect';
      family: 'inet' | 'inet6' | 'unix';
      address: string;
      port?: number;
      loopback: boolean;
      /** False when the kernel refused (ENETUNREACH in the sandbox): an attempt. */
      succeeded: boolean;
      line: string;
    };

const LINE = /^(\d+)\s+(\w+)\((.*)\)\s+=\s+(-?\d+|\?)(?:\s+(\w+))?/;

/**
 * Parse strace lines into effects; relative paths are resolved against `cwd`.
 *
 * @example
 * ```ts
 * parseTrace(['12 unlink("a.txt") = 0'], '/work'); // [{ kind: 'delete', path: '/work/a.txt', … }]
 * ```
 */
export function parseTrace(lines: Iterable<string>, cwd: string): TracedEffect[] {
  const effects: TracedEffect[] = [];
  const pending = new Map<string, string>();
  for (const raw of lines) {
    let line = raw.trimEnd();
    const unfinished = /^(\d+)\s+(.*)\s+<unfinished \.\.\.>$/.exec(line);
    if (unfinished) {
      pending.set(unfinished[1]!, `${unfinished[1]} ${unfinished[2]}`);
      continue;
    }
    const resumed = /^(\d+)\s+<\.\.\. \w+ resumed>(.*)$/.exec(line);
    if (resumed) {
      const start = pending.get(resumed[1]!);
      if (start === undefined) continue;
      pending.delete(resumed[1]!);
      line = `${start}${resumed[2]}`;
    }
    const match = LINE.exec(line);
    if (!match) continue;
    const [, , call, args, result] = match as unknown as [string, string, string, string, string];
    const ok = result !== '?' && Number(result) >= 0;
    const effect = effectOf(call!, args!, ok, cwd, line);
    if (effect) effects.push(...effect);
  }
  return effects;
}

function strings(args: string): string[] {
  return [...args.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]!.replace(/\\(.)/g, '$1'));
}

function resolve(file: string, cwd: string): string {
  return path.isAbsolute(file) ? path.normalize(file) : path.resolve(cwd, file);
}

function effectOf(call: string, args: string, ok: boolean, cwd: string, line: string): TracedEffect[] | undefined {
  const [first, second] = strings(args);
  switch (call) {
    case 'open':
    case 'openat':
    case 'openat2':
    case 'creat': {
      if (!ok || first === undefined) return undefined;
      const flags = call === 'creat' ? 'O_WRONLY|O_CREAT|O_TRUNC' : args;
      if (!/O_WRONLY|O_RDWR|O_CREAT|O_TRUNC/.test(flags)) return undefined;
      const file = resolve(first, cwd);
      const out: TracedEffect[] = [{ kind: 'write', path: file, line }];
      if (/O_TRUNC/.test(flags)) out.push({ kind: 'truncate', path: file, line });
      if (/O_CREAT/.test(flags)) out.push({ kind: 'create', path: file, line });
      return out;
    }
    case 'truncate':
      return ok && first !== undefined ? [{ kind: 'truncate', path: resolve(first, cwd), line }] : undefined;
    case 'unlink':
    case 'unlinkat':
      if (!ok || first === undefined) return undefined;
      return [{ kind: /AT_REMOVEDIR/.test(args) ? 'rmdir' : 'delete', path: resolve(first, cwd), line }];
    case 'rmdir':
      return ok && first !== undefined ? [{ kind: 'rmdir', path: resolve(first, cwd), line }] : undefined;
    case 'mkdir':
    case 'mkdirat':
      return ok && first !== undefined ? [{ kind: 'mkdir', path: resolve(first, cwd), line }] : undefined;
    case 'rename':
    case 'renameat':
    case 'renameat2':
      if (!ok || first === undefined || second === undefined) return undefined;
      return [{ kind: 'rename', path: resolve(first, cwd), to: resolve(second, cwd), line }];
    case 'chmod':
    case 'fchmodat':
      return ok && first !== undefined ? [{ kind: 'chmod', path: resolve(first, cwd), line }] : undefined;
    case 'chown':
    case 'fchownat':
    case 'lchown':
      return ok && first !== undefined ? [{ kind: 'chown', path: resolve(first, cwd), line }] : undefined;
    case 'execve':
      return ok && first !== undefined ? [{ kind: 'exec', path: first, line }] : undefined;
    case 'connect':
      return connectOf(args, ok, line);
    default:
      return undefined;
  }
}

function connectOf(args: string, ok: boolean, line: string): TracedEffect[] | undefined {
  // A non-blocking connect answers EINPROGRESS: it is under way, so it counts as done.
  const succeeded = ok || /EINPROGRESS/.test(line);
  const inet = /sa_family=AF_INET,\s*sin_port=htons\((\d+)\),\s*sin_addr=inet_addr\("([^"]+)"\)/.exec(args);
  if (inet) {
    const address = inet[2]!;
    return [
      {
        kind: 'connect',
        family: 'inet',
        address,
        port: Number(inet[1]),
        loopback: address.startsWith('127.'),
        succeeded,
        line,
      },
    ];
  }
  const inet6 = /sa_family=AF_INET6,\s*sin6_port=htons\((\d+)\).*?inet_pton\(AF_INET6,\s*"([^"]+)"/.exec(args);
  if (inet6) {
    const address = inet6[2]!;
    const loopback = address === '::1' || /^::ffff:127\./.test(address);
    return [{ kind: 'connect', family: 'inet6', address, port: Number(inet6[1]), loopback, succeeded, line }];
  }
  const unix = /sa_family=AF_UNIX,\s*sun_path=@?"([^"]*)"/.exec(args);
  if (unix) return [{ kind: 'connect', family: 'unix', address: unix[1]!, loopback: true, succeeded, line }];
  return undefined;
}
