import { request } from 'node:http'
import { SESSION_FRAGMENT, SESSION_HEADER } from '@shared/bridge/web-session'

/** What a logged-in page sends: its session cookie and bridge key, with this host's `Host`. */
export interface WebLogin {
  host: string
  cookie: string
  [SESSION_HEADER]: string
}

/** The bridge key in the page the exchange answers (its onward address's fragment). */
export function bridgeKeyIn(html: string): string {
  return new RegExp(`url=/#${SESSION_FRAGMENT}=([A-Za-z0-9_-]+)"`).exec(html)?.[1] ?? ''
}

/**
 * Exchanges the launch token of `url` (the address a web host prints) as a browser would:
 * the cookie from `Set-Cookie`, the bridge key from the onward address of the page it answers.
 */
export function webLogin(url: string): Promise<WebLogin> {
  const target = new URL(url)
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        headers: { host: target.host },
      },
      (res) => {
        let body = ''
        res.on('data', (chunk: Buffer) => (body += chunk.toString()))
        res.on('end', () => {
          const cookie = String(res.headers['set-cookie'] ?? '').split(';')[0] ?? ''
          const key = bridgeKeyIn(body)
          if (res.statusCode !== 200 || !cookie || !key)
            return reject(new Error(`the web host did not open a session (HTTP ${res.statusCode})`))
          resolve({ host: target.host, cookie, [SESSION_HEADER]: key })
        })
      },
    )
    req.on('error', reject)
    req.end()
  })
}
