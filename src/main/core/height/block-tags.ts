import type { RpcBatchItem } from '@shared/bridge/contract'

/** The block tags some nodes and L2s do not know (JSON-RPC's `finalized` and `safe`). */
export type OptionalTag = 'finalized' | 'safe'

/**
 * Which optional block tags each network's endpoint knows, for one profile. A tag refused once
 * (an error, or a null block, as some nodes answer a tag they lack) means "not here": it is not
 * asked for again on that network this session, and the caller falls back (for the block time's
 * seed: the block about 100 back, `HeadSource.blockTime`).
 */
export class BlockTags {
  readonly #missing = new Set<string>()

  /** Whether `tag` may still be asked for on `network` (not refused there yet). */
  known(network: string, tag: OptionalTag): boolean {
    return !this.#missing.has(`${network}|${tag}`)
  }

  /** Reads the answer to a call that asked for `tag`; returns whether it was refused (and remembers it). */
  judge(network: string, tag: OptionalTag, item: RpcBatchItem | undefined): boolean {
    const refused = item === undefined || !item.ok || item.result === null || item.result === undefined
    if (refused) this.#missing.add(`${network}|${tag}`)
    return refused
  }
}
