import { join } from 'node:path'
import { z } from 'zod'
import type { WatchDelta, WatchStatus } from '@shared/bridge/contract'
import { AppError } from '../util/app-error'
import { VersionedFile, type FileFaults } from '../util/versioned-file'
import { DiskReports } from '../util/disk-error'

/**
 * What the watch check remembers, in its own file `<dataDir>/watch-state.json` (schema 1),
 * beside the watchlists file, which stays exactly as it was (older Chainscopes keep reading
 * it). Per profile, because two providers may disagree: per network the last checked block;
 * per (network, address) the last nonce and coin balance (what a check compares with) and what
 * changed since the user last looked. Amounts are decimal strings, read as bigint.
 */
const WATCH_STATE_VERSION = 1

/**
 * The bounds of the amounts, from what the chain can give. A nonce and a balance are read with
 * `parseHexQuantity` (at most 64 hex digits): each is a uint256. A token delta is a signed sum
 * of log amounts, each a uint256 word, over every check since the last look: n words give less
 * than n · 2^256, and no node can send 2^64 words (2^69 bytes), so |delta| < 2^320 (97
 * digits). `addTokenDelta` saturates at that bound rather than ever writing a longer number.
 */
const UINT256_MAX = 2n ** 256n - 1n
export const TOKEN_DELTA_MAX = 2n ** 320n - 1n

const uint256 = z
  .string()
  .regex(/^(0|[1-9]\d{0,77})$/, 'expected a whole number of at most 78 digits')
  .refine((s) => BigInt(s) <= UINT256_MAX, 'expected at most 2^256 - 1')
const tokenDelta = z
  .string()
  .regex(/^-?(0|[1-9]\d{0,96})$/, 'expected a signed whole number of at most 97 digits')
  .refine((s) => (s.startsWith('-') ? -BigInt(s) : BigInt(s)) <= TOKEN_DELTA_MAX, 'expected less than 2^320')

/** `previous` + `amount`, held within ±TOKEN_DELTA_MAX. */
export function addTokenDelta(previous: string | undefined, amount: bigint): string {
  const sum = BigInt(previous ?? '0') + amount
  const held = sum > TOKEN_DELTA_MAX ? TOKEN_DELTA_MAX : sum < -TOKEN_DELTA_MAX ? -TOKEN_DELTA_MAX : sum
  return held.toString()
}

const addressState = z.object({
  nonce: uint256,
  balanceWei: uint256,
  checkedAt: z.string(),
  /** The block of the last look (baseline or mark seen): transactions after it are new. */
  lookBlock: z.number().int().min(0),
  lookBalanceWei: uint256,
  newTxs: z.number().int().min(0),
  newTxsMore: z.boolean(),
  /** Token deltas since the last look, keyed `<standard>|<token>`. */
  tokenDeltas: z.record(z.string(), tokenDelta),
  /**
   * The address's token balances as the check last accounted for them, keyed like
   * `tokenDeltas` (ERC-1155 ids and ERC-721 items summed per token): what the `balances` way
   * compares the data API's answer with. Absent until the check first read them.
   */
  tokens: z.record(z.string(), tokenDelta).optional(),
  /** Symbol and decimals of the tokens in `tokenDeltas`, from the refetched balances (absent in older files). */
  tokenMeta: z
    .record(
      z.string(),
      z.object({ symbol: z.string().max(40).nullable(), decimals: z.number().int().min(0).max(255).nullable() }),
    )
    .optional(),
  unseen: z.boolean(),
})
export type AddressState = z.infer<typeof addressState>

/** Most unread ranges kept per network (watch-unread.ts merges the oldest beyond it). */
export const MAX_UNREAD_RANGES = 32

const blockRange = z
  .object({ from: z.number().int().min(0), to: z.number().int().min(0) })
  .refine((r) => r.from <= r.to, 'expected from <= to')

/**
 * Per network: every block up to `checkedBlock` was read, except `unread` (a check cut short
 * reads the newest blocks first and leaves older ones here; the next check reads them).
 */
const networkState = z.object({
  checkedBlock: z.number().int().min(0),
  unread: z.array(blockRange).max(MAX_UNREAD_RANGES).optional(),
})
export type NetworkWatchState = z.infer<typeof networkState>

const profileState = z.object({
  periodic: z.boolean(),
  budgetFraction: z.number().min(0.001).max(0.5),
  networks: z.record(z.string(), networkState),
  addresses: z.record(z.string(), addressState),
})
export type ProfileWatchState = z.infer<typeof profileState>

const fileSchema = z.object({ version: z.literal(1), profiles: z.record(z.string(), profileState) })
type WatchStateFile = z.infer<typeof fileSchema>

const DEFAULT_WATCH_BUDGET = 0.05
const WHAT = 'watch check state'

