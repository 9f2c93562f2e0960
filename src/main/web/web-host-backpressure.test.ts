import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { BridgeHost } from '../core/bridge/bridge-host'
import { startWebHost, type WebHost } from './web-host'

/** Issue 10 item 13: an event-stream client that stops reading is dropped, not buffered without end. */
let dir: string
let host: WebHost | null = null
afterEach(async () => {
  await host?.close()
  host = null
  rmSync(dir, { recursive: true, force: true })
})

const tick = (): Promise<void> => new Promise((r) => setImmediate(r))

describe('event stream backpressure', () => {
  it('drops a client that stops reading once its unread backlog passes the bound', async () => {
    dir = mkdtempSync(join(tmpdir(), 'webhost-sse-'))
    writeFileSync(join(dir, 'index.html'), '<!doctype html>')
    const secret = 'backpressure-secret-0123456789abcdef'
    const bridge = new BridgeHost({})
    host = await startWebHost({ bridge, staticDir: dir, secret, maxEventBacklogBytes: 256 * 1024 })
    const socket = connect(host.port, '127.0.0.1')
    await new Promise<void>((r) => socket.once('connect', () => r()))
    socket.write(
      `GET /bridge/events HTTP/1.1\r\nHost: 127.0.0.1:${host.port}\r\nCookie: chainscope_session_${host.port}=${secret}\r\n\r\n`,
    )
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
    socket.write(
      `GET /bridge/events HTTP/1.1\r\nHost: 127.0.0.1:${host.port}\r\nCookie: chainscope_session_${host.port}=${secret}\r\n\r\n`,
    )
    while (host.eventClients === 0) await tick()
    for (let i = 0; i < 200; i++)
      bridge.emit('notice', { id: String(i), level: 'info', message: 'y'.repeat(1024), at: 'now' })
    while (received < 200 * 1024) await tick()
    expect(host.eventClients).toBe(1)
    socket.destroy()
  })
})
