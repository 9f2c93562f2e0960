import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { FakeChain, type Movement } from '../testing/fake-chain'
import { AppError } from '../util/app-error'
import { runWatchCheck, watchUnits, type WatchCheckOptions, type WatchProgress } from './watch-check'
import type { CheckRuntime } from './watch-spend'
import type { ProfileWatchState } from './watch-state'

const addressOf = (i: number): string => `0x${(0xa000 + i).toString(16).padStart(40, '0')}`
const OUTSIDER = addressOf(999)
const emptyState = (): ProfileWatchState => ({ periodic: false, budgetFraction: 0.05, networks: {}, addresses: {} })

async function check(
  chain: FakeChain,
  runtime: ReturnType<FakeChain['runtime']>,
  state: ProfileWatchState,
  addresses: string[],
  extra: Partial<WatchCheckOptions> = {},
) {
  return runWatchCheck(
    runtime as unknown as CheckRuntime,
    state,
    addresses.map((address) => ({ network: 'n', address })),
    { priority: 'user', now: () => 0, headOf: () => chain.head, logCap: () => chain.cap, ...extra },
  )
}

/** A chain and `count` watched addresses after the first check (the baseline). */
async function baselined(count: number, chain: FakeChain, provider?: Parameters<FakeChain['runtime']>[0]) {
  const runtime = chain.runtime(provider)
  const addresses = Array.from({ length: count }, (_, i) => addressOf(i))
  const state = emptyState()
  await check(chain, runtime, state, addresses)
  return { chain, runtime, addresses, state }
}

