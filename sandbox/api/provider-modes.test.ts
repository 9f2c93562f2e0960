import { describe, expect, it } from 'vitest'
import {
  batchCapReply,
  DEFAULT_MODES,
  logCapRefusal,
  logSpan,
  requestUnits,
  tagRefusal,
  traceCallRefusal,
} from './provider-modes'
import { KeyLimiter } from './limits'

const batch = (n: number): string =>
  JSON.stringify(Array.from({ length: n }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'eth_chainId' })))

describe('provider modes', () => {
  it('offers one trace method per mode, the callTracer only, and refuses both in the none mode', () => {
    const hash = `0x${'00'.repeat(32)}`
    const callTracer = [hash, { tracer: 'callTracer' }]
    expect(traceCallRefusal(1, 'eth_call', [], DEFAULT_MODES)).toBeUndefined()
    expect(traceCallRefusal(1, 'debug_traceTransaction', callTracer, DEFAULT_MODES)).toBeNull()
    expect(
      traceCallRefusal(1, 'debug_traceTransaction', [hash, { tracer: 'prestateTracer' }], DEFAULT_MODES)?.error.code,
    ).toBe(-32602)
    expect(traceCallRefusal(1, 'trace_transaction', [hash], DEFAULT_MODES)?.error.code).toBe(-32601)
    const erigon = { ...DEFAULT_MODES, traces: 'trace_transaction' as const }
    expect(traceCallRefusal(1, 'trace_transaction', [hash], erigon)).toBeNull()
    expect(traceCallRefusal(1, 'debug_traceTransaction', callTracer, erigon)?.error.code).toBe(-32601)
    const none = { ...DEFAULT_MODES, traces: 'none' as const }
    expect(traceCallRefusal(7, 'debug_traceTransaction', callTracer, none)).toMatchObject({
      id: 7,
      error: { code: -32601 },
    })
    expect(traceCallRefusal(7, 'trace_transaction', [hash], none)?.error.message).toContain(
      'not supported on your plan',
    )
  })

  it('bills per request, per call, or per call plus one per batch', () => {
    expect(requestUnits(batch(30), DEFAULT_MODES)).toBe(1)
    expect(requestUnits(batch(30), { ...DEFAULT_MODES, billing: 'call' })).toBe(30)
    expect(requestUnits(batch(30), { ...DEFAULT_MODES, billing: 'call-plus-batch' })).toBe(31)
    expect(
      requestUnits('{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}', { ...DEFAULT_MODES, billing: 'call-plus-batch' }),
    ).toBe(1)
    expect(requestUnits('not json', { ...DEFAULT_MODES, billing: 'call' })).toBe(1)
  })

  it('refuses a batch over the cap in the chosen form', () => {
    const modes = { ...DEFAULT_MODES, batchCap: 50 }
    expect(batchCapReply(50, modes)).toBeNull()
    expect(JSON.parse(batchCapReply(51, modes)!.body)).toMatchObject({
      id: null,
      error: { code: -32600, message: 'batch too large' },
    })
    expect(batchCapReply(51, { ...modes, batchRefusal: 'http-413' })!.status).toBe(413)
    expect(JSON.parse(batchCapReply(51, { ...modes, batchRefusal: 'non-array' })!.body)).not.toBeInstanceOf(Array)
  })

  it('refuses a log range over the cap in each dialect, with the range that fits where the provider names one', () => {
    const span = { from: 0x100, to: 0x100 + 2500 }
    const modes = { ...DEFAULT_MODES, logCap: 1000 }
    expect(logCapRefusal(1, { from: 0x100, to: 0x100 + 999 }, modes)).toBeNull()
    expect(logCapRefusal(1, span, modes)).toEqual({
      error: { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'query exceeds max block range 1000' } },
    })
    const infura = logCapRefusal(1, span, { ...modes, logDialect: 'infura' })
    expect(infura).toMatchObject({
      error: {
        error: {
          code: -32005,
          data: { from: '0x100', to: '0x4e7' },
          message: expect.stringContaining('[0x100, 0x4e7]'),
        },
      },
    })
    const gateway = logCapRefusal(1, span, { ...modes, logDialect: 'http-413' })
    expect(gateway).toMatchObject({
      reply: { status: 413, body: expect.stringContaining('limited to a 1,000 blocks range') },
    })
    expect(logSpan([{ fromBlock: '0x10', toBlock: 'latest' }], 500)).toEqual({ from: 16, to: 500 })
    expect(logSpan([{ blockHash: '0xab' }], 500)).toBeNull()
  })

  it('knows no finalized or safe tag when told so', () => {
    const modes = { ...DEFAULT_MODES, noFinalized: true }
    expect(tagRefusal(1, 'eth_getBlockByNumber', ['finalized', false], modes)?.error.code).toBe(-32602)
    expect(tagRefusal(1, 'eth_getBalance', ['0xabc', 'safe'], modes)).not.toBeNull()
    expect(tagRefusal(1, 'eth_getBlockByNumber', ['latest', false], modes)).toBeNull()
    expect(tagRefusal(1, 'eth_getBlockByNumber', ['finalized', false], DEFAULT_MODES)).toBeNull()
  })

  it('lets a request dearer than the burst go on a full bucket, then owes it; refuses one dearer than the day', () => {
    let t = Date.UTC(2026, 0, 10, 12)
    const limiter = new KeyLimiter({ rate: 10, burst: 5, quota: 200, now: () => t })
    expect(limiter.take(51)).toEqual({ ok: true })
    expect(limiter.take(1)).toMatchObject({ ok: false })
    // 46 owed and 1 to take: 4.7 s at 10 a second.
    t += 4600
    expect(limiter.take(1)).toMatchObject({ ok: false })
    t += 100
    expect(limiter.take(1)).toEqual({ ok: true })
    expect(limiter.take(149)).toMatchObject({ ok: false, limit: 'quota' })
  })
})
