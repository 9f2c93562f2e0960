import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { RpcBatchItem } from '../../../shared/bridge/contract'
import type { ProfileRuntime } from '../profiles/profile-runtime'
import type { RpcCallSpec } from '../service/service-client'
import { runWatchCheck, TRANSFER_BATCH } from './watch-check'
import { stateKey, WatchStateStore, type ProfileWatchState } from './watch-state'

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

/** A runtime whose node answers a head, a nonce and a balance, and `logs` for the logs. */
function fakeRuntime(logs: unknown[]): ProfileRuntime {
  const answer = (c: RpcCallSpec): RpcBatchItem => {
    if (c.method === 'eth_getLogs') {
      const third = (c.params[0] as { topics: unknown[] }).topics.length === 4
      return { ok: true, result: third ? logs : [] }
    }
    return { ok: true, result: c.method === 'eth_blockNumber' ? '0x64' : '0x1' }
  }
  return {
    profileId: 'p',
    client: {
      rpcCalls: async (_n: string, calls: RpcCallSpec[]) => calls.map(answer),
      requestsFor: () => 1,
      batchSupport: () => true,
    },
    data: {
      balances: async () => ({ items: [] }),
      transactions: async () => ({ items: [], nextCursor: null }),
    },
  } as unknown as ProfileRuntime
}

let dir: string
beforeEach(() => {
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
    new WatchStateStore(dir).save('p', state)
    const again = new WatchStateStore(dir)
    expect(again.notice).toBeNull()
    expect(again.profile('p')).toEqual(state)
  })
})
