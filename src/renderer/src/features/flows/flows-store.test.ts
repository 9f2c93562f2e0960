import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { fakeLatency } from '../../testing/delay'
import { FakeBridgeFailure } from '../../testing/fake-bridge'
import { setupTestApp, type TestApp } from '../../testing/mount'
import { makePage, ME } from '../../testing/samples'
import { tx } from '../../testing/analysis-samples'
import { useTransactionsStore } from '../transactions'
import { useFlowsStore } from './flows-store'

const B = '0x000000000000000000000000000000000000000b'
const C = '0x000000000000000000000000000000000000000c'
const D = '0x000000000000000000000000000000000000000d'
const me = ME.toLowerCase()

/** Each address's first page: ME paid B, B paid C and D, D's page cannot be read. */
function serve(t: TestApp, cached: readonly string[] = []): void {
  const pages: Record<string, ReturnType<typeof tx>[]> = {
    [me]: [tx(ME, B, { value: '5', minute: 1 })],
    [B]: [
      tx(ME, B, { value: '5', minute: 1 }),
      tx(B, C, { value: '3', minute: 2 }),
      tx(B, D, { value: '2', minute: 3 }),
    ],
    [C]: [tx(B, C, { value: '3', minute: 2 })],
  }
  // The same transaction listed for two addresses has the same hash.
  pages[B]![0] = pages[me]![0]!
  pages[C]![0] = pages[B]![1]!
  t.bridge.handle(
    'data.transactions',
    (input) => {
      const items = pages[input.address.toLowerCase()]
      // Main's cache: only the addresses named cached answer a cache-only read.
      if (input.cacheOnly && !cached.includes(input.address.toLowerCase()))
        throw new FakeBridgeFailure({ kind: 'not-found', message: 'This page of transactions is not cached.' })
      if (!items) throw new FakeBridgeFailure({ kind: 'server', message: 'The service did not answer.' })
      return makePage(0, 0, null, { address: input.address, items })
    },
    { cached: true },
  )
  t.bridge.handle('work.cancel', () => ({ cancelled: 0 }))
}

