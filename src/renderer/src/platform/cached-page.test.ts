import { beforeEach, describe, expect, it } from 'vitest'
import { FakeBridgeFailure } from '../testing/fake-bridge'
import { makePage, ME } from '../testing/samples'
import { setupTestApp, type TestApp } from '../testing/mount'
import { readCachedPages } from './cached-page'

describe('readCachedPages', () => {
  let t: TestApp
  beforeEach(() => {
    t = setupTestApp()
  })

  it('follows the cursors through every kept page, asking cache-only, and stops at the first not kept', async () => {
    t.bridge.handle(
      'data.transactions',
      (input) => {
        if (!input.cacheOnly) throw new Error('asked live')
        const n = input.cursor ? Number(input.cursor.slice(1)) : 0
        if (n >= 3) throw new FakeBridgeFailure({ kind: 'not-found', message: 'not cached' })
        return makePage(n * 50, 50, `p${n + 1}`, { fetchedAt: `2026-01-0${n + 1}T00:00:00.000Z` })
      },
      { cached: true },
    )
    const pages = await readCachedPages('alpha', ME)
    expect(pages.map((p) => p.cursor)).toEqual([null, 'p1', 'p2'])
    expect(pages.flatMap((p) => p.items)).toHaveLength(150)
    expect(t.bridge.callsOf('data.transactions')).toHaveLength(4)
  })

  it('stops on a cursor it already asked for, and answers nothing when even the first page is not kept', async () => {
    t.bridge.handle('data.transactions', (input) => makePage(0, 50, input.cursor === 'a' ? null : 'a'), {
      cached: true,
    })
    expect((await readCachedPages('alpha', ME)).map((p) => p.cursor)).toEqual([null, 'a'])
    t.bridge.handle('data.transactions', () => makePage(0, 50, 'a'), { cached: true })
    expect((await readCachedPages('alpha', ME)).map((p) => p.cursor)).toEqual([null, 'a'])
    t.bridge.handle('data.transactions', () => makePage(0, 50, null))
    expect(await readCachedPages('alpha', ME)).toEqual([])
  })
})
