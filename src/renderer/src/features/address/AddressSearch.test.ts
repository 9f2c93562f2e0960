import { beforeEach, describe, expect, it } from 'vitest'
import { flushPromises } from '@vue/test-utils'
import { sandboxProfile } from '../../testing/samples'
import { mountWith, setupTestApp, type TestApp } from '../../testing/mount'
import { useRecentStore } from '../../platform/recent-store'
import { useSessionStore } from '../../platform/session-store'
import { useUiStore } from '../../platform/ui-store'
import AddressSearch from './AddressSearch.vue'

const GOOD = '0x52908400098527886E0F7030069857D2E4169EE7'

describe('AddressSearch', () => {
  let t: TestApp
  beforeEach(async () => {
    localStorage.clear()
    t = setupTestApp()
    useSessionStore().profiles = [sandboxProfile(true, true)]
    await t.router.push('/')
  })

  async function submit(text: string) {
    const w = mountWith(AddressSearch, t)
    const input = w.get('input[aria-label="Address"]')
    await input.setValue(text)
    await w.get('form').trigger('submit')
    await flushPromises()
    return w
  }

  it.each([
    ['', 'Enter an address'],
    ['52908400098527886E0F7030069857D2E4169EE7', 'starts with 0x'],
    ['0x1234', 'this one has 4'],
    ['0x52908400098527886E0F7030069857D2E4169EEZ', 'Character 42 ("Z") is not a hex digit'],
    ['0x52908400098527886E0F7030069857D2E4169Ee7', 'checksum (EIP-55) does not match'],
  ])('explains what is wrong with %j', async (text, message) => {
    const w = await submit(text)
    expect(w.get('[role="alert"]').text()).toContain(message)
    expect(w.get('input').attributes('aria-invalid')).toBe('true')
    expect(t.router.currentRoute.value.name).toBe('home')
    w.unmount()
  })

  it('opens a valid address on the selected network and remembers it', async () => {
    const w = await submit(GOOD.toLowerCase())
    expect(t.router.currentRoute.value.fullPath).toBe(`/address/alpha/${GOOD}/balances`)
    expect(useRecentStore().items[0]).toMatchObject({ address: GOOD, network: 'alpha' })
    expect(w.get('input').element.value).toBe('')
    w.unmount()
  })

  it('clears the message as soon as the text becomes valid', async () => {
    const w = await submit('0x12')
    expect(w.get('[role="alert"]').text()).not.toBe('')
    await w.get('input').setValue(GOOD)
    expect(w.get('[role="alert"]').text()).toBe('')
    w.unmount()
  })

  it('focuses on Ctrl+K, Cmd+K and on request from a menu', async () => {
    const w = mountWith(AddressSearch, t)
    const input = w.get('input').element
    ;(document.activeElement as HTMLElement | null)?.blur()
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'k', ctrlKey: true }))
    expect(document.activeElement).toBe(input)
    input.blur()
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'K', metaKey: true }))
    expect(document.activeElement).toBe(input)
    input.blur()
    useUiStore().focusSearch()
    await flushPromises()
    expect(document.activeElement).toBe(input)
    w.unmount()
  })
})
