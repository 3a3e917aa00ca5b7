/**
 * The quiet period after a call, ended by what the sandbox's processes are doing
 * rather than by the clock alone. A call's late effects (a write the tool did not
 * await, a child still running, a timer due soon) can only come from a thread that
 * is running or will wake by itself: once every thread of every process in the
 * sandbox sleeps in a wait with no deadline (or one past the quiet period), nothing
 * can happen until the next request, and the period ends early. Anything this
 * cannot read (another platform, a sleep whose deadline sits in the process's memory,
 * a /proc it may not see) keeps the whole period, as before.
 *
 * Read from /proc (proc(5)): `task/<tid>/children` for the process tree,
 * `task/<tid>/stat` for the state, `task/<tid>/syscall` for the blocking system call
 * and its arguments, `task/<tid>/schedstat` (else `status`) to tell whether a thread
 * ran between two readings.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** How a blocking system call ends by itself: never, after an `int` of milliseconds, or after a `struct timespec *` (NULL: never). */
type Wait = { never: true } | { msArg: number } | { timespecArg: number };

const NEVER: Wait = { never: true };

/**
 * The waits a quiet program sleeps in, by system call number. x86_64 from
 * arch/x86/entry/syscalls/syscall_64.tbl; arm64 from the generic table
 * (include/uapi/asm-generic/unistd.h).
 */
const WAITS: Record<string, Record<number, Wait>> = {
  x64: {
    0: NEVER, // read
    7: { msArg: 2 }, // poll
    23: { timespecArg: 4 }, // select (a timeval: NULL is never)
    34: NEVER, // pause
    43: NEVER, // accept
    45: NEVER, // recvfrom
    47: NEVER, // recvmsg
    61: NEVER, // wait4
    130: NEVER, // rt_sigsuspend
    202: { timespecArg: 3 }, // futex
    232: { msArg: 3 }, // epoll_wait
    247: NEVER, // waitid
    270: { timespecArg: 4 }, // pselect6
    271: { timespecArg: 2 }, // ppoll
    281: { msArg: 3 }, // epoll_pwait
    288: NEVER, // accept4
    441: { timespecArg: 3 }, // epoll_pwait2
  },
  arm64: {
    22: { msArg: 3 }, // epoll_pwait
    63: NEVER, // read
    72: { timespecArg: 4 }, // pselect6
    73: { timespecArg: 2 }, // ppoll
    95: NEVER, // waitid
    98: { timespecArg: 3 }, // futex
    133: NEVER, // rt_sigsuspend
    202: NEVER, // accept
    207: NEVER, // recvfrom
    212: NEVER, // recvmsg
    242: NEVER, // accept4
    260: NEVER, // wait4
    441: { timespecArg: 3 }, // epoll_pwait2
  },
};

/** One thread as read from /proc. */
export interface ThreadState {
  /** The state letter of `stat` (`S` sleeping, `R` running, `t` stopped by its tracer…). */
  state: string;
  /** The `syscall` line: `running`, or the number and arguments of the call it blocks in. */
  syscall: string;
  /** Changes whenever the thread runs (its count of times on a CPU). */
  runs: string;
}

/** Every thread of a process tree at one moment, by thread id, and when it was read. */
export interface TreeReading {
  at: number;
  threads: Map<string, ThreadState>;
}

const read = (file: string): string | undefined => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
};

/** A count that changes whenever the thread runs: its times on a CPU (`schedstat`), else its context switches (`status`). */
function runsOf(dir: string): string | undefined {
  const schedstat = read(`${dir}/schedstat`);
  if (schedstat !== undefined) return schedstat.trim().split(' ')[2];
  return read(`${dir}/status`)
    ?.split('\n')
    .filter((line) => line.includes('ctxt_switches'))
    .join(' ');
}

/** The threads of `pid` and of every process below it; undefined when /proc does not show them. */
export function readTree(pid: number): TreeReading | undefined {
  const at = Date.now();
  const threads = new Map<string, ThreadState>();
  const pending = [String(pid)];
  while (pending.length > 0) {
    const owner = pending.pop()!;
    let tids: string[];
    try {
      tids = readdirSync(`/proc/${owner}/task`);
    } catch {
      continue; // Gone: a process that ended does nothing more.
    }
    for (const tid of tids) {
      const dir = `/proc/${owner}/task/${tid}`;
      const stat = read(`${dir}/stat`);
      if (stat === undefined) continue; // The thread ended between the listing and the read.
      const syscall = read(`${dir}/syscall`)?.trim();
      const children = read(`${dir}/children`);
      const runs = runsOf(dir);
      if (syscall === undefined || children === undefined || runs === undefined) return undefined;
      const close = stat.lastIndexOf(')');
      threads.set(tid, { state: stat.charAt(close + 2), syscall, runs });
      pending.push(...children.split(' ').filter(Boolean));
    }
  }
  return { at, threads };
}

/** An argument of a `syscall` line as a signed 32-bit `int` (how the kernel reads an `int` timeout). */
function intArg(fields: readonly string[], index: number): number {
  return Number(BigInt.asIntN(32, BigInt(fields[index + 1] ?? '0')));
}

