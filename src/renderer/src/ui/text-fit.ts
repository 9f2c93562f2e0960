/**
 * Whether a line of text may be wider than its box, judged from its characters alone, never
 * from layout. A virtual list clips a cell (overflow hidden, for the ellipsis) only when its
 * text may not fit: every clipping box costs the browser a clip node and a scroll container
 * on each new row, about a third of a scrolled frame's work on a busy machine (bench:ui).
 *
 * The widths are upper bounds, in em, for the app's fonts on every platform (system-ui: Segoe
 * UI, San Francisco, DejaVu Sans (the widest), Cantarell, Noto Sans; monospace: at most 0.6 em
 * per ASCII character), with a margin. Any character outside printable ASCII counts as wide
 * (CJK and emoji take up to about 1.3 em): a text that might not fit is always clipped.
 */

const NARROW = new Set([...` .,:;'!|iljI()[]{}/\\-`])

/** Upper bound of one character's advance in a proportional sans-serif font, in em. */
function sansWidth(ch: string): number {
  if (NARROW.has(ch)) return 0.45
  if (ch === 'm' || ch === 'W' || ch === '@' || ch === '%' || ch === '…') return 1.05
  if (ch === 'w' || ch === 'M') return 0.95
  if (ch >= 'A' && ch <= 'Z') return 0.85
  if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9')) return 0.7
  if (ch >= ' ' && ch <= '~') return 0.9
  return 1.5
}

/** Upper bound of one character's advance in a monospace font, in em. */
function monoWidth(ch: string): number {
  if (ch >= ' ' && ch <= '~') return 0.65
  return ch === '…' ? 1.05 : 1.5
}

/** An upper bound of `text`'s width in em of its font. */
export function textWidthEm(text: string, mono = false): number {
  let w = 0
  for (const ch of text) w += mono ? monoWidth(ch) : sansWidth(ch)
  return w
}

/** True when `text` might be wider than `boxEm` (the box's width in em of the text's font). */
export function mayOverflow(text: string, boxEm: number, mono = false): boolean {
  return textWidthEm(text, mono) > boxEm
}
