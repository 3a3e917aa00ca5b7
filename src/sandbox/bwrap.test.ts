import { describe, expect, it } from 'vitest';
import { bwrapArgs } from './bwrap.js';

describe('bwrapArgs', () => {
  it('puts hides before binds so a bound folder shows through a hidden one, and the program last', () => {
    const args = bwrapArgs({
      network: 'loopback',
      hide: ['/home'],
      read: ['/home/u/pkg'],
      write: ['/home/u/out'],
      chdir: '/home/u/pkg',
      clearEnv: true,
      env: { PATH: '/usr/bin' },
      command: 'node',
      args: ['server.js'],
    });
    expect(args.slice(0, 6)).toEqual([
      '--die-with-parent',
      '--unshare-user',
      '--cap-drop',
      'ALL',
      '--unshare-net',
      '--unshare-pid',
    ]);
    expect(args.indexOf('--tmpfs')).toBeLessThan(args.indexOf('--bind'));
    expect(args.join(' ')).toContain('--ro-bind /home/u/pkg /home/u/pkg --bind /home/u/out /home/u/out');
    expect(args.slice(-6)).toEqual(['--setenv', 'PATH', '/usr/bin', '--', 'node', 'server.js']);
  });

  it('drops every capability, also for observe and when run as root, keeping only those asked', () => {
    const args = bwrapArgs({
      network: 'loopback',
      keepCapabilities: ['CAP_NET_BIND_SERVICE'],
      command: 'true',
      args: [],
    });
    expect(args.join(' ')).toContain('--unshare-user --cap-drop ALL --cap-add CAP_NET_BIND_SERVICE');
  });

  it('keeps the host network only when asked', () => {
    expect(bwrapArgs({ network: 'host', command: 'true', args: [] })).not.toContain('--unshare-net');
  });
});