export const stateKey = (network: string, address: string): string => `${network}|${address.toLowerCase()}`

/** The one writer of watch-state.json. */
export class WatchStateStore {
  readonly #file: VersionedFile<WatchStateFile>
  /** States kept for the session that the file has not taken yet (being written, or refused by the disk). */
  readonly #unsaved = new Map<string, ProfileWatchState>()
  readonly notice: string | null
  readonly #disk: DiskReports

  /** `disk`: where a failed write is told (the app's notices); by default nowhere. */
  constructor(dataDir: string, disk: DiskReports = new DiskReports(() => undefined), faults: FileFaults = {}) {
    this.#disk = disk
    this.#file = new VersionedFile<WatchStateFile>({
      path: join(dataDir, 'watch-state.json'),
      version: WATCH_STATE_VERSION,
      label: 'watch check state',
      migrate: (raw) => fileSchema.parse(raw),
      empty: () => ({ version: 1, profiles: {} }),
      ...faults,
    })
    this.notice = this.#file.load().notice
  }

  profile(profileId: string): ProfileWatchState {
    const saved = this.#file.data.profiles
    return (
      this.#unsaved.get(profileId) ??
      (Object.hasOwn(saved, profileId) ? saved[profileId] : undefined) ?? {
        periodic: false,
        budgetFraction: DEFAULT_WATCH_BUDGET,
        networks: {},
        addresses: {},
      }
    )
  }

  /**
   * Replaces a profile's state and saves it (atomically, with a backup; nobody waits). A state
   * the file could not load again is refused here (and not kept); a disk that refuses the write
   * is told once and the state is kept for the session: a check's result is still shown, and
   * found again by the next check after a restart (docs/decisions/store-writes.md).
   */
  save(profileId: string, state: ProfileWatchState): void {
    const check = profileState.safeParse(JSON.parse(JSON.stringify(state)))
    if (!check.success)
      throw new AppError(
        'invalid-input',
        `Nothing was saved: the watch check state would not load again (${check.error.issues[0]?.path.map(String).join('.') ?? ''}: ${check.error.issues[0]?.message ?? 'invalid'}).`,
      )
    this.#unsaved.set(profileId, state)
    this.#file
      .update((file) => ({ ...file, profiles: { ...file.profiles, [profileId]: check.data } }))
      .then(
        () => {
          if (this.#unsaved.get(profileId) === state) this.#unsaved.delete(profileId)
          this.#disk.saved(WHAT)
        },
        (error: unknown) =>
          this.#disk.failed(WHAT, error, 'what the watch check found is shown, but a restart forgets it.'),
      )
  }

  /** Every save made so far is decided: written or refused, each within the save deadline. */
  settled(): Promise<void> {
    return this.#file.decided()
  }

  /**
   * Every write made has ended, one given up at its deadline too: nothing writes in the data
   * folder any more. May wait on a hung disk, so a clean close waits for `settled` instead; a
   * test waits for this before it removes the folder.
   */
  writesEnded(): Promise<void> {
    return this.#file.settled()
  }
}

/** The renderer's view of one address's state. */
export function statusOf(network: string, address: string, s: AddressState | undefined): WatchStatus {
  if (!s)
    return {
      network,
      address: address.toLowerCase(),
      unseen: false,
      newTxs: 0,
      newTxsMore: false,
      deltas: [],
      checkedAt: null,
      baseline: false,
    }
  const deltas: WatchDelta[] = []
  const coin = BigInt(s.balanceWei) - BigInt(s.lookBalanceWei)
  if (coin !== 0n) deltas.push({ token: null, standard: 'coin', delta: coin.toString(), symbol: null, decimals: 18 })
  for (const [key, value] of Object.entries(s.tokenDeltas)) {
    const [standard, token] = key.split('|')
    if (BigInt(value) === 0n || !token) continue
    const meta = s.tokenMeta?.[token]
    if (standard === 'erc20' || standard === 'erc721' || standard === 'erc1155')
      deltas.push({ token, standard, delta: value, symbol: meta?.symbol ?? null, decimals: meta?.decimals ?? null })
  }
  return {
    network,
    address: address.toLowerCase(),
    unseen: s.unseen,
    newTxs: s.newTxs,
    newTxsMore: s.newTxsMore,
    deltas,
    checkedAt: s.checkedAt,
    baseline: true,
  }
}

/** "Mark seen": the look moves to now; nothing is new, no delta remains. */
export function markSeen(s: AddressState, headBlock: number): AddressState {
  return {
    ...s,
    lookBlock: Math.max(s.lookBlock, headBlock),
    lookBalanceWei: s.balanceWei,
    newTxs: 0,
    newTxsMore: false,
    tokenDeltas: {},
    unseen: false,
  }
}
