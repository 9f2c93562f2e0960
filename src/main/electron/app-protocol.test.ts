import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { CONTENT_SECURITY_POLICY } from '@shared/security'
import { APP_SCHEME_PRIVILEGES, createAppProtocolHandler, registerAppScheme, serveAppProtocol } from './app-protocol'
import { protocol, resetFakeElectron } from './testing/fake-electron'

vi.mock('electron', () => import('./testing/fake-electron'))

let base: string
let root: string
let handler: (request: Request) => Promise<Response>

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'chainscope-protocol-'))
  root = join(base, 'renderer')
  mkdirSync(join(root, 'assets'), { recursive: true })
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>Chainscope</title>')
  writeFileSync(join(root, 'assets', 'app.js'), 'console.log(1)')
  writeFileSync(join(root, 'assets', 'app.css'), 'body{}')
  writeFileSync(join(root, 'assets', 'odd name.svg'), '<svg/>')
  // A file beside the served folder whose name starts like it: a prefix check alone would leak it.
  mkdirSync(join(base, 'renderer-secret'))
  writeFileSync(join(base, 'renderer-secret', 'key.txt'), 'SECRET')
  writeFileSync(join(base, 'secret.txt'), 'SECRET')
  handler = createAppProtocolHandler({ root })
})
afterAll(() => rmSync(base, { recursive: true, force: true }))
beforeEach(() => resetFakeElectron())

const get = (url: string, method = 'GET'): Promise<Response> => handler(new Request(url, { method }))

describe('app:// scheme registration', () => {
  it('registers app:// as standard and secure, without bypassCSP or service workers', () => {
    registerAppScheme()
    expect(protocol.registerSchemesAsPrivileged).toHaveBeenCalledWith([APP_SCHEME_PRIVILEGES])
    expect(APP_SCHEME_PRIVILEGES).toMatchObject({
      scheme: 'app',
      privileges: { standard: true, secure: true, supportFetchAPI: true },
    })
    expect(APP_SCHEME_PRIVILEGES.privileges).not.toHaveProperty('bypassCSP')
    expect(APP_SCHEME_PRIVILEGES.privileges).not.toHaveProperty('allowServiceWorkers')
  })

  it('installs the handler with protocol.handle', async () => {
    serveAppProtocol({ root })
    expect(protocol.handle).toHaveBeenCalledWith('app', expect.any(Function))
    const installed = vi.mocked(protocol.handle).mock.calls[0]![1] as (r: Request) => Promise<Response>
    expect(await (await installed(new Request('app://chainscope/index.html'))).text()).toContain(
      '<title>Chainscope</title>',
    )
  })
})

describe('app:// handler', () => {
  it('serves files with their content type, the Electron CSP and nosniff', async () => {
    const page = await get('app://chainscope/index.html')
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(page.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY.electron)
    expect(page.headers.get('x-content-type-options')).toBe('nosniff')
    expect(await page.text()).toContain('Chainscope')

    const script = await get('app://chainscope/assets/app.js')
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(await script.text()).toBe('console.log(1)')
    expect((await get('app://chainscope/assets/app.css')).headers.get('content-type')).toBe('text/css; charset=utf-8')
    expect(await (await get('app://chainscope/assets/odd%20name.svg')).text()).toBe('<svg/>')
  })

  it('the Electron CSP allows no remote script and no network from the page', () => {
    const csp = CONTENT_SECURITY_POLICY.electron
    expect(csp).toContain("script-src 'self'")
    expect(csp).toContain("connect-src 'none'")
    expect(csp).toContain("default-src 'none'")
    expect(csp).not.toMatch(/script-src[^;]*(https?:|\*|'unsafe-eval'|'unsafe-inline')/)
  })

  it('answers the app shell for the root and for client-side routes', async () => {
    for (const url of [
      'app://chainscope/',
      'app://chainscope',
      'app://chainscope/address/0xabc',
      'app://chainscope/watchlists',
    ]) {
      const response = await get(url)
      expect(response.status, url).toBe(200)
      expect(await response.text(), url).toContain('<title>Chainscope</title>')
    }
  })

  it('answers 404 for a missing asset instead of the shell', async () => {
    const response = await get('app://chainscope/assets/missing.js')
    expect(response.status).toBe(404)
    expect(response.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY.electron)
  })

  it('refuses path traversal in every spelling', async () => {
    const attempts = [
      'app://chainscope/%2e%2e/secret.txt',
      'app://chainscope/assets/%2e%2e/%2e%2e/secret.txt',
      'app://chainscope/..%2fsecret.txt',
      'app://chainscope/..%2Fsecret.txt',
      'app://chainscope/..%5csecret.txt',
      'app://chainscope/assets/..%5c..%5csecret.txt',
      'app://chainscope/%2e%2e%2frenderer-secret%2fkey.txt',
      'app://chainscope/%252e%252e/secret.txt',
      'app://chainscope/index.html%00.js',
      'app://chainscope/C:%5cWindows%5cwin.ini',
      'app://chainscope/%E0%A4%A',
    ]
    for (const url of attempts) {
      const response = await get(url)
      const text = await response.text()
      expect(text, url).not.toContain('SECRET')
      expect([400, 404], url).toContain(response.status)
    }
  })

  it('never serves a file outside the root even when the URL parser normalises dots', async () => {
    // WHATWG URL parsing already folds literal /../ segments; the result must stay in the root.
    const response = await get('app://chainscope/assets/../../secret.txt')
    expect(await response.text()).not.toContain('SECRET')
  })

  it('refuses other hosts, credentials and methods', async () => {
    expect((await get('app://evil/index.html')).status).toBe(404)
    // Chromium can hand such a URL over; the fetch Request class refuses to build one, so a plain object stands in.
    expect((await handler({ url: 'app://user:pw@chainscope/index.html', method: 'GET' } as Request)).status).toBe(404)
    expect((await get('app://chainscope/index.html', 'POST')).status).toBe(405)
    const head = await get('app://chainscope/index.html', 'HEAD')
    expect(head.status).toBe(200)
    expect(await head.text()).toBe('')
  })
})
