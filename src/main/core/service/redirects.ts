import { keySafeUrl, originOf } from '@shared/domain/profile'
import { AppError } from '../util/app-error'
import type { HttpAnswer } from './http-attempt'
import { safeExcerpt } from './response-errors'
import type { Redact } from '../util/logger'

/**
 * At most this many redirects per request. A service that moved a path needs one (`/balance`
 * answered by a 301 to `/balances`), one more covers a second rewrite on the way (a trailing
 * slash); every hop is a request of the user's daily quota, and a longer chain is a loop or a
 * misconfiguration, told as such rather than paid for.
 */
export const MAX_REDIRECTS = 3

const REDIRECTS = new Set([301, 302, 303, 307, 308])

/** One request on the way: where, and how. */
export interface Hop {
  url: string
  init: RequestInit
}

/**
 * A later hop's permit was refused (the quota is used up, the wait was too long, the app is
 * closing). The caller passes `reason` on as is: it says nothing about the service.
 */
export class HopNotSent extends Error {
  override name = 'HopNotSent'
  constructor(readonly reason: unknown) {
    super('a redirect was not followed: its permit was refused')
  }
}

/**
 * Follows redirects one request at a time: `send` makes each hop a request of its own (the
 * caller gives it a permit of the limiter, so it is counted against the rate and the daily
 * quota), never fetch's own following (up to 20 hops inside one permit).
 *
 * Only a redirect to the origin the key was given for is followed (scheme, host and port of
 * the first request, which is the profile's address): the URL carries the key, in the data API's
 * `api_key` and as the RPC address's last segment, and a Location that echoed it would hand it
 * to another host. Stripping it and following was not chosen: the request would then fail
 * there without the key, or the key would have to be added back, which is the leak. So a
 * redirect to another origin is refused before anything is sent, with the new origin named, for
 * the user to point the profile there if they trust it (the profile's own rules then apply: a
 * key for plain http:// goes to this computer only, checked here on every hop as well).
 */
export async function followRedirects(
  first: Hop,
  send: (hop: Hop, index: number) => Promise<HttpAnswer>,
  about: { what: string; redact: Redact },
): Promise<HttpAnswer> {
  const { what } = about
  const origin = originOf(first.url)
  let hop = first
  for (let index = 0; ; index++) {
    const answer = await send(hop, index)
    const next = nextHop(hop, answer, { origin, ...about })
    if (next === null) return answer
    if (index >= MAX_REDIRECTS)
      throw new AppError(
        'protocol',
        `The service redirected ${what} more than ${MAX_REDIRECTS} times; Chainscope stops there (each hop is a request of the daily quota). Check the profile's addresses.`,
      )
    hop = next
  }
}

/**
 * The request a redirect answer asks for, or null when `answer` is not a redirect (a 3xx
 * without a Location is left to the caller as the status it is). Throws, before anything is
 * sent, when the hop leaves `origin` or would send the key in clear to another computer.
 */
export function nextHop(
  current: Hop,
  answer: Pick<HttpAnswer, 'status' | 'location'>,
  { origin, what, redact }: { origin: string; what: string; redact: Redact },
): Hop | null {
  if (!REDIRECTS.has(answer.status) || !answer.location) return null
  let target: URL
  try {
    target = new URL(answer.location, current.url)
  } catch {
    throw new AppError('protocol', `The service redirected ${what} to an address that is not one.`)
  }
  const where = safeExcerpt(target.origin, redact, 80)
  if (!keySafeUrl(target.href))
    throw new AppError(
      'protocol',
      `The service redirected ${what} to ${where}, plain http:// to another computer or not a web address; Chainscope does not send the API key that way, so it did not follow.`,
    )
  if (target.origin !== origin)
    throw new AppError(
      'protocol',
      `The service redirected ${what} to another address (${where}); Chainscope does not follow it, as the request carries the API key. If that address is the service's new home, change the profile to it in Settings → Profiles.`,
    )
  return { url: target.href, init: redirectedInit(current.init, answer.status) }
}

/**
 * What fetch would send next (Fetch standard, "HTTP-redirect fetch"): a 303, or a 301/302 of a
 * POST, becomes a GET without a body; 307 and 308 repeat the request as it was.
 */
function redirectedInit(init: RequestInit, status: number): RequestInit {
  const method = (init.method ?? 'GET').toUpperCase()
  const toGet =
    (status === 303 && method !== 'GET' && method !== 'HEAD') ||
    ((status === 301 || status === 302) && method === 'POST')
  if (!toGet) return init
  const headers = new Headers(init.headers)
  for (const name of ['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location'])
    headers.delete(name)
  const { body: _body, ...rest } = init
  return { ...rest, method: 'GET', headers }
}