/**
 * Whether a thread will stay asleep until `until` unless something else wakes it:
 * asleep in a wait that never ends by itself, or in one with a timeout in
 * milliseconds that began after `began` (a time) and lasts past `until`.
 *
 * @example
 * ```ts
 * asleepUntil({ state: 'S', syscall: '232 0x3 0x7ffd 0x400 0xffffffff', runs: '7' }, { arch: 'x64', until: Date.now() + 150 }); // true
 * ```
 */
export function asleepUntil(thread: ThreadState, options: { arch: string; until: number; began?: number }): boolean {
  if (thread.state === 'Z' || thread.state === 'X') return true; // Exited: a zombie only waits to be reaped.
  if (thread.state !== 'S') return false;
  const fields = thread.syscall.split(' ');
  if (!/^\d+$/.test(fields[0] ?? '')) return false;
  const wait = WAITS[options.arch]?.[Number(fields[0])];
  if (wait === undefined) return false;
  if ('never' in wait) return true;
  if ('timespecArg' in wait) return BigInt(fields[wait.timespecArg + 1] ?? '1') === 0n;
  const ms = intArg(fields, wait.msArg);
  if (ms < 0) return true;
  return options.began !== undefined && options.began + ms >= options.until;
}

/** Whether two readings show the same threads in the same waits, none of which ran in between. */
function same(a: TreeReading, b: TreeReading): boolean {
  if (a.threads.size !== b.threads.size) return false;
  for (const [tid, thread] of a.threads) {
    const other = b.threads.get(tid);
    if (other?.state !== thread.state || other.syscall !== thread.syscall || other.runs !== thread.runs) return false;
  }
  return true;
}

/**
 * How long after a call a timer may still be its work (a queue of writes flushed every
 * second): when nothing runs but such a timer, the quiet period waits for it, this long at most.
 */
export const LATE_MS = 1000;

const POLL_MS = 3;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/**
 * The processes of one sandbox, read again and again. Each thread's current sleep
 * began after the last reading that saw it run less (or not at all): that time bounds
 * when a timer it sleeps on can fire.
 */
export class QuietWatch {
  readonly #pid: number | undefined;
  readonly #arch: string;
  #last: number | undefined;
  /** Per thread: its run count, and the time of the reading before the one that first saw that count. */
  readonly #since = new Map<string, { runs: string; after: number | undefined }>();

  /** `pid`: the sandbox's first process; `arch`: `process.arch` unless testing another table. */
  constructor(pid: number | undefined, arch: string = process.arch) {
    this.#pid = pid;
    this.#arch = arch;
  }

  /** Read every thread now and remember when each began what it is doing. */
  read(): TreeReading | undefined {
    if (this.#pid === undefined || WAITS[this.#arch] === undefined) return undefined;
    const reading = readTree(this.#pid);
    if (reading === undefined) return undefined;
    for (const [tid, thread] of reading.threads) {
      if (this.#since.get(tid)?.runs !== thread.runs) this.#since.set(tid, { runs: thread.runs, after: this.#last });
    }
    for (const tid of this.#since.keys()) if (!reading.threads.has(tid)) this.#since.delete(tid);
    this.#last = reading.at;
    return reading;
  }

  /** Whether every thread of a reading stays asleep until `until`. */
  #settled(reading: TreeReading, until: number): boolean {
    for (const [tid, thread] of reading.threads) {
      const began = this.#since.get(tid)?.after;
      if (!asleepUntil(thread, { arch: this.#arch, until, ...(began === undefined ? {} : { began }) })) return false;
    }
    return true;
  }

  /** Whether every thread sleeps in a wait this table knows (with or without a timer): nothing runs now. */
  #idle(reading: TreeReading): boolean {
    // A timer due at any time counts as asleep: began and until put no bound on it.
    for (const thread of reading.threads.values())
      if (!asleepUntil(thread, { arch: this.#arch, until: Number.NEGATIVE_INFINITY, began: 0 })) return false;
    return true;
  }

  /**
   * Wait for the quiet period after a request. It ends early, once two readings in a
   * row show every thread asleep with nothing due before `late` (at or after `until`).
   * Else it lasts until `until`, or until `late` when nothing runs but timers: a timer
   * due within that time may carry the request's deferred work (a queue of writes a
   * server flushes every second), which then lands in this call, not in whichever call
   * the flush falls. Returns how the wait ended.
   *
   * @example
   * ```ts
   * const watch = new QuietWatch(transport.pid);
   * watch.read(); // before the fence request
   * await fence();
   * await watch.settle(Date.now() + 150, Date.now() + 1000); // 'quiet' within a few ms for an idle server
   * ```
   */
  async settle(until: number, late = until): Promise<'quiet' | 'time'> {
    let timers = false;
    for (;;) {
      const first = this.read();
      if (first === undefined) break;
      if (this.#settled(first, Math.max(until, late))) {
        const second = this.read();
        if (second !== undefined && same(first, second)) return 'quiet';
      } else if (!timers && this.#idle(first)) timers = true;
      const end = timers ? Math.max(until, late) : until;
      const left = end - Date.now();
      if (left <= 0) return 'time';
      await sleep(Math.min(POLL_MS, left));
    }
    await sleep(until - Date.now());
    return 'time';
  }
}
