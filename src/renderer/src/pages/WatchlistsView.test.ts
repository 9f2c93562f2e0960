import { flushPromises } from '@vue/test-utils'
import { beforeEach, describe, expect, it } from 'vitest'
import type { Watchlist } from '@shared/bridge/contract'
import { mountWith, setupTestApp, type TestApp } from '../testing/mount'
import WatchlistsView from './WatchlistsView.vue'

let t: TestApp
let lists: Watchlist[]

const entry = (i: number) => ({
  id: `e${i}`,
  address: `0x${String(i).padStart(40, '0')}`,
  network: 'alpha',
  label: `Entry ${i}`,
  note: '',
  tags: [],
  addedAt: '2030-01-01T00:00:00.000Z',
})

beforeEach(async () => {
  t = setupTestApp()
  lists = [{ id: 'l1', name: 'Exchanges', entries: [entry(1), entry(2), entry(3)] }]
  t.bridge.handle('watchlists.list', () => lists)
  t.bridge.handle('watchlists.delete', ({ id }) => {
    lists = lists.filter((l) => l.id !== id)
    t.bridge.emit('watchlists.changed', lists)
    return null
  })
  await t.router.push('/watchlists')
})

const dialog = () => document.querySelector('[role="alertdialog"]')
const dialogButton = (name: string) => [...dialog()!.querySelectorAll('button')].find((b) => b.textContent === name)!

/** The page, mounted, with the list's "Delete list" clicked: its dialog is open. */
async function askToDelete() {
  const w = mountWith(WatchlistsView, t)
  await flushPromises()
  await w
    .findAll('button')
    .find((b) => b.text() === 'Delete list')!
    .trigger('click')
  await flushPromises()
  return w
}

describe('WatchlistsView: deleting a list', () => {
  it('asks first, naming the list and what goes; keeping it deletes nothing', async () => {
    const w = await askToDelete()
    expect(dialog()!.textContent).toContain('Delete “Exchanges”?')
    expect(dialog()!.textContent).toContain('Its 3 entries are removed. Export it first if you may need it again.')
    dialogButton('Keep it').click()
    await flushPromises()
    expect(t.bridge.callsOf('watchlists.delete')).toEqual([])
    w.unmount()
  })

  it('deletes the list on "Delete"', async () => {
    const w = await askToDelete()
    dialogButton('Delete').click()
    await flushPromises()
    expect(t.bridge.callsOf('watchlists.delete')).toEqual([{ id: 'l1' }])
    expect(w.text()).not.toContain('Exchanges')
    w.unmount()
  })
})
