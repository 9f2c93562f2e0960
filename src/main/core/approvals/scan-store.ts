import { join } from 'node:path'
import { z } from 'zod'
import { VersionedFile } from '../util/versioned-file'

const VERSION = 1

/** Per profile, network and owner: blocks read by the log scan (0..scannedTo) and the logs found (raw, few). */
const scanSchema = z.object({
  scannedTo: z.number().int().min(-1),
  logs: z.array(z.unknown()).max(100_000),
})
export type ScanProgress = z.infer<typeof scanSchema>

const fileSchema = z.object({ version: z.literal(VERSION), scans: z.record(z.string(), scanSchema) })
type ScanFile = z.infer<typeof fileSchema>

/**
 * How far the complete approvals scan got, so a scan stopped (by the user, the quota reserve,
 * an error) resumes where it stopped instead of paying for the same blocks again. Saved after
 * every window, atomically with a backup (versioned-file.ts), so a crash loses one window at most.
 */
export class ScanStore {
  readonly #file: VersionedFile<ScanFile>
  readonly #data: ScanFile
  readonly notice: string | null

  constructor(dataDir: string) {
    this.#file = new VersionedFile<ScanFile>({
      path: join(dataDir, 'approval-scans.json'),
      version: VERSION,
      label: 'approval scans',
      migrate: (raw) => fileSchema.parse(raw),
      empty: () => ({ version: VERSION, scans: {} }),
    })
    const loaded = this.#file.load()
    this.#data = loaded.data
    this.notice = loaded.notice
  }

  static key(profileId: string, network: string, owner: string): string {
    return `${profileId}|${network}|${owner.toLowerCase()}`
  }

  get(key: string): ScanProgress | null {
    return this.#data.scans[key] ?? null
  }

  set(key: string, progress: ScanProgress): void {
    this.#data.scans[key] = progress
    this.#file.save(this.#data)
  }
}
