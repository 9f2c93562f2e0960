/** What the height watcher reads the chain head through (height-watcher.ts); the service client implements it. */
/** A block time measured from two block timestamps `spanMs` apart; null when they cannot tell. */
export type BlockTimeSeed = { blockTimeMs: number; spanMs: number } | null

export interface HeadSource {
  /**
   * The head (with its block's timestamp when known) and gas price: one request with batches,
   * two without. With `seed`, the same batch also asks for an older block whose timestamp gives
   * the block time (`seed` in the answer; undefined when that block could not be had, and then
   * `blockTime` is asked).
   */
  head(
    network: string,
    options?: { seed: boolean },
  ): Promise<{
    height: number
    timestampMs?: number
    gasPriceWei: string | null
    /** The network's chain id (decimal) once known; asked in the batch until then (chain-ids.ts). */
    chainId?: string | null
    seed?: BlockTimeSeed
  }>
  /**
   * The block time from the head's timestamp and that of a block ~100 back (one request), with
   * the span it was measured over; null when the timestamps cannot tell (a chain whose older
   * blocks carry pinned, seeded timestamps).
   */
  blockTime(network: string, height: number, timestampMs: number): Promise<BlockTimeSeed>
  /**
   * What one `head` costs now in the service's unit (billing.ts): 1 request with batches or 2
   * without where it counts requests; 2 calls (3 with a batch's own unit) where it counts calls;
   * one call more while the network's chain id is not known yet.
   */
  unitsPerPoll(network: string): number
  /** The chain id known without a request (read in an earlier run), else null (chain-ids.ts). */
  chainIdOf?(network: string): string | null
  /** Whether `network`'s endpoint takes batches (or is untried): the block-time seed then rides along. */
  batches(network: string): boolean
}
