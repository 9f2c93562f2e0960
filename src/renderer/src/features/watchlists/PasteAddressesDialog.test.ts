import { flushPromises } from '@vue/test-utils'
import { beforeEach, describe, expect, it } from 'vitest'
import type { Watchlist } from '@shared/bridge/contract'
import { mountWith, setupTestApp, type TestApp } from '../../testing/mount'
import { sandboxProfile } from '../../testing/samples'
import { useSessionStore } from '../../platform/session-store'
import PasteAddressesDialog from './PasteAddressesDialog.vue'

const A = '0x52908400098527886e0f7030069857d2e4169ee7'
const B = '0x8617e340b3d01fa5f11f306f4090fd50e238070d'
const C = '0xde709f2102306220921060314715629080e2fb77'
const D = '0x27b1fdb04752bbc536007a920d24acb045561c26'
const at = '2030-01-01T00:00:00.000Z'
const list: Watchlist = {
  id: 'w',
  name: 'Desk',
  entries: [{ id: 'e', address: D, network: 'alpha', label: '', note: '', tags: [], addedAt: at }],
}

let t: TestApp
beforeEach(async () => {
  t = setupTestApp()
  t.bridge.handle('profiles.list', () => [sandboxProfile()])
  await useSessionStore().load()
})

const byText = (text: string) => [...document.querySelectorAll('button')].find((b) => b.textContent?.trim() === text)!

describe('PasteAddressesDialog', () => {
  it('previews what is new, repeated, already there and invalid, then adds only the new ones in one call', async () => {
    t.bridge.handle('watchlists.addEntries', (input) => {
      const i = input as { entries: { address: string }[] }
      return {
        ...list,
        entries: [...list.entries, ...i.entries.map((e, n) => ({ ...list.entries[0]!, ...e, id: `n${n}` }))],
      }
    })
    const w = mountWith(PasteAddressesDialog, t, { props: { list } })
    byText('Paste addresses…').click()
    await flushPromises()
    const area = document.querySelector('textarea')!
    area.value = `${A},Cold\n${B}; ${C}\n${A}\n${D}\nnot an address`
    area.dispatchEvent(new Event('input'))
    await flushPromises()
    const status = document.querySelector('[role="dialog"] [role="status"]')!
    expect(status.textContent).toBe('3 new · 1 repeated · 1 already in Desk · 1 invalid')
    expect(t.bridge.callsOf('watchlists.addEntries')).toEqual([])
    byText('Add 3 new addresses').click()
    await flushPromises()
    expect(t.bridge.callsOf('watchlists.addEntries')).toEqual([
      {
        listId: 'w',
        entries: [
          { address: A, network: 'alpha', label: 'Cold', note: '', tags: [] },
          { address: B, network: 'alpha', label: '', note: '', tags: [] },
          { address: C, network: 'alpha', label: '', note: '', tags: [] },
        ],
      },
    ])
    expect(document.querySelector('textarea')).toBeNull()
    w.unmount()
  })

  it('adds nothing and says why when nothing new was pasted', async () => {
    const w = mountWith(PasteAddressesDialog, t, { props: { list } })
    byText('Paste addresses…').click()
    await flushPromises()
    const area = document.querySelector('textarea')!
    area.value = `${D}\n0x123`
    area.dispatchEvent(new Event('input'))
    await flushPromises()
    byText('Add').click()
    await flushPromises()
    expect(t.bridge.callsOf('watchlists.addEntries')).toEqual([])
    expect(document.body.textContent).toContain('Nothing new to add')
    w.unmount()
  })
})
