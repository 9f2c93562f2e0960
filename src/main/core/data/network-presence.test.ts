import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { makeBalance, makeTx, ME } from '@shared/testing/service-samples'
import { AppError } from '../util/app-error'
import { PresenceChecker, type PresenceRuntime } from './network-presence'
import { SnapshotStore } from './snapshot-store'
import { addr } from '../testing/address'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'presence-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

describe('PresenceChecker (both networks side by side)', () => {
  it('asks one RPC batch per network, reuses a fresh answer for free, and adds what is cached', async () => {
    let now = 1_000_000
    const snapshots = new SnapshotStore({ root: join(dir, 'snapshots') })
    await snapshots.writeBalances('p', 'alpha', ME, {
      fetchedAt: 1,
      items: [makeBalance('USDC', '5', '6'), makeBalance('DUST', '0', '18')],
    })
    await snapshots.writePage(
      { profileId: 'p', network: 'alpha', address: ME, cursor: null },
      { fetchedAt: 1, items: [makeTx(1), makeTx(2)], nextCursor: null },
    )
    const batches: string[] = []
    const runtime: PresenceRuntime = {
      profileId: 'p',
      client: {
        // As the service client does: each request sent adds to the caller's meter (per request here).
        rpcCalls: async (network, calls, options) => {
          batches.push(`${network}:${calls.map((c) => c.method).join('+')}`)
          if (options.meter) {
            options.meter.requests += 1
            options.meter.units += 1
          }
          if (network === 'beta') throw new AppError('offline', 'The service cannot be reached.')
          return [
            { ok: true, result: '0xde0b6b3a7640000' },
            { ok: true, result: '0x2a' },
          ]
        },
        unitsFor: () => 1,
      },
    }
    const checker = new PresenceChecker({ snapshots, clock: { now: () => now } })
    const [alpha, beta] = await checker.check(runtime, {
      networks: ['alpha', 'beta'],
      address: addr(ME),
      refresh: false,
    })
    expect(batches.sort()).toEqual([
      'alpha:eth_getBalance+eth_getTransactionCount',
      'beta:eth_getBalance+eth_getTransactionCount',
    ])
    expect(alpha).toMatchObject({
      network: 'alpha',
      nativeWei: '1000000000000000000',
      nonce: 42,
      tokens: 1,
      cachedTransactions: 2,
      source: 'network',
      requests: 1,
      error: null,
    })
    expect(beta).toMatchObject({
      network: 'beta',
      nativeWei: null,
      tokens: null,
      source: 'none',
      requests: 1,
      error: { kind: 'offline' },
    })

    now += 60_000
    const [again] = await checker.check(runtime, { networks: ['alpha'], address: addr(ME), refresh: false })
    expect(again).toMatchObject({ source: 'cache', requests: 0, nativeWei: '1000000000000000000' })
    expect(batches).toHaveLength(2)
    now += 120_000
    await checker.check(runtime, { networks: ['alpha'], address: addr(ME), refresh: false })
    expect(batches).toHaveLength(3)
  })
  it('sends two single calls where a batch costs more than its calls (per call, plus one per batch)', async () => {
    const snapshots = new SnapshotStore({ root: join(dir, 'snapshots') })
    const sent: string[][] = []
    const runtime: PresenceRuntime = {
      profileId: 'p',
      client: {
        rpcCalls: async (_network, calls, options) => {
          sent.push(calls.map((c) => c.method))
          if (options.meter) {
            options.meter.requests += 1
            options.meter.units += calls.length > 1 ? calls.length + 1 : 1
          }
          return calls.map((c) => ({ ok: true, result: c.method === 'eth_getBalance' ? '0x5' : '0x0' }))
        },
        unitsFor: (_network, calls) => (calls > 1 ? calls + 1 : calls),
      },
    }
    const checker = new PresenceChecker({ snapshots, clock: { now: () => 0 } })
    const [alpha] = await checker.check(runtime, { networks: ['alpha'], address: addr(ME), refresh: false })
    expect(sent.sort()).toEqual([['eth_getBalance'], ['eth_getTransactionCount']])
    expect(alpha).toMatchObject({ nativeWei: '5', nonce: 0, requests: 2, error: null })
  })

  it('cache only: the last answer of any age and what the snapshots know, never a request', async () => {
    let now = 1_000_000
    const snapshots = new SnapshotStore({ root: join(dir, 'snapshots') })
    await snapshots.writePage(
      { profileId: 'p', network: 'alpha', address: ME, cursor: null },
      { fetchedAt: 1, items: [makeTx(1)], nextCursor: null },
    )
    let sent = 0
    const runtime: PresenceRuntime = {
      profileId: 'p',
      client: {
        rpcCalls: async () => {
          sent++
          return [
            { ok: true, result: '0x5' },
            { ok: true, result: '0x1' },
          ]
        },
        unitsFor: () => 1,
      },
    }
    const checker = new PresenceChecker({ snapshots, clock: { now: () => now } })
    const req = { networks: ['alpha'], address: addr(ME), refresh: false, cacheOnly: true }
    const [before] = await checker.check(runtime, req)
    expect(before).toMatchObject({ source: 'none', nativeWei: null, cachedTransactions: 1, requests: 0, error: null })
    await checker.check(runtime, { ...req, cacheOnly: false })
    expect(sent).toBe(1)
    now += 86_400_000
    const [kept] = await checker.check(runtime, req)
    expect(kept).toMatchObject({
      source: 'cache',
      nativeWei: '5',
      nonce: 1,
      requests: 0,
      fetchedAt: new Date(1_000_000).toISOString(),
    })
    expect(sent).toBe(1)
  })

  it('a card kept from the cache because its check failed carries why, in staleReasonFor’s words (Work offline too)', async () => {
    let now = 1_000_000
    const snapshots = new SnapshotStore({ root: join(dir, 'snapshots') })
    let failWith: AppError | null = null
    const runtime: PresenceRuntime = {
      profileId: 'p',
      client: {
        rpcCalls: async () => {
          if (failWith) throw failWith
          return [
            { ok: true, result: '0x5' },
            { ok: true, result: '0x1' },
          ]
        },
        unitsFor: () => 1,
      },
    }
    const checker = new PresenceChecker({ snapshots, clock: { now: () => now } })
    const req = { networks: ['alpha'], address: addr(ME), refresh: true }
    const [fresh] = await checker.check(runtime, req)
    expect(fresh).toMatchObject({ source: 'network', staleReason: null })
    now += 60_000
    const cases: [AppError, string | null][] = [
      [new AppError('timeout', 'The service did not answer in time.'), 'offline'],
      [new AppError('offline-by-choice', 'Work offline is on.'), 'offline-by-choice'],
      [new AppError('quota-exhausted', 'Used up.'), 'quota'],
      [new AppError('rpc', 'Refused.'), null],
    ]
    for (const [error, reason] of cases) {
      failWith = error
      const [kept] = await checker.check(runtime, req)
      expect(kept).toMatchObject({ source: 'cache', nativeWei: '5', error: { kind: error.kind }, staleReason: reason })
    }
  })
})
