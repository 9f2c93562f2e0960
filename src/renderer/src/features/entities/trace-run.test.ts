import { beforeEach, describe, expect, it } from 'vitest'
import type { InternalTransfersView, TracesRun } from '@shared/bridge/entity-types'
import { FakeBridgeFailure } from '../../testing/fake-bridge'
import { setupTestApp, type TestApp } from '../../testing/mount'
import { TRACE_CHUNK, traceRun } from './trace-run'

const ME = `0x${'aa'.repeat(20)}`
const ROUTER = `0x${'bb'.repeat(20)}`
const OTHER = `0x${'cc'.repeat(20)}`
const hashes = (n: number): string[] => Array.from({ length: n }, (_, i) => `0x${i.toString(16).padStart(64, '0')}`)

function traced(hash: string): InternalTransfersView {
  return {
    network: 'alpha',
    fetchedAt: '2026-11-27T10:00:00.000Z',
    source: 'network',
    final: false,
    cost: { requests: 1, units: 1 },
    hash,
    dialect: 'callTracer',
    calls: 3,
    transfers: [
      { from: ROUTER, to: ME, value: '1000', kind: 'call', depth: 1 },
      { from: ROUTER, to: OTHER, value: '5', kind: 'call', depth: 1 },
      { from: ME.toUpperCase().replace('0X', '0x'), to: OTHER, value: '300', kind: 'call', depth: 2 },
    ],
    refused: null,
  }
}

function answer(chunk: string[], over: Partial<TracesRun> = {}): TracesRun {
  const list = chunk.map(traced)
  return {
    network: 'alpha',
    traced: list,
    failed: [],
    refused: null,
    stopped: null,
    cost: { requests: list.length, units: list.length },
    ...over,
  }
}

describe('tracing an address’s loaded transactions', () => {
  let t: TestApp
  beforeEach(() => {
    t = setupTestApp()
  })

  it('traces a chunk at a time with progress, and sums what moved in and out of the address exactly', async () => {
    const seen: number[] = []
    const run = traceRun()
    t.bridge.handle('entities.traceMany', ({ hashes: chunk }) => {
      seen.push(run.done.value)
      return answer(chunk)
    })
    await run.run('alpha', hashes(25), ME)
    expect(t.bridge.callsOf('entities.traceMany').map((c) => (c as { hashes: string[] }).hashes.length)).toEqual([
      TRACE_CHUNK,
      TRACE_CHUNK,
      5,
    ])
    expect(seen).toEqual([0, 10, 20])
    expect(run.done.value).toBe(25)
    // Only transfers touching the address; the one between the Router and another address is left out.
    expect(run.transfers.value).toHaveLength(50)
    expect(run.totals.value).toEqual({ in: 25_000n, out: 7_500n })
    expect(run.running.value).toBe(false)
  })

  it('stops at a provider’s refusal and says it in its words', async () => {
    t.bridge.handle('entities.traceMany', () => answer([], { refused: 'debug_traceTransaction: method not found' }))
    const run = traceRun()
    await run.run('alpha', hashes(30), ME)
    expect(t.bridge.callsOf('entities.traceMany')).toHaveLength(1)
    expect(run.refused.value).toBe('debug_traceTransaction: method not found')
  })

  it('stops where main stopped (the quota) and where the bridge failed, saying running again resumes', async () => {
    t.bridge.handle('entities.traceMany', ({ hashes: chunk }) =>
      answer(chunk.slice(0, 4), {
        stopped: 'Stopped after 4 of 10: today’s quota is used up. Run it again to trace the rest.',
      }),
    )
    const run = traceRun()
    await run.run('alpha', hashes(30), ME)
    expect(run.done.value).toBe(4)
    expect(run.stopped.value).toMatch(/Run it again/)

    t.bridge.handle('entities.traceMany', () => {
      throw new FakeBridgeFailure({ kind: 'timeout', message: 'The service did not answer in time.' })
    })
    await run.run('alpha', hashes(30), ME)
    expect(run.call.error.value?.kind).toBe('timeout')
    expect(run.stopped.value).toBe('Stopped after 0 of 30. Run it again to trace the rest.')
  })

  it('stops after the chunk on its way when asked, and never traces more than 200', async () => {
    const run = traceRun()
    t.bridge.handle('entities.traceMany', ({ hashes: chunk }) => {
      run.stop()
      return answer(chunk)
    })
    await run.run('alpha', hashes(500), ME)
    expect(run.total.value).toBe(200)
    expect(run.done.value).toBe(10)
    expect(run.stopped.value).toBe('Stopped after 10 of 200, as asked. Run it again to trace the rest.')
  })
})
