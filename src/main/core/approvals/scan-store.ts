import { join } from 'node:path'
import { z } from 'zod'
import { lowerAddressSchema } from '@shared/domain/address'
import { MAX_SAFE_BIGINT, parseHexQuantity } from '@shared/domain/amount'
import { AppError } from '../util/app-error'
import { VersionedFile, type FileFaults } from '../util/versioned-file'
import { eventsFromLogs } from './approval-events'
import { foldApprovals, type ApprovalCandidate, type GrantMark } from './approval-fold'
import { savedUint, savedVia, uintText, uintValue } from './saved-approval-parts'

const VERSION = 2

const markSchema = z.object({
  tx: z.string().min(1).max(200),
  block: z.number().int().min(0).nullable(),
  timestamp: z.string().max(64).nullable(),
  via: savedVia,
})
/** An approval as the scan's logs folded it (amounts as decimal strings: JSON has no bigint). */
const approvalSchema = z.object({
  kind: z.enum(['erc20', 'nft', 'operator']),
  token: lowerAddressSchema,
  spender: lowerAddressSchema,
  tokenId: savedUint.nullable(),
  grant: markSchema.nullable(),
  last: markSchema,
  clearedByOwner: z.boolean(),
  granted: savedUint.nullable(),
  expected: savedUint.nullable(),
})
type SavedApproval = z.infer<typeof approvalSchema>

/** A block the scanned range was read against: if its hash changed, so did the chain under the scan. */
const anchorSchema = z.object({ block: z.number().int().min(0), hash: z.string().regex(/^0x[0-9a-f]{64}$/) })
export type ChainAnchor = z.infer<typeof anchorSchema>

/**
 * Per profile, network and owner: blocks read (0..scannedTo), the chain they were read on, and
 * the approvals their logs left, one per token and spender (ERC-20), token id (ERC-721) or
 * operator. Not the logs themselves: an address's approval logs grow without bound (a bot
 * re-approving every trade), the approvals they leave only with what was ever approved.
 */
const scanSchema = z.object({
  scannedTo: z.number().int().min(-1),
  anchor: anchorSchema.nullable(),
  approvals: z.array(approvalSchema),
  /** Logs read that were not well-formed approval logs (approval-events.ts); absent before it was kept. */
  skippedLogs: z.number().int().min(0).optional(),
})

const fileSchema = z.object({ version: z.literal(VERSION), scans: z.record(z.string(), scanSchema) })
type ScanFile = z.infer<typeof fileSchema>

/** Version 1 kept the raw logs found. */
const v1Schema = z.object({
  version: z.literal(1),
  scans: z.record(z.string(), z.object({ scannedTo: z.number().int().min(-1), logs: z.array(z.unknown()) })),
})

export interface ScanProgress {
  scannedTo: number
  anchor: ChainAnchor | null
  approvals: ApprovalCandidate[]
  /** Logs the scan read and left out, not being well-formed approval logs of the owner. */
  skippedLogs: number
}

const toSaved = (c: ApprovalCandidate): SavedApproval => ({
  kind: c.kind,
  token: c.token,
  spender: c.spender,
  tokenId: uintText(c.tokenId),
  grant: c.grant && { ...c.grant },
  last: { ...c.last },
  clearedByOwner: c.clearedByOwner,
  granted: uintText(c.granted),
  expected: uintText(c.expected),
})

const mark = (m: z.infer<typeof markSchema>): GrantMark => ({ ...m })

const fromSaved = (s: SavedApproval): ApprovalCandidate => ({
  kind: s.kind,
  token: s.token,
  spender: s.spender,
  tokenId: uintValue(s.tokenId),
  maybeNft: false,
  grant: s.grant && mark(s.grant),
  last: mark(s.last),
  clearedByOwner: s.clearedByOwner,
  granted: uintValue(s.granted),
  expected: uintValue(s.expected),
})

