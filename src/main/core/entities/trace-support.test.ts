import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { RpcBatchItem } from '@shared/bridge/contract'
import { LearntLimitsStore } from '../service/learnt-limits-store'
import type { RpcCallSpec } from '../service/service-types'
import { readTrace, TRACE_LEARNT_KEPT_MS, traceRefusal } from './trace-support'

const HASH = `0x${'12'.repeat(32)}`
const A = (n: number): string => `0x${n.toString(16).padStart(40, '0')}`
const TREE = {
  type: 'CALL',
  from: A(1),
  to: A(2),
  value: '0x1',
  calls: [{ type: 'CALL', from: A(2), to: A(3), value: '0x1' }],
}
const PARITY = [
  { type: 'call', traceAddress: [], action: { callType: 'call', from: A(1), to: A(2), value: '0x1' } },
  { type: 'call', traceAddress: [0], action: { callType: 'call', from: A(2), to: A(3), value: '0x1' } },
]

let dir = ''
let now = 1_000_000
let answers: Record<string, RpcBatchItem> = {}
let sent: string[] = []

const store = (): LearntLimitsStore => new LearntLimitsStore(dir, { now: () => now })
const memory = (s: LearntLimitsStore, url = 'http://rpc.example/') => s.forProfile('p1', () => url).traces
const send = async (call: RpcCallSpec): Promise<RpcBatchItem> => {
  sent.push(call.method)
  return answers[call.method]!
}
/** A read, then its store's saves settled (as a clean close leaves them) before the next "restart". */
const read = async (s: LearntLimitsStore, retry = false) => {
  const answer = await readTrace({
    send,
    memory: memory(s),
    network: 'mainnet',
    hash: HASH,
    meter: { requests: 0, units: 0 },
    retry,
  })
  await s.settled()
  return answer
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'traces-'))
  sent = []
  now = 1_000_000
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

describe('the learnt "traces refused" flag', () => {
  it('remembers a provider refusing both methods across a restart, says it in words, and asks again on Refresh', async () => {
    answers = {
      debug_traceTransaction: {
        ok: false,
        code: -32601,
        message: 'the method debug_traceTransaction does not exist/is not available',
      },
      trace_transaction: { ok: false, code: -32000, message: 'trace_transaction is not supported on your plan' },
    }
    const first = await read(store())
    expect(first).toMatchObject({ dialect: null })
    expect(first.dialect === null && first.refused).toContain("mainnet's provider refuses call traces")
    expect(first.dialect === null && first.refused).toContain('"trace_transaction is not supported on your plan"')
    expect(sent).toEqual(['debug_traceTransaction', 'trace_transaction'])

    sent = []
    const again = await read(store()) // a restart: a new store on the same folder
    expect(again).toEqual(first)
    expect(sent).toEqual([])

    answers.debug_traceTransaction = { ok: true, result: TREE }
    const retried = await read(store(), true)
    expect(retried).toMatchObject({ dialect: 'callTracer' })
    expect(sent).toEqual(['debug_traceTransaction'])
    sent = []
    await read(store())
    expect(sent).toEqual(['debug_traceTransaction'])
  })

  it('asks the dialect learnt first, starts afresh on another RPC address and after a week', async () => {
    answers = {
      debug_traceTransaction: { ok: false, code: -32601, message: 'Method not found' },
      trace_transaction: { ok: true, result: PARITY },
    }
    const s = store()
    expect(await read(s)).toMatchObject({ dialect: 'trace_transaction' })
    sent = []
    expect(await read(store())).toMatchObject({ dialect: 'trace_transaction' })
    expect(sent).toEqual(['trace_transaction'])
    expect(memory(store(), 'http://other.example/').load('mainnet')).toBeNull()
    now += TRACE_LEARNT_KEPT_MS
    expect(memory(store()).load('mainnet')).toBeNull()
  })

  it('does not learn from an error that is not a refusal of the method', async () => {
    answers = { debug_traceTransaction: { ok: false, code: -32000, message: 'transaction not found' } }
    await expect(read(store())).rejects.toThrow("mainnet's node could not trace 0x1212")
    expect(memory(store()).load('mainnet')).toBeNull()
  })

  it('tells a refusal from other errors by code and words', () => {
    expect(traceRefusal({ ok: false, code: -32601, message: 'x' })).toBe('x')
    expect(
      traceRefusal({ ok: false, code: -32600, message: 'debug_traceTransaction is not available on the Free tier' }),
    ).not.toBeNull()
    expect(traceRefusal({ ok: false, code: -32000, message: 'execution timeout' })).toBeNull()
    expect(traceRefusal({ ok: true, result: null })).toBeNull()
  })
})
