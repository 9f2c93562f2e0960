import type { ContractRecord, TokenRecord, TokenType, TxRecord } from './types'
import { ZERO_ADDRESS } from '@shared/domain/contracts'

// Part of the cache key: bump it whenever the indexer stores something new or differently, so
// cached snapshots made by older code are not served.
export const SNAPSHOT_VERSION = 1

/** The indexer's saved state: with it a start from cache needs no re-indexing. */
export interface StoreSnapshot {
  version: number
  head: number
  headTimestamp: number
  headHash: string
  txs: TxRecord[]
  tokens: TokenRecord[]
  contracts: [string, ContractRecord][]
}

export interface Cursor {
  block: number
  index: number
}

export interface BalanceEntry {
  token: TokenRecord
  tokenId: string | null
  value: bigint
}

/**
 * In-memory index of one chain: transactions in chain order, each address's transactions
 * (ascending, so new blocks append), token balances replayed from transfers, contracts.
 */
export class ChainStore {
  head = 0
  headTimestamp: number
  headHash = ''
  readonly txs: TxRecord[] = []
  readonly tokens = new Map<string, TokenRecord>()
  readonly contracts = new Map<string, ContractRecord>()
  private readonly byHash = new Map<string, number>()
  private readonly byAddress = new Map<string, number[]>()
  private readonly erc20 = new Map<string, Map<string, bigint>>()
  /** token -> token id -> owner */
  private readonly erc721 = new Map<string, Map<string, string>>()
  /** token -> holder -> token id -> amount */
  private readonly erc1155 = new Map<string, Map<string, Map<string, bigint>>>()

  constructor(genesisTimestamp: number) {
    this.headTimestamp = genesisTimestamp
  }

  /** Appends a transaction of the next block; its tokens must already be known. */
  addTx(rec: TxRecord): void {
    const index = this.txs.length
    this.txs.push(rec)
    this.byHash.set(rec.hash, index)
    const seen = new Set<string>([rec.from])
    if (rec.to) seen.add(rec.to)
    if (rec.created) seen.add(rec.created)
    for (const t of rec.transfers) {
      seen.add(t.from)
      seen.add(t.to)
      this.applyTransfer(t.token, t.from, t.to, t.tokenId, BigInt(t.amount))
    }
    for (const address of seen) {
      let list = this.byAddress.get(address)
      if (!list) this.byAddress.set(address, (list = []))
      list.push(index)
    }
  }

  setHead(block: number, timestamp: number, hash: string): void {
    this.head = block
    this.headTimestamp = timestamp
    this.headHash = hash
  }

  txByHash(hash: string): TxRecord | undefined {
    const i = this.byHash.get(hash.toLowerCase())
    return i === undefined ? undefined : this.txs[i]
  }

  txCountOf(address: string): number {
    return this.byAddress.get(address.toLowerCase())?.length ?? 0
  }

  /** Newest first; `after` is the last item of the previous page. */
  page(address: string, after: Cursor | null, size: number): { items: TxRecord[]; more: boolean } {
    const list = this.byAddress.get(address.toLowerCase()) ?? []
    // Index of the newest transaction strictly older than the cursor.
    let end = list.length - 1
    if (after) {
      let lo = 0
      let hi = list.length - 1
      end = -1
      while (lo <= hi) {
        const mid = (lo + hi) >> 1
        const tx = this.txs[list[mid]!]!
        if (tx.block < after.block || (tx.block === after.block && tx.position < after.index)) {
          end = mid
          lo = mid + 1
        } else {
          hi = mid - 1
        }
      }
    }
    const items: TxRecord[] = []
    for (let i = end; i >= 0 && items.length < size; i--) items.push(this.txs[list[i]!]!)
    return { items, more: end - items.length >= 0 }
  }

  isContract(address: string): boolean {
    return this.contracts.has(address)
  }

