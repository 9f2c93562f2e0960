import { AppError } from '../util/app-error'

/**
 * The opaque transactions cursor handed to the renderer: base64url of the JSON of the
 * service's `next_page_params` without its `api_key`/`apikey` slots. Those slots come back
 * empty (spec 2.5); passing them back could blank out the real key, so they never enter a
 * cursor, and a cursor that carries them (or `address`) is refused.
 */
export type CursorParams = Record<string, string | number | boolean>

const RESERVED = new Set(['api_key', 'apikey', 'address'])
const KEY = /^[A-Za-z0-9_]{1,40}$/
const MAX_KEYS = 24

export function encodeCursor(nextPageParams: Record<string, unknown>): string {
  const params: CursorParams = {}
  for (const [key, value] of Object.entries(nextPageParams)) {
    if (RESERVED.has(key)) continue
    if (value === null || value === undefined) continue
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') params[key] = value
  }
  return Buffer.from(JSON.stringify(params), 'utf8').toString('base64url')
}

export function decodeCursor(cursor: string): CursorParams {
  const bad = (why: string): AppError =>
    new AppError('invalid-input', `The page cursor is not one Chainscope made (${why}); load the first page again.`, { field: 'cursor' })
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw bad('not base64url')
  let value: unknown
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
  } catch {
    throw bad('not JSON')
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw bad('not an object')
  const entries = Object.entries(value)
  if (entries.length > MAX_KEYS) throw bad('too many fields')
  const params: CursorParams = {}
  for (const [key, v] of entries) {
    if (!KEY.test(key)) throw bad(`field name ${JSON.stringify(key.slice(0, 40))}`)
    if (RESERVED.has(key)) throw bad(`it carries ${key}`)
    if (typeof v === 'string' ? v.length > 200 : typeof v !== 'number' && typeof v !== 'boolean') throw bad(`field ${key}`)
    if (typeof v === 'number' && !Number.isFinite(v)) throw bad(`field ${key}`)
    params[key] = v
  }
  return params
}

/**
 * The query of a transactions request: the page params first, then `address` and `api_key`
 * set last with `set`, so nothing in the params can add a second or an empty key.
 */
export function transactionsQuery(address: string, key: string, params: CursorParams | null): URLSearchParams {
  const query = new URLSearchParams()
  for (const [k, v] of Object.entries(params ?? {})) if (!RESERVED.has(k)) query.set(k, String(v))
  query.set('address', address)
  query.set('api_key', key)
  return query
}
