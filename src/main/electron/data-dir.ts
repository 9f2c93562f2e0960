import { isAbsolute, join, resolve } from 'node:path'

export interface DataDirInputs {
  /** Value of the `--user-data-dir=` switch (`app.commandLine.getSwitchValue`), '' when absent. */
  switchValue: string
  env: NodeJS.ProcessEnv
  /** `app.getPath('appData')`: the OS's per-user application data folder. */
  appData: string
  cwd: string
}

export interface DataDirChoice {
  dir: string
  source: 'switch' | 'env' | 'default'
}

/**
 * The data folder: `--user-data-dir=DIR` (what Playwright and tests pass), else
 * `CHAINSCOPE_DATA_DIR` (shared with the web host), else `<appData>/Chainscope` — the folder
 * the web host's `defaultDataDir` also picks, so both hosts see the same settings.
 */
export function chooseDataDir(inputs: DataDirInputs): DataDirChoice {
  const fromSwitch = inputs.switchValue.trim()
  if (fromSwitch !== '') return { dir: absolute(fromSwitch, inputs.cwd), source: 'switch' }
  const fromEnv = (inputs.env.CHAINSCOPE_DATA_DIR ?? '').trim()
  if (fromEnv !== '') return { dir: absolute(fromEnv, inputs.cwd), source: 'env' }
  return { dir: join(inputs.appData, 'Chainscope'), source: 'default' }
}

function absolute(dir: string, cwd: string): string {
  return isAbsolute(dir) ? resolve(dir) : resolve(cwd, dir)
}
