import { homedir } from 'node:os'
import { join } from 'node:path'

/** The OS's per-user app data folder, as Electron's `app.getPath('userData')` would pick it. */
export function defaultDataDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Chainscope')
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Chainscope')
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'Chainscope')
}
