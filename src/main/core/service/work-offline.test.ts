import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ConnectionView } from '@shared/bridge/contract'
import { balanceItem } from '../testing/service-fixtures'
import { json, startScriptedServer } from '../testing/scripted-server'
import { scriptedCore } from '../testing/scripted-core'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SettingsStore } from '../profiles/settings-store'

/**
 * Work offline through the bridge against a real HTTP server on loopback: while the switch is
 * on nothing reaches the service, cached answers are served and marked, the rest fail with the
 * typed kind and its way forward; the switch is saved and published.
 */
const A = '0x52908400098527886e0f7030069857d2e4169ee7'
const B = '0x0000000000000000000000000000000000000b0b'
let service: Awaited<ReturnType<typeof startScriptedServer>>

beforeAll(async () => {
  service = await startScriptedServer()
  service.script((_req, res) => json(res, 200, { items: [balanceItem()], next_page_params: null }))
})
afterAll(() => service.close())

describe('Work offline', () => {
  it('sends nothing, serves saved answers marked as such, and fails the rest with offline-by-choice', async () => {
    const app = await scriptedCore({ serviceUrl: service.url, key: 'sk_test_OFFLINE0123456789' })
    const events: ConnectionView[] = []
    app.core.bridge.subscribe((event, payload) => {
      if (event === 'connectivity') events.push(payload as ConnectionView)
    })
    try {
      const fresh = await app.call('data.balances', { network: 'alpha', address: A, refresh: true })
      expect(fresh).toMatchObject({ source: 'network', staleReason: null })
      const sent = service.seen.length

      expect(await app.call('connection.setWorkOffline', { on: true })).toMatchObject({ workOffline: true })
      expect(events.at(-1)).toMatchObject({ workOffline: true, endpoints: [{ state: 'offline-by-choice' }] })

      const cached = await app.call('data.balances', { network: 'alpha', address: A, refresh: true })
      expect(cached).toMatchObject({ source: 'snapshot', staleReason: 'offline-by-choice', items: fresh.items })
      expect(await app.failure('data.balances', { network: 'alpha', address: B, refresh: true })).toMatchObject({
        kind: 'offline-by-choice',
        message: expect.stringMatching(/Switch "Work offline" off to fetch again/),
      })
      expect(await app.failure('rpc.call', { network: 'alpha', method: 'eth_blockNumber' })).toMatchObject({
        kind: 'offline-by-choice',
      })
      expect(service.seen.length).toBe(sent)

      await app.call('connection.setWorkOffline', { on: false })
      expect(await app.call('data.balances', { network: 'alpha', address: B, refresh: true })).toMatchObject({
        source: 'network',
      })
      expect(service.seen.length).toBe(sent + 1)
      expect((await app.call('connection.get', {})).endpoints).toEqual([
        expect.objectContaining({ network: 'alpha', endpoint: 'data', state: 'answering' }),
      ])
    } finally {
      await app.dispose()
    }
  })
})

describe('the Work offline switch on disk', () => {
  it('is saved, read back by the next run, and off in a file written before it existed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'work-offline-'))
    try {
      const store = new SettingsStore(dir)
      expect(store.workOffline).toBe(false)
      await store.setWorkOffline(true)
      expect(new SettingsStore(dir).workOffline).toBe(true)
      const file = join(dir, 'settings.json')
      const older = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>
      delete older.workOffline
      writeFileSync(file, JSON.stringify(older))
      const reread = new SettingsStore(dir)
      expect(reread.workOffline).toBe(false)
      expect(reread.notice).toBeNull()
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('ends as the last click said when on and off follow each other before the first save lands', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'work-offline-'))
    try {
      const store = new SettingsStore(dir)
      const on = store.setWorkOffline(true)
      const off = store.setWorkOffline(false)
      await Promise.all([on, off])
      expect(store.workOffline).toBe(false)
      expect(new SettingsStore(dir).workOffline).toBe(false)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
