import { SESSION_FRAGMENT } from '@shared/bridge/web-session'

/** Where the page keeps the web host's bridge key: this origin's storage, scoped by port. */
const STORAGE_KEY = 'chainscope.webSession'

/**
 * Takes the bridge key the web host handed over in the address's fragment after the launch
 * token was exchanged (`/#chainscope-session=<key>`), keeps it in this origin's storage, and
 * puts the app's own route in its place. Runs before the router reads the fragment. Storage
 * (not memory) so a reload or another tab of this origin keeps the session; it is worthless
 * once the host stops. Nothing happens without that fragment (Electron, a plain reload).
 */
export function adoptWebSession(): void {
  const { hash, pathname, search } = window.location
  const prefix = `#${SESSION_FRAGMENT}=`
  if (!hash.startsWith(prefix)) return
  const key = hash.slice(prefix.length)
  if (/^[A-Za-z0-9_-]{16,128}$/.test(key)) window.localStorage.setItem(STORAGE_KEY, key)
  window.history.replaceState(null, '', `${pathname}${search}#/`)
}

/** The bridge key for this origin's web host, '' when there is none. */
export function webSessionKey(): string {
  try {
    return window.localStorage.getItem(STORAGE_KEY) ?? ''
  } catch {
    return ''
  }
}
