/** Every string and object key in `value`, however deep: what a test checks for a leaked key. */
export function stringsAndKeys(value: unknown): string[] {
  if (typeof value === 'string') return [value]
  if (typeof value !== 'object' || value === null) return []
  return Object.entries(value).flatMap(([k, v]) => [k, ...stringsAndKeys(v)])
}
