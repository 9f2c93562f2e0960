import { describe, expect, it } from 'vitest'
import { fromCallTracer, MAX_TRACE_DEPTH, valueTransfers } from '../entities/call-tree'
import { systemClock } from '../util/clock'
import { MAX_RPC_JSON_DEPTH } from './response-errors'
import { RpcTransport } from './rpc-transport'

/**
 * A callTracer answer nests two levels a call frame: the transport lets real call trees through
 * (the EVM's 1,024 frames) and refuses a hostile 10,000-deep one with the limit named, read
 * without recursion (docs/decisions/seeded-traces.md).
 */
const X = '0x00000000000000000000000000000000000000a1'
const Y = '0x00000000000000000000000000000000000000b2'

/** A JSON-RPC answer holding a call tree `depth` frames deep, written as text (stringify would recurse). */
function nested(depth: number): string {
  const open = `{"type":"CALL","from":"${X}","to":"${Y}","value":"0x1","calls":[`
  const leaf = `{"type":"CALL","from":"${X}","to":"${Y}","value":"0x1"}`
  return `{"jsonrpc":"2.0","id":1,"result":${open.repeat(depth - 1)}${leaf}${']}'.repeat(depth - 1)}}`
}

function transport(text: string): RpcTransport {
  return new RpcTransport({
    post: async () => ({ status: 200, contentType: 'application/json', retryAfter: null, text }),
    billing: () => 'request',
    profileId: () => 'p',
    context: { redact: (s: string) => s, clock: systemClock },
    pause: () => {},
  })
}

const trace = { method: 'debug_traceTransaction', params: ['0x01', { tracer: 'callTracer' }] }

describe('deep JSON-RPC answers', () => {
  it('a call tree as deep as the EVM allows is read whole: 1,024 frames, 1,023 value transfers', async () => {
    const answer = await transport(nested(1024)).rpc('n', trace, { priority: 'user' })
    const frames = fromCallTracer(answer)
    expect(frames).toHaveLength(1024)
    expect(frames.at(-1)!.depth).toBe(1023)
    expect(valueTransfers(frames)).toHaveLength(1023)
  })

  it('an answer nested 10,000 deep is refused, naming the limit, before anything walks it', async () => {
    const error = await transport(nested(10_000))
      .rpc('n', trace, { priority: 'user' })
      .catch((e: unknown) => e)
    expect(error).toMatchObject({
      kind: 'protocol',
      message: `The service answered debug_traceTransaction on n with a malformed body (nested more than ${MAX_RPC_JSON_DEPTH.toLocaleString('en')} levels deep).`,
    })
    expect(MAX_RPC_JSON_DEPTH).toBeGreaterThan(2 * MAX_TRACE_DEPTH)
  })
})
