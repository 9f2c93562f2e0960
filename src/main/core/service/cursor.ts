import { AppError } from '../util/app-error'

/**
 * The opaque transactions cursor handed to the renderer: base64url of the JSON of the
 * service's `next_page_params` without its `api_key`/`apikey` slots. Those slots come back
 * empty (spec 2.5); passing them back could blank out the real key, so they never enter a
 * cursor, and a cursor that carries them (or `address`) is refused.
 *
 * The decoder accepts everything the encoder makes: any field names, any
 * number of fields, strings of any length, within one size cap on the whole cursor. A service's
 * `next_page_params` beyond the cap is refused when encoding, as a protocol error.
 */
export type CursorParams = Record<string, string | number | boolean>

/** Compared case-blind: `API_KEY` must not ride into a query either. */
const RESERVED = new Set(['api_key', 'apikey', 'address'])
const isReserved = (name: string): boolean => RESERVED.has(name.toLowerCase())
/** Characters of a cursor (base64url): 4 KiB, far above any real `next_page_params`; the bridge takes no longer one. */
const MAX_CURSOR_CHARS = 4096

export interface CursorSecrets {
  contains(text: string): boolean
}

/**
 * `secrets`: a field whose name or value holds a registered key is dropped, so a key the service
 * echoes in `next_page_params` never rides in a cursor to the renderer or to disk.
 */
export function encodeCursor(nextPageParams: Record<string, unknown>, secrets?: CursorSecrets): string {
  const params: CursorParams = {}
  for (const [key, value] of Object.entries(nextPageParams)) {
    if (isReserved(key)) continue
    if (value === null || value === undefined) continue
    if (typeof value === 'number' && !Number.isFinite(value)) continue
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') continue
    if (secrets && (secrets.contains(key) || (typeof value === 'string' && secrets.contains(value)))) continue
    Object.defineProperty(params, key, { value, enumerable: true, writable: true, configurable: true })
  }
  const cursor = Buffer.from(JSON.stringify(params), 'utf8').toString('base64url')
  if (cursor.length > MAX_CURSOR_CHARS) {
    throw new AppError(
      'protocol',
      `The service's next-page parameters are larger than ${MAX_CURSOR_CHARS} characters; Chainscope does not follow them.`,
    )
  }
  return cursor
}

export function decodeCursor(cursor: string): CursorParams {
  const bad = (why: string): AppError =>
    new AppError('invalid-input', `The page cursor is not one Chainscope made (${why}); load the first page again.`, {
      field: 'cursor',
    })
  if (cursor.length > MAX_CURSOR_CHARS) throw bad('too long')
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw bad('not base64url')
  let value: unknown
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
  } catch {
    throw bad('not JSON')
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw bad('not an object')
  const params: CursorParams = {}
  for (const [key, v] of Object.entries(value)) {
    if (isReserved(key)) throw bad(`it carries ${key}`)
    if (typeof v !== 'string' && typeof v !== 'boolean' && !(typeof v === 'number' && Number.isFinite(v)))
      throw bad(`field ${JSON.stringify(key.slice(0, 40))}`)
    // defineProperty: a field named "__proto__" stays a plain own property.
    Object.defineProperty(params, key, { value: v, enumerable: true, writable: true, configurable: true })
  }
  return params
}

/**
 * The query of a transactions request: the page params first, then `address` and `api_key`
 * set last with `set`, so nothing in the params can add a second or an empty key.
 */
export function transactionsQuery(address: string, key: string, params: CursorParams | null): URLSearchParams {
  const query = new URLSearchParams()
  for (const [k, v] of Object.entries(params ?? {})) if (!isReserved(k)) query.set(k, String(v))
  query.set('address', address)
  query.set('api_key', key)
  return query
}
