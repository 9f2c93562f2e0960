import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BridgeHost } from '../core/bridge/bridge-host'
import { startWebHost, type WebHost } from './web-host'

interface Reply {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

function call(
  port: number,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, method: init.method ?? 'GET', headers: init.headers },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
        )
      },
    )
    req.on('error', reject)
    if (init.body !== undefined) req.write(init.body)
    req.end()
  })
}

describe('web host', () => {
  const secret = 's3cret-for-tests-only-0123456789abcdef'
  let dir: string
  let host: WebHost
  let bridge: BridgeHost
  let base: Record<string, string>

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'chainscope-webhost-'))
    mkdirSync(join(dir, 'assets'))
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>t</title>')
    writeFileSync(join(dir, 'assets', 'app.js'), 'console.log(1)')
    writeFileSync(join(tmpdir(), 'chainscope-outside.txt'), 'outside')
    bridge = new BridgeHost({ 'app.info': () => ({ name: 'Chainscope', version: '0', host: 'web', platform: 'test' }) })
    host = await startWebHost({ bridge, staticDir: dir, secret })
    base = { host: `127.0.0.1:${host.port}`, cookie: `chainscope_session_${host.port}=${secret}` }
  })

  afterAll(async () => {
    await host.close()
    rmSync(dir, { recursive: true, force: true })
  })

  const invoke = (
    headers: Record<string, string>,
    body = JSON.stringify({ name: 'app.info', input: {} }),
  ): Promise<Reply> =>
    call(host.port, '/bridge/invoke', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    })

  it('refuses to bind to anything but loopback', async () => {
    await expect(startWebHost({ bridge, staticDir: dir, host: '0.0.0.0' })).rejects.toThrow(/loopback only/)
    await expect(startWebHost({ bridge, staticDir: dir, host: '192.168.1.10' })).rejects.toThrow(/loopback only/)
  })

  it('prints an opening URL with the secret that it exchanges for an HttpOnly, SameSite=Strict cookie', async () => {
    expect(host.url).toBe(`http://127.0.0.1:${host.port}/?token=${secret}`)
    const r = await call(host.port, `/?token=${secret}`, { headers: { host: base.host! } })
    expect(r.status).toBe(303)
    expect(String(r.headers['set-cookie'])).toMatch(
      new RegExp(`^chainscope_session_${host.port}=${secret}; HttpOnly; SameSite=Strict; Path=/$`),
    )
  })

  it('refuses requests without the secret, with a wrong secret or a wrong token', async () => {
    expect((await invoke({ host: base.host! })).status).toBe(401)
    expect((await invoke({ host: base.host!, cookie: `chainscope_session_${host.port}=wrong` })).status).toBe(401)
    // Another web host's cookie (another port) does not open this one.
    expect((await invoke({ host: base.host!, cookie: `chainscope_session_${host.port + 1}=${secret}` })).status).toBe(
      401,
    )
    expect((await call(host.port, '/?token=wrong', { headers: { host: base.host! } })).status).toBe(401)
    expect((await call(host.port, '/', { headers: { host: base.host! } })).status).toBe(401)
  })

  it('refuses a foreign Origin and an unexpected Host (DNS rebinding)', async () => {
    expect((await invoke({ ...base, origin: 'http://evil.example' })).status).toBe(403)
    expect((await invoke({ ...base, origin: `http://127.0.0.1:${host.port + 1}` })).status).toBe(403)
    expect((await invoke({ ...base, host: `evil.example:${host.port}` })).status).toBe(403)
  })

  it('answers bridge calls as plain data, and validation errors for bad input', async () => {
    const okReply = await invoke({ ...base, origin: `http://127.0.0.1:${host.port}` })
    expect(okReply.status).toBe(200)
    expect(JSON.parse(okReply.body)).toEqual({
      ok: true,
      value: { name: 'Chainscope', version: '0', host: 'web', platform: 'test' },
    })
    const unknown = JSON.parse((await invoke(base, JSON.stringify({ name: 'fs.readFile', input: {} }))).body)
    expect(unknown).toMatchObject({ ok: false, error: { kind: 'invalid-input', field: 'name' } })
    const extra = JSON.parse((await invoke(base, JSON.stringify({ name: 'app.info', input: { x: 1 } }))).body)
    expect(extra).toMatchObject({ ok: false, error: { kind: 'invalid-input' } })
    const notJson = await invoke(base, '{not json')
    expect(notJson.status).toBe(400)
    expect(JSON.parse(notJson.body)).toMatchObject({ ok: false, error: { kind: 'invalid-input', field: 'body' } })
    // A malformed key.set must not quote the key back (V8's JSON.parse message quotes the text).
    const keyCall = await invoke(base, '{"name":"key.set","input":{"profileId":"p","key":sk_live_0123456789}}')
    expect(keyCall.status).toBe(400)
    expect(keyCall.body).not.toMatch(/sk_live|0123/)
    const wrongType = await call(host.port, '/bridge/invoke', {
      method: 'POST',
      headers: { ...base, 'content-type': 'text/plain' },
      body: '{}',
    })
    expect(wrongType.status).toBe(415)
  })

  it('refuses an oversized bridge body without crashing', async () => {
    const small = await startWebHost({ bridge, staticDir: dir, secret, maxBodyBytes: 1024 })
    const r = await call(small.port, '/bridge/invoke', {
      method: 'POST',
      headers: {
        host: `127.0.0.1:${small.port}`,
        cookie: `chainscope_session_${small.port}=${secret}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ name: 'app.info', input: { pad: 'x'.repeat(4096) } }),
    })
    expect(r.status).toBe(413)
    expect(JSON.parse(r.body)).toMatchObject({ ok: false, error: { kind: 'invalid-input', field: 'body' } })
    await small.close()
  })

  it('serves the renderer with the CSP, the app shell for routes, and nothing outside its folder', async () => {
    const index = await call(host.port, '/', { headers: base })
    expect(index.status).toBe(200)
    expect(index.headers['content-security-policy']).toContain("script-src 'self'")
    expect(index.headers['content-security-policy']).toContain("connect-src 'self'")
    expect((await call(host.port, '/assets/app.js', { headers: base })).body).toBe('console.log(1)')
    expect((await call(host.port, '/watchlists', { headers: base })).body).toContain('<title>t</title>')
    for (const path of [
      '/../chainscope-outside.txt',
      '/%2e%2e/chainscope-outside.txt',
      '/assets/..%2f..%2fchainscope-outside.txt',
    ]) {
      const r = await call(host.port, path, { headers: base })
      expect(r.body).not.toContain('outside')
    }
    expect((await call(host.port, '/missing.js', { headers: base })).status).toBe(404)
  })

  it('serves the event stream on GET only', async () => {
    expect((await call(host.port, '/bridge/events', { method: 'POST', headers: base, body: '' })).status).toBe(405)
  })

  it('pushes bridge events to subscribers over server-sent events', async () => {
    const received = await new Promise<string>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: host.port, path: '/bridge/events', headers: base }, (res) => {
        let text = ''
        res.on('data', (c: Buffer) => {
          text += c.toString()
          if (text.includes('"connectivity"')) {
            req.destroy()
            resolve(text)
          }
        })
        // Emit once the stream is open.
        setImmediate(() => bridge.emit('connectivity', { online: false, reason: 'test' }))
      })
      req.on('error', reject)
      req.end()
    })
    expect(received).toContain('data: {"event":"connectivity","payload":{"online":false,"reason":"test"}}')
  })
})
