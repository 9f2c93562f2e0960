import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { BridgeHost } from '../bridge/bridge-host'
import { hangingFs } from '../testing/hanging-fs'
import { SAVE_DEADLINE_MS } from '../util/versioned-file'
import { CaseStore } from './case-store'

/**
 * A disk that stops answering (a fault-injecting fs under the store's writes, fake time): a
 * bridge call that saves a case answers with the disk's reason within the bridge's deadline,
 * nothing changes in memory or on disk, and once the disk answers again saving works.
 */
let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cases-disk-'))
})
afterEach(() => {
  vi.useRealTimers()
  rmSync(dir, { recursive: true, force: true })
})

describe('cases on a disk that does not answer', () => {
  it('the bridge answers with the disk’s reason before its own deadline; nothing was saved, and saving works again after', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const disk = hangingFs()
    const store = new CaseStore({ dataDir: dir, faults: { fs: disk.fs } })
    const bridge = new BridgeHost({ 'cases.create': ({ name }) => store.create(name) })
    await bridge.dispatch('cases.create', { name: 'Kept' })
    const files = () => readdirSync(join(dir, 'cases')).filter((n) => n.endsWith('.json'))
    const kept = files()
    disk.state.hang = true
    const answer = bridge.dispatch('cases.create', { name: 'Hung' })
    await disk.reached()
    await vi.advanceTimersByTimeAsync(SAVE_DEADLINE_MS)
    expect(SAVE_DEADLINE_MS).toBeLessThan(30_000)
    expect(await answer).toEqual({
      ok: false,
      error: expect.objectContaining({
        kind: 'internal',
        message: `The case could not be saved (the disk did not answer in ${SAVE_DEADLINE_MS / 1000} s; nothing was saved); nothing was changed.`,
      }),
    })
    expect(store.list().map((c) => c.name)).toEqual(['Kept'])
    expect(files()).toEqual(kept)
    disk.release()
    expect(await bridge.dispatch('cases.create', { name: 'Later' })).toMatchObject({ ok: true })
    expect(store.list().map((c) => c.name)).toEqual(['Kept', 'Later'])
    expect(new CaseStore({ dataDir: dir }).list()).toEqual(store.list())
  })
})
