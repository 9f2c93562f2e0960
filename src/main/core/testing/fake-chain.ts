import { decodeAbiParameters } from 'viem'
import type { RpcBatchItem, TransactionsPage } from '@shared/bridge/contract'
import { requestUnits, unitsForCalls, type Billing } from '@shared/domain/billing'
import type { BalanceItem } from '@shared/domain/service-schemas'
import { addressTopic, TRANSFER_SINGLE_TOPIC, TRANSFER_TOPIC } from '@shared/domain/events'
import { BALANCE_READER_BYTECODE } from '../balances/balance-reader-bytecode'
import { CoinBalances } from '../balances/coin-balances'
import { MAX_BATCH_CALLS } from '../service/batch-sizes'
import { LogRanges } from '../service/log-range'
import type { RpcCallSpec } from '../service/service-types'
import { AppError } from '../util/app-error'

/**
 * A provider for the watch check's properties (thousands of random chains a second, which
 * real anvil chains cannot give): a chain of coin and token movements, answering the calls
 * the check makes as a node does, with an `eth_getLogs` range cap enforced in the words of
 * a real provider, and the data API's first page per address. Each call costs one unit
 * (a provider billing per call); the quota and reserve are counted like the limiter's.
 */
export interface Movement {
  block: number
  kind: 'coin' | 'erc20' | 'erc721' | 'erc1155'
  from: string
  to: string
  amount: bigint
}

const hex = (n: number | bigint): string => `0x${n.toString(16)}`
const word = (n: bigint): string => n.toString(16).padStart(64, '0')
const TOKEN = '0x00000000000000000000000000000000000070c0'
/** What a sender pays for its transaction (wei). */
const FEE = 21_000n
/** Every kind of token each address holds before any movement. */
const TOKENS_HELD = 10n ** 30n

export class FakeChain {
  head: number
  readonly movements: Movement[] = []
  readonly #balances = new Map<string, bigint>()
  /** The widest block range an eth_getLogs asked for, and how many calls were made. */
  widestRange = 0
  /** eth_getLogs refused for their range. */
  refusedRanges = 0
  calls = 0
  dataRequests = 0
  units = 0
  leftToday: number
  reserve: number

  /** eth_call runs on the block being mined (its number one past the head), as anvil's now and then does. */
  callAhead = false
  /** Most logs one eth_getLogs returns; more is refused as Infura and geth word it. */
  maxResults = Infinity

  constructor(
    head: number,
    readonly cap: number,
    quota = 1_000_000,
    reserve = 0,
  ) {
    this.head = head
    this.leftToday = quota
    this.reserve = reserve
  }

  move(m: Movement): void {
    this.movements.push(m)
    // The sender sends the transaction and pays its fee, whatever it moves.
    const sent = (m.kind === 'coin' ? m.amount : 0n) + FEE
    this.#balances.set(m.from, (this.#balances.get(m.from) ?? 10n ** 20n) - sent)
    if (m.kind === 'coin') this.#balances.set(m.to, (this.#balances.get(m.to) ?? 10n ** 20n) + m.amount)
  }

  /**
   * Token balances as the data API answers them (Blockscout-shaped items): each address starts
   * with TOKENS_HELD of every kind, moved by the token movements mined so far.
   */
  tokenItems(address: string): BalanceItem[] {
    const kinds = ['erc20', 'erc721', 'erc1155'] as const
    const type = { erc20: 'ERC-20', erc721: 'ERC-721', erc1155: 'ERC-1155' } as const
    return kinds.map((kind) => {
      let value = TOKENS_HELD
      for (const m of this.movements) {
        if (m.kind !== kind || m.block > this.head) continue
        const amount = kind === 'erc721' ? 1n : m.amount
        if (m.to === address) value += amount
        if (m.from === address) value -= amount
      }
      const token = {
        address: TOKEN,
        decimals: kind === 'erc20' ? '18' : null,
        name: kind,
        symbol: kind,
        type: type[kind],
      }
      return { token, token_id: kind === 'erc20' ? null : '1', value: value.toString() } as BalanceItem
    })
  }

  balanceOf(address: string): bigint {
    return this.#balances.get(address) ?? 10n ** 20n
  }

