import { describe, expect, it } from 'vitest'
import {
  TRANSFER_BATCH_TOPIC as TRANSFER_BATCH,
  TRANSFER_SINGLE_TOPIC as TRANSFER_SINGLE,
  TRANSFER_TOPIC as TRANSFER,
} from '@shared/domain/events'
import { logDeltas, parseLogs, transferLogCalls } from './watch-logs'

const A = '0x00000000000000000000000000000000000000aa'
const B = '0x00000000000000000000000000000000000000bb'
const T = '0x00000000000000000000000000000000000000cc'
const topic = (a: string): string => `0x${'0'.repeat(24)}${a.slice(2)}`
const word = (n: bigint | number): string => BigInt(n).toString(16).padStart(64, '0')

describe('logDeltas', () => {
  it('reads ERC-20 amounts, ERC-721 items and ERC-1155 single and batch values, signed per watched address', () => {
    const logs = [
      { token: T, topics: [TRANSFER, topic(B), topic(A)], data: `0x${word(500)}`, block: 1, id: null }, // ERC-20 B → A
      { token: T, topics: [TRANSFER, topic(A), topic(B)], data: `0x${word(200)}`, block: 1, id: null }, // ERC-20 A → B
      { token: '0xnft', topics: [TRANSFER, topic(B), topic(A), topic('0x07')], data: '0x', block: 1, id: null }, // ERC-721 #7 to A
      {
        token: '0x1155',
        topics: [TRANSFER_SINGLE, topic(B), topic(B), topic(A)],
        data: `0x${word(1)}${word(3)}`,
        block: 1,
        id: null,
      },
      // TransferBatch(ids [1, 2], values [4, 5]) A → B: offsets 0x40 and 0xa0.
      {
        token: '0x1155',
        topics: [TRANSFER_BATCH, topic(A), topic(A), topic(B)],
        data: `0x${word(0x40)}${word(0xa0)}${word(2)}${word(1)}${word(2)}${word(2)}${word(4)}${word(5)}`,
        block: 1,
        id: null,
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

  it('counts a log once when two filters both match it (a transfer between two watched addresses)', () => {
    const raw = {
      address: T,
      topics: [TRANSFER, topic(A), topic(B)],
      data: `0x${word(7)}`,
      blockNumber: '0x5',
      transactionHash: `0x${'1'.repeat(64)}`,
      logIndex: '0x0',
    }
    const fromFilter = parseLogs({ ok: true, result: [raw] })!
    const toFilter = parseLogs({ ok: true, result: [raw] })!
    const d = logDeltas([...fromFilter, ...toFilter], new Set([A, B]))
    expect(d.get(A)!.get(`erc20|${T}`)).toBe(-7n)
    expect(d.get(B)!.get(`erc20|${T}`)).toBe(7n)
    expect(fromFilter[0]!.block).toBe(5)
  })

  it('reads an error or a non-list answer as no logs (null), not as an empty list', () => {
    expect(parseLogs({ ok: false, code: -32602, message: 'query exceeds max block range 1000' })).toBeNull()
    expect(parseLogs({ ok: true, result: { logs: [] } })).toBeNull()
    expect(parseLogs({ ok: true, result: [] })).toEqual([])
  })
})

describe('transferLogCalls', () => {
  it('asks once per topic position, every address in one topic array', () => {
    const calls = transferLogCalls([A, B], 11, 20)
    expect(calls).toHaveLength(3)
    expect(calls[0]!.params[0]).toEqual({
      fromBlock: '0xb',
      toBlock: '0x14',
      topics: [[TRANSFER], [topic(A), topic(B)]],
    })
    expect(calls[2]!.params[0]).toMatchObject({
      topics: [[TRANSFER_SINGLE, TRANSFER_BATCH], null, null, [topic(A), topic(B)]],
    })
  })
})
