import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { transactionsResponseSchema, type Transaction } from '@shared/domain/service-schemas'
import { readFixture } from '@shared/testing/blockscout-fixtures'
import { party } from '@shared/testing/service-samples'
import { NATIVE } from '@shared/domain/movements'
import { counterparties } from '../analysis'
import { TOKENS, transfer, tx } from '../../testing/analysis-samples'
import { buildFlowGraph, nodeName, type FlowEdge } from './flow-graph'

const fixture = readFixture('transactions')
const fixtureTxs = transactionsResponseSchema.parse({ items: fixture.items.map((i) => i.item), next_page_params: null })
  .items as Transaction[]

const edge = (edges: FlowEdge[], from: string, to: string, asset: string): FlowEdge | undefined =>
  edges.find((e) => e.from === from.toLowerCase() && e.to === to.toLowerCase() && e.asset === asset.toLowerCase())

const A = '0x1111111111111111111111111111111111111111'
const B = '0x2222222222222222222222222222222222222222'
const C = '0x3333333333333333333333333333333333333333'

describe('buildFlowGraph on the Blockscout items', () => {
  const g = buildFlowGraph(fixtureTxs)
  const ME = '0xd789a607CEac2f0E14867de4EB15b15C9FFB5859'

  it('sums the native coin exactly: 13 successful 42-coin payments, failed, pending and self ones left out', () => {
    // Hand count over transactions.json: from 0x047A…84B9 to the file's address, status ok:
    // base, withWatchListNames, withTokenTransfer, withActionsUniswap, l2tx, stabilityTx,
    // celoTxn, base4, withBlob and the four withRecipient* items.
    expect(edge(g.edges, '0x047A81aFB05D9B1f8844bf60fcA05DCCFbC584B9', ME, NATIVE)).toMatchObject({
      value: 13n * 42_000_000_000_000_000_000n,
      count: 13,
      firstMs: Date.UTC(2022, 9, 10, 14, 34, 30),
      lastMs: Date.UTC(2022, 9, 10, 14, 34, 30),
    })
    expect(edge(g.edges, '0x2B51Ae4412F79c3c1cB12AA40Ea4ECEb4e80511a', ME, NATIVE)).toMatchObject({
      value: 42_000_420_000_000_000_000n,
      count: 1,
    })
    // base2 and base3 are to itself; the creation names no receiver.
    expect(g.edges.some((e) => e.from === e.to)).toBe(false)
    expect(g.edges.filter((e) => e.asset === NATIVE)).toHaveLength(2)
    expect(g).toMatchObject({ transactions: 20, failed: 2 })
  })

  it('sums token transfers per asset: an ERC-20 amount, an NFT as one, 1155 and 404 amounts together', () => {
    expect(
      edge(g.edges, ME, '0x7d20a8D54F955b4483A66aB335635ab66e151c51', '0x55d536e4d6c1993d8ef2e2a4ef77f02088419420'),
    ).toMatchObject({ value: 31_567_373_703_130_350n, count: 1, symbol: 'ARIA', decimals: 18 })
    expect(
      edge(
        g.edges,
        '0x621C2a125ec4A6D8A7C7A655A18a2868d35eb43C',
        '0x47eE48AEBc4ab9Ed908b805b8c8dAAa71B31Db1A',
        '0x363574E6C5C71c343d7348093D84320c76d5Dd29',
      ),
    ).toMatchObject({ value: 1n, count: 1 })
    // 42 + 100e18 + 200e18 + 42 (ERC-1155) + 42e24 + 1 (ERC-404, the second names only a token id).
    expect(
      edge(
        g.edges,
        '0x0000000000000000000000000000000000000000',
        '0xBb36c792B9B45Aaf8b848A1392B0d6559202729E',
        '0xF56b7693E4212C584de4a83117f805B8E89224CB',
      ),
    ).toMatchObject({ value: 42_000_300_000_000_000_000_000_085n, count: 6 })
  })

  it('describes nodes from the items: names, ENS, tags and contract marks through displayName', () => {
    const me = g.nodes.get(ME.toLowerCase())!
    // The first name the items give it: withWatchListNames tags it before any item names it.
    expect(me.label).toBe('my private tag')
    expect(me.ens).toBe('kitty.kitty.kitty.cat.eth')
    expect(me.isContract).toBe(true)
    const sender = g.nodes.get('0x047a81afb05d9b1f8844bf60fca05dccfbc584b9')!
    expect(sender.ens).toBe('kitty.kitty.cat.eth')
    expect(sender.tags).toContain('some public tag')
  })

  it('counts a transaction loaded twice (for two addresses) once', () => {
    const twice = buildFlowGraph([...fixtureTxs, ...fixtureTxs])
    expect(twice.edges).toEqual(g.edges)
    expect(twice.transactions).toBe(20)
  })
})

