import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BridgeHost } from '../core/bridge/bridge-host'
import { SESSION_HEADER } from '@shared/bridge/web-session'
import { startWebHost, type WebHost } from './web-host'
import { bridgeKeyIn, webLogin, type WebLogin } from './testing/web-login'

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

  let opened: Reply
  let login: WebLogin

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'chainscope-webhost-'))
    mkdirSync(join(dir, 'assets'))
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>t</title>')
    writeFileSync(join(dir, 'assets', 'app.js'), 'console.log(1)')
    writeFileSync(join(tmpdir(), 'chainscope-outside.txt'), 'outside')
    bridge = new BridgeHost({ 'app.info': () => ({ name: 'Chainscope', version: '0', host: 'web', platform: 'test' }) })
    host = await startWebHost({ bridge, staticDir: dir, secret })
    // The one exchange of this host's launch token; every test below uses the session it opened.
    opened = await call(host.port, `/?token=${secret}`, { headers: { host: `127.0.0.1:${host.port}` } })
    const bridgeKey = bridgeKeyIn(opened.body)
    const cookie = String(opened.headers['set-cookie']).split(';')[0]!
    login = { host: `127.0.0.1:${host.port}`, cookie, [SESSION_HEADER]: bridgeKey }
    base = { ...login }
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

  it('exchanges the launch token for a session: a port-named HttpOnly, SameSite=Strict cookie that is not the token, and a bridge key', () => {
    expect(host.url).toBe(`http://127.0.0.1:${host.port}/?token=${secret}`)
    expect(opened.status).toBe(200)
    const setCookie = String(opened.headers['set-cookie'])
    expect(setCookie).toMatch(
      new RegExp(`^chainscope_${host.port}=[A-Za-z0-9_-]{43}; HttpOnly; SameSite=Strict; Path=/$`),
    )
    expect(setCookie).not.toContain(secret)
    expect(login[SESSION_HEADER]).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(login.cookie).not.toContain(login[SESSION_HEADER])
    expect(opened.body).not.toContain(secret)
  })

  it('the launch token is single-use: a replay opens no session and says why', async () => {
    const replay = await call(host.port, `/?token=${secret}`, { headers: { host: base.host! } })
    expect(replay.status).toBe(401)
    expect(replay.headers['set-cookie']).toBeUndefined()
    expect(JSON.parse(replay.body)).toMatchObject({
      error: 'token-used',
      message: expect.stringMatching(/already used/),
    })
    // The page that holds the session may load the address again (a reload of the first tab).
    expect(
      (await call(host.port, `/?token=${secret}`, { headers: { host: base.host!, cookie: base.cookie! } })).status,
    ).toBe(200)
  })

  it('refuses requests without a session, with a wrong one, or with the cookie but not the bridge key', async () => {
    expect((await invoke({ host: base.host! })).status).toBe(401)
    expect((await invoke({ ...base, cookie: `chainscope_${host.port}=wrong` })).status).toBe(401)
    // The launch token is not a session.
    expect((await invoke({ ...base, cookie: `chainscope_${host.port}=${secret}` })).status).toBe(401)
    // The session named for another port (another web host's cookie) does not open this one.
    const elsewhere = base.cookie!.replace(`chainscope_${host.port}=`, `chainscope_${host.port + 1}=`)
    expect((await invoke({ ...base, cookie: elsewhere })).status).toBe(401)
    // What any server on another 127.0.0.1 port receives from the browser: the cookie, not the key.
    expect((await invoke({ host: base.host!, cookie: base.cookie! })).status).toBe(401)
    expect((await invoke({ ...base, [SESSION_HEADER]: 'x'.repeat(43) })).status).toBe(401)
    expect(
      (await call(host.port, '/bridge/events', { headers: { host: base.host!, cookie: base.cookie! } })).status,
    ).toBe(401)
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
      headers: { ...(await webLogin(small.url)), 'content-type': 'application/json' },
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
      // As EventSource sends it: the cookie, and the bridge key in the query (it sends no headers).
      const path = `/bridge/events?session=${login[SESSION_HEADER]}`
      const headers = { host: login.host, cookie: login.cookie }
      const req = request({ host: '127.0.0.1', port: host.port, path, headers }, (res) => {
        let text = ''
        res.on('data', (c: Buffer) => {
          text += c.toString()
          if (text.includes('"connectivity"')) {
            req.destroy()
            resolve(text)
          }
        })
        // Emit once the stream is open.
        setImmediate(() => bridge.emit('connectivity', { profileId: 'p', workOffline: true, endpoints: [] }))
      })
      req.on('error', reject)
      req.end()
    })
    expect(received).toContain(
      'data: {"event":"connectivity","payload":{"profileId":"p","workOffline":true,"endpoints":[]}}',
    )
  })
})