/** The newest log's block, as the anchor of a scan saved before anchors were kept. */
function anchorOfLogs(logs: readonly unknown[]): ChainAnchor | null {
  let best: ChainAnchor | null = null
  for (const log of logs) {
    const l = (typeof log === 'object' && log !== null ? log : {}) as { blockNumber?: unknown; blockHash?: unknown }
    // A hex quantity, as the provider sent it: not "1e3" or any other text `Number` would read.
    const quantity = parseHexQuantity(l.blockNumber, MAX_SAFE_BIGINT)
    const hash = typeof l.blockHash === 'string' ? l.blockHash.toLowerCase() : ''
    if (quantity === null || !anchorSchema.shape.hash.safeParse(hash).success) continue
    const block = Number(quantity)
    if (!best || block > best.block) best = { block, hash }
  }
  return best
}

/**
 * A version 1 file: its logs are folded (the owner is the key's last part). A scan whose logs
 * name no block hash has nothing to tell its chain by, so it is dropped and the next scan
 * starts from block 0: paying again is safer than trusting blocks read on a chain since reset.
 */
function migrate(raw: { version: number }): ScanFile {
  // Parsed by its own version's schema, so a problem is named by the field that has it.
  if (raw.version === VERSION) return fileSchema.parse(raw)
  const old = v1Schema.parse(raw)
  const scans: ScanFile['scans'] = {}
  for (const [key, scan] of Object.entries(old.scans)) {
    const owner = key.slice(key.lastIndexOf('|') + 1)
    const anchor = anchorOfLogs(scan.logs)
    if (!anchor || scan.scannedTo < 0) continue
    const approvals = foldApprovals(eventsFromLogs(scan.logs, owner), new Map()).map(toSaved)
    scans[key] = { scannedTo: scan.scannedTo, anchor, approvals }
  }
  return { version: VERSION, scans }
}

/**
 * How far the complete approvals scan got, so a scan stopped (by the user, the quota reserve,
 * an error) resumes where it stopped instead of paying for the same blocks again. Saved after
 * every window, atomically with a backup (versioned-file.ts), so a crash loses one window at most.
 */
export class ScanStore {
  readonly #file: VersionedFile<ScanFile>
  readonly notice: string | null

  constructor(dataDir: string, options: FileFaults = {}) {
    this.#file = new VersionedFile<ScanFile>({
      path: join(dataDir, 'approval-scans.json'),
      version: VERSION,
      label: 'approval scans',
      migrate,
      empty: () => ({ version: VERSION, scans: {} }),
      ...options,
    })
    this.notice = this.#file.load().notice
  }

  static key(profileId: string, network: string, owner: string): string {
    return `${profileId}|${network}|${owner.toLowerCase()}`
  }

  /** A fresh copy each time: callers fold on from it. */
  get(key: string): ScanProgress | null {
    const scans = this.#file.data.scans
    const scan = Object.hasOwn(scans, key) ? scans[key] : undefined
    return scan
      ? {
          scannedTo: scan.scannedTo,
          anchor: scan.anchor && { ...scan.anchor },
          approvals: scan.approvals.map(fromSaved),
          skippedLogs: scan.skippedLogs ?? 0,
        }
      : null
  }

  /**
   * Saves one scan's progress. The scan is checked alone first, so a scan the file could not
   * hold is refused naming it, and nothing (memory or file) changes: the other scans go on.
   */
  async set(key: string, progress: ScanProgress): Promise<void> {
    const scan = scanSchema.safeParse({
      scannedTo: progress.scannedTo,
      anchor: progress.anchor,
      approvals: progress.approvals.map(toSaved),
      skippedLogs: progress.skippedLogs,
    })
    if (!scan.success)
      throw new AppError(
        'invalid-input',
        `Nothing was saved: this scan's progress would not load again (${scan.error.issues[0]?.path.map(String).join('.') ?? ''}: ${scan.error.issues[0]?.message ?? 'invalid'}).`,
      )
    await this.#file.update((file) => ({ ...file, scans: { ...file.scans, [key]: scan.data } }))
  }

  /** Forgets a scan whose chain changed under it. */
  async drop(key: string): Promise<void> {
    await this.#file.update((file) => {
      if (!Object.hasOwn(file.scans, key)) return file
      const scans = { ...file.scans }
      delete scans[key]
      return { ...file, scans }
    })
  }
}
