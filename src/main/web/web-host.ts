import { randomBytes } from 'node:crypto'
import { createReadStream, statSync, type Stats } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { extname, join, normalize, resolve, sep } from 'node:path'
import type { BridgeHost } from '../core/bridge/bridge-host'
import { CONTENT_SECURITY_POLICY } from '@shared/security'
import { isRecord } from '@shared/guards'
import { SESSION_FRAGMENT } from '@shared/bridge/web-session'
import { WebSessions } from './web-session'

export interface WebHostOptions {
  bridge: BridgeHost
  /** The built renderer (`out/renderer`). */
  staticDir: string
  /** Loopback only: 127.0.0.1 (default), ::1 or localhost. Anything else is refused. */
  host?: string
  /** 0 (default) picks a free port. */
  port?: number
  /** Fixed launch token for tests; a fresh random one per run by default. */
  secret?: string
  /** Largest bridge request body accepted, in bytes. Default 6 MiB (a 5 MB import plus JSON). */
  maxBodyBytes?: number
  /**
   * Bytes of events an event-stream client may leave unread; past it the client is dropped
   * (it reconnects and reloads state when it reads again). Default 4 MiB.
   */
  maxEventBacklogBytes?: number
}

export interface WebHost {
  /** The address to open: carries the single-use launch token, exchanged for a session (web-session.ts). */
  url: string
  origin: string
  port: number
  /** Event-stream clients connected now. */
  readonly eventClients: number
  /** Stops listening and closes every connection, event streams and calls in flight included. */
  close(): Promise<void>
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost'])
const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
}

/**
 * Serves the built renderer and the bridge over HTTP on loopback (docs/architecture.md, src/main/web/).
 * Every request must carry a session of this host (web-session.ts: the cookie set when the
 * launch token is exchanged, plus the bridge key for the bridge), name this host in `Host` (no
 * DNS rebinding) and, when it has an `Origin`, come from this origin.
 */
