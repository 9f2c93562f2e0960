import { createHash } from 'node:crypto'
import { readFile, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { errorMessage, isRecord } from '@shared/guards'
import { writeFileAtomic } from '../util/atomic-file'
import type { Logger } from '../util/logger'

const VERSION = 1
/** A saved answer larger than this is not read back (a receipt of 10,000 logs is about 5 MB). */
const MAX_FILE_BYTES = 16 * 1024 * 1024

const tag = (text: string, chars: number): string => createHash('sha256').update(text).digest('hex').slice(0, chars)

/**
 * Final entity answers kept on disk (`<dataDir>/entities/<profile>/<answer>.json`): a receipt,
 * a trace, a block or a contract's code read once is not paid for again after a restart. Only
 * final answers are kept (they never change); a file that does not read back as what was
 * written (damaged, another key, another version) is ignored and read again from the network.
 * Saving is an optimisation: a failed save is logged, never thrown.
 */
export class FinalAnswers {
  readonly #root: string
  readonly #log: Logger | undefined

  constructor(root: string, log?: Logger) {
    this.#root = root
    this.#log = log
  }

  #path(profileId: string, key: string): string {
    return join(this.#root, tag(`profile:${profileId}`, 16), `${tag(key, 32)}.json`)
  }

  async get(profileId: string, key: string): Promise<{ value: Record<string, unknown>; fetchedAt: number } | null> {
    const path = this.#path(profileId, key)
    try {
      if ((await stat(path)).size > MAX_FILE_BYTES) return null
      const saved: unknown = JSON.parse(await readFile(path, 'utf8'))
      if (!isRecord(saved) || saved.version !== VERSION || saved.key !== key || !isRecord(saved.value)) return null
      if (typeof saved.fetchedAt !== 'number' || !Number.isFinite(saved.fetchedAt)) return null
      return { value: saved.value, fetchedAt: saved.fetchedAt }
    } catch {
      return null // absent or unreadable: read from the network again
    }
  }

  async put(profileId: string, key: string, value: object, fetchedAt: number): Promise<void> {
    try {
      await writeFileAtomic(this.#path(profileId, key), JSON.stringify({ version: VERSION, key, fetchedAt, value }))
    } catch (error) {
      this.#log?.warn(`a final entity answer was not saved: ${errorMessage(error)}`)
    }
  }

  /** Drops what was kept for a profile (removed, or re-pointed at another service). */
  async forget(profileId: string): Promise<void> {
    await rm(join(this.#root, tag(`profile:${profileId}`, 16)), { recursive: true, force: true })
  }
}
