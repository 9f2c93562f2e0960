import { join } from 'node:path'
import { z } from 'zod'
import type { WatchDelta, WatchStatus } from '../../../shared/bridge/contract'
import { VersionedFile } from '../util/versioned-file'

/**
 * What the watch check remembers, in its own file `<dataDir>/watch-state.json` (schema 1),
 * beside the watchlists file, which stays exactly as it was (older Chainscopes keep reading
 * it). Per profile, because two providers may disagree: per network the last checked block;
 * per (network, address) the last nonce and coin balance (what a check compares with) and what
 * changed since the user last looked. Amounts are decimal strings, read as bigint.
 */
export const WATCH_STATE_VERSION = 1

const decimal = z.string().regex(/^-?\d{1,80}$/)
const addressState = z.object({
  nonce: decimal,
  balanceWei: decimal,
  checkedAt: z.string(),
  /** The block of the last look (baseline or mark seen): transactions after it are new. */
  lookBlock: z.number().int().min(0),
  lookBalanceWei: decimal,
  newTxs: z.number().int().min(0),
  newTxsMore: z.boolean(),
  /** Token deltas since the last look, keyed `<standard>|<token>`. */
  tokenDeltas: z.record(z.string(), decimal),
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

const profileState = z.object({
  periodic: z.boolean(),
  budgetFraction: z.number().min(0.001).max(0.5),
  networks: z.record(z.string(), z.object({ checkedBlock: z.number().int().min(0) })),
  addresses: z.record(z.string(), addressState),
})
export type ProfileWatchState = z.infer<typeof profileState>

const fileSchema = z.object({ version: z.literal(1), profiles: z.record(z.string(), profileState) })
type WatchStateFile = z.infer<typeof fileSchema>

export const DEFAULT_WATCH_BUDGET = 0.05

export const stateKey = (network: string, address: string): string => `${network}|${address.toLowerCase()}`

/** The one writer of watch-state.json. */
export class WatchStateStore {
  readonly #file: VersionedFile<WatchStateFile>
  #data: WatchStateFile
  readonly notice: string | null

  constructor(dataDir: string) {
    this.#file = new VersionedFile<WatchStateFile>({
      path: join(dataDir, 'watch-state.json'),
      version: WATCH_STATE_VERSION,
      label: 'watch check state',
      migrate: (raw) => fileSchema.parse(raw),
      empty: () => ({ version: 1, profiles: {} }),
    })
    const loaded = this.#file.load()
    this.#data = loaded.data
    this.notice = loaded.notice
  }

  profile(profileId: string): ProfileWatchState {
    return (
      this.#data.profiles[profileId] ?? {
        periodic: false,
        budgetFraction: DEFAULT_WATCH_BUDGET,
        networks: {},
        addresses: {},
      }
    )
  }

  /** Replaces a profile's state and saves (atomically, with a backup). */
  save(profileId: string, state: ProfileWatchState): void {
    this.#data = { ...this.#data, profiles: { ...this.#data.profiles, [profileId]: state } }
    this.#file.save(this.#data)
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
