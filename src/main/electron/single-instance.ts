import { app } from 'electron'
import { userArgs } from './launch-args'
import { isRecord } from '@shared/guards'

export interface SingleInstanceOptions {
  /** This launch's own arguments, handed to the first instance if one runs. */
  args: string[]
  /** In the first instance: a second launch happened with these arguments. */
  onSecondInstance: (args: string[]) => void
}

/** Most arguments a second launch may hand over, and their longest length. */
const MAX_ARGS = 32
const MAX_ARG_LENGTH = 1024

/**
 * One Chainscope per data folder (the lock is keyed by `userData`). Returns false in a second
 * instance, which should quit: its arguments have been passed to the first. The arguments go
 * as `additionalData` too, because Chromium may reorder or extend the raw argv it forwards.
 */
export function claimSingleInstance(options: SingleInstanceOptions): boolean {
  if (!app.requestSingleInstanceLock({ chainscopeArgs: options.args })) return false
  app.on('second-instance', (_event, argv, _cwd, additionalData) => {
    options.onSecondInstance(forwardedArgs(additionalData) ?? userArgs(argv, process.defaultApp === true))
  })
  return true
}

/** The args a second instance sent, if well-formed; data from another process is checked first. */
export function forwardedArgs(additionalData: unknown): string[] | null {
  if (!isRecord(additionalData)) return null
  const args = additionalData.chainscopeArgs
  if (!Array.isArray(args) || args.length > MAX_ARGS) return null
  if (!args.every((a): a is string => typeof a === 'string' && a.length <= MAX_ARG_LENGTH)) return null
  return args
}
