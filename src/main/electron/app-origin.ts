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
