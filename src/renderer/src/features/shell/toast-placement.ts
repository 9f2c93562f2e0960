/**
 * Where the toast stack may sit: the first corner, in order of preference, where it covers no
 * primary action (a form's submit button, a `.primary` button, anything marked
 * `data-primary-action`). A toast is a passing message; the action it reports on, or the next
 * one, must stay clickable ("Limits saved" sat on "Save limits").
 */

export type ToastCorner = 'bottom-right' | 'top-right' | 'bottom-left' | 'top-left'

export interface Box {
  left: number
  top: number
  right: number
  bottom: number
}

export interface PlacementInput {
  /** Size of the toast stack as it is shown now. */
  stack: { width: number; height: number }
  viewport: { width: number; height: number }
  /** Distance from the edges: `top` is below the sticky header. */
  inset: { top: number; side: number; bottom: number }
  /** Boxes of the primary actions in view. */
  avoid: readonly Box[]
  /** Corners to try, best first. Default: bottom-right, top-right, bottom-left, top-left. */
  order?: readonly ToastCorner[]
}

const TOAST_CORNERS: readonly ToastCorner[] = ['bottom-right', 'top-right', 'bottom-left', 'top-left']

/** The box the stack would take in `corner`. */
export function stackBox(corner: ToastCorner, input: Pick<PlacementInput, 'stack' | 'viewport' | 'inset'>): Box {
  const { stack, viewport, inset } = input
  const left = corner.endsWith('right') ? viewport.width - inset.side - stack.width : inset.side
  const top = corner.startsWith('bottom') ? viewport.height - inset.bottom - stack.height : inset.top
  return { left, top, right: left + stack.width, bottom: top + stack.height }
}

function overlapArea(a: Box, others: readonly Box[]): number {
  return others.reduce(
    (sum, b) =>
      sum +
      Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left)) *
        Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top)),
    0,
  )
}

/** The first corner that covers nothing in `avoid`; if every one does, the one that covers least. */
export function chooseToastCorner(input: PlacementInput): ToastCorner {
  const order = input.order ?? TOAST_CORNERS
  let best = order[0] ?? 'bottom-right'
  let bestArea = Number.POSITIVE_INFINITY
  for (const corner of order) {
    const area = overlapArea(stackBox(corner, input), input.avoid)
    if (area === 0) return corner
    if (area < bestArea) {
      best = corner
      bestArea = area
    }
  }
  return best
}
