import { flushPromises } from '@vue/test-utils'
import { beforeEach, describe, expect, it } from 'vitest'
import type { AddressLabel } from '@shared/domain/address-label'
import { FakeBridgeFailure } from '../../testing/fake-bridge'
import { mountWith, setupTestApp, type TestApp } from '../../testing/mount'
import LabelEditor from './LabelEditor.vue'
import { useSessionStore } from '../../platform/session-store'
import { sandboxProfile } from '../../testing/samples'

const A = '0x52908400098527886e0f7030069857d2e4169ee7'
const props = { address: A, network: 'alpha', networkLabel: 'Alpha' }
let t: TestApp
let kept: AddressLabel[]

const label = (l: string, note = ''): AddressLabel => ({
  address: A,
  network: 'alpha',
  label: l,
  note,
  updatedAt: '2030-01-01T00:00:00.000Z',
})

beforeEach(() => {
  t = setupTestApp()
  kept = []
  t.bridge.handle('labels.list', () => kept)
})

const buttons = (w: ReturnType<typeof mountWith>) => w.findAll('button').map((b) => b.text())

describe('LabelEditor', () => {
  it('adds a label (saved as new: nothing was shown before)', async () => {
    t.bridge.handle('labels.set', (input) => {
      const { label: l, note } = input as { label: string; note: string }
      kept = [label(l, note)]
      t.bridge.emit('labels.changed', kept)
      return kept[0]!
    })
    const w = mountWith(LabelEditor, t, { props })
    await flushPromises()
    expect(buttons(w)).toEqual(['Add label'])
    await w.get('button').trigger('click')
    expect(w.text()).toContain('No label yet.')
    await w.get('input').setValue('Cold wallet')
    await w.get('form').trigger('submit')
    await flushPromises()
    expect(t.bridge.callsOf('labels.set')).toEqual([
      { address: A, network: 'alpha', label: 'Cold wallet', note: '', seen: null },
    ])
    expect(w.text()).toContain('Your label: Cold wallet')
    expect(buttons(w)).toEqual(['Edit label', 'Remove label'])
    w.unmount()
  })

  it('edits from the old value, sends what was shown, and shows a refusal when it changed meanwhile', async () => {
    kept = [label('Alice', 'hot')]
    t.bridge.handle('labels.set', () => {
      throw new FakeBridgeFailure({
        kind: 'conflict',
        message:
          'This label changed since it was shown (it is now “Bob”). Nothing was saved: look at it again, then edit it.',
      })
    })
    const w = mountWith(LabelEditor, t, { props })
    await flushPromises()
    await w.findAll('button')[0]!.trigger('click')
    expect(w.text()).toContain('Changing “Alice” (note: hot).')
    const inputs = w.findAll('input')
    expect((inputs[0]!.element as HTMLInputElement).value).toBe('Alice')
    expect((inputs[1]!.element as HTMLInputElement).value).toBe('hot')
    await inputs[0]!.setValue('Alice (cold)')
    // Another window changes the label while the form is open: said before saving.
    t.bridge.emit('labels.changed', [label('Bob')])
    await flushPromises()
    expect(w.get('[role="alert"]').text()).toContain('it is now “Bob”')
    await w.get('form').trigger('submit')
    await flushPromises()
    expect(t.bridge.callsOf('labels.set')).toEqual([
      { address: A, network: 'alpha', label: 'Alice (cold)', note: 'hot', seen: { label: 'Alice', note: 'hot' } },
    ])
    expect(w.text()).toContain('Nothing was saved')
    w.unmount()
  })

  it('removes the label shown, after asking', async () => {
    kept = [label('Alice')]
    t.bridge.handle('labels.remove', () => {
      t.bridge.emit('labels.changed', [])
      return null
    })
    const w = mountWith(LabelEditor, t, { props })
    await flushPromises()
    await w.findAll('button')[1]!.trigger('click')
    await flushPromises()
    const dialog = document.querySelector('[role="alertdialog"]')!
    expect(dialog.textContent).toContain('Remove the label “Alice”?')
    const confirm = [...dialog.querySelectorAll('button')].find((b) => b.textContent === 'Remove')!
    confirm.click()
    await flushPromises()
    expect(t.bridge.callsOf('labels.remove')).toEqual([
      { address: A, network: 'alpha', seen: { label: 'Alice', note: '' } },
    ])
    expect(buttons(w)).toEqual(['Add label'])
    w.unmount()
  })

  it('saves one label on both networks when asked, and says first what it replaces there', async () => {
    const other = { ...label('Old beta', 'b'), network: 'beta' }
    kept = [other]
    t.bridge.handle('profiles.list', () => [sandboxProfile()])
    await useSessionStore().load()
    t.bridge.handle('labels.set', (input) => {
      const i = input as { network: string; label: string; note: string }
      kept = [...kept.filter((k) => k.network !== i.network), { ...label(i.label, i.note), network: i.network }]
      t.bridge.emit('labels.changed', kept)
      return kept.at(-1)!
    })
    const w = mountWith(LabelEditor, t, { props })
    await flushPromises()
    await w.get('button').trigger('click')
    const box = w.get('input[type="checkbox"]')
    expect(box.element.parentElement!.textContent).toContain('Both networks')
    await w.get('input').setValue('Router')
    expect(w.text()).not.toContain('This replaces')
    await box.setValue(true)
    expect(w.text()).toContain('This replaces your label on Beta: “Old beta”.')
    await w.get('form').trigger('submit')
    await flushPromises()
    expect(t.bridge.callsOf('labels.set')).toEqual([
      { address: A, network: 'alpha', label: 'Router', note: '', seen: null },
      { address: A, network: 'beta', label: 'Router', note: '', seen: { label: 'Old beta', note: 'b' } },
    ])
    w.unmount()
  })

  it('saves on the open network only unless asked', async () => {
    t.bridge.handle('profiles.list', () => [sandboxProfile()])
    await useSessionStore().load()
    t.bridge.handle('labels.set', () => label('Solo'))
    const w = mountWith(LabelEditor, t, { props })
    await flushPromises()
    await w.get('button').trigger('click')
    await w.get('input').setValue('Solo')
    await w.get('form').trigger('submit')
    await flushPromises()
    expect(t.bridge.callsOf('labels.set').map((c) => (c as { network: string }).network)).toEqual(['alpha'])
    w.unmount()
  })
})
