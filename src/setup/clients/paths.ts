/** Per-OS folders clients keep their settings in. */
import path from 'node:path';
import type { Place } from '../types.js';

/**
 * The folder desktop apps keep settings in: ~/Library/Application Support (macOS),
 * %APPDATA% (Windows), $XDG_CONFIG_HOME or ~/.config (Linux and the rest).
 *
 * @example
 * ```ts
 * appSettings({ home: '/home/me', cwd: '/p', platform: 'linux' }); // '/home/me/.config'
 * ```
 */
export function appSettings(place: Place): string {
  if (place.platform === 'darwin') return path.join(place.home, 'Library', 'Application Support');
  if (place.platform === 'win32') return place.appData ?? path.join(place.home, 'AppData', 'Roaming');
  return place.configHome ?? path.join(place.home, '.config');
}
