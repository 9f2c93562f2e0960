/** Age and time formatting. Times on the wire are ISO 8601 strings; a bad one reads "unknown". */

export function parseTime(iso: unknown): number | null {
  if (typeof iso !== 'string') return null
  const ms = Date.parse(iso)
  return Number.isNaN(ms) ? null : ms
}

/** "just now", "42 s ago", "5 min ago", "3 h ago", "2 d ago"; "in 5 s" for the future. */
export function formatAge(thenMs: number | null, nowMs: number): string {
  if (thenMs === null) return 'unknown'
  const diff = nowMs - thenMs
  const future = diff < 0
  const s = Math.floor(Math.abs(diff) / 1000)
  let text: string
  if (s < 5) return 'just now'
  else if (s < 60) text = `${s} s`
  else if (s < 3600) text = `${Math.floor(s / 60)} min`
  else if (s < 86_400) text = `${Math.floor(s / 3600)} h`
  else if (s < 86_400 * 365) text = `${Math.floor(s / 86_400)} d`
  else text = `${Math.floor(s / (86_400 * 365))} y`
  return future ? `in ${text}` : `${text} ago`
}

const pad = (n: number): string => String(n).padStart(2, '0')

/** Local date and time, "2026-11-22 14:03:09": unambiguous in every locale. */
export function formatDateTime(ms: number | null): string {
  if (ms === null) return 'unknown'
  const d = new Date(ms)
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`
}

/** Local "14:03" for times within the day (reset times). */
export function formatClock(ms: number | null): string {
  if (ms === null) return 'unknown'
  const d = new Date(ms)
  return `${pad(d.getHours())}:${pad(d.getMinutes())}`
}
