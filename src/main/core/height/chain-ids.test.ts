import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { LearntLimitsStore } from '../service/learnt-limits-store'
import { ChainIds } from './chain-ids'
import { HeightWatcher, type HeadSource } from './height-watcher'

/** A network's chain id is read once and kept for good (docs/decisions/chain-id-once.md). */
describe('chain ids', () => {
  let dir = ''
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'chain-ids-'))))
  afterEach(() => rmSync(dir, { recursive: true, force: true }))
  const RPC = 'http://127.0.0.1:8545/'

  it('kept across runs per profile, network and RPC address; a refused or malformed answer is not kept', async () => {
    const store = new LearntLimitsStore(dir)
    const ids = new ChainIds(store.forProfile('p1', () => RPC).chainIds)
    expect([ids.of('alpha'), ids.wanted('alpha')]).toEqual([null, true])
    expect(ids.judge('alpha', { ok: true, result: 'seven' })).toBeNull()
    expect(ids.judge('alpha', { ok: true, result: '0x0' })).toBeNull()
    expect(ids.judge('alpha', undefined)).toBeNull()
    expect([ids.of('alpha'), ids.wanted('alpha')]).toEqual([null, true])
    expect(ids.judge('alpha', { ok: true, result: '0x1b59' })).toBe('7001')
    expect([ids.of('alpha'), ids.wanted('alpha')]).toEqual(['7001', false])
    // An endpoint that refuses the method is not asked again this session (and nothing is kept).
    expect(ids.judge('gamma', { ok: false, code: -32601, message: 'no such method' })).toBeNull()
    expect([ids.of('gamma'), ids.wanted('gamma')]).toEqual([null, false])
    expect(ids.of('beta')).toBeNull()
    await store.settled()

    // Another run: a new store on the same folder knows it with no request.
    const again = new LearntLimitsStore(dir)
    expect(new ChainIds(again.forProfile('p1', () => RPC).chainIds).of('alpha')).toBe('7001')
    expect(new ChainIds(again.forProfile('p2', () => RPC).chainIds).of('alpha')).toBeNull()
    expect(new ChainIds(again.forProfile('p1', () => 'http://other.example/').chainIds).of('alpha')).toBeNull()
    // Without a file (no learnt store), it is kept for the session.
    const session = new ChainIds()
    expect(session.judge('beta', { ok: true, result: '0x1b5a' })).toBe('7002')
    expect(session.of('beta')).toBe('7002')
  })
})

describe("the height watcher's view carries the chain id", () => {
  beforeEach(() => vi.useFakeTimers({ now: Date.UTC(2030, 0, 1) }))
  afterEach(() => vi.useRealTimers())

  it('kept from an earlier run before any poll; read by the first poll otherwise; null while unknown', async () => {
    let answering = false
    const source: HeadSource = {
      head: async (network) => {
        if (!answering) throw new Error('offline')
        return { height: 10, gasPriceWei: null, chainId: network === 'beta' ? '7002' : undefined }
      },
      blockTime: async () => null,
      unitsPerPoll: () => 1,
      batches: () => true,
      chainIdOf: (network) => (network === 'alpha' ? '7001' : null),
    }
    const w = new HeightWatcher({ networks: ['alpha', 'beta'], source, quotaPerDay: () => 1000, onHeight: () => {} })
    const ids = (): (string | null)[] => w.views().map((v) => v.chainId)
    expect(ids()).toEqual(['7001', null])
    w.setVisible(true)
    await vi.advanceTimersByTimeAsync(1000)
    expect(ids()).toEqual(['7001', null])
    answering = true
    await vi.advanceTimersByTimeAsync(10 * 60_000)
    expect(ids()).toEqual(['7001', '7002'])
    w.dispose()
  })
})
