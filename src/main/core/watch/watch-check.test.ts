import { describe, expect, it } from 'vitest'
import type { RpcBatchItem } from '../../../shared/bridge/contract'
import type { ProfileRuntime } from '../profiles/profile-runtime'
import type { RpcCallSpec } from '../service/service-client'
import {
  TRANSFER_BATCH_TOPIC as TRANSFER_BATCH,
  TRANSFER_SINGLE_TOPIC as TRANSFER_SINGLE,
  TRANSFER_TOPIC as TRANSFER,
} from '../../../shared/domain/events'
import { logDeltas, runWatchCheck, watchCalls } from './watch-check'
import type { ProfileWatchState } from './watch-state'

const A = '0x00000000000000000000000000000000000000aa'
const B = '0x00000000000000000000000000000000000000bb'
const T = '0x00000000000000000000000000000000000000cc'
const topic = (a: string): string => `0x${'0'.repeat(24)}${a.slice(2)}`
const word = (n: bigint | number): string => BigInt(n).toString(16).padStart(64, '0')

describe('logDeltas', () => {
  it('reads ERC-20 amounts, ERC-721 items and ERC-1155 single and batch values, signed per watched address', () => {
    const logs = [
      { token: T, topics: [TRANSFER, topic(B), topic(A)], data: `0x${word(500)}` }, // ERC-20 B → A
      { token: T, topics: [TRANSFER, topic(A), topic(B)], data: `0x${word(200)}` }, // ERC-20 A → B
      { token: '0xnft', topics: [TRANSFER, topic(B), topic(A), topic('0x07')], data: '0x' }, // ERC-721 #7 to A
      { token: '0x1155', topics: [TRANSFER_SINGLE, topic(B), topic(B), topic(A)], data: `0x${word(1)}${word(3)}` },
      // TransferBatch(ids [1, 2], values [4, 5]) A → B: offsets 0x40 and 0xa0.
      {
        token: '0x1155',
        topics: [TRANSFER_BATCH, topic(A), topic(A), topic(B)],
        data: `0x${word(0x40)}${word(0xa0)}${word(2)}${word(1)}${word(2)}${word(2)}${word(4)}${word(5)}`,
      },
    ]
    const d = logDeltas(logs, new Set([A]))
    expect(Object.fromEntries(d.get(A)!)).toEqual({
      [`erc20|${T}`]: 300n,
      'erc721|0xnft': 1n,
      'erc1155|0x1155': 3n - 9n,
    })
    expect(d.has(B)).toBe(false)
  })
})

describe('runWatchCheck', () => {
  it('keeps the log range for the next check when the provider refuses it, and says so', async () => {
    const answers = (calls: RpcCallSpec[]): RpcBatchItem[] =>
      calls.map((c) =>
        c.method === 'eth_getLogs'
          ? { ok: false, code: -32005, message: 'query returned more than 10000 results' }
          : { ok: true, result: c.method === 'eth_blockNumber' ? '0x64' : '0x1' },
      )
    const fake = {
      profileId: 'p',
      client: {
        rpcCalls: async (_n: string, calls: RpcCallSpec[]) => answers(calls),
        requestsFor: () => 1,
        batchSupport: () => true,
      },
    }
    const state: ProfileWatchState = {
      periodic: false,
      budgetFraction: 0.05,
      networks: { alpha: { checkedBlock: 50 } },
      addresses: {},
    }
    expect(watchCalls([A], 50).filter((c) => c.method === 'eth_getLogs')).toHaveLength(3)
    const result = await runWatchCheck(fake as unknown as ProfileRuntime, state, [{ network: 'alpha', address: A }], {
      priority: 'user',
      now: () => 0,
    })
    expect(state.networks.alpha).toEqual({ checkedBlock: 50 })
    expect(result.networks[0]!.error).toMatch(
      /^token transfers since block 51 could not be read \(query returned more than 10000 results\)/,
    )
  })
})
