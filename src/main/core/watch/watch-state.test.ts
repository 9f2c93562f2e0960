import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  TRANSFER_BATCH_TOPIC as TRANSFER_BATCH,
  TRANSFER_SINGLE_TOPIC as TRANSFER_SINGLE,
  TRANSFER_TOPIC as TRANSFER,
} from '@shared/domain/events'
import { FakeChain } from '../testing/fake-chain'
import { hangingFs } from '../testing/hanging-fs'
import { DiskReports } from '../util/disk-error'
import { runWatchCheck } from './watch-check'
import type { CheckRuntime } from './watch-spend'
import {
  addTokenDelta,
  markSeen,
  stateKey,
  TOKEN_DELTA_MAX,
  WatchStateStore,
  type ProfileWatchState,
} from './watch-state'

const A = '0x00000000000000000000000000000000000000aa'
const B = '0x00000000000000000000000000000000000000bb'
const TOKEN = '0x00000000000000000000000000000000000000cc'
const UINT256_MAX = 2n ** 256n - 1n
const topic = (a: string): string => `0x${'0'.repeat(24)}${a.slice(2)}`
const word = (n: bigint | number): string => BigInt(n).toString(16).padStart(64, '0')

/** TransferBatch(operator, from, to, ids[], values[]) with `values`, ABI-encoded. */
function batchLog(from: string, to: string, values: bigint[]): { address: string; topics: string[]; data: string } {
  const n = values.length
  const ids = values.map((_, i) => word(i + 1)).join('')
  const head = `${word(0x40)}${word(0x40 + 32 * (n + 1))}`
  return {
    address: TOKEN,
    topics: [TRANSFER_BATCH, topic(from), topic(from), topic(to)],
    data: `0x${head}${word(n)}${ids}${word(n)}${values.map(word).join('')}`,
  }
}

/**
 * A provider (testing/fake-chain.ts) at block `head` whose coin balances are all `quantity`,
 * answering `logs` to the check's filter on TransferSingle/TransferBatch's `to` (its only
 * four-topic filter): raw logs, so a TransferBatch of any length can be given.
 */
function fakeRuntime(logs: unknown[], head = 100, quantity = 1n): CheckRuntime {
  const chain = new FakeChain(head, 1_000_000)
  chain.balanceOf = () => quantity
  const runtime = chain.runtime()
  const rpcCalls = runtime.client.rpcCalls
  runtime.client.rpcCalls = async (network, calls, options) => {
    const answers = await rpcCalls(network, calls, options)
    return answers.map((answer, i) => {
      const call = calls[i]!
      const filter = call.params[0] as { topics?: unknown[] } | undefined
      return call.method === 'eth_getLogs' && filter?.topics?.length === 4 ? { ok: true, result: logs } : answer
    })
  }
  return runtime as unknown as CheckRuntime
}

let dir: string
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'watch-state-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const baseline = (): ProfileWatchState => ({
  periodic: false,
  budgetFraction: 0.05,
  networks: { alpha: { checkedBlock: 50 } },
  addresses: {
    [stateKey('alpha', A)]: {
      nonce: '1',
      balanceWei: '1',
      checkedAt: '2030-01-01T00:00:00.000Z',
      lookBlock: 50,
      lookBalanceWei: '1',
      newTxs: 0,
      newTxsMore: false,
      tokenDeltas: {},
      unseen: false,
    },
  },
})

describe('WatchStateStore', () => {
  it('saves an 81-digit token delta from one TransferBatch and loads it at the next start', async () => {
    const state = baseline()
    // 1,000 values of 2^256 - 1 in one batch: a sum of 81 digits.
    const log = batchLog(
      B,
      A,
      Array.from({ length: 1000 }, () => UINT256_MAX),
    )
    await runWatchCheck(fakeRuntime([log]), state, [{ network: 'alpha', address: A }], {
      priority: 'user',
      now: () => 0,
    })
    const delta = state.addresses[stateKey('alpha', A)]!.tokenDeltas[`erc1155|${TOKEN}`]!
    expect(delta).toBe((UINT256_MAX * 1000n).toString())
    expect(delta).toHaveLength(81)
    const store = new WatchStateStore(dir)
    store.save('p', state)
    await store.settled()
    const again = new WatchStateStore(dir)
    expect(again.notice).toBeNull()
    expect(again.profile('p')).toEqual(state)
  })

  it('a save given up at its deadline is settled at once; its write has ended only when the disk answers, leaving no temp file', async () => {
    const disk = hangingFs()
    const told: string[] = []
    const store = new WatchStateStore(dir, new DiskReports((m) => told.push(m)), { fs: disk.fs, deadlineMs: 50 })
    disk.state.hang = true
    vi.useFakeTimers()
    let ended = false
    let ending: Promise<unknown> = Promise.resolve()
    try {
      store.save('p', { periodic: true, budgetFraction: 0.1, networks: {}, addresses: {} })
      await disk.reached()
      await vi.advanceTimersByTimeAsync(50)
      await store.settled()
      ending = store.writesEnded().then(() => (ended = true))
      await vi.advanceTimersByTimeAsync(60_000)
      expect(told.join(' ')).toMatch(/did not answer/)
      expect(ended).toBe(false)
    } finally {
      vi.useRealTimers()
      disk.release()
    }
    await ending
    expect(ended).toBe(true)
    expect(readdirSync(dir)).toEqual([])
    // Kept for the session: the check's result is still shown.
    expect(store.profile('p').periodic).toBe(true)
  })
})

