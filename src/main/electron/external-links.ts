import type { InputEvent } from 'electron'

export type ExternalUrlCheck = { ok: true; url: string } | { ok: false; reason: string }

/** Longest link handed to the OS browser; explorer links are far shorter. */
const MAX_URL_LENGTH = 2048

/**
 * Only plain `https` links with a host and no credentials go to the OS browser: `http` could
 * be read or changed on the way, and other schemes (`file:`, `smb:`, custom handlers) can start
 * programs on the user's machine.
 */
export function checkExternalUrl(url: string): ExternalUrlCheck {
  if (typeof url !== 'string' || url.length === 0) return { ok: false, reason: 'empty link' }
  if (url.length > MAX_URL_LENGTH) return { ok: false, reason: `link longer than ${MAX_URL_LENGTH} characters` }
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return { ok: false, reason: 'not a valid URL' }
  }
  if (parsed.protocol !== 'https:')
    return { ok: false, reason: `only https links open in the browser, not ${parsed.protocol}` }
  if (parsed.hostname === '') return { ok: false, reason: 'link without a host' }
  if (parsed.username !== '' || parsed.password !== '') return { ok: false, reason: 'link carries credentials' }
  return { ok: true, url: parsed.href }
}

/** Input that counts as the user's own action, after Chromium's "activation-triggering" events. */
const ACTIVATING: ReadonlySet<InputEvent['type']> = new Set([
  'mouseDown',
  'mouseUp',
  'rawKeyDown',
  'keyDown',
  'gestureTap',
  'touchEnd',
])

export interface UserGestureOptions {
  /** How long after a click or key press a new-window request still counts as its result. Default 2000 ms. */
  windowMs?: number
  /** Clock, for tests. Default `Date.now`. */
  now?: () => number
}

/**
 * Remembers, per web contents, when the user last clicked or pressed a key, so that a page
 * cannot open links in the OS browser on its own (a timer, a script after load). One gesture
 * opens at most one link, as Chromium's popup blocker consumes user activation.
 */
export class UserGestureTracker {
  readonly #last = new Map<number, number>()
  readonly #windowMs: number
  readonly #now: () => number

  constructor(options: UserGestureOptions = {}) {
    this.#windowMs = options.windowMs ?? 2000
    this.#now = options.now ?? Date.now
  }

  note(contentsId: number, type: InputEvent['type']): void {
    if (ACTIVATING.has(type)) this.#last.set(contentsId, this.#now())
  }

  /** True (once) when the user acted in this web contents within the window. */
  consume(contentsId: number): boolean {
    const at = this.#last.get(contentsId)
    this.#last.delete(contentsId)
    return at !== undefined && this.#now() - at <= this.#windowMs
  }

  forget(contentsId: number): void {
    this.#last.delete(contentsId)
  }
}
