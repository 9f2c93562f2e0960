import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { SPEC_LIMITS, type Profile } from '@shared/domain/profile'
import { Limiter } from '../limiter/limiter'
import { MemoryQuotaLedger } from '../limiter/quota-store'
import { ServiceClient } from '../service/service-client'
import { encodeCursor } from '../service/cursor'
import { nextPage, transaction } from '../testing/service-fixtures'
import { DataService } from './data-service'
import { SnapshotStore } from './snapshot-store'

const ADDR = '0x00000000000000000000000000000000000000aa'
let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cache-only-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

function setup(): {
  data: DataService
  snapshots: SnapshotStore
  fetched: string[]
  limiter: Limiter
  now: () => number
} {
  const now = Date.UTC(2030, 0, 1)
  const fetched: string[] = []
  const profile: Profile = {
    id: 'p',
    name: 'P',
    kind: 'service',
    baseUrl: 'http://127.0.0.1:9',
    rpcUrl: 'http://127.0.0.1:9/rpc',
    networks: [{ name: 'alpha', label: 'Alpha' }],
    limits: SPEC_LIMITS,
    billing: 'request',
  }
  const clock = {
    now: () => now,
    setTimeout: (fn: () => void, ms: number) => setTimeout(fn, ms),
    clearTimeout: (t: unknown) => clearTimeout(t as NodeJS.Timeout),
  }
  const limiter = new Limiter({ profileId: 'p', limits: SPEC_LIMITS, ledger: new MemoryQuotaLedger(), clock })
  const fetchSpy: typeof fetch = async (input) => {
    fetched.push(String(input))
    throw new Error('no network in this test')
  }
  const client = new ServiceClient({
    profile: () => profile,
    getKey: async () => 'k'.repeat(12),
    limiter,
    spelling: { get: () => null, set: () => {} },
    redact: (s) => s,
    clock,
    fetch: fetchSpy,
    maxAttempts: 1,
  })
  const snapshots = new SnapshotStore({ root: join(dir, 'snapshots') })
  const data = new DataService({ profileId: 'p', client, snapshots, clock })
  return { data, snapshots, fetched, limiter, now: () => now }
}

describe('DataService cacheOnly (analyst views widen to what is cached, for free)', () => {
  it('answers a page from a snapshot of any age, and never asks the service', async () => {
    const { data, snapshots, fetched, limiter, now } = setup()
    const cursor = encodeCursor(nextPage(transaction(0, 101, 4)))
    await snapshots.writePage(
      { profileId: 'p', network: 'alpha', address: ADDR, cursor: cursor },
      {
        fetchedAt: now() - 30 * 86_400_000,
        items: [transaction(1, 100, 5)],
        nextCursor: null,
      },
    )
    const page = await data.transactions({
      network: 'alpha',
      address: ADDR,
      cursor: cursor,
      priority: 'user',
      refresh: false,
      cacheOnly: true,
    })
    expect(page).toMatchObject({ source: 'snapshot', staleReason: null, nextCursor: null })
    expect(page.items).toHaveLength(1)
    await expect(
      data.transactions({
        network: 'alpha',
        address: ADDR,
        cursor: null,
        priority: 'user',
        refresh: false,
        cacheOnly: true,
      }),
    ).rejects.toMatchObject({ kind: 'not-found' })
    expect(fetched).toEqual([])
    expect(limiter.state().usedToday).toBe(0)
  })

  it('answers balances from a snapshot of any age with its time, or not-found, and never asks the service', async () => {
    const { data, snapshots, fetched, limiter, now } = setup()
    const req = { network: 'alpha', address: ADDR, priority: 'user' as const, refresh: false, cacheOnly: true }
    await expect(data.balances(req)).rejects.toMatchObject({ kind: 'not-found' })
    const fetchedAt = now() - 7 * 86_400_000
    await snapshots.writeBalances('p', 'alpha', ADDR, { fetchedAt, items: [] })
    const view = await data.balances(req)
    expect(view).toMatchObject({ source: 'snapshot', staleReason: null, fetchedAt: new Date(fetchedAt).toISOString() })
    expect(fetched).toEqual([])
    expect(limiter.state().usedToday).toBe(0)
  })
})
