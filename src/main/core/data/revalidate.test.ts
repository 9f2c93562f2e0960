import { describe, expect, it } from 'vitest'
import type { RpcBatchItem } from '@shared/bridge/contract'
import { readRevalidation, readRevalidations, revalidationBatch, revalidationCalls } from './revalidate'

/** Reading a revalidation batch: only a clean "nothing moved" keeps the cache. */
const ok = (result: unknown): RpcBatchItem => ({ ok: true, result })
const answers = (
  o: { head?: string; nonce?: [string, string]; balance?: [string, string]; logs?: unknown[][] } = {},
): RpcBatchItem[] => [
  ok(o.head ?? '0x70'),
  ok(o.nonce?.[0] ?? '0x5'),
  ok(o.nonce?.[1] ?? '0x5'),
  ok(o.balance?.[0] ?? '0xde0b6b3a7640000'),
  ok(o.balance?.[1] ?? '0xde0b6b3a7640000'),
  ...(o.logs ?? [[], [], [], []]).map(ok),
  ok('0x77359400'),
]

describe('revalidation', () => {
  it('asks state at the cached block and at latest, and logs from the next block on', () => {
    const calls = revalidationCalls('0x00000000000000000000000000000000000000aa', 0x64)
    expect(calls.map((c) => c.method)).toEqual([
      'eth_blockNumber',
      'eth_getTransactionCount',
      'eth_getTransactionCount',
      'eth_getBalance',
      'eth_getBalance',
      'eth_getLogs',
      'eth_getLogs',
      'eth_getLogs',
      'eth_getLogs',
      'eth_gasPrice',
    ])
    expect(calls[1]!.params).toEqual(['0x00000000000000000000000000000000000000aa', '0x64'])
    expect(calls[5]!.params[0]).toMatchObject({ fromBlock: '0x65', toBlock: 'latest' })
    expect(calls[8]!.params[0]).toEqual({
      fromBlock: '0x65',
      toBlock: 'latest',
      address: '0x00000000000000000000000000000000000000aa',
    })
  })

  it('unchanged when nonce, balance and logs did not move', () => {
    expect(readRevalidation(answers(), 0x64)).toEqual({ kind: 'unchanged', head: 0x70, gasPriceWei: '2000000000' })
  })

  it('changed on a nonce, a balance or any log', () => {
    expect(readRevalidation(answers({ nonce: ['0x5', '0x6'] }), 0x64)).toEqual({ kind: 'changed', tokens: false })
    expect(readRevalidation(answers({ balance: ['0x1', '0x2'] }), 0x64)).toEqual({ kind: 'changed', tokens: false })
    // Logs the address emitted (a contract called): its transactions changed, not its holdings.
    expect(readRevalidation(answers({ logs: [[], [], [], [{ address: '0xaa', topics: [] }]] }), 0x64)).toEqual({
      kind: 'changed',
      tokens: false,
    })
    // A token transfer to it (with or without coin moving).
    expect(readRevalidation(answers({ logs: [[], [{ address: '0xbb', topics: [] }], [], []] }), 0x64)).toEqual({
      kind: 'changed',
      tokens: true,
    })
    expect(
      readRevalidation(answers({ nonce: ['0x5', '0x6'], logs: [[{ address: '0xbb', topics: [] }], [], [], []] }), 0x64),
    ).toEqual({ kind: 'changed', tokens: true })
  })

  it('unknown (refetch) when the node cannot tell: no historical state, refused logs, no head', () => {
    const noState = answers()
    noState[1] = { ok: false, code: -32000, message: 'missing trie node' }
    expect(readRevalidation(noState, 0x64).kind).toBe('unknown')
    const noLogs = answers()
    noLogs[6] = { ok: false, code: -32005, message: 'query returned more than 10000 results' }
    expect(readRevalidation(noLogs, 0x64).kind).toBe('unknown')
    expect(readRevalidation(answers({ head: 'nonsense' }), 0x64).kind).toBe('unknown')
    expect(readRevalidation(answers({ logs: [[], 'x' as unknown as unknown[], [], []] }), 0x64).kind).toBe('unknown')
  })

  it('unchanged without further reading when no block came since', () => {
    const items = answers({ head: '0x64' })
    items[5] = { ok: false, code: -32000, message: 'invalid block range params' }
    expect(readRevalidation(items, 0x64)).toEqual({ kind: 'unchanged', head: 0x64, gasPriceWei: '2000000000' })
  })
})

describe('revalidation of several addresses in one batch', () => {
  const targets = [
    { address: '0x00000000000000000000000000000000000000aa', since: 0x64 },
    { address: '0x00000000000000000000000000000000000000bb', since: 0x60 },
  ]

  it('shares the head and gas price, and asks each address from its own block', () => {
    const calls = revalidationBatch(targets)
    expect(calls).toHaveLength(1 + 2 * 8 + 1)
    expect(calls[0]!.method).toBe('eth_blockNumber')
    expect(calls.at(-1)!.method).toBe('eth_gasPrice')
    expect(calls[9]!.params).toEqual(['0x00000000000000000000000000000000000000bb', '0x60'])
    expect(calls[13]!.params[0]).toMatchObject({ fromBlock: '0x61', toBlock: 'latest' })
  })

  it('reads one result per address, in order', () => {
    const one = answers()
    const other = answers({ nonce: ['0x5', '0x6'] })
    const items = [...one.slice(0, 9), ...other.slice(1, 9), one[9]!]
    expect(readRevalidations(items, targets)).toEqual({
      targets,
      head: 0x70,
      gasPriceWei: '2000000000',
      results: [
        { kind: 'unchanged', head: 0x70, gasPriceWei: '2000000000' },
        { kind: 'changed', tokens: false },
      ],
    })
  })

  it('a short answer leaves the addresses it does not cover unknown, never unchanged', () => {
    const items = answers().slice(0, 9)
    const read = readRevalidations(items, targets)
    expect(read.results[1]!.kind).toBe('unknown')
    expect(read.gasPriceWei).toBeNull()
  })
})
