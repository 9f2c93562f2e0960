import { beforeEach, describe, expect, it, vi } from 'vitest'
import { defineComponent, h } from 'vue'
import { flushPromises } from '@vue/test-utils'
import { checksumAddress } from '@shared/domain/address'
import { mountWith, setupTestApp, type TestApp } from '../testing/mount'
import { ME, OTHER, sandboxProfile } from '../testing/samples'
import { useSessionStore } from '../platform/session-store'
import { useAddressActions } from '../platform/address-actions'
import { createAppRouter } from '../router'
import PivotHost from './PivotHost.vue'
import { AddressPivot, BlockPivot, blockRoute, otherNetwork, TxPivot, txRoute, addressRoute } from '../features/pivot'

const HASH = '0x' + 'ab'.repeat(32)
const at = '2030-01-01T00:00:00.000Z'
const THIRD = '0x3333333333333333333333333333333333333333'

/** The pivots under test, beside the host as the app root mounts it (unless `host` is false). */
function withHost(child: () => ReturnType<typeof h>, host = true) {
  return defineComponent({ setup: () => () => h('div', host ? [h(PivotHost), child()] : [child()]) })
}

describe('pivots', () => {
  let t: TestApp
  beforeEach(async () => {
    t = setupTestApp()
    useSessionStore().profiles = [sandboxProfile(true, true)]
    t.bridge.handle('labels.list', () => [
      { address: OTHER, network: 'alpha', label: 'Exchange hot wallet', note: '', updatedAt: at },
      { address: THIRD, network: 'alpha', label: '0x2222\u202E', note: '', updatedAt: at },
    ])
    t.bridge.handle('watchlists.list', () => [])
    await t.router.push({ name: 'address', params: { network: 'alpha', address: ME } })
  })

  it("links each entity to the app's own hash routes (the href a new window opens)", () => {
    const app = createAppRouter()
    expect(app.resolve(addressRoute('alpha', OTHER.toLowerCase())).href).toBe(
      `#/address/alpha/${checksumAddress(OTHER)}`,
    )
    expect(app.resolve(txRoute('beta', HASH.toUpperCase().replace('0X', '0x'))).href).toBe(`#/tx/beta/${HASH}`)
    expect(app.resolve(blockRoute('alpha', 123n)).href).toBe('#/block/alpha/123')
    expect(app.resolve(blockRoute('alpha', 123n)).name).toBe('block')
    expect(app.resolve(txRoute('beta', HASH)).name).toBe('tx')
  })

  it('renders real links: a plain click navigates in the app, Ctrl+click is left to the browser', async () => {
    const w = mountWith(
      withHost(
        () =>
          h('div', [
            h(AddressPivot, { network: 'alpha', address: OTHER }),
            h(TxPivot, { network: 'alpha', hash: HASH }),
            h(BlockPivot, { network: 'beta', number: 77n }),
          ]),
        false,
      ),
      t,
    )
    const links = w.findAll('a')
    expect(links.map((a) => a.attributes('href'))).toEqual([
      `/address/alpha/${checksumAddress(OTHER)}`,
      `/tx/alpha/${HASH}`,
      '/block/beta/77',
    ])
    // The full hash is what a screen reader reads, though the text is short.
    expect(links[1]!.text()).toContain(HASH)
    expect(links[1]!.find('[aria-hidden="true"]').text()).toBe('0xababab…ababab')

    await links[2]!.trigger('click', { ctrlKey: true })
    await flushPromises()
    expect(t.router.currentRoute.value.name).toBe('address')
    await links[2]!.trigger('click')
    await flushPromises()
    expect(t.router.currentRoute.value.fullPath).toBe('/block/beta/77')
    w.unmount()
  })

  it("shows the user's label of the address on its network only, checksummed, look-alikes marked", async () => {
    const w = mountWith(
      withHost(() =>
        h('div', [
          h(AddressPivot, { network: 'alpha', address: OTHER.toLowerCase(), name: 'Service name' }),
          h(AddressPivot, { network: 'beta', address: OTHER, name: 'Service name' }),
          h(AddressPivot, { network: 'alpha', address: THIRD, short: true }),
        ]),
      ),
      t,
    )
    await flushPromises()
    const [alpha, beta, third] = w.findAll('a')
    expect(alpha!.text()).toBe(`Exchange hot wallet${checksumAddress(OTHER)}`)
    expect(alpha!.attributes('title')).toBe(`${checksumAddress(OTHER)} on Alpha`)
    // No label on beta: the service's name.
    expect(beta!.text()).toBe(`Service name${checksumAddress(OTHER)}`)
    // A label that reads as an address is marked as a name (and the bidi override is gone).
    expect(third!.find('.pivot-name').text()).toBe('name “0x2222”')
    expect(third!.text()).toContain(THIRD)
    w.unmount()
  })

  async function openMenu(w: ReturnType<typeof mountWith>, address = OTHER): Promise<HTMLElement> {
    const trigger = w.find(`button[aria-label="Actions for ${checksumAddress(address)}"]`)
    ;(trigger.element as HTMLElement).focus()
    await trigger.trigger('keydown', { key: 'Enter' })
    await flushPromises()
    const menu = document.body.querySelector<HTMLElement>('[role="menu"]')
    expect(menu, 'the menu opens from the keyboard').not.toBeNull()
    return menu!
  }
  const item = (menu: HTMLElement, name: string | RegExp): HTMLElement => {
    const found = [...menu.querySelectorAll<HTMLElement>('[role="menuitem"]')].find((i) =>
      typeof name === 'string' ? i.textContent?.trim() === name : name.test(i.textContent ?? ''),
    )
    if (!found) throw new Error(`no menu item ${String(name)}`)
    return found
  }
  const names = (menu: HTMLElement) => [...menu.querySelectorAll('[role="menuitem"]')].map((i) => i.textContent?.trim())

  it('offers every action in its menu, and each goes where it says', async () => {
    const w = mountWith(
      withHost(() => h(AddressPivot, { network: 'alpha', address: OTHER })),
      t,
    )
    await flushPromises()
    let menu = await openMenu(w)
    expect(names(menu)).toEqual([
      'Open',
      'Open on the other network (Beta)',
      'Open its flow graph',
      'Copy address',
      'Label…',
      'Add to case…',
      'Add to watchlist…',
      'Filter this view by it',
    ])

    item(menu, /^Open on the other network/).click()
    await flushPromises()
    expect(t.router.currentRoute.value.params).toMatchObject({ network: 'beta', address: checksumAddress(OTHER) })

    await t.router.push({ name: 'address', params: { network: 'alpha', address: ME } })
    menu = await openMenu(w)
    item(menu, 'Filter this view by it').click()
    await flushPromises()
    expect(t.router.currentRoute.value.query).toEqual({ party: OTHER.toLowerCase() })
    expect(t.router.currentRoute.value.params.address).toBe(ME)

    menu = await openMenu(w)
    item(menu, 'Open its flow graph').click()
    await flushPromises()
    expect(t.router.currentRoute.value.params).toMatchObject({ address: checksumAddress(OTHER), tab: 'flows' })

    menu = await openMenu(w)
    item(menu, 'Open').click()
    await flushPromises()
    expect(t.router.currentRoute.value.fullPath).toBe(`/address/alpha/${checksumAddress(OTHER)}`)
    w.unmount()
  })

  it('copies the full checksummed address', async () => {
    const writeText = vi.fn(async () => {})
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true })
    const w = mountWith(
      withHost(() => h(AddressPivot, { network: 'alpha', address: OTHER, short: true })),
      t,
    )
    const menu = await openMenu(w)
    item(menu, 'Copy address').click()
    await flushPromises()
    expect(writeText).toHaveBeenCalledExactlyOnceWith(checksumAddress(OTHER))
    w.unmount()
  })

  it('opens the add-to-case, add-to-watchlist and label dialogs for this address', async () => {
    t.bridge.handle('cases.list', () => [])
    const w = mountWith(
      withHost(() => h(AddressPivot, { network: 'alpha', address: OTHER })),
      t,
    )
    await flushPromises()
    for (const [action, title] of [
      ['Add to case…', 'Add to case'],
      ['Add to watchlist…', 'Add to watchlist'],
      ['Label…', 'Label'],
    ] as const) {
      const menu = await openMenu(w)
      item(menu, action).click()
      await flushPromises()
      const dialog = document.body.querySelector<HTMLElement>('[role="dialog"]')
      expect(dialog?.querySelector('h2')?.textContent, action).toBe(title)
      expect(dialog?.textContent).toContain(checksumAddress(OTHER).slice(2, 10))
      dialog!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }))
      await flushPromises()
    }
    w.unmount()
  })

  it('hides what cannot apply: the other network without one, filtering the page by its own address', async () => {
    const profile = sandboxProfile(true, true)
    useSessionStore().profiles = [{ ...profile, networks: profile.networks.slice(0, 1) }]
    const w = mountWith(AddressPivot, t, { props: { network: 'alpha', address: ME } })
    const menu = await openMenu(w, ME)
    expect(names(menu)).toEqual(['Open', 'Open its flow graph', 'Copy address'])
    w.unmount()
  })

  it('a view that registers a filter gets it instead of the address page', async () => {
    const filter = vi.fn()
    useAddressActions().provide('filter', filter)
    await t.router.push('/watchlists')
    const w = mountWith(AddressPivot, t, { props: { network: 'beta', address: OTHER } })
    const menu = await openMenu(w)
    item(menu, 'Filter this view by it').click()
    expect(filter).toHaveBeenCalledExactlyOnceWith({ network: 'beta', address: OTHER.toLowerCase() })
    expect(t.router.currentRoute.value.name).toBe('watchlists')
    w.unmount()
  })

  it('the other network is the next of the profile, wrapping', () => {
    const nets = [{ name: 'alpha' }, { name: 'beta' }, { name: 'gamma' }]
    expect(otherNetwork(nets, 'alpha')).toBe('beta')
    expect(otherNetwork(nets, 'gamma')).toBe('alpha')
    expect(otherNetwork([{ name: 'alpha' }], 'alpha')).toBeNull()
    expect(otherNetwork(nets, 'unknown')).toBe('alpha')
  })
})