describe('flows store', () => {
  let t: TestApp
  beforeEach(() => {
    t = setupTestApp()
    serve(t)
  })

  async function opened() {
    await useTransactionsStore().open('alpha', ME)
    const flows = useFlowsStore()
    flows.open('alpha', ME)
    return flows
  }

  /** Calls that may cost a request: every `data.transactions` call that is not cache-only. */
  const requests = (): { address: string; priority: string }[] =>
    (t.bridge.callsOf('data.transactions') as { address: string; priority: string; cacheOnly?: boolean }[]).filter(
      (c) => !c.cacheOnly,
    )

  it('starts from the address page’s transactions, with no request of its own', async () => {
    const flows = await opened()
    expect(requests()).toHaveLength(1) // the transactions store's first page
    expect(flows.view.edges.map((e) => [e.from, e.to, e.value])).toEqual([[me, B, 5n]])
    expect(flows.unloadedAtHop(1)).toEqual([B])
  })

  it('adds the traced internal transfers of the loaded transactions, marked, from main’s kept traces', async () => {
    let transfers = [] as { hash: string; from: string; to: string; value: string; kind: 'call'; depth: number }[]
    t.bridge.handle('entities.internalOf', (input) => ({
      network: input.network,
      address: input.address,
      transfers: transfers.map((x) => ({ ...x, internal: true as const })),
      traced: transfers.length ? input.hashes : [],
      untraced: transfers.length ? [] : input.hashes,
    }))
    const flows = await opened()
    const hash = useTransactionsStore().items[0]!.hash
    await vi.waitFor(() => expect(flows.internalNote).toMatch(/^0 of 1 loaded transactions traced/))
    expect(t.bridge.callsOf('entities.internalOf')).toEqual([{ network: 'alpha', address: me, hashes: [hash] }])
    // Traced meanwhile (the Internal transfers tab): B passed 2 back inside the call; read again.
    transfers = [{ hash, from: B, to: ME, value: '2', kind: 'call', depth: 1 }]
    flows.readInternal()
    await vi.waitFor(() => expect(flows.internalNote).toMatch(/^1 of 1 loaded transactions traced/))
    expect(flows.view.edges.map((e) => [e.from, e.to, e.value, e.internal])).toEqual([
      [me, B, 5n, 0],
      [B, me, 2n, 1],
    ])
    expect(requests()).toHaveLength(1) // the transactions store's first page only: nothing sent for traces
  })

  it('expands at prefetch priority in the graph’s scope, counting a transaction seen twice once', async () => {
    const flows = await opened()
    await flows.expand([B])
    expect(requests().at(-1)).toMatchObject({
      address: B,
      cursor: null,
      priority: 'prefetch',
      scope: `f:alpha:${me}`,
    })
    expect(flows.progress).toMatchObject({ running: false, done: 1, total: 1, failed: [] })
    expect(flows.graph.edges.find((e) => e.from === me)!.value).toBe(5n)
    expect(flows.unloadedAtHop(2)).toEqual([C, D])
    // Loaded already: nothing is asked again.
    await flows.expand([B, ME])
    expect(requests()).toHaveLength(2)
  })

  it('knows the cost before expanding, and it is what expanding then asks: cached pages are free', async () => {
    t = setupTestApp()
    serve(t, [C])
    const flows = await opened()
    await flows.expand([B])
    expect(flows.costOf([C, D])).toBeNull() // not looked up yet
    await flows.probe([C, D])
    expect(flows.costOf([C, D])).toBe(1) // C is cached, D is not
    const before = requests().length
    await flows.expand([C, D])
    expect(requests().length - before).toBe(1)
    expect(requests().at(-1)).toMatchObject({ address: D, priority: 'prefetch' })
    expect(flows.isLoaded(C)).toBe(true)
  })

  it('keeps going past an address that fails, and lists it', async () => {
    const flows = await opened()
    await flows.expand([B])
    await flows.expand([C, D])
    expect(flows.progress.done).toBe(2)
    expect(flows.progress.failed.map((f) => [f.address, f.error.kind])).toEqual([[D, 'server']])
    expect(flows.isLoaded(C)).toBe(true)
  })

  it('finds a path over what is loaded, and says when there is none', async () => {
    const flows = await opened()
    flows.pathFrom = ME
    flows.pathTo = C
    flows.searchPath()
    expect(flows.path).toBeNull()
    await flows.expand([B])
    flows.searchPath()
    expect(flows.path!.map((e) => e.to)).toEqual([B, C])
  })

  it('marks an answer stale when the graph grows or an input changes, and current again when asked again', async () => {
    const flows = await opened()
    flows.pathFrom = ME
    flows.pathTo = C
    flows.searchPath()
    expect(flows.pathStale).toBe(false)
    await flows.expand([B])
    expect(flows.pathStale).toBe(true)
    flows.searchPath()
    expect(flows.pathStale).toBe(false)
    flows.pathHops = 1
    expect(flows.pathStale).toBe(true)
    flows.pathHops = 4
    expect(flows.pathStale).toBe(false)
  })

  it('reports a bad minimum amount instead of drawing nothing silently', async () => {
    const flows = await opened()
    flows.minAmount = 'ten'
    expect(flows.view.error).toMatch(/“ten” is not a number/)
    flows.minAmount = '0.000000000000000006'
    expect(flows.view.edges).toEqual([])
    expect(flows.view.error).toBeNull()
  })

  describe('through the fetched-data layer', () => {
    afterEach(() => vi.useRealTimers())

    it('keeps the graph shown when an expansion fails, with the failure and the pages’ time beside it', async () => {
      const flows = await opened()
      await flows.expand([B])
      const edges = flows.view.edges.length
      await flows.expand([D])
      expect(flows.view.edges).toHaveLength(edges)
      expect(flows.isLoaded(B)).toBe(true)
      expect(flows.fetchState).toMatchObject({ shown: true, error: { kind: 'server' } })
      expect(flows.fetchState.provenance?.fetchedAt).toBeTruthy()
    })

    it('drops an answer that arrives after the expansion was stopped, or after another address was opened', async () => {
      vi.useFakeTimers()
      const flows = await opened()
      t.bridge.handle(
        'data.transactions',
        async (input) => {
          if (input.cacheOnly) throw new FakeBridgeFailure({ kind: 'not-found', message: 'not cached' })
          await fakeLatency(1000)
          return makePage(0, 0, null, { address: input.address, items: [tx(B, C, { value: '3', minute: 2 })] })
        },
        { cached: true },
      )
      const stopped = flows.expand([B])
      await vi.advanceTimersByTimeAsync(10)
      flows.cancel()
      expect(flows.progress.running).toBe(false)
      await vi.advanceTimersByTimeAsync(1000)
      await stopped
      expect(flows.isLoaded(B)).toBe(false)
      expect(flows.expanded.size).toBe(0)

      const late = flows.expand([B])
      await vi.advanceTimersByTimeAsync(10)
      flows.open('alpha', C)
      await vi.advanceTimersByTimeAsync(1000)
      await late
      expect(flows.expanded.size).toBe(0)
      expect(flows.progress).toMatchObject({ running: false, done: 0 })
    })
  })
})
