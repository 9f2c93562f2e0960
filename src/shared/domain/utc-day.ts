/** A day in ms: UTC days have no daylight-saving change. */
export const DAY_MS = 86_400_000

const DAY = /^\d{4}-\d{2}-\d{2}$/

/**
 * The one reading of a UTC calendar day written `YYYY-MM-DD` (a date field, a URL filter): its
 * first moment in ms, or null for anything else, a day that does not exist included
 * ("2026-02-30" is refused, where `Date.parse` would roll it over to March).
 */
export function utcDayStartMs(text: string): number | null {
  if (!DAY.test(text)) return null
  const ms = Date.parse(`${text}T00:00:00Z`)
  return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === text ? ms : null
}
