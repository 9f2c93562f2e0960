import { TRANSFER_TOPIC } from '@shared/domain/events'
import type { Transaction } from '@shared/domain/service-schemas'
import type { Recorded } from './client-sim-record'
import type { SimChain, SimClock } from './client-sim-time'

const NEW_TX_EVERY = 10 * 60_000

/** The service in simulated time: the recorded data, live confirmations, a 20 ms answer time. */
export class SimService {
  requests = 0
  /** What a provider billing per call plus one per batch would count (Infura's way): a GET or a single call 1, a batch of N N + 1. */
  units = 0
  readonly byKind: Record<string, number> = {}
  readonly #start: number

  constructor(
    private readonly clock: SimClock,
    private readonly chains: Map<string, SimChain>,
    private readonly recorded: Recorded,
  ) {
    this.#start = clock.now()
  }

  readonly fetch = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(String(input))
    this.requests += 1
    const calls =
      typeof init?.body === 'string' && init.body.startsWith('[') ? (JSON.parse(init.body) as unknown[]) : null
    this.units += calls ? calls.length + 1 : 1
    const kind = url.pathname.startsWith('/rpc/') ? 'rpc' : url.pathname.split('/').at(-1)!
    this.byKind[kind] = (this.byKind[kind] ?? 0) + 1
    if (process.env.SIM_TRACE)
      process.stderr.write(
        `sim ${((this.clock.now() - this.#start) / 1000).toFixed(1)}s ${url.pathname.split('/').slice(0, 3).join('/')} ${url.searchParams.get('address')?.slice(0, 8) ?? ''} ${url.searchParams.get('hash')?.slice(0, 8) ?? ''} ${typeof init?.body === 'string' ? init.body.replace(/"jsonrpc":"2.0",/g, '').slice(0, 200) : ''}\n`,
      )
    const body = this.#answer(url, typeof init?.body === 'string' ? init.body : '')
    return new Promise((resolve) =>
      this.clock.setTimeout(
        () =>
          resolve(new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } })),
        20,
      ),
    )
  }

  #answer(url: URL, body: string): unknown {
    const parts = url.pathname.split('/').filter(Boolean)
    if (parts[0] === 'rpc') {
      const chain = this.chains.get(parts[1]!)!
      const calls = JSON.parse(body) as
        { id: number; method: string; params: unknown[] } | { id: number; method: string; params: unknown[] }[]
      const one = (c: { id: number; method: string; params: unknown[] }): unknown => {
        const head = chain.heightAt(this.clock.now())
        const hex = (n: number | bigint): string => `0x${n.toString(16)}`
        if (c.method === 'eth_blockNumber') return { jsonrpc: '2.0', id: c.id, result: hex(head) }
        if (c.method === 'eth_gasPrice') return { jsonrpc: '2.0', id: c.id, result: '0x77359400' }
        // State and logs of the watchlist addresses, as anvil answers them: the recorded
        // history is the state at the start; the busy address's new transactions move it.
        const at = (tag: unknown): number | null =>
          tag === 'latest' || tag === undefined
            ? head
            : typeof tag === 'string' && /^0x[0-9a-f]+$/i.test(tag)
              ? Number(BigInt(tag))
              : null
        if (c.method === 'eth_getTransactionCount' || c.method === 'eth_getBalance') {
          const block = at(c.params[1])
          if (block === null) return { jsonrpc: '2.0', id: c.id, error: { code: -32602, message: 'invalid block tag' } }
          if (block > head)
            return { jsonrpc: '2.0', id: c.id, error: { code: -32000, message: `block ${block} not found` } }
          const state = this.#stateAt(parts[1]!, String(c.params[0]).toLowerCase(), block, chain)
          return { jsonrpc: '2.0', id: c.id, result: hex(c.method === 'eth_getBalance' ? state.balance : state.nonce) }
        }
        if (c.method === 'eth_getLogs') {
          const filter = (c.params[0] ?? {}) as {
            fromBlock?: string
            toBlock?: string
            address?: string
            topics?: (string | string[] | null)[]
          }
          const from = at(filter.fromBlock ?? 'latest')
          const to = at(filter.toBlock ?? 'latest')
          if (from === null || to === null)
            return { jsonrpc: '2.0', id: c.id, error: { code: -32602, message: 'invalid block range' } }
          if (from > head)
            return { jsonrpc: '2.0', id: c.id, error: { code: -32000, message: 'invalid block range params' } }
          return { jsonrpc: '2.0', id: c.id, result: this.#logs(parts[1]!, from, Math.min(to, head), filter, chain) }
        }
        if (c.method === 'eth_getBlockByNumber') {
          // Tags as anvil answers them (finalized: two epochs of 32 slots back, safe: one).
          const tag = c.params[0]
          const tags: Record<string, number> = { latest: head, pending: head, safe: head - 32, finalized: head - 64 }
          const n =
            typeof tag === 'string' && tag in tags
              ? Math.max(0, tags[tag]!)
              : typeof tag === 'string' && /^0x[0-9a-f]+$/i.test(tag)
                ? Math.min(head, Number(BigInt(tag)))
                : null
          if (n === null) return { jsonrpc: '2.0', id: c.id, error: { code: -32602, message: 'invalid block tag' } }
          return {
            jsonrpc: '2.0',
            id: c.id,
            result: { number: hex(n), timestamp: hex(Math.floor(chain.producedAt(n) / 1000)), transactions: [] },
          }
        }
        return { jsonrpc: '2.0', id: c.id, error: { code: -32601, message: 'method not found' } }
      }
      return Array.isArray(calls) ? calls.map(one) : one(calls)
    }
    const network = parts[2]!
    const address = (url.searchParams.get('address') ?? '').toLowerCase()
    const key = `${network}|${address}`
    if (parts[3] === 'balance' || parts[3] === 'balances')
      return this.recorded.balances.get(key) ?? { items: [], next_page_params: null }
    const chain = this.chains.get(network)!
    const head = chain.heightAt(this.clock.now())
    const list = [...this.#newTransactions(key, chain), ...(this.recorded.transactions.get(key)?.items ?? [])]
    const after = url.searchParams.get('hash')
    const from = after ? list.findIndex((t) => t.hash === after) + 1 : 0
    const items = list
      .slice(from, from + 50)
      .map((t) => ({ ...t, confirmations: t.block === null ? 0 : Math.max(0, head - t.block) }))
    const more = from + 50 < list.length || (this.recorded.transactions.get(key)?.more ?? false)
    const last = items.at(-1)
    const next =
      more && last
        ? {
            api_key: '',
            apikey: '',
            block_number: last.block,
            fee: last.fee.value,
            hash: last.hash,
            index: last.position,
            inserted_at: last.timestamp,
            items_count: 50,
            value: last.value,
          }
        : null
    return { items, next_page_params: next }
  }

  /** Every new transaction of `network` (the busy address's) up to block `upTo`, oldest first. */
  #newUpTo(network: string, upTo: number, chain: SimChain): Transaction[] {
    const busy = this.recorded.addresses[0]!
    if (busy.network !== network) return []
    return this.#newTransactions(`${network}|${busy.address.toLowerCase()}`, chain)
      .filter((t) => t.block !== null && t.block <= upTo)
      .reverse()
  }

  /**
   * An address's nonce and coin balance at `block`: an arbitrary base (what the recorded
   * history left: only differences matter to a client) moved by the new transactions, as a
   * chain moves them (the sender's nonce +1 and value + fee out, the recipient's value in).
   */
  #stateAt(network: string, address: string, block: number, chain: SimChain): { nonce: number; balance: bigint } {
    let nonce = 1000
    let balance = 10n ** 21n
    for (const tx of this.#newUpTo(network, block, chain)) {
      const value = BigInt(tx.value)
      if (tx.from.hash.toLowerCase() === address) {
        nonce += 1
        balance -= value + BigInt(tx.fee.value ?? '0')
      }
      if (tx.to?.hash.toLowerCase() === address) balance += value
    }
    return { nonce, balance }
  }

  /** The new transactions' token transfers as logs (ERC-20/721 `Transfer`), filtered as a node filters. */
  #logs(
    network: string,
    from: number,
    to: number,
    filter: { address?: string; topics?: (string | string[] | null)[] },
    chain: SimChain,
  ): unknown[] {
    const pad = (a: string): string => `0x${'0'.repeat(24)}${a.slice(2).toLowerCase()}`
    const out: unknown[] = []
    for (const tx of this.#newUpTo(network, to, chain)) {
      if (tx.block === null || tx.block < from) continue
      for (const t of tx.token_transfers ?? []) {
        const log = {
          address: t.token.address.toLowerCase(),
          topics: [TRANSFER_TOPIC, pad(t.from.hash), pad(t.to.hash)],
          data: `0x${'0'.repeat(64)}`,
          blockNumber: `0x${tx.block.toString(16)}`,
          transactionHash: tx.hash,
        }
        if (filter.address && filter.address.toLowerCase() !== log.address) continue
        const topicsMatch = (filter.topics ?? []).every(
          (want, i) =>
            want === null || (Array.isArray(want) ? want : [want]).some((w) => w.toLowerCase() === log.topics[i]),
        )
        if (topicsMatch) out.push(log)
      }
    }
    return out
  }

  /** The newest transaction hash of an address now (the bench checks that no stale first page is shown). */
  newestHash(network: string, address: string): string | null {
    const key = `${network}|${address.toLowerCase()}`
    return (
      [
        ...this.#newTransactions(key, this.chains.get(network)!),
        ...(this.recorded.transactions.get(key)?.items ?? []),
      ][0]?.hash ?? null
    )
  }

  /** The busy address (the first of the watchlist) gets a new transaction every 10 minutes. */
  #newTransactions(key: string, chain: SimChain): Transaction[] {
    const busy = this.recorded.addresses[0]!
    if (key !== `${busy.network}|${busy.address.toLowerCase()}`) return []
    const template = this.recorded.transactions.get(key)?.items[0]
    if (!template) return []
    const count = Math.floor((this.clock.now() - this.#start) / NEW_TX_EVERY)
    const out: Transaction[] = []
    for (let j = count; j >= 1; j--) {
      const block = chain.heightAt(this.#start + j * NEW_TX_EVERY)
      out.push({
        ...template,
        block,
        hash: `0x${'e'.repeat(56)}${j.toString(16).padStart(8, '0')}`,
        nonce: template.nonce + j,
      })
    }
    return out
  }
}
