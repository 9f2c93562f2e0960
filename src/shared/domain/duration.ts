/**
 * "42 s", "5 min", "1 h 5 min", "2 h": the one duration format of main's messages and the UI.
 * Rounded up, so a wait shown is never shorter than the real one.
 */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000))
  if (s < 60) return `${s} s`
  const m = Math.ceil(s / 60)
  if (m < 60) return `${m} min`
  const h = Math.floor(m / 60)
  return m % 60 ? `${h} h ${m % 60} min` : `${h} h`
}
