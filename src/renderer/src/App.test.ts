import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { flushPromises } from '@vue/test-utils'
import { makeLimiter, sandboxProfile } from './testing/samples'
import { mountWith, setupTestApp, type TestApp } from './testing/mount'
import { useSessionStore } from './platform/session-store'
import App from './App.vue'

const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7'

describe('App shell', () => {
  let t: TestApp
  beforeEach(async () => {
    localStorage.clear()
    t = setupTestApp()
    t.bridge.handle('app.info', () => ({ name: 'Chainscope', version: '9.9.9', host: 'web', platform: 'linux' }))
    t.bridge.handle('height.get', () => [])
    t.bridge.handle('limiter.state', () => makeLimiter())
    t.bridge.handle('settings.get', () => ({ allowRemoteIcons: false }))
    t.bridge.handle('app.setVisible', () => null)
    t.bridge.handle('app.notices', () => [
      {
        id: 'n1',
        level: 'warning',
        message: 'The watchlists file was damaged and restored from its backup.',
        at: '2026-01-01T00:00:00.000Z',
      },
    ])
    useSessionStore().profiles = [sandboxProfile(true, true)]
    await t.router.push('/')
  })
  afterEach(() => {
    document.body.innerHTML = ''
  })

  it('shows what crossed the bridge, reports visibility and main’s notices', async () => {
    const w = mountWith(App, t)
    await flushPromises()
    await vi.waitFor(() => expect(document.body.textContent).toContain('restored from its backup'))
    expect(w.get('[data-testid="app-info"]').text()).toBe('Chainscope 9.9.9 · web host · linux')
    expect(t.bridge.callsOf('app.setVisible')).toEqual([{ visible: true }])
    expect(w.get('[role="meter"]').attributes('aria-valuenow')).toBe('12')
    w.unmount()
  })

  it('opens an address from main exactly as the search does', async () => {
    const w = mountWith(App, t)
    await flushPromises()
    t.bridge.emit('open.address', { address: ADDRESS.toLowerCase(), network: 'beta' })
    await flushPromises()
    expect(t.router.currentRoute.value.fullPath).toBe(`/address/beta/${ADDRESS}/balances`)
    t.bridge.emit('open.address', { address: '0x1234', network: null })
    await flushPromises()
    await vi.waitFor(() =>
      expect(document.body.textContent).toContain(
        'Could not open the address: An address has 40 hex characters after 0x; this one has 4.',
      ),
    )
    t.bridge.emit('open.address', { address: ADDRESS, network: 'gamma' })
    await vi.waitFor(() =>
      expect(document.body.textContent).toContain('This profile has no network "gamma"; it has alpha or beta.'),
    )
    t.bridge.emit('open.view', { view: 'rpc' })
    await flushPromises()
    expect(t.router.currentRoute.value.name).toBe('rpc')
    w.unmount()
  })
})
