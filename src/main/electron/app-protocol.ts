import { protocol, type CustomScheme } from 'electron'
import { readFile, stat } from 'node:fs/promises'
import { extname, resolve, sep } from 'node:path'
import { CONTENT_SECURITY_POLICY } from '@shared/security'
import { APP_HOST, APP_SCHEME } from './app-origin'

/**
 * `standard` gives the scheme real origins and relative URLs, `secure` makes it a secure
 * context, `supportFetchAPI` and `corsEnabled` let Vite's module scripts (fetched in CORS mode)
 * load from it. Deliberately NOT granted: `bypassCSP`, `allowServiceWorkers`, `stream`.
 */
export const APP_SCHEME_PRIVILEGES: CustomScheme = {
  scheme: APP_SCHEME,
  privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true, codeCache: true },
}

/** Must run before the app is ready (Electron's rule for privileged schemes). */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([APP_SCHEME_PRIVILEGES])
}

export interface AppProtocolOptions {
  /** The built renderer folder (`out/renderer`). */
  root: string
  /** Sent on every response. Default: `CONTENT_SECURITY_POLICY.electron`. */
  csp?: string
  /** Answered for client-side routes (paths without an extension). Default `index.html`. */
  shell?: string
}

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
}

/**
 * The `app://` handler: serves files under `root` only. Each decoded path segment is checked
 * (no `..`, `.`, backslash, NUL or drive colon, even percent-encoded) and the resolved path must
 * stay inside `root`; anything else is a plain 404 that names no file.
 */
export function createAppProtocolHandler(options: AppProtocolOptions): (request: Request) => Promise<Response> {
  const root = resolve(options.root)
  const csp = options.csp ?? CONTENT_SECURITY_POLICY.electron
  const shell = options.shell ?? 'index.html'

  const headers = (contentType: string): Record<string, string> => ({
    'content-type': contentType,
    'content-security-policy': csp,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
    'cache-control': 'no-cache',
  })
  const refuse = (status: number, text: string): Response =>
    new Response(text, { status, headers: headers('text/plain; charset=utf-8') })

  const fileFor = (pathname: string): string | null => {
    const segments: string[] = []
    for (const raw of pathname.split('/')) {
      if (raw === '') continue
      let segment: string
      try {
        segment = decodeURIComponent(raw)
      } catch {
        return null
      }
      if (segment === '.' || segment === '..' || /[\\/\0:]/.test(segment)) return null
      segments.push(segment)
    }
    const file = resolve(root, ...segments)
    return file === root || file.startsWith(root + sep) ? file : null
  }

  const isFile = async (file: string): Promise<boolean> => {
    try {
      return (await stat(file)).isFile()
    } catch {
      return false
    }
  }

  return async (request) => {
    let url: URL
    try {
      url = new URL(request.url)
    } catch {
      return refuse(400, 'Bad request')
    }
    if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST || url.username !== '' || url.password !== '')
      return refuse(404, 'Not found')
    if (request.method !== 'GET' && request.method !== 'HEAD') return refuse(405, 'Method not allowed')
    let file = fileFor(url.pathname)
    if (file === null) return refuse(404, 'Not found')
    if (file === root || !(await isFile(file))) {
      // A client-side route (no extension) gets the app shell; a missing asset is a 404.
      if (file !== root && extname(file) !== '') return refuse(404, 'Not found')
      file = resolve(root, shell)
    }
    let body: Buffer
    try {
      body = await readFile(file)
    } catch {
      return refuse(404, 'Not found')
    }
    const type = MIME[extname(file).toLowerCase()] ?? 'application/octet-stream'
    return new Response(request.method === 'HEAD' ? null : new Uint8Array(body), {
      status: 200,
      headers: headers(type),
    })
  }
}

/** Serves `root` on `app://chainscope/` in the default session. Call once the app is ready. */
export function serveAppProtocol(options: AppProtocolOptions): void {
  protocol.handle(APP_SCHEME, createAppProtocolHandler(options))
}
