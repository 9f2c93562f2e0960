import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { FakeChain, type Movement } from '../testing/fake-chain'
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
async function baselined(count: number, chain: FakeChain) {
  const runtime = chain.runtime()
  const addresses = Array.from({ length: count }, (_, i) => addressOf(i))
  const state = emptyState()
  await check(chain, runtime, state, addresses)
  return { chain, runtime, addresses, state }
}

describe('runWatchCheck', () => {
  it('50 unchanged addresses cost 4 calls: the balances, then three log filters', async () => {
    const { chain, runtime, addresses, state } = await baselined(50, new FakeChain(1000, 1000))
    chain.head += 20
    const before = chain.units
    const estimate = watchUnits(runtime as unknown as CheckRuntime, state, [{ network: 'n', address: addresses[0]! }])
    const result = await check(chain, runtime, state, addresses)
    expect(result.changed).toBe(0)
    expect(chain.units - before).toBe(4)
    expect(result.requests).toBe(4)
    expect(estimate).toBe(4)
  })

  it('5 changed of 50 cost the 4 calls and a balances and first-page refetch each', async () => {
    const { chain, runtime, addresses, state } = await baselined(50, new FakeChain(1000, 1000))
    chain.head += 20
    for (const [i, kind] of (['coin', 'erc20', 'erc721', 'erc1155', 'coin'] as const).entries())
      chain.move({ block: 1005 + i, kind, from: OUTSIDER, to: addresses[i]!, amount: 3n })
    const before = chain.units
    const result = await check(chain, runtime, state, addresses)
    expect(result.changed).toBe(5)
    expect(chain.units - before).toBe(4 + 5 * 2)
    expect(result.statuses.filter((s) => s.unseen).map((s) => s.address)).toEqual(addresses.slice(0, 5))
  })

  it('a week away on a 1,000-block cap re-reads first pages (cheaper than 900 log calls) and marks every change', async () => {
    const { chain, runtime, addresses, state } = await baselined(50, new FakeChain(1000, 1000))
    chain.head += 300_000
    for (let i = 0; i < 5; i++)
      chain.move({
        block: 2000 + i * 50_000,
        kind: i % 2 ? 'erc20' : 'coin',
        from: OUTSIDER,
        to: addresses[i * 7]!,
        amount: 9n,
      })
    const progress: WatchProgress[] = []
    const estimate = watchUnits(runtime as unknown as CheckRuntime, state, [{ network: 'n', address: addresses[0]! }], {
      headOf: () => chain.head,
      logCap: () => chain.cap,
    })
    const before = chain.units
    const result = await check(chain, runtime, state, addresses, { onProgress: (p) => progress.push(p) })
    expect(result.changed).toBe(5)
    expect(chain.units - before).toBeLessThanOrEqual(60)
    expect(progress[0]).toMatchObject({ way: 'reread', done: 0, total: 300_000 })
    expect(estimate).toBeLessThan(60)
    expect(chain.widestRange).toBeLessThanOrEqual(1000)
    expect(state.networks.n!.checkedBlock).toBe(chain.head)
  })

  it('stops at the quota reserve between log windows and resumes there at the next check', async () => {
    // 40 addresses: 10 windows of 10 blocks (30 log calls) cost less than 40 first pages.
    const { chain, runtime, addresses, state } = await baselined(40, new FakeChain(100, 10))
    chain.head = 200
    chain.move({ block: 195, kind: 'erc20', from: OUTSIDER, to: addresses[1]!, amount: 1n })
    chain.move({ block: 105, kind: 'erc721', from: OUTSIDER, to: addresses[0]!, amount: 1n })
    // Room for the balance call and four windows above the reserve.
    chain.leftToday = 1 + 4 * 3
    const first = await check(chain, runtime, state, addresses, { logCap: () => chain.cap })
    expect(first.networks[0]!.error).toMatch(
      /^stopped at the quota reserve with token transfers read to block 1\d\d of 200/,
    )
    const resumeFrom = state.networks.n!.checkedBlock
    expect(resumeFrom).toBeGreaterThanOrEqual(100)
    expect(resumeFrom).toBeLessThan(200)
    chain.leftToday = 1_000_000
    const second = await check(chain, runtime, state, addresses)
    expect(second.networks[0]!.error).toBeNull()
    expect(state.networks.n!.checkedBlock).toBe(200)
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
    // The balance call, the refused filter, 50 first pages, and the changed address's balances.
    expect(chain.units - before).toBe(1 + 1 + 50 + 1)
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
          for (let i = 0; i < 3 && state.networks.n!.checkedBlock < chain.head; i++)
            await check(chain, runtime, state, addresses, { logCap })
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
