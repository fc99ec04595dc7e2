import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Where `gauntlet scan` keeps its scans unless told: the per-user data folder of the platform
 * (XDG on Linux, Application Support on macOS, LOCALAPPDATA on Windows).
 */
export function defaultDataDir(env: Record<string, string | undefined>, platform: NodeJS.Platform = process.platform, home = homedir()): string {
  if (env.GAUNTLET_DATA_DIR) return env.GAUNTLET_DATA_DIR;
  if (platform === 'win32') return join(env.LOCALAPPDATA || join(home, 'AppData', 'Local'), 'gauntlet');
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'gauntlet');
  return join(env.XDG_DATA_HOME || join(home, '.local', 'share'), 'gauntlet');
}