export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const bindHost = options.host ?? '127.0.0.1'
  if (!LOOPBACK.has(bindHost)) {
    throw new Error(
      `The web host binds to loopback only (127.0.0.1, ::1 or localhost), not ${JSON.stringify(bindHost)}.`,
    )
  }
  const secret = options.secret ?? randomBytes(32).toString('base64url')
  const staticRoot = resolve(options.staticDir)
  const maxBody = options.maxBodyBytes ?? 6 * 1024 * 1024
  const maxBacklog = options.maxEventBacklogBytes ?? 4 * 1024 * 1024
  const streams = new Set<ServerResponse>()
  let port = 0
  // Made once the port is known (the cookie is named for it); no request arrives before.
  let sessions = new WebSessions(secret, port)

  const allowedHosts = (): Set<string> => new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`])

  const server: Server = createServer((req, res) => {
    void handle(req, res).catch(() => {
      if (!res.headersSent) send(res, 500, { error: 'internal', message: 'The web host failed on this request.' })
      else res.destroy()
    })
  })

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const host = req.headers.host ?? ''
    if (!allowedHosts().has(host))
      return send(res, 403, {
        error: 'host',
        message: 'Unexpected Host header; open the address the web host printed.',
      })
    const origin = req.headers.origin
    if (origin !== undefined && !allowedHosts().has(origin.replace(/^http:\/\//, ''))) {
      return send(res, 403, { error: 'origin', message: 'Requests from other origins are refused.' })
    }
    const url = new URL(req.url ?? '/', `http://${host}`)

    const offered = url.searchParams.get('token')
    if (offered !== null && req.method === 'GET' && url.pathname === '/') {
      const exchange = sessions.exchange(offered)
      if (exchange.ok) {
        // A page that moves on by itself rather than a redirect: when the opening address came
        // from another site (the --open launch page is a file://), a redirect stays in that
        // cross-site navigation and the browser withholds the new SameSite=Strict cookie from
        // it; the page's own navigation is same-site. The bridge key goes in the fragment: the
        // browser keeps it and sends it to no server.
        const next = `/#${SESSION_FRAGMENT}=${exchange.bridgeKey}`
        const html = `<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${next}"><title>Chainscope</title><a href="${next}">Open Chainscope</a>`
        res.writeHead(200, {
          'set-cookie': exchange.cookie,
          'content-type': 'text/html; charset=utf-8',
          'content-length': Buffer.byteLength(html),
          'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
          'cache-control': 'no-store',
          'referrer-policy': 'no-referrer',
        })
        return void res.end(html)
      }
      if (exchange.reason === 'used' && !sessions.page(req)) {
        return send(res, 401, {
          error: 'token-used',
          message:
            'This opening address was already used: each start of the web host opens one browser session. Use the window it opened, or restart the web host for a new address.',
        })
      }
    }
    const bridgeCall = url.pathname === '/bridge/invoke' || url.pathname === '/bridge/events'
    if (bridgeCall ? !sessions.bridge(req, url) : !sessions.page(req)) {
      return send(res, 401, {
        error: 'secret',
        message: 'This Chainscope web host needs its per-run secret: open the full address it printed at start.',
      })
    }

    if (url.pathname === '/bridge/invoke') return invoke(req, res)
    if (url.pathname === '/bridge/events') {
      if (req.method !== 'GET') return send(res, 405, { error: 'method', message: 'The event stream takes GET.' })
      return events(req, res)
    }
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return send(res, 405, { error: 'method', message: 'Only GET here.' })
    return serveStatic(url.pathname, res)
  }

  async function invoke(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'POST') return send(res, 405, { error: 'method', message: 'The bridge takes POST.' })
    if (!(req.headers['content-type'] ?? '').startsWith('application/json')) {
      return send(res, 415, { error: 'content-type', message: 'The bridge takes application/json.' })
    }
    let body: unknown
    try {
      body = JSON.parse(await readBody(req, maxBody))
    } catch (error) {
      if (error instanceof BodyTooLarge) {
        return send(res, 413, {
          ok: false,
          error: {
            kind: 'invalid-input',
            message: `The bridge request is larger than ${maxBody} bytes.`,
            field: 'body',
          },
        })
      }
      // Never the parser's message: V8 quotes the text around the fault, which may be a key.
      const at = /at position (\d+)/.exec(error instanceof Error ? error.message : '')?.[1]
      return send(res, 400, {
        ok: false,
        error: {
          kind: 'invalid-input',
          message: `The bridge request body is not valid JSON${at ? ` (at character ${at})` : ''}.`,
          field: 'body',
        },
      })
    }
    const call = isRecord(body) ? body : {}
    send(res, 200, await options.bridge.dispatch(call.name, call.input))
  }

  function events(req: IncomingMessage, res: ServerResponse): void {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' })
    res.write(': connected\n\n')
    streams.add(res)
    const drop = (): void => {
      unsubscribe()
      streams.delete(res)
    }
    const unsubscribe = options.bridge.subscribe((event, payload) => {
      // Backpressure: a client that stops reading must not grow main's memory.
      // What it has not taken is bounded; past that it is dropped and reconnects when it reads again.
      if (res.writableLength > maxBacklog) {
        drop()
        res.destroy()
        return
      }
      res.write(`data: ${JSON.stringify({ event, payload })}\n\n`)
    })
    req.on('close', drop)
  }

  function serveStatic(pathname: string, res: ServerResponse): void {
    let rel: string
    try {
      rel = normalize(decodeURIComponent(pathname)).replace(/^([/\\])+/, '')
    } catch {
      return send(res, 400, { error: 'path', message: 'Malformed path.' })
    }
    let file = join(staticRoot, rel === '' ? 'index.html' : rel)
    if (file !== staticRoot && !file.startsWith(staticRoot + sep))
      return send(res, 404, { error: 'not-found', message: 'Not found.' })
    let stat = statSafe(file)
    // A client-side route: answer the app shell.
    if (!stat?.isFile() && extname(rel) === '') {
      file = join(staticRoot, 'index.html')
      stat = statSafe(file)
    }
    if (!stat?.isFile()) return send(res, 404, { error: 'not-found', message: 'Not found.' })
    res.writeHead(200, {
      'content-type': MIME[extname(file)] ?? 'application/octet-stream',
      'content-length': stat.size,
      'content-security-policy': CONTENT_SECURITY_POLICY.web,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': extname(file) === '.html' ? 'no-store' : 'max-age=3600',
    })
    createReadStream(file).pipe(res)
  }

  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, bindHost, () => resolveListen())
  })
  const address = server.address()
  if (address === null || typeof address === 'string') throw new Error('The web host is not listening on a TCP port.')
  port = address.port
  sessions = new WebSessions(secret, port)
  const origin = `http://${bindHost === '::1' ? '[::1]' : bindHost}:${port}`
  return {
    url: `${origin}/?token=${secret}`,
    origin,
    port,
    get eventClients() {
      return streams.size
    },
    close: async () => {
      for (const s of streams) s.end()
      const closed = new Promise<void>((r) => server.close(() => r()))
      // Every connection, a call still waiting on a service or the keychain included: shutdown
      // must not wait for answers that may never come.
      server.closeAllConnections()
      await closed
    },
  }
}

function statSafe(file: string): Stats | undefined {
  try {
    return statSync(file)
  } catch {
    return undefined
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body)
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'content-length': Buffer.byteLength(text),
  })
  res.end(text)
}

class BodyTooLarge extends Error {
  override name = 'BodyTooLarge'
}

/** Reads a body up to `max` bytes; past that it drains the rest unstored and answers 413. */
function readBody(req: IncomingMessage, max: number): Promise<string> {
  return new Promise((resolveBody, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size <= max) chunks.push(chunk)
    })
    req.on('end', () => (size > max ? reject(new BodyTooLarge()) : resolveBody(Buffer.concat(chunks).toString('utf8'))))
    req.on('error', reject)
  })
}
