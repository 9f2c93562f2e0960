import type { BridgeCallParsed } from '@shared/bridge/contract'
import { FILE_CHECK_MAX_CHARS, type FileCheckAnswer } from '@shared/bridge/file-check'
import { AppError } from '../util/app-error'
import type { Clock } from '../util/clock'
import type { Logger, KeyScan } from '../util/logger'

export interface FileExitOptions {
  redactor: Pick<KeyScan, 'contains'>
  log: Logger
  clock: Clock
}

/** A file whose next part has not come for this long is dropped (its tab closed mid-way). */
const STALE_MS = 5 * 60_000
/** Files being sent at once; past this the oldest is dropped. */
const MAX_OPEN = 8

interface Pending {
  parts: string[]
  chars: number
  touched: number
}

/**
 * The last exit of every file the app offers (docs/decisions/file-exit-check.md): the renderer
 * sends the final text of a download, an export or the report here, in parts, and offers it only
 * when the last part's answer says the whole file holds no API key. A file that holds the key in
 * any form the redactor knows is refused with a clear error and never offered: not redacted, since
 * a file that needed it was built from something that should never have held the key.
 */
export class FileExit {
  readonly #o: FileExitOptions
  readonly #pending = new Map<string, Pending>()

  constructor(options: FileExitOptions) {
    this.#o = options
  }

  check(input: BridgeCallParsed<'files.check'>): FileCheckAnswer {
    const now = this.#o.clock.now()
    this.#dropStale(now)
    const pending = this.#pending.get(input.id) ?? { parts: [], chars: 0, touched: now }
    if (input.part !== pending.parts.length) {
      this.#pending.delete(input.id)
      throw new AppError(
        'conflict',
        `${input.name} was not checked: its part ${input.part} came where part ${pending.parts.length} was due. Save it again.`,
        { field: 'part' },
      )
    }
    pending.parts.push(input.text)
    pending.chars += input.text.length
    pending.touched = now
    if (pending.chars > FILE_CHECK_MAX_CHARS) {
      this.#pending.delete(input.id)
      throw new AppError('invalid-input', `${input.name} is larger than ${FILE_CHECK_MAX_CHARS} characters.`, {
        field: 'text',
      })
    }
    if (!input.last) {
      this.#pending.set(input.id, pending)
      this.#keepAtMost(MAX_OPEN)
      return { checked: false }
    }
    this.#pending.delete(input.id)
    refuseWithKey(this.#o, input.name, pending.parts.join(''))
    return { checked: true }
  }

  #dropStale(now: number): void {
    for (const [id, p] of this.#pending) if (now - p.touched > STALE_MS) this.#pending.delete(id)
  }

  #keepAtMost(n: number): void {
    // A Map keeps insertion order: the first is the oldest.
    for (const id of this.#pending.keys()) {
      if (this.#pending.size <= n) break
      this.#pending.delete(id)
    }
  }
}

/**
 * Throws a clear error, and writes nothing, when a file named `name` with this text holds a
 * registered key (in any form the redactor finds). Every exit of a file calls it last.
 */
export function refuseWithKey(o: Pick<FileExitOptions, 'redactor' | 'log'>, name: string, text: string): void {
  if (!o.redactor.contains(name) && !o.redactor.contains(text)) return
  o.log.warn(`a file to be saved held a registered API key; it was refused (${name})`)
  throw new AppError(
    'invalid-input',
    `${name} was not saved: it holds this profile's API key (perhaps hidden in a name a service sent). Nothing was written. Look for the key in your notes and labels, and report the service if it sent it.`,
    { field: 'text' },
  )
}
