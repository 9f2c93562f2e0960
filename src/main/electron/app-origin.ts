/**
 * The app's own origin. The renderer is served from `app://chainscope/` (a privileged,
 * standard, secure custom scheme) instead of `file://`, so it has a real origin of its own and
 * none of the extra powers `file://` pages get.
 */
export const APP_SCHEME = 'app'
export const APP_HOST = 'chainscope'
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`

/**
 * Whether `url` is a page of the app itself. WHATWG `URL` gives custom schemes an opaque
 * origin ("null"), so scheme, host, credentials and port are compared one by one.
 */
export function isAppUrl(url: string): boolean {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return false
  }
  return (
    parsed.protocol === `${APP_SCHEME}:` &&
    parsed.host === APP_HOST &&
    parsed.username === '' &&
    parsed.password === '' &&
    parsed.port === ''
  )
}

/**
 * The app's entry page at one of its own hash routes (`app://chainscope/index.html#/tx/…`), as
 * a pivot link opened in a new window asks for; null for anything else (another path, a query,
 * no route). What a new app window may load (web-contents-guard.ts).
 */
export function appRouteUrl(url: string): string | null {
  if (!isAppUrl(url)) return null
  const parsed = new URL(url)
  if (parsed.pathname !== '/index.html' || parsed.search !== '' || !parsed.hash.startsWith('#/')) return null
  return `${APP_ENTRY_URL}${parsed.hash}`
}