describe('token deltas', () => {
  it('are held within ±(2^320 - 1), the most any node can make them sum to', async () => {
    expect(addTokenDelta(undefined, 5n)).toBe('5')
    expect(addTokenDelta('-3', 1n)).toBe('-2')
    expect(addTokenDelta(TOKEN_DELTA_MAX.toString(), 1n)).toBe(TOKEN_DELTA_MAX.toString())
    expect(addTokenDelta((-TOKEN_DELTA_MAX).toString(), -UINT256_MAX)).toBe((-TOKEN_DELTA_MAX).toString())
    expect(TOKEN_DELTA_MAX.toString()).toHaveLength(97)
  })
})

const uint256 = fc.bigInt({ min: 0n, max: UINT256_MAX })
const party = fc.constantFrom(A, B)
/** Any Transfer, TransferSingle or TransferBatch between the two parties, with any amounts. */
const log = fc.oneof(
  fc.tuple(party, party, uint256).map(([from, to, v]) => ({
    address: TOKEN,
    topics: [TRANSFER, topic(from), topic(to)],
    data: `0x${word(v)}`,
  })),
  fc.tuple(party, party, uint256, uint256).map(([from, to, id, v]) => ({
    address: TOKEN,
    topics: [TRANSFER_SINGLE, topic(from), topic(from), topic(to)],
    data: `0x${word(id)}${word(v)}`,
  })),
  fc.tuple(party, party, fc.array(uint256, { maxLength: 8 })).map(([from, to, values]) => batchLog(from, to, values)),
  // Long batches of one amount: 863 or more values of 2^256 - 1 sum to 81 digits.
  fc
    .tuple(party, party, fc.integer({ min: 1, max: 1200 }), fc.oneof(uint256, fc.constant(UINT256_MAX)))
    .map(([from, to, n, v]) =>
      batchLog(
        from,
        to,
        Array.from({ length: n }, () => v),
      ),
    ),
)

describe('WatchStateStore property', () => {
  it('whatever checks, looks and settings the watch makes, valid or refused, memory and the file agree after each, and load back equal', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(
            fc.record({
              op: fc.constant('check' as const),
              logs: fc.array(log, { maxLength: 4 }),
              quantity: uint256,
              head: fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
            }),
            fc.record({ op: fc.constant('seen' as const), head: fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }) }),
            fc.record({
              op: fc.constant('settings' as const),
              periodic: fc.boolean(),
              budgetFraction: fc.double({ min: 0.001, max: 0.5, noNaN: true }),
            }),
            // A state the file could not hold: refused, and nothing changes.
            fc.record({ op: fc.constant('bad' as const), budgetFraction: fc.constantFrom(0, 2, Number.NaN) }),
          ),
          { minLength: 1, maxLength: 10 },
        ),
        async (ops) => {
          const dir = mkdtempSync(join(tmpdir(), 'watch-state-prop-'))
          try {
            const store = new WatchStateStore(dir)
            for (const o of ops) {
              const state = structuredClone(store.profile('p'))
              if (o.op === 'check') {
                const runtime = fakeRuntime(o.logs, o.head, o.quantity)
                await runWatchCheck(runtime, state, [{ network: 'alpha', address: A }], {
                  priority: 'user',
                  now: () => 0,
                })
              } else if (o.op === 'seen') {
                for (const [k, s] of Object.entries(state.addresses)) state.addresses[k] = markSeen(s, o.head)
              } else if (o.op === 'bad') {
                const before = store.profile('p')
                expect(() => store.save('p', { ...state, budgetFraction: o.budgetFraction })).toThrow(
                  expect.objectContaining({ kind: 'invalid-input' }),
                )
                expect(store.profile('p')).toEqual(before)
                continue
              } else {
                state.periodic = o.periodic
                state.budgetFraction = o.budgetFraction
              }
              store.save('p', state)
              await store.settled()
              expect(new WatchStateStore(dir).profile('p')).toEqual(store.profile('p'))
            }
            await store.settled()
            const again = new WatchStateStore(dir)
            expect(again.notice).toBeNull()
            expect(again.profile('p')).toEqual(store.profile('p'))
          } finally {
            rmSync(dir, { recursive: true, force: true })
          }
        },
      ),
      { numRuns: 60 },
    )
  })
})