describe('buildFlowGraph on sandbox-shaped items', () => {
  const items = [
    tx(A, B, { value: '1000000000000000001', minute: 1 }),
    tx(A, B, { value: '2', minute: 5 }),
    tx(B, C, { value: '7', minute: 3, status: 'error', result: 'Reverted' }), // failed: moves nothing
    tx(A, C, { value: '0', minute: 4 }), // a call without value: no edge
    tx(B, TOKENS.usdc.address, {
      minute: 6,
      token_transfers: [
        transfer(TOKENS.usdc, B, C, '1234567'),
        transfer(TOKENS.usdc, B, C, '3'),
        transfer(TOKENS.usdc, C, B, '0'),
      ],
    }),
  ]

  it('sums per sender, receiver and asset with counts and first/last time', () => {
    const g = buildFlowGraph(items)
    expect(edge(g.edges, A, B, NATIVE)).toMatchObject({
      value: 1_000_000_000_000_000_003n,
      count: 2,
      firstMs: Date.UTC(2026, 0, 1, 0, 1),
      lastMs: Date.UTC(2026, 0, 1, 0, 5),
    })
    expect(edge(g.edges, B, C, TOKENS.usdc.address)).toMatchObject({ value: 1_234_570n, count: 2, decimals: 6 })
    expect(g.edges).toHaveLength(2)
    expect(g.nodes.get(TOKENS.usdc.address)).toBeUndefined() // called, but moved no value itself
    expect(g.assets.map((a) => a.symbol).sort()).toEqual(['USDC', 'coin'])
  })

  it('filters by asset and by date window before summing', () => {
    expect(buildFlowGraph(items, { asset: TOKENS.usdc.address }).edges.map((e) => e.symbol)).toEqual(['USDC'])
    const early = buildFlowGraph(items, { toMs: Date.UTC(2026, 0, 1, 0, 2) })
    expect(early.edges).toEqual([expect.objectContaining({ value: 1_000_000_000_000_000_001n, count: 1 })])
    expect(buildFlowGraph(items, { fromMs: Date.UTC(2026, 0, 1, 0, 2) }).edges).toHaveLength(2)
  })

  it('marks token contracts and prefers the watchlist label', () => {
    const g = buildFlowGraph(
      [
        tx(A, B, { value: '1', to: party(B, { name: 'Shop', is_contract: true, is_verified: true }) }),
        tx(TOKENS.usdc.address, A, { value: '1' }),
      ],
      { watchLabels: new Map([[B, 'my shop']]) },
    )
    const b = g.nodes.get(B)!
    expect(b).toMatchObject({ label: 'Shop', watchLabel: 'my shop', isContract: true, isVerified: true })
    expect(nodeName(b)).toBe('my shop')
    expect(g.nodes.get(TOKENS.usdc.address)!.isToken).toBe(false) // no transfer of it loaded
  })

  it('shows a name that looks like an address as a name', () => {
    const g = buildFlowGraph([tx(A, B, { value: '1', to: party(B, { name: `0x${'2'.repeat(40)}` }) })])
    expect(g.nodes.get(B)!.label).toBe(`name “0x${'2'.repeat(40)}”`)
  })
})

describe('buildFlowGraph properties', () => {
  const addr = fc.constantFrom(A, B, C)
  const token = fc.constantFrom(TOKENS.usdc, TOKENS.weth)
  const item = fc.record({
    from: addr,
    to: addr,
    value: fc.bigInt({ min: 0n, max: 10n ** 24n }),
    failed: fc.boolean(),
    transfers: fc.array(fc.record({ token, from: addr, to: addr, value: fc.bigInt({ min: 0n, max: 10n ** 30n }) }), {
      maxLength: 3,
    }),
  })

  it('per node and asset, the edges out sum to what the transactions say, and agree with the counterparties table', () => {
    fc.assert(
      fc.property(fc.array(item, { maxLength: 12 }), (raw) => {
        const items = raw.map((r, i) =>
          tx(r.from, r.to, {
            minute: i,
            value: r.value.toString(),
            ...(r.failed ? { status: 'error', result: 'Reverted' } : {}),
            token_transfers: r.transfers.map((t) => transfer(t.token, t.from, t.to, t.value.toString())),
          }),
        )
        const g = buildFlowGraph(items)
        for (const who of [A, B, C]) {
          const expected = new Map<string, bigint>()
          const add = (asset: string, v: bigint): void => void expected.set(asset, (expected.get(asset) ?? 0n) + v)
          for (const r of raw) {
            if (r.failed) continue
            if (r.from === who && r.to !== who) add(NATIVE, r.value)
            for (const t of r.transfers) if (t.from === who && t.to !== who) add(t.token.address, t.value)
          }
          const got = new Map<string, bigint>()
          for (const e of g.edges) if (e.from === who) got.set(e.asset, (got.get(e.asset) ?? 0n) + e.value)
          for (const [asset, v] of expected) expect(got.get(asset) ?? 0n).toBe(v)
          for (const [asset, v] of got) expect(expected.get(asset)).toBe(v)
          const table = counterparties(items, who)
          const nativeOut = table.rows.reduce((s, row) => s + row.nativeOut, 0n)
          expect(got.get(NATIVE) ?? 0n).toBe(nativeOut)
        }
      }),
    )
  })
})
