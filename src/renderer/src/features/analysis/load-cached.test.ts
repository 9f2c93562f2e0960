import { beforeEach, describe, expect, it } from 'vitest'
import { useTransactionsStore } from '../transactions'
import { FakeBridgeFailure } from '../../testing/fake-bridge'
import { setupTestApp, type TestApp } from '../../testing/mount'
import { makePage, ME } from '../../testing/samples'

describe('transactions store: loadCached', () => {
  let t: TestApp
  beforeEach(() => {
    t = setupTestApp()
  })

  it('adds every further page main has cached, asks only cache-only, and stops quietly at the first one it has not', async () => {
    const cached = new Set(['p1', 'p2'])
    t.bridge.handle(
      'data.transactions',
      (input) => {
        const n = input.cursor ? Number(input.cursor.slice(1)) : 0
        if (input.cacheOnly && !cached.has(input.cursor ?? ''))
          throw new FakeBridgeFailure({ kind: 'not-found', message: 'This page of transactions is not cached.' })
        return makePage(n * 50, 50, `p${n + 1}`, { cursor: input.cursor ?? null })
      },
      { cached: true },
    )
    const s = useTransactionsStore()
    await s.open('alpha', ME)
    expect(await s.loadCached()).toBe(100)
    expect(s.items).toHaveLength(150)
    expect(s.nextCursor).toBe('p3')
    expect(s.error).toBeNull()
    const calls = t.bridge
      .callsOf('data.transactions')
      .map((c) => [(c as { cursor: string | null }).cursor, (c as { cacheOnly?: boolean }).cacheOnly])
    // Opening asks main's cache first (free), then the first page live.
    expect(calls).toEqual([
      [null, true],
      [null, false],
      ['p1', true],
      ['p2', true],
      ['p3', true],
    ])
  })
})
