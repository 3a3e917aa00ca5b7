import { describe, expect, it } from 'vitest';
import { checkRemoteAddress } from './remote-address.js';

const where = { file: 'server.json', entry: 'remotes[0]' };

describe('checkRemoteAddress', () => {
  it.each([
    ['http://169.254.169.254/latest', 'linkLocal'],
    ['http://[::ffff:127.0.0.1]:8080/mcp', 'loopback'],
    ['https://10.1.2.3/mcp', 'private'],
    ['https://[fd00::1]/mcp', 'uniqueLocal'],
    ['http://localhost:3000/mcp', 'loopback'],
  ])('refuses %s, which is %s', async (url, range) => {
    await expect(checkRemoteAddress(url, where)).rejects.toThrow(`(${range}), not a public address`);
  });

  it('lets a public address through', async () => {
    await expect(checkRemoteAddress('https://8.8.8.8/mcp', where)).resolves.toBeUndefined();
  });
});