describe('runWatchCheck', () => {
  it('50 unchanged addresses cost 5 calls: the balances, the mined head, three log filters', async () => {
    const { chain, runtime, addresses, state } = await baselined(50, new FakeChain(1000, 1000))
    chain.head += 20
    const before = chain.units
    const estimate = watchUnits(runtime as unknown as CheckRuntime, state, [{ network: 'n', address: addresses[0]! }])
    const result = await check(chain, runtime, state, addresses)
    expect(result.changed).toBe(0)
    expect(chain.units - before).toBe(5)
    expect(result.requests).toBe(5)
    expect(estimate).toBe(5)
  })

  it('5 changed of 50 cost the 5 calls and a balances and first-page refetch each', async () => {
    const { chain, runtime, addresses, state } = await baselined(50, new FakeChain(1000, 1000))
    chain.head += 20
    for (const [i, kind] of (['coin', 'erc20', 'erc721', 'erc1155', 'coin'] as const).entries())
      chain.move({ block: 1005 + i, kind, from: OUTSIDER, to: addresses[i]!, amount: 3n })
    const before = chain.units
    const result = await check(chain, runtime, state, addresses)
    expect(result.changed).toBe(5)
    expect(chain.units - before).toBe(5 + 5 * 2)
    expect(result.statuses.filter((s) => s.unseen).map((s) => s.address)).toEqual(addresses.slice(0, 5))
  })

  /** The week of issue 42: 300,000 blocks; an ERC-20 received 150,000 blocks back, a coin change, an ERC-20 received 5 blocks before the check. */
  function week(chain: FakeChain, addresses: string[]): string[] {
    chain.head += 300_000
    const moves = [
      { block: chain.head - 150_000, kind: 'erc20', to: addresses[7]! },
      { block: chain.head - 90_000, kind: 'coin', to: addresses[21]! },
      { block: chain.head - 5, kind: 'erc20', to: addresses[42]! },
    ] as const
    for (const m of moves) chain.move({ ...m, from: OUTSIDER, amount: 9n })
    return moves.map((m) => m.to)
  }

  it('a week away billed per call plus one per batch reads the token balances (50 GETs, not 900 log calls) and marks every change with its delta', async () => {
    const chain = new FakeChain(1000, 1000)
    const { runtime, addresses, state } = await baselined(50, chain, { billing: 'call-plus-batch', batchCap: 50 })
    const changed = week(chain, addresses)
    const progress: WatchProgress[] = []
    const estimate = watchUnits(runtime as unknown as CheckRuntime, state, [{ network: 'n', address: addresses[0]! }], {
      headOf: () => chain.head,
      logCap: () => chain.cap,
    })
    const before = chain.units
    const result = await check(chain, runtime, state, addresses, { onProgress: (p) => progress.push(p) })
    expect(result.statuses.filter((s) => s.unseen).map((s) => s.address)).toEqual(changed)
    // The balances and the head (2 single calls), 50 balances, a first page for each of the 3 changed.
    expect(chain.units - before).toBe(2 + 50 + 3)
    expect(result.requests).toBe(chain.units - before)
    expect(progress[0]).toMatchObject({ way: 'balances', done: 0, total: 300_000, units: 50 })
    // The estimate of one address: 2 calls and one GET.
    expect(estimate).toBe(2 + 1)
    expect(chain.widestRange).toBe(0)
    const of = (a: string) => result.statuses.find((s) => s.address === a)!
    expect(of(changed[0]!).deltas).toEqual([expect.objectContaining({ standard: 'erc20', delta: '9' })])
    expect(of(changed[2]!).deltas).toEqual([expect.objectContaining({ standard: 'erc20', delta: '9' })])
    expect(of(changed[1]!).deltas).toEqual([expect.objectContaining({ standard: 'coin', delta: '9' })])
    expect(state.networks.n).toEqual({ checkedBlock: chain.head })
  })

  it('the same week billed per request reads 300 log windows newest first, 16 to a batch of 48 calls: 19 requests', async () => {
    const chain = new FakeChain(1000, 1000)
    const { runtime, addresses, state } = await baselined(50, chain, { billing: 'request', batchCap: 50 })
    const changed = week(chain, addresses)
    const progress: WatchProgress[] = []
    const before = chain.units
    const result = await check(chain, runtime, state, addresses, { onProgress: (p) => progress.push(p) })
    expect(result.statuses.filter((s) => s.unseen).map((s) => s.address)).toEqual(changed)
    // One batch of the balances and the head, 19 batches of filters, balances and first page of the 3 changed.
    expect(chain.units - before).toBe(1 + 19 + 3 * 2)
    expect(progress[0]).toMatchObject({ way: 'logs', done: 0, total: 300_000, units: 19 })
    expect(progress.at(-1)).toMatchObject({ done: 300_000 })
    expect(chain.widestRange).toBe(1000)
  })

  it('reads logs no further than the mined head, when the balance call ran on the block being mined', async () => {
    const { chain, runtime, addresses, state } = await baselined(5, new FakeChain(1000, 1000))
    chain.head += 10
    chain.callAhead = true
    await check(chain, runtime, state, addresses)
    expect(state.networks.n!.checkedBlock).toBe(chain.head)
    // That block is mined after the check, with a transfer: the next check still reads it.
    chain.callAhead = false
    chain.head += 1
    chain.move({ block: chain.head, kind: 'erc20', from: OUTSIDER, to: addresses[2]!, amount: 4n })
    const result = await check(chain, runtime, state, addresses)
    expect(result.statuses.filter((s) => s.unseen).map((s) => s.address)).toEqual([addresses[2]])
  })

  it('reads the newest windows first, stops at the quota reserve naming the unread blocks, and reads them at the next check', async () => {
    // 40 addresses: 10 windows of 10 blocks (30 log calls) cost less than 40 balances.
    const { chain, runtime, addresses, state } = await baselined(40, new FakeChain(100, 10))
    chain.head = 200
    chain.move({ block: 195, kind: 'erc20', from: OUTSIDER, to: addresses[1]!, amount: 1n })
    chain.move({ block: 105, kind: 'erc721', from: OUTSIDER, to: addresses[0]!, amount: 1n })
    // Room for the balances and the head (2 calls) and three windows above the reserve.
    chain.leftToday = 2 + 3 * 3
    const first = await check(chain, runtime, state, addresses)
    // The transfer 5 blocks old is seen; the one 95 blocks old is in what is left.
    expect(first.statuses.filter((s) => s.unseen).map((s) => s.address)).toEqual([addresses[1]])
    expect(first.networks[0]!.error).toBe(
      'stopped at the quota reserve with token transfers read newest first down to block 171; blocks 101-170 still unread: the next check reads them',
    )
    expect(state.networks.n).toEqual({ checkedBlock: 200, unread: [{ from: 101, to: 170 }] })
    chain.leftToday = 1_000_000
    chain.head = 205
    chain.move({ block: 203, kind: 'erc20', from: OUTSIDER, to: addresses[2]!, amount: 1n })
    const second = await check(chain, runtime, state, addresses)
    expect(second.networks[0]!.error).toBeNull()
    expect(state.networks.n).toEqual({ checkedBlock: 205 })
    expect(second.statuses.filter((s) => s.unseen).map((s) => s.address)).toEqual(addresses.slice(0, 3))
    // Each transfer counted once: the 195 one was read by the first check only.
    const delta = (a: string) => second.statuses.find((s) => s.address === a)!.deltas
    expect(delta(addresses[1]!)).toEqual([expect.objectContaining({ standard: 'erc20', delta: '1' })])
    expect(delta(addresses[0]!)).toEqual([expect.objectContaining({ standard: 'erc721', delta: '1' })])
  })
})

