import { randomBytes, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import { SESSION_HEADER, SESSION_QUERY } from '@shared/bridge/web-session'

interface Session {
  /** The port of the host that issued it: a cookie named for this port but issued elsewhere is refused. */
  port: number
  bridgeKey: Buffer
}

export type Exchange = { ok: true; cookie: string; bridgeKey: string } | { ok: false; reason: 'wrong' | 'used' }

const sameSecret = (a: Buffer, b: Buffer): boolean => a.length === b.length && timingSafeEqual(a, b)

/**
 * The web host's sessions. The launch token (printed at start, or handed to the browser in a
 * file only the user can read: scripts/launch-page.mjs) is exchanged once for a session and is
 * worthless after: a copy seen later (a terminal's scrollback, a browser history) opens nothing.
 *
 * A session is a random id in an HttpOnly, SameSite=Strict cookie named for this host's port
 * (two hosts on one machine keep theirs apart) plus a random bridge key the page keeps in its
 * origin's storage (src/shared/bridge/web-session.ts). Neither is the launch token. A request
 * with the cookie alone gets the static renderer (public code, no data); the bridge needs both.
 */
export class WebSessions {
  readonly #port: number
  #launch: Buffer | null
  readonly #sessions = new Map<string, Session>()

  constructor(launchToken: string, port: number) {
    this.#launch = Buffer.from(launchToken)
    this.#port = port
  }

  get cookieName(): string {
    return `chainscope_${this.#port}`
  }

  /** Trades the launch token for a new session, once; any later offer is `used`. */
  exchange(offered: string): Exchange {
    const given = Buffer.from(offered)
    if (this.#launch === null) return { ok: false, reason: 'used' }
    if (!sameSecret(given, this.#launch)) return { ok: false, reason: 'wrong' }
    this.#launch = null
    const id = randomBytes(32).toString('base64url')
    const bridgeKey = randomBytes(32).toString('base64url')
    this.#sessions.set(id, { port: this.#port, bridgeKey: Buffer.from(bridgeKey) })
    return {
      ok: true,
      cookie: `${this.cookieName}=${id}; HttpOnly; SameSite=Strict; Path=/`,
      bridgeKey,
    }
  }

  /** The session the request's cookie names, if this host issued it for this port. */
  #session(req: IncomingMessage): Session | null {
    for (const part of (req.headers.cookie ?? '').split(';')) {
      const [name, ...value] = part.trim().split('=')
      if (name !== this.cookieName) continue
      const session = this.#sessions.get(value.join('='))
      if (session && session.port === this.#port) return session
    }
    return null
  }

  /** May the request have the static renderer: it carries a session cookie of this host. */
  page(req: IncomingMessage): boolean {
    return this.#session(req) !== null
  }

  /** May the request use the bridge: a session cookie of this host and that session's bridge key. */
  bridge(req: IncomingMessage, url: URL): boolean {
    const session = this.#session(req)
    if (!session) return false
    const header = req.headers[SESSION_HEADER]
    const given = typeof header === 'string' ? header : (url.searchParams.get(SESSION_QUERY) ?? '')
    return sameSecret(Buffer.from(given), session.bridgeKey)
  }
}