  balancesOf(address: string): BalanceEntry[] {
    const out: BalanceEntry[] = []
    const rank = { 'ERC-20': 0, 'ERC-721': 1, 'ERC-1155': 2 }
    // Fungible tokens first, then NFTs; within a kind, in the order the chain first saw them.
    const tokens = [...this.tokens.values()].sort((a, b) => rank[a.type] - rank[b.type])
    for (const token of tokens) {
      if (token.type === 'ERC-20') {
        const value = this.erc20.get(token.address)?.get(address) ?? 0n
        if (value > 0n) out.push({ token, tokenId: null, value })
      } else if (token.type === 'ERC-721') {
        const ids = [...(this.erc721.get(token.address) ?? [])]
          .filter(([, owner]) => owner === address)
          .map(([id]) => id)
        ids.sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1))
        for (const id of ids) out.push({ token, tokenId: id, value: 1n })
      } else {
        const held = [...(this.erc1155.get(token.address)?.get(address) ?? [])].filter(([, v]) => v > 0n)
        held.sort(([a], [b]) => (BigInt(a) < BigInt(b) ? -1 : 1))
        for (const [id, value] of held) out.push({ token, tokenId: id, value })
      }
    }
    return out
  }

  /** Addresses with a positive balance (the zero address never counts). */
  holders(token: TokenRecord): number {
    if (token.type === 'ERC-20') return count(this.erc20.get(token.address), (v) => v > 0n)
    if (token.type === 'ERC-721') return new Set(this.erc721.get(token.address)?.values() ?? []).size
    return count(this.erc1155.get(token.address), (ids) => [...ids.values()].some((v) => v > 0n))
  }

  /** Supply counted from transfers, for tokens without totalSupply(). */
  countedSupply(token: TokenRecord): bigint {
    if (token.type === 'ERC-20') return [...(this.erc20.get(token.address)?.values() ?? [])].reduce((a, b) => a + b, 0n)
    if (token.type === 'ERC-721') return BigInt(this.erc721.get(token.address)?.size ?? 0)
    let total = 0n
    for (const ids of this.erc1155.get(token.address)?.values() ?? []) for (const v of ids.values()) total += v
    return total
  }

  /** Owner of an ERC-721 id, for token instances. */
  ownerOf(token: string, tokenId: string): string | null {
    return this.erc721.get(token)?.get(tokenId) ?? null
  }

  /** Circulating amount of one ERC-1155 id (unique when it is 1). */
  supplyOfId(token: string, tokenId: string): bigint {
    let total = 0n
    for (const ids of this.erc1155.get(token)?.values() ?? []) total += ids.get(tokenId) ?? 0n
    return total
  }

  toSnapshot(): StoreSnapshot {
    return {
      version: SNAPSHOT_VERSION,
      head: this.head,
      headTimestamp: this.headTimestamp,
      headHash: this.headHash,
      txs: this.txs,
      tokens: [...this.tokens.values()],
      contracts: [...this.contracts],
    }
  }

  static fromSnapshot(snapshot: StoreSnapshot): ChainStore {
    if (snapshot.version !== SNAPSHOT_VERSION)
      throw new Error(`index snapshot version ${snapshot.version}, expected ${SNAPSHOT_VERSION}`)
    const store = new ChainStore(snapshot.headTimestamp)
    for (const token of snapshot.tokens) store.tokens.set(token.address, token)
    for (const [address, contract] of snapshot.contracts) store.contracts.set(address, contract)
    for (const tx of snapshot.txs) store.addTx(tx)
    store.setHead(snapshot.head, snapshot.headTimestamp, snapshot.headHash)
    return store
  }

  private applyTransfer(token: string, from: string, to: string, tokenId: string | null, amount: bigint): void {
    const type: TokenType | undefined = this.tokens.get(token)?.type
    if (type === 'ERC-20') {
      const balances = mapOf(this.erc20, token)
      if (from !== ZERO_ADDRESS) balances.set(from, (balances.get(from) ?? 0n) - amount)
      if (to !== ZERO_ADDRESS) balances.set(to, (balances.get(to) ?? 0n) + amount)
    } else if (type === 'ERC-721' && tokenId !== null) {
      const owners = mapOf(this.erc721, token)
      if (to === ZERO_ADDRESS) owners.delete(tokenId)
      else owners.set(tokenId, to)
    } else if (type === 'ERC-1155' && tokenId !== null) {
      const holders = mapOf(this.erc1155, token)
      if (from !== ZERO_ADDRESS) {
        const ids = mapOf(holders, from)
        ids.set(tokenId, (ids.get(tokenId) ?? 0n) - amount)
      }
      if (to !== ZERO_ADDRESS) {
        const ids = mapOf(holders, to)
        ids.set(tokenId, (ids.get(tokenId) ?? 0n) + amount)
      }
    }
  }
}

function mapOf<K, V extends Map<unknown, unknown>>(outer: Map<K, V>, key: K): V {
  let inner = outer.get(key)
  if (!inner) outer.set(key, (inner = new Map() as V))
  return inner
}

function count<V>(map: Map<string, V> | undefined, keep: (v: V) => boolean): number {
  let n = 0
  for (const [address, v] of map ?? []) if (address !== ZERO_ADDRESS && keep(v)) n++
  return n
}
