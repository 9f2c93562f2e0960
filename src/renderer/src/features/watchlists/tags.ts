/** Tags as typed in a watchlist form: comma-separated, trimmed, blanks and repeats dropped. */
export function parseTags(text: string): string[] {
  return [...new Set(text.split(',').map((t) => t.trim()).filter(Boolean))]
}
