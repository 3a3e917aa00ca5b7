import { describe, expect, it } from 'vitest';
import { parseTrace } from './trace.js';

// Lines as strace 6.1 (Debian 12) writes them with -f -qq -s 4096.
const LINES = [
  '28154 execve("/usr/bin/node", ["node", "-e", "x"], 0x7ffef43740a8 /* 35 vars */) = 0',
  '28154 openat(AT_FDCWD, "/etc/hosts", O_RDONLY|O_CLOEXEC) = 18',
  '28154 openat(AT_FDCWD, "x.txt", O_WRONLY|O_CREAT|O_TRUNC|O_CLOEXEC, 0666) = 18',
  '28154 openat(AT_FDCWD, "missing/y.txt", O_WRONLY|O_CREAT, 0666) = -1 ENOENT (No such file or directory)',
  '28154 unlink("x.txt")                   = 0',
  '28154 connect(19, {sa_family=AF_INET, sin_port=htons(80), sin_addr=inet_addr("10.255.255.1")}, 16) = -1 ENETUNREACH (Network is unreachable)',
  '28154 connect(19, {sa_family=AF_INET, sin_port=htons(9), sin_addr=inet_addr("127.0.0.1")}, 16) = -1 EINPROGRESS (Operation now in progress)',
  '28160 renameat2(AT_FDCWD, "a.tmp", AT_FDCWD, "a.json", RENAME_NOREPLACE <unfinished ...>',
  '28154 mkdir("cache", 0777)              = 0',
  '28160 <... renameat2 resumed>)          = 0',
  '28154 unlinkat(AT_FDCWD, "cache", AT_REMOVEDIR) = 0',
  '28154 openat2(AT_FDCWD, "/tmp/app.log", {flags=O_WRONLY|O_CREAT|O_APPEND, mode=0644, resolve=0}, 24) = 3',
];

describe('parseTrace', () => {
  it('turns strace lines into effects, resolving relative paths and joining resumed calls', () => {
    const effects = parseTrace(LINES, '/work');
    expect(effects.map((e) => [e.kind, 'path' in e ? e.path : '', 'to' in e ? e.to : ''])).toEqual([
      ['exec', '/usr/bin/node', ''],
      ['write', '/work/x.txt', ''],
      ['truncate', '/work/x.txt', ''],
      ['create', '/work/x.txt', ''],
      ['delete', '/work/x.txt', ''],
      ['connect', '', ''],
      ['connect', '', ''],
      ['mkdir', '/work/cache', ''],
      ['rename', '/work/a.tmp', '/work/a.json'],
      ['rmdir', '/work/cache', ''],
      ['write', '/tmp/app.log', ''],
      ['create', '/tmp/app.log', ''],
    ]);
    const connects = effects.filter((e) => e.kind === 'connect');
    expect(connects).toMatchObject([
      { address: '10.255.255.1', port: 80, loopback: false, succeeded: false },
      { address: '127.0.0.1', port: 9, loopback: true, succeeded: true },
    ]);
  });
});
