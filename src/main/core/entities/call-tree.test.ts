import { describe, expect, it } from 'vitest'
import { fromCallTracer, fromParityTraces, MAX_TRACE_DEPTH, valueTransfers } from './call-tree'

const A = (n: number): string => `0x${n.toString(16).padStart(40, '0')}`
const USER = A(1)
const ROUTER = A(2)
const X = A(3)
const Y = A(4)
const Z = A(5)
const VAULT = A(6)
const eth = (n: bigint): string => `0x${(n * 10n ** 18n).toString(16)}`

/** A router splitting 3 ETH three ways; the third share's recipient forwards half on, then that call reverts. */
const routerTrace = {
  type: 'CALL',
  from: USER,
  to: ROUTER,
  value: eth(3n),
  calls: [
    { type: 'CALL', from: ROUTER, to: X, value: eth(1n) },
    { type: 'STATICCALL', from: ROUTER, to: Y, value: '0x0' },
    { type: 'CALL', from: ROUTER, to: Y, value: eth(1n) },
    {
      type: 'CALL',
      from: ROUTER,
      to: VAULT,
      value: eth(1n),
      error: 'execution reverted',
      calls: [{ type: 'CALL', from: VAULT, to: Z, value: eth(1n) }],
    },
    { type: 'DELEGATECALL', from: ROUTER, to: Z, value: eth(3n) },
  ],
}

/** The same transaction as trace_transaction tells it (Erigon / Nethermind), listed out of order. */
const routerParity = [
  { type: 'call', traceAddress: [3, 0], action: { callType: 'call', from: VAULT, to: Z, value: eth(1n) } },
  { type: 'call', traceAddress: [], action: { callType: 'call', from: USER, to: ROUTER, value: eth(3n) } },
  { type: 'call', traceAddress: [0], action: { callType: 'call', from: ROUTER, to: X, value: eth(1n) } },
  { type: 'call', traceAddress: [1], action: { callType: 'staticcall', from: ROUTER, to: Y, value: '0x0' } },
  { type: 'call', traceAddress: [2], action: { callType: 'call', from: ROUTER, to: Y, value: eth(1n) } },
  {
    type: 'call',
    traceAddress: [3],
    error: 'Reverted',
    action: { callType: 'call', from: ROUTER, to: VAULT, value: eth(1n) },
  },
  { type: 'call', traceAddress: [4], action: { callType: 'delegatecall', from: ROUTER, to: Z, value: eth(3n) } },
]

describe('call tree', () => {
  it('flattens a router forwarding coin: only the shares that stayed moved count', () => {
    // Hand-computed: X and Y got 1 ETH each; the vault's share and what it forwarded were
    // undone by its revert; the staticcall and the delegatecall move nothing; the top call is the tx's value.
    expect(valueTransfers(fromCallTracer(routerTrace))).toEqual([
      { from: ROUTER, to: X, value: 10n ** 18n, kind: 'call', depth: 1, frame: 1 },
      { from: ROUTER, to: Y, value: 10n ** 18n, kind: 'call', depth: 1, frame: 3 },
    ])
  })

  it('reads both dialects to one model', () => {
    const geth = fromCallTracer(routerTrace)
    const parity = fromParityTraces(routerParity)
    const plain = (fs: typeof geth): unknown => fs.map(({ error, ...f }) => ({ ...f, failed: error !== null }))
    expect(plain(parity)).toEqual(plain(geth))
    expect(geth[5]).toMatchObject({ parent: 4, depth: 2, to: Z, reverted: true, error: null })
    expect(valueTransfers(parity)).toEqual(valueTransfers(geth))
  })

  it('counts a self-destruct sending its balance to the beneficiary, in both dialects', () => {
    const geth = fromCallTracer({
      type: 'CALL',
      from: USER,
      to: VAULT,
      calls: [{ type: 'SELFDESTRUCT', from: VAULT, to: Z, value: '0x2386f26fc10000' }],
    })
    const parity = fromParityTraces([
      { type: 'call', traceAddress: [], action: { callType: 'call', from: USER, to: VAULT, value: '0x0' } },
      { type: 'suicide', traceAddress: [0], action: { address: VAULT, refundAddress: Z, balance: '0x2386f26fc10000' } },
    ])
    const expected = [{ from: VAULT, to: Z, value: 10n ** 16n, kind: 'selfdestruct', depth: 1, frame: 1 }]
    expect(valueTransfers(geth)).toEqual(expected)
    expect(valueTransfers(parity)).toEqual(expected)
  })

  it('counts coin sent into a contract created inside the call, not into a failed creation', () => {
    const frames = fromParityTraces([
      { type: 'call', traceAddress: [], action: { callType: 'call', from: USER, to: ROUTER, value: eth(2n) } },
      { type: 'create', traceAddress: [0], action: { from: ROUTER, value: eth(1n) }, result: { address: X } },
      { type: 'create', traceAddress: [1], action: { from: ROUTER, value: eth(1n) }, error: 'out of gas' },
    ])
    expect(valueTransfers(frames)).toEqual([
      { from: ROUTER, to: X, value: 10n ** 18n, kind: 'create', depth: 1, frame: 1 },
    ])
  })

  it("says so when the node answers a hash it does not know with an empty step log (anvil's answer)", () => {
    expect(() => fromCallTracer({ failed: false, gas: 0, returnValue: '0x', structLogs: [] })).toThrow(
      'The trace answered is not readable: it is a step log, not a call tree: the node does not seem to know this transaction.',
    )
  })

  it('refuses a trace nested 10,000 deep without overflowing the stack', () => {
    let frame: Record<string, unknown> = { type: 'CALL', from: X, to: Y, value: '0x1' }
    for (let i = 0; i < 10_000; i++) frame = { type: 'CALL', from: X, to: Y, value: '0x1', calls: [frame] }
    expect(() => fromCallTracer(frame)).toThrow(`nests calls deeper than ${MAX_TRACE_DEPTH} levels`)
    const deep = [0, 10_000].map((n) => ({
      type: 'call',
      traceAddress: Array.from({ length: n }, () => 0),
      action: { callType: 'call', from: X, to: Y, value: '0x1' },
    }))
    expect(() => fromParityTraces(deep)).toThrow(`nests calls deeper than ${MAX_TRACE_DEPTH} levels`)
  })

  it('refuses a trace with more calls than it reads', () => {
    const wide = {
      type: 'CALL',
      from: X,
      to: Y,
      calls: Array.from({ length: 60_000 }, () => ({ type: 'CALL', from: Y, to: Z })),
    }
    expect(() => fromCallTracer(wide)).toThrow('more than 50,000 calls')
  })

  it('names what was wrong in a malformed trace', () => {
    expect(() => fromCallTracer({ type: 'CALL', from: 'me', to: X })).toThrow(
      'the sender of the top call is not an address',
    )
    expect(() => fromCallTracer({ type: 'JUMP', from: X, to: X })).toThrow('unknown call type (JUMP)')
    expect(() =>
      fromCallTracer({ type: 'CALL', from: X, to: Y, calls: [{ type: 'CALL', from: Y, to: Z, value: 'lots' }] }),
    ).toThrow('the value of a call at depth 1 is not a hex quantity')
    expect(() =>
      fromParityTraces([
        { type: 'call', traceAddress: [], action: { callType: 'call', from: X, to: Y } },
        { type: 'call', traceAddress: [2, 0], action: { callType: 'call', from: Y, to: Z } },
      ]),
    ).toThrow('the call at [2,0] has no enclosing call')
    expect(() => fromParityTraces([])).toThrow('empty list')
  })
})
