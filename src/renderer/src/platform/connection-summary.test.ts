import { describe, expect, it } from 'vitest'
import type { EndpointConnection } from '@shared/bridge/contract'
import { connectionSummary } from './connection-summary'

const NOW = new Date(2026, 0, 1, 7, 35).getTime()
const at = (min: number): string => new Date(2026, 0, 1, 7, min).toISOString()
const endpoint = (e: Partial<EndpointConnection>): EndpointConnection => ({
  network: 'alpha',
  endpoint: 'data',
  state: 'answering',
  lastSuccessAt: at(31),
  since: null,
  nextRetryAt: null,
  until: null,
  reason: null,
  ...e,
})
const view = (endpoints: EndpointConnection[], workOffline = false) => ({ profileId: 'p', workOffline, endpoints })
const label = (n: string): string => n.charAt(0).toUpperCase() + n.slice(1)

describe('connectionSummary', () => {
  it('says Online only while every endpoint called answers', () => {
    expect(connectionSummary(view([endpoint({})]), NOW, label).text).toBe('Online')
    expect(connectionSummary(view([endpoint({ state: 'unknown', lastSuccessAt: null })]), NOW).text).toBe(
      'Not checked yet',
    )
    expect(connectionSummary(null, NOW).kind).toBe('unknown')
  })

  it('names the network and endpoint when only some are not answering', () => {
    const s = connectionSummary(
      view([
        endpoint({}),
        endpoint({
          endpoint: 'rpc',
          state: 'not-answering',
          since: at(33),
          nextRetryAt: new Date(NOW + 40_000).toISOString(),
        }),
      ]),
      NOW,
      label,
    )
    expect(s).toMatchObject({ kind: 'not-answering', text: 'Alpha RPC: not answering since 07:33 · retrying in 40 s' })
    const all = connectionSummary(view([endpoint({ state: 'not-answering', since: at(33) })]), NOW, label)
    expect(all.text).toBe('Not answering since 07:33')
  })

  it('tells a refused key, a used-up quota (until midnight UTC) and offline by choice', () => {
    expect(connectionSummary(view([endpoint({ state: 'refused', since: at(32) })]), NOW).text).toBe(
      'Key refused since 07:32',
    )
    const midnight = new Date(Date.UTC(2026, 0, 2)).toISOString()
    expect(connectionSummary(view([endpoint({ state: 'quota', until: midnight })]), NOW).text).toBe(
      'Quota used up until 00:00 UTC',
    )
    // A reset already past says nothing any more.
    expect(connectionSummary(view([endpoint({ state: 'quota', until: at(0) })]), NOW).kind).toBe('unknown')
    expect(connectionSummary(view([endpoint({})], true), NOW)).toMatchObject({
      kind: 'offline-by-choice',
      text: 'Offline by choice',
    })
  })
})

describe('connectionSummary of a stopped sandbox', () => {
  it('says the sandbox is stopped, whatever the last calls did', () => {
    const stopped = { ...view([endpoint({})]), sandboxStopped: { at: at(32), unexpected: false } }
    expect(connectionSummary(stopped, NOW)).toMatchObject({ kind: 'sandbox-stopped', text: 'Sandbox stopped at 07:32' })
    const died = { ...view([endpoint({})]), sandboxStopped: { at: at(32), unexpected: true } }
    expect(connectionSummary(died, NOW).text).toBe('Sandbox stopped unexpectedly at 07:32')
    expect(connectionSummary(died, NOW).detail).toMatch(/Start it in Settings/)
  })
})
