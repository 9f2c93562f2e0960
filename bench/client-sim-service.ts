import type { Clock } from '../src/main/core/util/clock'
import type { SandboxInfo } from '../src/main/core/sandbox/sandbox-launcher'
import { TRANSFER_TOPIC } from '../src/shared/domain/events'
import type { Transaction } from '../src/shared/domain/service-schemas'

/** Simulated time: timers run in order when the bench advances the clock; no real waiting. */
export class SimClock implements Clock {
  #now: number
  #seq = 0
  readonly #timers = new Map<number, { at: number; fn: () => void }>()

  constructor(startMs: number) {
    this.#now = startMs
  }

  now(): number {
    return this.#now
  }

  setTimeout(fn: () => void, ms: number): number {
    const id = ++this.#seq
    this.#timers.set(id, { at: this.#now + Math.max(0, ms), fn })
    return id
  }

  clearTimeout(id: unknown): void {
    this.#timers.delete(id as number)
  }

  /** Runs every timer due by `t` in time order, letting promise chains settle in between. */
  async runUntil(t: number): Promise<void> {
    for (;;) {
      await settle()
      let nextId = -1
      let nextAt = Infinity
      for (const [id, timer] of this.#timers) {
        if (timer.at <= t && (timer.at < nextAt || (timer.at === nextAt && id < nextId))) {
          nextId = id
          nextAt = timer.at
        }
      }
      if (nextId < 0) break
      const timer = this.#timers.get(nextId)!
      this.#timers.delete(nextId)
      this.#now = Math.max(this.#now, timer.at)
      timer.fn()
    }
    this.#now = Math.max(this.#now, t)
  }
}

async function settle(): Promise<void> {
  for (let i = 0; i < 4; i++) await new Promise((r) => setImmediate(r))
}

/** Deterministic uniform [0, 1). */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/**
 * A live chain in simulated time. 'slot': block k lands in its 2 s slot ± 0.5 s (jitter that
 * does not accumulate), exactly as sandbox/chain/live.ts schedules them and as slot-based
 * chains do. 'walk': each block 2 s × (1 ± 50%) after the previous (a random walk), kept to
 * show what the extrapolation would face on a drifting chain.
 */
export class SimChain {
  readonly #times: number[] = []
  readonly #start: number
  readonly #startHeight: number
  readonly #random: () => number
  readonly #model: 'walk' | 'slot'
  static readonly BLOCK_MS = 2000

  constructor(startMs: number, startHeight: number, seed: number, model: 'walk' | 'slot') {
    this.#start = startMs
    this.#startHeight = startHeight
    this.#random = mulberry32(seed)
    this.#model = model
    // The head at the start was produced a random part of a block earlier.
    this.#times.push(startMs - this.#random() * SimChain.BLOCK_MS)
  }

  #extend(untilMs: number): void {
    while (this.#times.at(-1)! <= untilMs) {
      const k = this.#times.length
      const prev = this.#times.at(-1)!
      const next =
        this.#model === 'walk'
          ? prev + SimChain.BLOCK_MS * (0.5 + this.#random())
          : Math.max(
              prev + 1,
              this.#times[0]! + k * SimChain.BLOCK_MS + (this.#random() - 0.5) * SimChain.BLOCK_MS * 0.5,
            )
      this.#times.push(next)
    }
  }

  heightAt(ms: number): number {
    this.#extend(ms)
    let lo = 0
    let hi = this.#times.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1
      if (this.#times[mid]! <= ms) lo = mid
      else hi = mid - 1
    }
    return this.#startHeight + lo
  }

  /** When block `h` was produced (history before the start: regular blocks). */
  producedAt(h: number): number {
    const k = h - this.#startHeight
    if (k < 0) return this.#times[0]! + k * SimChain.BLOCK_MS
    this.#extend(this.#start + (k + 2) * SimChain.BLOCK_MS * 2)
    return this.#times[k]!
  }
}

export interface Recorded {
  key: string
  networks: string[]
  heads: Record<string, number>
  addresses: { network: string; address: string }[]
  balances: Map<string, unknown>
  transactions: Map<string, { items: Transaction[]; more: boolean }>
}

/** The watchlist's real data, read once from the sandbox (paced well under its limits). */
export async function recordWatchlist(info: SandboxInfo, log: (m: string) => void): Promise<Recorded> {
  const [a, b] = info.networks as [string, string]
  const pick = (network: string, role: string): { network: string; address: string } => ({
    network,
    address: info.demo_addresses[network]![role]!,
  })
  const addresses = [pick(a, 'whale'), pick(a, 'holder'), pick(a, 'contract'), pick(b, 'whale'), pick(b, 'holder')]
  const rec: Recorded = {
    key: info.api_key,
    networks: [a, b],
    heads: {},
    addresses,
    balances: new Map(),
    transactions: new Map(),
  }
  const get = async (url: string): Promise<Record<string, unknown>> => {
    await new Promise((r) => setTimeout(r, 40))
    const response = await fetch(url)
    if (!response.ok) throw new Error(`recording: HTTP ${response.status}`)
    return (await response.json()) as Record<string, unknown>
  }
  for (const { network, address } of addresses) {
    const key = `${network}|${address.toLowerCase()}`
    rec.balances.set(
      key,
      await get(`${info.base_url}/api/v1/${network}/balance?address=${address}&api_key=${info.api_key}`),
    )
    const items: Transaction[] = []
    let params: Record<string, unknown> | null = {}
    for (let page = 0; page < 3 && params; page++) {
      const q = new URLSearchParams({ address })
      for (const [k, v] of Object.entries(params)) if (k !== 'api_key' && k !== 'apikey') q.set(k, String(v))
      q.set('api_key', info.api_key)
      const body = await get(`${info.base_url}/api/v1/${network}/transactions?${q}`)
      items.push(...(body.items as Transaction[]))
      params = body.next_page_params as Record<string, unknown> | null
    }
    rec.transactions.set(key, { items, more: params !== null })
    for (const tx of items)
      if (tx.block !== null) rec.heads[network] = Math.max(rec.heads[network] ?? 0, tx.block + tx.confirmations)
  }
  for (const n of rec.networks) rec.heads[n] ??= 1000
  log(
    `analyst-hour: recorded ${addresses.length} addresses (${[...rec.transactions.values()].map((t) => t.items.length).join('/')} transactions)`,
  )
  return rec
}

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
