import { afterEach, describe, expect, it, vi } from 'vitest'
import { createHttpBridge } from './http-bridge'
import { adoptWebSession } from './web-session'

/** `fetch` is replaced only to inject the host's answers; the e2e suite drives the real host. */
function answer(status: number, body: string): void {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(body, { status, headers: { 'content-type': 'application/json' } })),
  )
}

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('createHttpBridge invoke', () => {
  it('passes bridge results through, including a value-less success', async () => {
    answer(200, JSON.stringify({ ok: true, value: { n: 1 } }))
    expect(await createHttpBridge().invoke('app.info', {})).toEqual({ ok: true, value: { n: 1 } })
    answer(200, JSON.stringify({ ok: true }))
    expect(await createHttpBridge().invoke('app.info', {})).toEqual({ ok: true })
    const error = { kind: 'invalid-input', message: 'bad', field: 'body' }
    answer(400, JSON.stringify({ ok: false, error }))
    expect(await createHttpBridge().invoke('app.info', {})).toEqual({ ok: false, error })
  })

  it("turns the host's refusal (a stale per-run secret) into a protocol error with its message", async () => {
    answer(401, JSON.stringify({ error: 'secret', message: 'This Chainscope web host needs its per-run secret.' }))
    expect(await createHttpBridge().invoke('app.info', {})).toEqual({
      ok: false,
      error: {
        kind: 'protocol',
        message: 'The Chainscope host answered 401: This Chainscope web host needs its per-run secret.',
      },
    })
  })

  it('turns a body that is not a bridge result into a protocol error', async () => {
    answer(502, 'Bad gateway')
    expect(await createHttpBridge().invoke('app.info', {})).toEqual({
      ok: false,
      error: { kind: 'protocol', message: 'The Chainscope host answered 502 without a bridge result.' },
    })
    answer(200, JSON.stringify({ ok: false, error: 'secret' }))
    expect(await createHttpBridge().invoke('app.info', {})).toEqual({
      ok: false,
      error: { kind: 'protocol', message: 'The Chainscope host answered 200 without a bridge result.' },
    })
  })

  it('reports an unreachable host as offline', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    )
    expect(await createHttpBridge().invoke('app.info', {})).toMatchObject({ ok: false, error: { kind: 'offline' } })
  })
})

describe('the web session handed over in the address', () => {
  it('keeps the bridge key from the fragment, restores the route, and sends the key with each call', async () => {
    const key = 'k'.repeat(43)
    window.history.replaceState(null, '', `/#chainscope-session=${key}`)
    adoptWebSession()
    expect(window.location.hash).toBe('#/')
    expect(window.localStorage.getItem('chainscope.webSession')).toBe(key)
    const fetchMock = vi.fn(async () => new Response(JSON.stringify({ ok: true }), { status: 200 }))
    vi.stubGlobal('fetch', fetchMock)
    await createHttpBridge().invoke('app.info', {})
    expect(fetchMock.mock.calls[0]).toMatchObject(['/bridge/invoke', { headers: { 'x-chainscope-session': key } }])
    // Any other fragment is the app's own route, left alone.
    window.history.replaceState(null, '', '/#/watchlists')
    adoptWebSession()
    expect(window.location.hash).toBe('#/watchlists')
    window.localStorage.clear()
  })
})
