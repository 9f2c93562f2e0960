import { isAddressText } from '@shared/domain/address'
import { CP_TEXT_MAX } from '../analysis'
import { COIN, NO_FILTERS, type AddressFilters } from './address-filters'
import { utcDayStartMs } from '@shared/domain/utc-day'

/**
 * Every filter of the address page as it sits in the page's URL (`?token=…&party=…&from=…&at=…`),
 * so a view can be reopened: back, forward and reload give the same rows. Read at the edge:
 * each value is checked on its own, and one that is not understood is left out with a note
 * naming it, never thrown.
 */
export type DirectionValue = 'all' | 'in' | 'out' | 'self' | 'other'
export type StatusValue = 'all' | 'ok' | 'failed'

export interface PageFilters extends AddressFilters {
  direction: DirectionValue
  /** A transaction kind (`tx_types`), or 'all'. */
  kind: string
  status: StatusValue
  /** The day of "Balance at a date", "YYYY-MM-DD" (UTC). */
  at: string | null
  /** The Counterparties table's own search text (address, label or token symbol), as typed. */
  cpText: string | null
}

export const NO_PAGE_FILTERS: PageFilters = {
  ...NO_FILTERS,
  direction: 'all',
  kind: 'all',
  status: 'all',
  at: null,
  cpText: null,
}

export type RouteQuery = Record<string, string | null | (string | null)[] | undefined>

const DIRECTIONS: readonly DirectionValue[] = ['all', 'in', 'out', 'self', 'other']
const STATUSES: readonly StatusValue[] = ['all', 'ok', 'failed']
const KIND = /^[a-z0-9_]{1,64}$/
const CONTROL = /[\u0000-\u001f\u007f]/

/** A real calendar day: "2026-02-30" is refused, not rolled over to March. */
export function isDay(text: string): boolean {
  return utcDayStartMs(text) !== null
}

export interface ParsedQuery {
  filters: PageFilters
  /** One sentence per value left out. */
  problems: string[]
}

const quoted = (v: string): string => `“${v.length > 40 ? `${v.slice(0, 40)}…` : v}”`

export function parseFilterQuery(query: RouteQuery): ParsedQuery {
  const filters: PageFilters = { ...NO_PAGE_FILTERS }
  const problems: string[] = []
  const one = (name: string): string | null => {
    const v = query[name]
    if (v === undefined || v === null) return null
    if (Array.isArray(v)) {
      problems.push(`“${name}” was given ${v.length} times; it takes one value, so it is left out.`)
      return null
    }
    return v
  }
  const token = one('token')
  if (token !== null) {
    const t = token.toLowerCase()
    if (t === COIN || isAddressText(t)) filters.token = t
    else problems.push(`Token ${quoted(token)} is not a token address (0x and 40 hex digits) nor “coin”.`)
  }
  const party = one('party')
  if (party !== null) {
    if (isAddressText(party)) filters.party = party.toLowerCase()
    else problems.push(`Counterparty ${quoted(party)} is not an address (0x and 40 hex digits).`)
  }
  for (const [name, key, label] of [
    ['from', 'fromDay', 'From'],
    ['to', 'toDay', 'To'],
  ] as const) {
    const day = one(name)
    if (day === null) continue
    if (isDay(day)) filters[key] = day
    else problems.push(`${label} date ${quoted(day)} is not a day written YYYY-MM-DD.`)
  }
  if (filters.fromDay && filters.toDay && filters.fromDay > filters.toDay) {
    problems.push(`The dates are the wrong way round (from ${filters.fromDay} to ${filters.toDay}); both are left out.`)
    filters.fromDay = null
    filters.toDay = null
  }
  const at = one('at')
  if (at !== null) {
    if (isDay(at)) filters.at = at
    else problems.push(`Balance date ${quoted(at)} is not a day written YYYY-MM-DD.`)
  }
  const dir = one('dir')
  if (dir !== null) {
    if ((DIRECTIONS as readonly string[]).includes(dir)) filters.direction = dir as DirectionValue
    else problems.push(`Direction ${quoted(dir)} is not one of ${DIRECTIONS.join(', ')}.`)
  }
  const kind = one('kind')
  if (kind !== null) {
    if (KIND.test(kind)) filters.kind = kind
    else problems.push(`Kind ${quoted(kind)} is not a transaction kind.`)
  }
  const status = one('status')
  if (status !== null) {
    if ((STATUSES as readonly string[]).includes(status)) filters.status = status as StatusValue
    else problems.push(`Status ${quoted(status)} is not one of ${STATUSES.join(', ')}.`)
  }
  const cp = one('cp')
  if (cp !== null && cp !== '') {
    if (cp.length <= CP_TEXT_MAX && !CONTROL.test(cp)) filters.cpText = cp
    else
      problems.push(
        `Counterparties search ${quoted(cp)} is longer than ${CP_TEXT_MAX} characters or holds control characters.`,
      )
  }
  return { filters, problems }
}

/** True when the two queries differ in the Counterparties search text alone (typing it is no new view to go back to). */
export function onlyTextDiffers(a: Record<string, string>, b: Record<string, string>): boolean {
  const { cp: _a, ...restA } = a
  const { cp: _b, ...restB } = b
  return sameQuery(restA, restB)
}

/** The query for the filters: only what is set, in a fixed order, so equal filters give equal URLs. */
export function filterQuery(f: PageFilters): Record<string, string> {
  const q: Record<string, string> = {}
  if (f.token !== null) q.token = f.token
  if (f.party !== null) q.party = f.party
  if (f.fromDay !== null) q.from = f.fromDay
  if (f.toDay !== null) q.to = f.toDay
  if (f.direction !== 'all') q.dir = f.direction
  if (f.kind !== 'all') q.kind = f.kind
  if (f.status !== 'all') q.status = f.status
  if (f.at !== null) q.at = f.at
  if (f.cpText) q.cp = f.cpText
  return q
}

export function sameQuery(a: Record<string, string>, b: Record<string, string>): boolean {
  const ka = Object.keys(a)
  return ka.length === Object.keys(b).length && ka.every((k) => a[k] === b[k])
}