describe('runWatchCheck when the quota runs out part-way', () => {
  it('keeps what it read and what it marked, names the unread blocks, and reads them at the next check', async () => {
    // Batches of 9 calls: 3 windows of 10 blocks a request, newest first.
    const chain = new FakeChain(100, 10)
    const { runtime, addresses, state } = await baselined(40, chain, { billing: 'call', batchCap: 9 })
    chain.head = 200
    chain.move({ block: 195, kind: 'erc20', from: OUTSIDER, to: addresses[1]!, amount: 1n })
    chain.move({ block: 105, kind: 'erc721', from: OUTSIDER, to: addresses[0]!, amount: 1n })
    // The service's quota: the balances and head, one request of windows, then HTTP 402 for everything.
    let allowed = 2
    const used = () => {
      if (allowed-- <= 0) throw new AppError('quota-exhausted', 'Daily quota used up at the service until 00:00 UTC.')
    }
    const { rpcCalls } = runtime.client
    const { balances, transactions } = runtime.data
    runtime.client.rpcCalls = async (...args) => (used(), rpcCalls(...args))
    runtime.data.balances = async (...args) => (used(), balances(...args))
    runtime.data.transactions = async (...args) => (used(), transactions(...args))
    const first = await check(chain, runtime, state, addresses)
    expect(first.statuses.filter((s) => s.unseen).map((s) => s.address)).toEqual([addresses[1]])
    expect(first.networks[0]!.error).toBe(
      'token transfers of blocks 101-170 could not be read (Daily quota used up at the service until 00:00 UTC.); the next check reads them; the balances and transactions of changed addresses could not all be read again (Daily quota used up at the service until 00:00 UTC.)',
    )
    expect(state.networks.n).toEqual({ checkedBlock: 200, unread: [{ from: 101, to: 170 }] })
    allowed = Infinity
    const second = await check(chain, runtime, state, addresses)
    expect(second.networks[0]!.error).toBeNull()
    expect(state.networks.n).toEqual({ checkedBlock: 200 })
    expect(second.statuses.filter((s) => s.unseen).map((s) => s.address)).toEqual([addresses[0], addresses[1]])
  })
})

