import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { flushPromises } from '@vue/test-utils'
import { emptyGraphState, migrateCase, type CaseFile } from '@shared/domain/case-file'
import { useSessionStore } from '../../platform/session-store'
import { mountWith, setupTestApp, type TestApp } from '../../testing/mount'
import { makePage, ME, sandboxProfile } from '../../testing/samples'
import { useFlowsStore } from '../flows'
import CaseFlowGraph from './CaseFlowGraph.vue'

const OTHER_NODE = '0x9999999999999999999999999999999999999999'

/**
 * A node the analyst dragged keeps its place through the case: moved as the canvas's drag
 * handler moves it (`moveNode`), saved with "Save graph to case", the case reloaded from its
 * saved form (parsed as main loads it), the graph shown again with the node where it was left.
 * The flow panel is stubbed: its canvas (cytoscape) cannot draw in jsdom.
 */
describe("a case's graph keeps its node positions", () => {
  let t: TestApp
  const original: CaseFile = {
    id: 'c1',
    name: 'Heist',
    createdAt: '2026-01-02T00:00:00.000Z',
    updatedAt: '2026-01-02T00:00:00.000Z',
    addresses: [{ address: ME, network: 'alpha', label: 'Victim', note: '', addedAt: '2026-01-02T00:00:00.000Z' }],
    notes: '',
    graph: emptyGraphState(),
    paths: [],
    log: [],
  }
  let saved: CaseFile = original

  function app(): TestApp {
    const a = setupTestApp()
    useSessionStore().profiles = [sandboxProfile(true, true)]
    a.bridge.handle('data.transactions', () => makePage(0, 3, null))
    a.bridge.handle('work.cancel', () => ({ cancelled: 0 }))
    a.bridge.handle('cases.setGraph', ({ id, graph }) => {
      // What main writes, as the file holds it and reads it back.
      saved = migrateCase(JSON.parse(JSON.stringify({ ...saved, id, graph })), 2)
      return saved
    })
    return a
  }

  async function show(caseFile: CaseFile) {
    const w = mountWith(CaseFlowGraph, t, { props: { caseFile }, global: { stubs: { FlowsPanel: true } } })
    await w
      .findAll('button')
      .find((b) => b.text() === 'Show flow graph')!
      .trigger('click')
    await flushPromises()
    return w
  }

  beforeEach(() => {
    vi.useFakeTimers()
    saved = original
    t = app()
  })
  afterEach(() => vi.useRealTimers())

  it('a dragged node is saved with the case and placed there again when the case is reopened', async () => {
    const w = await show(original)
    const flows = useFlowsStore()
    expect(flows.positions.size).toBe(0)
    flows.moveNode(ME, { x: 120.5, y: -40 })
    flows.moveNode(OTHER_NODE, { x: 3, y: 4 })
    flows.moveNode(ME, { x: 130, y: -42.5 }) // moved again: the last place counts
    await w
      .findAll('button')
      .find((b) => b.text() === 'Save graph to case')!
      .trigger('click')
    await flushPromises()
    expect(t.bridge.callsOf('cases.setGraph')).toHaveLength(1)
    expect(saved.graph.positions).toEqual([
      { address: ME, network: 'alpha', x: 130, y: -42.5 },
      { address: OTHER_NODE, network: 'alpha', x: 3, y: 4 },
    ])
    w.unmount()

    // Reopened in a fresh app (new stores): the positions come from the saved case alone.
    t = app()
    const again = await show(saved)
    expect([...useFlowsStore().positions]).toEqual([
      [ME, { x: 130, y: -42.5 }],
      [OTHER_NODE, { x: 3, y: 4 }],
    ])
    again.unmount()
  })
})
