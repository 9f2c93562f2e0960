import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { BridgeHost } from '../core/bridge/bridge-host'
import { SESSION_HEADER } from '@shared/bridge/web-session'
import { startWebHost, type WebHost } from './web-host'
import { webLogin } from './testing/web-login'

/** An event-stream client that stops reading is dropped, not buffered without end. */
let dir: string
let host: WebHost | null = null
afterEach(async () => {
  await host?.close()
  host = null
  rmSync(dir, { recursive: true, force: true })
})

const tick = (): Promise<void> => new Promise((r) => setImmediate(r))

/** The raw request of a logged-in page for the event stream. */
async function eventsRequest(url: string): Promise<string> {
  const login = await webLogin(url)
  return `GET /bridge/events HTTP/1.1\r\nHost: ${login.host}\r\nCookie: ${login.cookie}\r\n${SESSION_HEADER}: ${login[SESSION_HEADER]}\r\n\r\n`
}

describe('event stream backpressure', () => {
  it('drops a client that stops reading once its unread backlog passes the bound', async () => {
    dir = mkdtempSync(join(tmpdir(), 'webhost-sse-'))
    writeFileSync(join(dir, 'index.html'), '<!doctype html>')
    const secret = 'backpressure-secret-0123456789abcdef'
    const bridge = new BridgeHost({})
    host = await startWebHost({ bridge, staticDir: dir, secret, maxEventBacklogBytes: 256 * 1024 })
    const socket = connect(host.port, '127.0.0.1')
    await new Promise<void>((r) => socket.once('connect', () => r()))
    socket.write(await eventsRequest(host.url))
    // Read the response head, then stop reading.
    await new Promise<void>((r) => socket.once('data', () => r()))
    socket.pause()
    expect(host.eventClients).toBe(1)
    const message = 'x'.repeat(16 * 1024)
    for (let i = 0; i < 4000 && host.eventClients > 0; i++) {
      bridge.emit('notice', { id: String(i), level: 'info', message, at: 'now' })
      if (i % 16 === 0) await tick()
    }
    expect(host.eventClients).toBe(0)
    socket.destroy()
  })

  it('keeps a client that reads, through a burst of events', async () => {
    dir = mkdtempSync(join(tmpdir(), 'webhost-sse-'))
    writeFileSync(join(dir, 'index.html'), '<!doctype html>')
    const secret = 'backpressure-secret-0123456789abcdef'
    const bridge = new BridgeHost({})
    host = await startWebHost({ bridge, staticDir: dir, secret })
    const socket = connect(host.port, '127.0.0.1')
    let received = 0
    socket.on('data', (c: Buffer) => (received += c.length))
    await new Promise<void>((r) => socket.once('connect', () => r()))
    socket.write(await eventsRequest(host.url))
    while (host.eventClients === 0) await tick()
    for (let i = 0; i < 200; i++)
      bridge.emit('notice', { id: String(i), level: 'info', message: 'y'.repeat(1024), at: 'now' })
    while (received < 200 * 1024) await tick()
    expect(host.eventClients).toBe(1)
    socket.destroy()
  })
})