  #spend(units: number): void {
    this.units += units
    this.leftToday -= units
  }

  /** One call's answer, as a node gives it (counted in `calls`, not billed: the caller bills). */
  answer(call: RpcCallSpec): RpcBatchItem {
    return this.#answer(call)
  }

  /**
   * The first page of an address's transactions (newest first), as block numbers, as a
   * Blockscout-shaped service lists them: the transactions it sent, and coin it received; a
   * token it received is listed under the token transfers, not under its transactions.
   */
  pageBlocks(address: string): number[] {
    return this.movements
      .filter((m) => m.from === address || (m.to === address && m.kind === 'coin'))
      .map((m) => m.block)
      .sort((a, b) => b - a)
      .slice(0, 50)
  }

  /** Bills `units` (a caller that bills its own way: per call, plus one per batch). */
  bill(units: number): void {
    this.#spend(units)
  }

  #answer(call: RpcCallSpec): RpcBatchItem {
    this.calls += 1
    const p = call.params
    switch (call.method) {
      case 'eth_getCode':
        return { ok: true, result: '0x' }
      case 'eth_blockNumber':
        return { ok: true, result: hex(this.head) }
      case 'eth_gasPrice':
        return { ok: true, result: '0x3b9aca00' }
      case 'eth_getBlockByNumber': {
        // Two-second blocks; 'finalized' two epochs back, as anvil answers.
        const tag = String(p[0])
        const n = tag === 'latest' ? this.head : tag === 'finalized' ? this.head - 64 : Number(tag)
        if (!Number.isSafeInteger(n) || n < 0 || n > this.head) return { ok: true, result: null }
        return {
          ok: true,
          result: { number: hex(n), timestamp: hex(1_735_689_600 + 2 * n), hash: `0x${word(BigInt(n))}` },
        }
      }
      case 'eth_getBalance':
        return { ok: true, result: hex(this.balanceOf(String(p[0]).toLowerCase())) }
      case 'eth_call': {
        const data = (p[0] as { data: string }).data
        if (!data.startsWith(BALANCE_READER_BYTECODE)) return { ok: false, code: -32000, message: 'execution reverted' }
        const [addresses] = decodeAbiParameters(
          [{ type: 'address[]' }],
          `0x${data.slice(BALANCE_READER_BYTECODE.length)}`,
        )
        const words = [
          BigInt(this.head + (this.callAhead ? 1 : 0)),
          ...addresses.map((a) => this.balanceOf(a.toLowerCase())),
        ]
        return { ok: true, result: `0x${words.map(word).join('')}` }
      }
      case 'eth_getLogs':
        return this.#logs(p[0] as { fromBlock: string; toBlock: string; topics: (string[] | null)[] })
      default:
        return { ok: false, code: -32601, message: `the method ${call.method} does not exist` }
    }
  }

  #logs(filter: { fromBlock: string; toBlock: string; topics: (string[] | null)[] }): RpcBatchItem {
    const from = Number(filter.fromBlock)
    const to = filter.toBlock === 'latest' ? this.head : Number(filter.toBlock)
    if (from > this.head) return { ok: false, code: -32602, message: 'invalid block range params' }
    const range = to - from + 1
    this.widestRange = Math.max(this.widestRange, range)
    if (range > this.cap) {
      this.refusedRanges += 1
      return { ok: false, code: -32602, message: `query exceeds max block range ${this.cap}` }
    }
    const result = this.movements
      .map((m, i) => ({ m, i }))
      .filter(({ m }) => m.kind !== 'coin' && m.block >= from && m.block <= to)
      .map(({ m, i }) => this.#log(m, i))
      .filter((log) => filter.topics.every((want, k) => want === null || want.includes(log.topics[k] ?? '')))
    if (result.length > this.maxResults)
      return { ok: false, code: -32005, message: `query returned more than ${this.maxResults} results` }
    return { ok: true, result }
  }

  #log(
    m: Movement,
    i: number,
  ): {
    address: string
    topics: string[]
    data: string
    blockNumber: string
    transactionHash: string
    logIndex: string
  } {
    const base = { address: TOKEN, blockNumber: hex(m.block), transactionHash: hex(1_000_000 + i), logIndex: '0x0' }
    if (m.kind === 'erc1155')
      return {
        ...base,
        topics: [TRANSFER_SINGLE_TOPIC, addressTopic(m.from), addressTopic(m.from), addressTopic(m.to)],
        data: `0x${word(1n)}${word(m.amount)}`,
      }
    if (m.kind === 'erc721')
      return {
        ...base,
        topics: [TRANSFER_TOPIC, addressTopic(m.from), addressTopic(m.to), `0x${word(BigInt(i))}`],
        data: '0x',
      }
    return { ...base, topics: [TRANSFER_TOPIC, addressTopic(m.from), addressTopic(m.to)], data: `0x${word(m.amount)}` }
  }

  /**
   * The runtime parts the watch check uses, on a provider billing as `billing` says (per call
   * by default) that takes batches of at most `batchCap` calls (the client sends no larger).
   */
  runtime(provider: { billing?: Billing; batchCap?: number } = {}) {
    const billing = provider.billing ?? 'call'
    const batchCap = provider.batchCap ?? MAX_BATCH_CALLS
    const bill = (calls: number, meter?: { requests: number; units: number }): void => {
      const units = requestUnits(billing, calls)
      this.#spend(units)
      if (meter) {
        meter.requests += 1
        meter.units += units
      }
    }
    // The client's own log splitting over single calls, as the service client sends them.
    const logs = new LogRanges(async (_network, call, options) => {
      bill(1, options.meter)
      const item = this.#answer(call)
      if (!item.ok) throw new AppError('rpc', item.message, { code: item.code })
      return item.result
    })
    const client = {
      rpcCalls: async (
        _network: string,
        calls: RpcCallSpec[],
        options: { meter?: { requests: number; units: number } },
      ): Promise<RpcBatchItem[]> => {
        for (let i = 0; i < calls.length; i += batchCap) bill(Math.min(batchCap, calls.length - i), options.meter)
        return calls.map((c) => this.#answer(c))
      },
      unitsFor: (_network: string, calls: number) => unitsForCalls(billing, calls, batchCap),
      batchSize: () => batchCap,
      logs,
      batchSupport: () => true,
    }
    const page = (address: string): TransactionsPage => {
      const items = this.pageBlocks(address).map((block) => ({ block, token_transfers: [] }))
      return { items, nextCursor: null } as unknown as TransactionsPage
    }
    const data = {
      transactions: async (req: { address: string }) => {
        this.dataRequests += 1
        this.#spend(1)
        return page(req.address)
      },
      balances: async (req: { address: string }) => {
        this.dataRequests += 1
        this.#spend(1)
        return { items: this.tokenItems(req.address), unreadable: [], source: 'network' }
      },
    }
    const limiters = { state: () => ({ leftToday: this.leftToday, reserve: this.reserve }) }
    return { client, data, limiters, balances: new CoinBalances() } as const
  }
}