describe('runWatchCheck on a provider whose log cap is not known yet', () => {
  it('a long gap: the balances alone, then one filter asks, and its refusal names the cap to plan with', async () => {
    const { chain, runtime, addresses, state } = await baselined(50, new FakeChain(1000, 1000))
    const learnt = () => runtime.client.logs.learntCap('n')
    chain.head += 300_000
    chain.move({ block: 5000, kind: 'erc20', from: OUTSIDER, to: addresses[3]!, amount: 1n })
    const before = chain.units
    const result = await check(chain, runtime, state, addresses, { logCap: learnt })
    expect(chain.refusedRanges).toBe(1)
    expect(learnt()).toBe(1000)
    expect(result.changed).toBe(1)
    // The balance call and the mined head, the refused filter, 50 first pages, and the changed address's balances.
    expect(chain.units - before).toBe(2 + 1 + 50 + 1)
  })

  it('a long gap refused for its result count is read in parts, never skipped', async () => {
    const { chain, runtime, addresses, state } = await baselined(50, new FakeChain(1000, 1_000_000))
    chain.maxResults = 3
    chain.head += 50_000
    for (let i = 0; i < 12; i++)
      chain.move({ block: 2000 + i * 3000, kind: 'erc20', from: addresses[i]!, to: OUTSIDER, amount: 1n })
    const result = await check(chain, runtime, state, addresses, { logCap: () => runtime.client.logs.learntCap('n') })
    expect(result.networks[0]!.error).toBeNull()
    expect(result.changed).toBe(12)
    expect(state.networks.n!.checkedBlock).toBe(chain.head)
  })

  it('a short gap refused in the first batch: the cap is remembered, and the next check asks within it', async () => {
    const { chain, runtime, addresses, state } = await baselined(50, new FakeChain(1000, 100))
    const learnt = () => runtime.client.logs.learntCap('n')
    chain.head += 250
    await check(chain, runtime, state, addresses, { logCap: learnt })
    expect(chain.refusedRanges).toBe(3)
    expect(learnt()).toBe(100)
    expect(state.networks.n!.checkedBlock).toBe(chain.head)
    chain.head += 250
    await check(chain, runtime, state, addresses, { logCap: learnt })
    expect(chain.refusedRanges).toBe(3)
    expect(state.networks.n!.checkedBlock).toBe(chain.head)
  })
})

describe('the watch check, for any log cap, gap and transfers', () => {
  const movement = (watched: number) =>
    fc.record({
      offset: fc.nat(),
      kind: fc.constantFrom('coin', 'erc20', 'erc721', 'erc1155'),
      from: fc.integer({ min: -1, max: watched - 1 }),
      to: fc.integer({ min: 0, max: watched - 1 }),
      amount: fc.bigInt({ min: 1n, max: 10n ** 20n }),
    })

  it('marks exactly the changed addresses and never asks for more blocks than the cap', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 2000 }),
        fc.integer({ min: 1, max: 20_000 }),
        fc.integer({ min: 1, max: 12 }),
        fc.array(movement(12), { maxLength: 8 }),
        fc.boolean(),
        async (cap, gap, watched, raw, capKnown) => {
          const chain = new FakeChain(500, cap)
          const runtime = chain.runtime()
          const addresses = Array.from({ length: watched }, (_, i) => addressOf(i))
          const state = emptyState()
          // Known: remembered from an earlier refusal; else what the client learns as it goes.
          const logCap = () => (capKnown ? cap : runtime.client.logs.learntCap('n'))
          await check(chain, runtime, state, addresses, { logCap })
          chain.head += gap
          const expected = new Set<string>()
          for (const r of raw) {
            // Coin only comes in (coin moves that cancel out exactly are what no check can see).
            const kind: Movement['kind'] = r.kind as Movement['kind']
            const from = kind === 'coin' || r.from < 0 || r.from >= watched ? OUTSIDER : addresses[r.from]!
            const to = addresses[r.to % watched]!
            if (from === to) continue
            chain.move({ block: 501 + (r.offset % gap), kind, from, to, amount: r.amount })
            expected.add(to)
            if (from !== OUTSIDER) expected.add(from)
          }
          // A check that stops (an unknown cap refused) goes on at the next one: at most a few.
          const unfinished = () => state.networks.n!.checkedBlock < chain.head || !!state.networks.n!.unread
          for (let i = 0; i < 3 && unfinished(); i++) await check(chain, runtime, state, addresses, { logCap })
          const marked = Object.entries(state.addresses)
            .filter(([, s]) => s.unseen)
            .map(([k]) => k.split('|')[1])
          expect(new Set(marked)).toEqual(expected)
          // A cap not known yet is met once (the first batch's three filters refused), then remembered.
          if (capKnown) expect(chain.widestRange).toBeLessThanOrEqual(cap)
          else expect(chain.refusedRanges).toBeLessThanOrEqual(3)
        },
      ),
      { numRuns: 200 },
    )
  })
})
