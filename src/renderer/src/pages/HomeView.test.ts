import { beforeEach, describe, expect, it } from 'vitest'
import { flushPromises } from '@vue/test-utils'
import { sandboxProfile } from '../testing/samples'
import { mountWith, setupTestApp, type TestApp } from '../testing/mount'
import { useRecentStore } from '../platform/recent-store'
import { useSessionStore } from '../platform/session-store'
import HomeView from './HomeView.vue'

const WHALE = '0x7FF9eAc1b1E0028E68C3a81Ee84466E3E69c1bD2'

describe('HomeView', () => {
  let t: TestApp
  beforeEach(async () => {
    localStorage.clear()
    t = setupTestApp()
    await t.router.push('/')
  })

  it('offers the sandbox sample wallets of the selected network, opening each in one click', async () => {
    const session = useSessionStore()
    session.profiles = [sandboxProfile(true, true)]
    session.sandbox = {
      state: 'ready',
      message: null,
      progress: null,
      demoAddresses: {
        alpha: {
          whale: WHALE.toLowerCase(),
          weird_role: 'not an address',
          empty: '0xB124c2aa8D618D51b0fe953D936604680979Fd53',
        },
        beta: {},
      },
    }
    const w = mountWith(HomeView, t)
    await flushPromises()
    expect(w.text()).toContain('Sample wallets on Alpha')
    const buttons = w.findAll('button[aria-label^="Open the sample wallet"]')
    expect(buttons.map((b) => b.attributes('aria-label'))).toEqual([
      'Open the sample wallet: Busy wallet: thousands of transactions, many tokens',
      'Open the sample wallet: Wallet with no activity',
    ])
    await buttons[0]!.trigger('click')
    await flushPromises()
    expect(t.router.currentRoute.value.fullPath).toBe(`/address/alpha/${WHALE}/balances`)
    w.unmount()
  })

  it('says the sandbox is stopped and where to start it again', async () => {
    const session = useSessionStore()
    session.profiles = [sandboxProfile(true, false)]
    session.sandbox = {
      state: 'stopped',
      message: null,
      progress: null,
      stoppedAt: '2026-11-27T07:33:12Z',
      unexpected: true,
    }
    const w = mountWith(HomeView, t)
    const status = w.findAll('[role="status"]').find((s) => s.text().includes('stopped'))!
    expect(status.text()).toBe(
      'The sandbox stopped unexpectedly. Saved data stays available. Start it again in Settings.',
    )
    expect(status.get('a').attributes('href')).toMatch(/settings$/)
    w.unmount()
  })

  it('lists recent addresses of this profile’s networks and can clear them', async () => {
    const session = useSessionStore()
    session.profiles = [{ ...sandboxProfile(true, true), kind: 'service', id: 'svc' }]
    useRecentStore().add(WHALE, 'alpha', Date.now())
    useRecentStore().add(WHALE, 'gamma', Date.now())
    const w = mountWith(HomeView, t)
    await flushPromises()
    expect(w.text()).not.toContain('Sample wallets')
    expect(w.findAll('button[aria-label^="Open 0x"]').map((b) => b.attributes('aria-label'))).toEqual([
      `Open ${WHALE} on Alpha`,
    ])
    await w
      .findAll('button')
      .find((b) => b.text() === 'Clear recent addresses')!
      .trigger('click')
    expect(w.text()).toContain('None yet.')
    w.unmount()
  })
})
