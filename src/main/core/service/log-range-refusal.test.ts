import { describe, expect, it } from 'vitest'
import { AppError } from '../util/app-error'
import { logRangeRefusal, logRangeRefusalOfItem, TooLargeError } from './log-range-refusal'

/** As the client words a JSON-RPC error object (service-client.ts rpcError). */
const rpc = (code: number, message: string, data?: unknown): AppError =>
  new AppError('rpc', `eth_getLogs failed: ${message} (JSON-RPC error ${code})`, {
    code,
    ...(data !== undefined ? { data } : {}),
  })

describe('logRangeRefusal: each provider dialect by its real text', () => {
  it('-32602 "query exceeds max block range 1000": a range cap of 1000', () => {
    expect(logRangeRefusal(rpc(-32602, 'query exceeds max block range 1000'))).toEqual({ kind: 'range', cap: 1000 })
  })

  it('-32005 "query returned more than 10000 results": too many results, split in half', () => {
    expect(logRangeRefusal(rpc(-32005, 'query returned more than 10000 results'))).toEqual({ kind: 'results' })
  })

  it('-32600 "block range is too wide": a range cap it does not name', () => {
    expect(logRangeRefusal(rpc(-32600, 'block range is too wide'))).toEqual({ kind: 'range' })
  })

  it('HTTP 413 "eth_getLogs and eth_newFilter are limited to a 10,000 blocks range": a cap of 10000', () => {
    const text = 'eth_getLogs and eth_newFilter are limited to a 10,000 blocks range'
    const error = new TooLargeError(
      'protocol',
      `The RPC endpoint refused eth_getLogs on alpha as too large (HTTP 413): ${text}`,
      { data: text },
    )
    expect(logRangeRefusal(error)).toEqual({ kind: 'range', cap: 10_000 })
  })

  it('-32602 "Log response size exceeded ... this block range should work: [0x.., 0x..]": the suggested range', () => {
    const message =
      'Log response size exceeded. You can make eth_getLogs requests with up to a 2K block range and no limit on the response size, or you can request any block range with a cap of 10K logs in the response. Based on your parameters, this block range should work: [0x4c4b40, 0x4c5a1f]'
    expect(logRangeRefusal(rpc(-32602, message))).toEqual({
      kind: 'results',
      cap: 2000,
      suggested: { from: 0x4c4b40, to: 0x4c5a1f },
    })
  })

  it('Infura\'s "Try with this block range [0x.., 0x..]" with data {from, to}: the suggested range', () => {
    const message = 'query returned more than 10000 results. Try with this block range [0x4C4B40, 0x4C4F27].'
    expect(logRangeRefusal(rpc(-32005, message, { from: '0x4C4B40', to: '0x4C4F27', limit: 10000 }))).toEqual({
      kind: 'results',
      suggested: { from: 0x4c4b40, to: 0x4c4f27 },
    })
    // The data alone suffices, and wins over the words.
    expect(
      logRangeRefusal(rpc(-32005, 'query returned more than 10000 results', { from: '0x10', to: '0x1f' })),
    ).toEqual({ kind: 'results', suggested: { from: 16, to: 31 } })
  })

  it("other providers' range words are read too (caps named in other phrasings)", () => {
    expect(logRangeRefusal(rpc(-32000, 'eth_getLogs is limited to a 1000 block range'))).toMatchObject({
      kind: 'range',
      cap: 1000,
    })
    expect(logRangeRefusal(rpc(-32000, 'block range too large, max allowed is 5000'))).toMatchObject({ kind: 'range' })
    expect(logRangeRefusal(rpc(-32000, 'query timeout exceeded'))).toEqual({ kind: 'results' })
    expect(
      logRangeRefusal(
        new AppError('protocol', "The service's answer to eth_getLogs on alpha is larger than 16777216 bytes."),
      ),
    ).toEqual({ kind: 'results' })
  })

  it.each([
    ['Requested range exceeds the 10000 block limit', 10_000],
    ['eth_getLogs range is too large, max is 1k blocks', 1000],
    ['block range limit (5000) exceeded', 5000],
    ['Exceeded max range limit for eth_getLogs: 500', 500],
    ['exceed maximum block range: 2000', 2000],
    ['range too large', undefined],
  ])('reads a range cap in words not listed above: %s', (message, cap) => {
    const refusal = logRangeRefusal(rpc(-32000, message))
    expect(refusal).toMatchObject({ kind: 'range' })
    expect(refusal?.cap).toBe(cap)
  })

  it('reads a call answered inside a batch the same way', () => {
    const item = {
      ok: false as const,
      code: -32602,
      message: 'eth_getLogs failed: query exceeds max block range 1000 (JSON-RPC error -32602)',
    }
    expect(logRangeRefusalOfItem(item)).toEqual({ kind: 'range', cap: 1000 })
    expect(logRangeRefusalOfItem({ ok: true, result: [] })).toBeNull()
  })

  it('does not take a rate limit, a revert, a key problem or a plain protocol error for a range refusal', () => {
    expect(logRangeRefusal(rpc(-32005, 'limit exceeded'))).toBeNull()
    expect(logRangeRefusal(rpc(-32012, 'credits limited to 6000/sec'))).toBeNull()
    expect(logRangeRefusal(rpc(-32000, 'execution reverted'))).toBeNull()
    expect(logRangeRefusal(new AppError('auth', 'Key rejected'))).toBeNull()
    expect(logRangeRefusal(new AppError('protocol', 'The service answered with an HTML page.'))).toBeNull()
    expect(logRangeRefusal(new Error('query exceeds max block range 1000'))).toBeNull()
  })
})
