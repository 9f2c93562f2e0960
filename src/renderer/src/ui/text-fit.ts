/**
 * Whether a line of text may be wider than its box, never from layout. A virtual list clips a
 * cell (overflow hidden, for the ellipsis) only when its text may not fit: every clipping box
 * costs the browser a clip node and a scroll container on each new row, and clipped badges
 * (rounded) cost raster too; together most of a scrolled frame's work (bench:ui).
 *
 * First from its characters alone: the widths are upper bounds, in em, for the app's fonts on
 * every platform (system-ui: Segoe UI, San Francisco, DejaVu Sans (the widest), Cantarell, Noto
 * Sans; monospace: at most 0.6 em per ASCII character), with a margin. Any character outside
 * printable ASCII counts as wide (CJK and emoji take up to about 1.3 em). Text the bound cannot
 * settle is measured with a canvas in the font it is set in (`textWidthPx`).
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

/** A font text is set in: its CSS shorthand (for the canvas), its size in px and whether it is monospace. */
export interface TextFont {
  css: string
  px: number
  mono: boolean
}

/** Sub-pixel rounding between the canvas's measure and layout, with room to spare. */
const MEASURE_MARGIN_PX = 2

let context: CanvasRenderingContext2D | null | undefined
let contextFont = ''
/** Per font, per text: no key is built per lookup (a list scrolling measures on every frame). */
const measured = new Map<string, Map<string, number>>()
let measuredCount = 0

function canvasContext(): CanvasRenderingContext2D | null {
  if (context === undefined) {
    try {
      context = typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d')
    } catch {
      context = null
    }
  }
  return context
}

/**
 * The width (px) of `text` in `font`, measured by a canvas: the page's own font shaping, without
 * laying anything out; once per text and font. Where there is no canvas (unit tests), the upper
 * bound above.
 */
export function textWidthPx(text: string, font: TextFont): number {
  const ctx = canvasContext()
  if (!ctx) return textWidthEm(text, font.mono) * font.px
  let widths = measured.get(font.css)
  if (!widths) measured.set(font.css, (widths = new Map()))
  let width = widths.get(text)
  if (width === undefined) {
    if (++measuredCount > 20_000) {
      measured.clear()
      measuredCount = 0
    }
    if (contextFont !== font.css) {
      ctx.font = font.css
      contextFont = font.css
    }
    width = ctx.measureText(text).width + MEASURE_MARGIN_PX
    widths.set(text, width)
  }
  return width
}

/**
 * True when `text` might be wider than `boxPx`: the upper bound first (no measuring for text
 * that surely fits), then the measured width for text the bound cannot settle.
 */
export function mayOverflowPx(text: string, font: TextFont, boxPx: number): boolean {
  return mayOverflow(text, boxPx / font.px, font.mono) && textWidthPx(text, font) > boxPx
}
