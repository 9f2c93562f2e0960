import { flushPromises } from '@vue/test-utils'
import { beforeEach, describe, expect, it } from 'vitest'
import type { ApprovalsView } from '@shared/domain/approvals-view'
import { mountWith, setupTestApp, type TestApp } from '../../testing/mount'
import { ME } from '../../testing/samples'
import ApprovalsPanel from './ApprovalsPanel.vue'

/** What the scan left out is said: the logs a provider sent that are not well-formed approval logs. */
function viewWith(skippedLogs: number): ApprovalsView {
  return {
    network: 'alpha',
    address: ME,
    rows: [],
    transactionsRead: 0,
    stateError: null,
    cost: { requests: 0, units: 0 },
    scan: {
      scannedTo: 100,
      head: 100,
      remainingCalls: 0,
      remainingUnits: 0,
      billing: 'request',
      logCap: null,
      skippedLogs,
    },
  }
}

describe('ApprovalsPanel', () => {
  let t: TestApp
  beforeEach(() => {
    t = setupTestApp()
  })

  it.each([
    [0, null],
    [1, '1 malformed log skipped'],
    [3, '3 malformed logs skipped'],
  ])('with %i logs skipped by the scan, says %s', async (skipped, words) => {
    t.bridge.handle('approvals.view', () => viewWith(skipped))
    const w = mountWith(ApprovalsPanel, t, { props: { network: 'alpha', address: ME } })
    await flushPromises()
    const said = w.findAll('[role="status"]').map((p) => p.text())
    if (words === null) expect(said.join(' ')).not.toMatch(/malformed/)
    else expect(said).toContainEqual(expect.stringContaining(words))
    w.unmount()
  })
})
