import { flushPromises } from '@vue/test-utils'
import { beforeEach, describe, expect, it } from 'vitest'
import type { LabelImportPreview } from '@shared/domain/address-label'
import { mountWith, setupTestApp, type TestApp } from '../../testing/mount'
import { sandboxProfile } from '../../testing/samples'
import { useSessionStore } from '../../platform/session-store'
import LabelsPanel from './LabelsPanel.vue'

const A = '0x52908400098527886e0f7030069857d2e4169ee7'
const preview: LabelImportPreview = {
  added: [{ address: A, network: 'alpha', label: 'Alice', note: '' }],
  changed: [],
  same: 0,
  empty: 0,
  ignoredColumns: [],
  layout: 'a header row, cells separated by ","',
  bad: [{ row: 3, column: 'column 1 ("address")', why: 'An address has 40 hex characters after 0x; this one has 4' }],
}

let t: TestApp
beforeEach(async () => {
  t = setupTestApp()
  t.bridge.handle('profiles.list', () => [sandboxProfile()])
  t.bridge.handle('labels.list', () => [])
  t.bridge.handle('labels.preview', () => preview)
  t.bridge.handle('labels.import', () => ({ added: 1, replaced: 0, kept: 0 }))
  await useSessionStore().load()
})

async function choose(w: ReturnType<typeof mountWith>): Promise<void> {
  const input = w.get('input[type="file"]')
  const file = new File([`address,label\n${A},Alice\n0x1234,Broken\n`], 'tags.csv', { type: 'text/csv' })
  Object.defineProperty(input.element, 'files', { value: [file] })
  await input.trigger('change')
  await flushPromises()
}

describe('LabelsPanel: a file with a bad row', () => {
  it('lists the bad row above the labels and applies the good rows only after the choice', async () => {
    const w = mountWith(LabelsPanel, t)
    await flushPromises()
    await choose(w)
    const alert = w.get('[role="alert"]')
    expect(alert.text()).toContain('1 row cannot be imported')
    expect(alert.findAll('tbody tr').map((r) => r.findAll('td').map((c) => c.text()))).toEqual([
      ['3', 'column 1 ("address")', 'An address has 40 hex characters after 0x; this one has 4'],
    ])
    expect(t.bridge.callsOf('labels.import')).toEqual([])
    const applyButton = w.findAll('button').find((b) => b.text() === 'Apply the good rows, skip 1 bad')!
    await applyButton.trigger('click')
    await flushPromises()
    expect(t.bridge.callsOf('labels.import')).toEqual([
      { text: `address,label\n${A},Alice\n0x1234,Broken\n`, network: 'alpha', replace: [], skipBad: true },
    ])
    w.unmount()
  })

  it('cancels without applying anything', async () => {
    const w = mountWith(LabelsPanel, t)
    await flushPromises()
    await choose(w)
    await w
      .findAll('button')
      .find((b) => b.text() === 'Cancel and fix the file')!
      .trigger('click')
    await flushPromises()
    expect(w.find('[role="alert"]').exists()).toBe(false)
    expect(t.bridge.callsOf('labels.import')).toEqual([])
    w.unmount()
  })
})
