import type { RpcBatchItem } from '@shared/bridge/contract'
import { parseHexQuantity } from '@shared/domain/amount'

/** The largest chain id kept (64 bits; EIP-2294 bounds real ones far below). */
const MAX_CHAIN_ID = (1n << 64n) - 1n

/** Where a chain id read once is kept across runs (learnt-limits-store.ts), per profile and network. */
export interface ChainIdMemory {
  load(network: string): string | null
  save(network: string, chainId: string): void
}

/**
 * Each network's chain id (decimal), read at most once per profile, network and RPC address: it
 * rides in the height watcher's first batch (`eth_chainId`, counted in that poll's cost) and is
 * kept for good (docs/decisions/chain-id-once.md). A malformed or missing answer is asked again
 * at the next poll; an endpoint that refuses the method is not asked again this session.
 */
export class ChainIds {
  readonly #known = new Map<string, string>()
  readonly #memory: ChainIdMemory | undefined
  readonly #refused = new Set<string>()

  constructor(memory?: ChainIdMemory) {
    this.#memory = memory
  }

  /** The chain id when known (this session or from the learnt file), else null. */
  of(network: string): string | null {
    const seen = this.#known.get(network) ?? this.#memory?.load(network) ?? null
    if (seen !== null) this.#known.set(network, seen)
    return seen
  }

  /** Whether the next head poll should ask for it: unknown, and not refused this session. */
  wanted(network: string): boolean {
    return !this.#refused.has(network) && this.of(network) === null
  }

  /** Reads an `eth_chainId` answer: remembers a valid one and returns it, else null. */
  judge(network: string, item: RpcBatchItem | undefined): string | null {
    if (item && !item.ok) this.#refused.add(network)
    const id = item?.ok ? parseHexQuantity(item.result, MAX_CHAIN_ID) : null
    if (id === null || id <= 0n) return null
    const text = id.toString()
    this.#known.set(network, text)
    this.#memory?.save(network, text)
    return text
  }
}
