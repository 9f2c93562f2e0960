import { flushPromises } from '@vue/test-utils'
import { beforeEach, describe, expect, it } from 'vitest'
import { FakeBridgeFailure } from '../../testing/fake-bridge'
import { answerFileChecks } from '../../testing/file-checks'
import { mountWith, setupTestApp, type TestApp } from '../../testing/mount'
import ExportReportButton from './ExportReportButton.vue'
import { forgetPdfAvailable } from './report-output'

const ME = '0x1111111111111111111111111111111111111111'
const props = {
  title: 'Case: A',
  fileStem: 'A',
  subjects: [{ network: 'alpha', networkLabel: 'Alpha', address: ME, label: null, note: null }],
}
let t: TestApp
/** What main was shown to check; it refuses a file holding "Case: A" (as one holding the key). */
let checked: string[]

beforeEach(() => {
  forgetPdfAvailable()
  t = setupTestApp()
  checked = answerFileChecks(t.bridge, 'Case: A')
  t.bridge.handle('data.transactions', () => {
    throw new FakeBridgeFailure({ kind: 'not-found', message: 'This page of transactions is not cached.' })
  })
})

describe('ExportReportButton', () => {
  it("in a browser (no PDF from main) offers the browser's print, which prints the report in a frame that runs no script", async () => {
    t.bridge.handle('report.pdfAvailable', () => false)
    answerFileChecks(t.bridge)
    const w = mountWith(ExportReportButton, t, { props })
    await flushPromises()
    expect(w.findAll('button').map((b) => b.text())).toEqual(['Download report', 'Print report'])
    await w.findAll('button')[1]!.trigger('click')
    await flushPromises()
    const frame = document.querySelector('iframe')!
    expect(frame.getAttribute('sandbox')).toBe('allow-same-origin allow-modals')
    expect(frame.srcdoc).toContain('<h1>Case: A</h1>')
    expect(t.bridge.callsOf('report.savePdf')).toEqual([])
    frame.remove()
    w.unmount()
  })

  it('offers neither the download nor the print of a report main refuses, and says why', async () => {
    t.bridge.handle('report.pdfAvailable', () => false)
    let offered = 0
    const click = HTMLAnchorElement.prototype.click
    HTMLAnchorElement.prototype.click = () => void offered++
    try {
      const w = mountWith(ExportReportButton, t, { props })
      await flushPromises()
      for (const button of [0, 1]) {
        await w.findAll('button')[button]!.trigger('click')
        await flushPromises()
        expect(w.get('[role="alert"]').text()).toMatch(/^report-A-[\d-]+\.html was not saved: it holds the key\.$/)
      }
      expect(checked).toHaveLength(2)
      expect(checked.every((html) => html.includes('<h1>Case: A</h1>'))).toBe(true)
      expect(offered).toBe(0)
      expect(document.querySelector('iframe')).toBeNull()
      w.unmount()
    } finally {
      HTMLAnchorElement.prototype.click = click
    }
  })

  it('in the desktop app saves a PDF through main and says where, from the event that ends the save', async () => {
    t.bridge.handle('report.pdfAvailable', () => true)
    t.bridge.handle('report.savePdf', () => {
      // The outcome may come before the call's own answer: it is kept until the id is known.
      t.bridge.emit('report.pdf', { id: 'other', outcome: 'failed', file: null, message: 'not ours' })
      t.bridge.emit('report.pdf', {
        id: 'p1',
        outcome: 'failed',
        file: null,
        message: 'The PDF was not saved (disk full).',
      })
      return { id: 'p1' }
    })
    const w = mountWith(ExportReportButton, t, { props })
    await flushPromises()
    expect(w.findAll('button').map((b) => b.text())).toEqual(['Download report', 'Save report as PDF'])
    await w.findAll('button')[1]!.trigger('click')
    await flushPromises()
    const [call] = t.bridge.callsOf('report.savePdf') as { html: string; filename: string }[]
    expect(call!.html).toContain('<h1>Case: A</h1>')
    expect(call!.filename).toMatch(/^report-A-\d{4}-\d{2}-\d{2}-\d{2}-\d{2}-\d{2}\.pdf$/)
    expect(w.get('[role="alert"]').text()).toBe('The PDF was not saved (disk full).')
    w.unmount()
  })
  it("in the desktop app shows main's refusal of a report holding the key without offering the download instead", async () => {
    t.bridge.handle('report.pdfAvailable', () => true)
    t.bridge.handle('report.savePdf', () => {
      throw new FakeBridgeFailure({
        kind: 'invalid-input',
        message: 'r.pdf was not saved: it holds the key.',
        field: 'text',
      })
    })
    const w = mountWith(ExportReportButton, t, { props })
    await flushPromises()
    await w.findAll('button')[1]!.trigger('click')
    await flushPromises()
    expect(w.get('[role="alert"]').text()).toBe('r.pdf was not saved: it holds the key.')
    w.unmount()
  })

  it('asks main once per page load whether it saves PDFs, however many buttons mount', async () => {
    t.bridge.handle('report.pdfAvailable', () => true)
    const first = mountWith(ExportReportButton, t, { props })
    await flushPromises()
    first.unmount()
    const second = mountWith(ExportReportButton, t, { props })
    await flushPromises()
    expect(second.findAll('button').map((b) => b.text())).toEqual(['Download report', 'Save report as PDF'])
    expect(t.bridge.callsOf('report.pdfAvailable')).toHaveLength(1)
    second.unmount()
  })

  it('asks again when main gave no answer', async () => {
    const first = mountWith(ExportReportButton, t, { props })
    await flushPromises()
    expect(first.findAll('button').map((b) => b.text())).toEqual(['Download report', 'Print report'])
    first.unmount()
    t.bridge.handle('report.pdfAvailable', () => true)
    const second = mountWith(ExportReportButton, t, { props })
    await flushPromises()
    expect(second.findAll('button').map((b) => b.text())).toEqual(['Download report', 'Save report as PDF'])
    second.unmount()
  })
})
