/**
 * Where clients and candor keep their files, read from this process's environment
 * (`candor setup` and `candor gateway add/remove/status` share it).
 */
import { homedir } from 'node:os';
import path from 'node:path';
import type { Place } from '../setup/types.js';

/** The home, working folder and settings folders of this process. */
export function placeHere(): Place {
  const env = process.env;
  return {
    home: homedir(),
    cwd: process.cwd(),
    platform: process.platform,
    ...(env.APPDATA ? { appData: env.APPDATA } : {}),
    ...(env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? { configHome: env.XDG_CONFIG_HOME } : {}),
  };
}

/** candor's own folder: $XDG_CONFIG_HOME/candor, ~/.config/candor, or %APPDATA%\candor. */
export function stateDir(place: Place): string {
  if (place.platform === 'win32' && place.appData) return path.join(place.appData, 'candor');
  return path.join(place.configHome ?? path.join(place.home, '.config'), 'candor');
}
