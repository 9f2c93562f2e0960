/**
 * Test and benchmark support: a fetch that meets the sandbox's own limits the way a polite
 * client does. An HTTP 429 is waited out for as long as its `Retry-After` asks (seconds or an
 * HTTP date; 1 s when it says nothing; longer than 60 s is given up at once), then the request goes again; after
 * `attempts` refusals it gives up with an error naming `what` (never the URL: it may hold the key).
 */
export interface PoliteOptions {
  /** What the request is, for the error ("eth_blockNumber on alpha"). */
  what: string
  /** Requests sent at most (default 20). */
  attempts?: number
  sleep?: (ms: number) => Promise<void>
  now?: () => number
}

const MAX_WAIT_MS = 60_000

/** How long a `Retry-After` value asks to wait, in ms (1 s when absent or unreadable). */
export function retryAfterMs(value: string | null, now: number): number {
  const text = value?.trim() ?? ''
  let ms = 1000
  if (/^\d+(\.\d+)?$/.test(text)) ms = Number(text) * 1000
  else if (text !== '' && Number.isFinite(Date.parse(text))) ms = Date.parse(text) - now
  return Math.max(0, ms)
}

export async function politeFetch(url: string, init: RequestInit, options: PoliteOptions): Promise<Response> {
  const attempts = options.attempts ?? 20
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)))
  const now = options.now ?? Date.now
  for (let i = 1; ; i++) {
    const response = await fetch(url, init)
    if (response.status !== 429) return response
    const wait = retryAfterMs(response.headers.get('retry-after'), now())
    await response.body?.cancel()
    if (i >= attempts) throw new Error(`${options.what}: refused for rate (HTTP 429) ${attempts} times in a row`)
    // Longer than a rate limit asks (the day's quota): waiting would only hang the run.
    if (wait > MAX_WAIT_MS)
      throw new Error(`${options.what}: HTTP 429 asking to wait ${Math.ceil(wait / 1000)} s; not waiting that long`)
    await sleep(wait)
  }
}
