import { beforeEach, describe, expect, it } from 'vitest'
import type { EntityCost, ReceiptView } from '@shared/bridge/entity-types'
import { FakeBridgeFailure } from '../../testing/fake-bridge'
import { setupTestApp, settle, type TestApp } from '../../testing/mount'
import { bridge } from '../../platform/bridge'
import { costedRead } from './costed-read'

const HASH = `0x${'ab'.repeat(32)}`
const cost = (units: number, upTo = units): EntityCost => ({
  requests: units,
  billing: 'request',
  leftToday: 1000,
  percentOfLeft: 0,
  reserve: 100,
  crossesReserve: false,
  exceedsLeft: false,
  cached: units === 0 && upTo === 0,
  upTo,
})
const receipt = (source: 'network' | 'cache'): ReceiptView => ({
  network: 'alpha',
  fetchedAt: '2026-11-27T10:00:00.000Z',
  source,
  final: true,
  cost: { requests: source === 'network' ? 1 : 0, units: source === 'network' ? 1 : 0 },
  hash: HASH,
  status: 'success',
  block: 7,
  blockHash: `0x${'cd'.repeat(32)}`,
  from: `0x${'11'.repeat(20)}`,
  to: null,
  gasUsed: '21000',
  effectiveGasPrice: null,
  contractCreated: null,
  logs: [],
})

describe('costedRead: the cost first, the read on the user’s word unless free', () => {
  let t: TestApp
  beforeEach(() => {
    t = setupTestApp()
  })
  const make = () =>
    costedRead<ReceiptView>('receipt', (k, refresh) =>
      bridge.invoke('entities.receipt', { network: k.network, hash: k.id, refresh }),
    )

  it('asks the cost and waits: nothing is read until the user runs it', async () => {
    t.bridge.handle('entities.cost', () => cost(1))
    t.bridge.handle('entities.receipt', () => receipt('network'))
    const r = make()
    await r.open({ network: 'alpha', id: HASH })
    expect(t.bridge.callsOf('entities.cost')).toEqual([{ network: 'alpha', read: 'receipt', id: HASH }])
    expect(t.bridge.callsOf('entities.receipt')).toEqual([])
    expect(r.waiting.value).toBe(true)
    await r.run()
    expect(t.bridge.callsOf('entities.receipt')).toEqual([{ network: 'alpha', hash: HASH, refresh: false }])
    expect(r.view.data.value?.status).toBe('success')
    expect(r.view.provenance.value).toEqual({
      source: 'network',
      fetchedAt: receipt('network').fetchedAt,
      staleReason: null,
    })
    expect(r.waiting.value).toBe(false)
  })

  it('reads at once, with its "as of", when main kept the answer (free)', async () => {
    t.bridge.handle('entities.cost', () => cost(0))
    t.bridge.handle('entities.receipt', () => receipt('cache'))
    const r = make()
    await r.open({ network: 'alpha', id: HASH })
    expect(t.bridge.callsOf('entities.receipt')).toHaveLength(1)
    expect(r.view.provenance.value?.source).toBe('cache')
    expect(r.waiting.value).toBe(false)
  })

  it('a trace that may be refused once counts as its most: not free though it may cost 1', async () => {
    t.bridge.handle('entities.cost', () => cost(1, 2))
    const r = make()
    await r.open({ network: 'alpha', id: HASH })
    expect(r.free.value).toBe(false)
    expect(r.cost.data.value?.upTo).toBe(2)
  })

  it('a failed refresh keeps the answer shown with the failure beside it', async () => {
    t.bridge.handle('entities.cost', () => cost(0))
    t.bridge.handle('entities.receipt', () => receipt('cache'))
    const r = make()
    await r.open({ network: 'alpha', id: HASH })
    t.bridge.handle('entities.receipt', () => {
      throw new FakeBridgeFailure({ kind: 'offline', message: 'The service cannot be reached.' })
    })
    await r.view.refresh()
    expect(r.view.data.value?.hash).toBe(HASH)
    expect(r.view.summary.value.error?.kind).toBe('offline')
    expect(r.view.summary.value.shown).toBe(true)
  })

  it('another transaction clears what was shown before its own cost is known', async () => {
    t.bridge.handle('entities.cost', () => cost(0))
    t.bridge.handle('entities.receipt', () => receipt('cache'))
    const r = make()
    await r.open({ network: 'alpha', id: HASH })
    t.bridge.handle('entities.cost', () => cost(1))
    const other = `0x${'ef'.repeat(32)}`
    const opening = r.open({ network: 'alpha', id: other })
    expect(r.view.data.value).toBeNull()
    await opening
    await settle()
    expect(r.waiting.value).toBe(true)
    expect(t.bridge.callsOf('entities.receipt')).toHaveLength(1)
  })
})

describe('costedRead: a failure of the cost itself', () => {
  it('is shown where the answer would be, and the way forward asks the cost again', async () => {
    const t = setupTestApp()
    t.bridge.handle('entities.cost', () => {
      throw new FakeBridgeFailure({ kind: 'auth', message: 'This profile has no API key yet.' })
    })
    const r = costedRead<ReceiptView>('receipt', (k) =>
      bridge.invoke('entities.receipt', { network: k.network, hash: k.id, refresh: false }),
    )
    await r.open({ network: 'alpha', id: HASH })
    expect(r.state.value.error?.message).toBe('This profile has no API key yet.')
    expect(r.waiting.value).toBe(false)
    t.bridge.handle('entities.cost', () => cost(0))
    t.bridge.handle('entities.receipt', () => receipt('cache'))
    await r.retry()
    expect(r.state.value.error).toBeNull()
    expect(r.view.data.value?.hash).toBe(HASH)
  })
})
