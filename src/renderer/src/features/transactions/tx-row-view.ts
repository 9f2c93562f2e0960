import type { Transaction } from '@shared/domain/service-schemas'
import { formatTokenAmount } from '@shared/domain/amount'
import { movedOf, UNNAMED_COIN, type CoinInfo } from '@shared/domain/money'
import { isPending } from '@shared/domain/tx-state'
import { formatDateTime, parseTime } from '../../ui/time'
import { mayOverflowPx, textWidthPx, type TextFont } from '../../ui/text-fit'
import { COLUMN_REM, SPACING_REM } from './tx-list-geometry'
import { DIRECTION_LABEL, directionOf, methodLabel, partyView, shortHash, statusLabel, txState } from './tx-view'

/**
 * What a row of the transaction list shows, worked out once per transaction, with whether each
 * cell may be too narrow for its text. A cell clips (for the ellipsis) only then: a clipping box
 * costs the browser a clip on every new row while the list scrolls (bench:ui), so a row whose
 * text fits has none, and the text's width is measured (ui/text-fit.ts), never laid out.
 */

/** The list's fonts: text, badges (0.75 rem) and monospace cells; `rem` is the root font size in px. */
export interface ListFonts {
  rem: number
  text: TextFont
  badge: TextFont
  mono: TextFont
}

/** The fonts as the page's root sets them (styles.css); the list uses no other sizes. */
export function listFonts(): ListFonts {
  const root = typeof getComputedStyle === 'function' ? getComputedStyle(document.documentElement) : null
  // The root font size in px ("14px"): a length, not an amount.
  const rem = Number(root?.fontSize.replace(/px$/, '')) || 14
  const family = root?.fontFamily || 'sans-serif'
  const monoFamily = root?.getPropertyValue('--mono').trim() || 'monospace'
  const font = (px: number, fam: string, mono: boolean): TextFont => ({ css: `${px}px ${fam}`, px, mono })
  return {
    rem,
    text: font(rem, family, false),
    badge: font(0.75 * rem, family, false),
    mono: font(rem, monoFamily, true),
  }
}

/** A badge's width (px): in the list a badge is a coloured word, its text alone (TxList.vue). */
function badgePx(text: string, f: ListFonts): number {
  return textWidthPx(text, f.badge)
}

export type RowView = ReturnType<typeof rowView>

/** What the amount column shows: the coin's value, or a token's amount moved (docs/decisions/coin-as-asset.md). */
export interface ShownAmount {
  /** A token contract (lowercase): its amount moved to or from the address. Null: the coin's value. */
  asset: string | null
  coin: CoinInfo
}

/** A transaction's row, with what may not fit judged against the columns' widths. */
export function rowView(
  tx: Transaction,
  address: string,
  f: ListFonts,
  shown: ShownAmount = { asset: null, coin: UNNAMED_COIN },
) {
  const coinDecimals = String(shown.coin.decimals)
  const moved = shown.asset === null ? null : movedOf(tx, { address, asset: shown.asset, coin: shown.coin })
  const value = moved
    ? formatTokenAmount(moved.value.toString(), moved.decimals === null ? null : String(moved.decimals), {
        maxFractionDigits: 6,
      })
    : formatTokenAmount(tx.value, coinDecimals, { maxFractionDigits: 6 })
  const valueSymbol = moved ? moved.symbol : shown.coin.symbol
  const fee = formatTokenAmount(tx.fee.value, coinDecimals, { maxFractionDigits: 8 })
  const pending = isPending(tx)
  const at = pending ? null : parseTime(tx.timestamp)
  const hashShort = shortHash(tx.hash, 8, 6)
  const dir = directionOf(tx, address)
  const from = partyView(tx.from)
  const to = partyView(tx.to)
  const created = tx.created_contract ? partyView(tx.created_contract) : null
  const fromText = from.name ?? from.short
  const toText = to.address ? (to.name ?? to.short) : created ? `new contract ${created.short}` : 'contract creation'
  const method = methodLabel(tx)
  const status = statusLabel(tx)
  // The parties cell's content (px): direction badge, from, arrow, to and its badges, with the
  // flex gaps between the four parts and the same room before each of the badges after "to".
  const partiesPx =
    badgePx(DIRECTION_LABEL[dir], f) +
    textWidthPx(fromText, f.text) +
    textWidthPx('→', f.text) +
    textWidthPx(toText, f.text) +
    3 * SPACING_REM.partiesGap * f.rem +
    (to.address && to.isContract ? SPACING_REM.partiesGap * f.rem + badgePx('contract', f) : 0) +
    (to.address && to.isVerified ? SPACING_REM.partiesGap * f.rem + badgePx('verified', f) : 0)
  const statusPx = badgePx(status, f)
  const cutValue = mayOverflowPx(value.text, f.mono, COLUMN_REM.value * f.rem)
  const cutFee = mayOverflowPx(fee.text, f.mono, COLUMN_REM.fee * f.rem)
  const cutMethod = mayOverflowPx(method, f.badge, COLUMN_REM.method * f.rem)
  return {
    hashShort,
    hashLabel: `Transaction ${hashShort}, open details`,
    cutHash: mayOverflowPx(hashShort, f.mono, COLUMN_REM.hash * f.rem),
    cutValue,
    cutFee,
    /*
     * Tooltips only where a cell does not show its whole value (cut, or rounded): Chromium restyles
     * an element whose title changes (its own `abbr[title]` rule makes `title` a style
     * dependency), and a scrolled frame reuses 9 rows. The hash and the parties always have one.
     */
    valueTitle: cutValue || value.text !== value.exact ? value.exact : undefined,
    feeTitle: cutFee || fee.text !== fee.exact ? fee.exact : undefined,
    methodTitle: cutMethod ? method : undefined,
    /** The age cell's tooltip: when it was, or why it has no age. */
    ageTitle: pending ? 'Not in a block yet' : formatDateTime(at),
    dir,
    dirLabel: DIRECTION_LABEL[dir],
    from,
    fromText,
    to,
    toText,
    partiesPx,
    method,
    cutMethod,
    value,
    valueSymbol,
    fee,
    at,
    pending,
    stateClass: STATE_CLASS[txState(tx)],
    status,
    /** The status may not fit one line: it wraps to a second, and is cut only past that. */
    wrapStatus: statusPx > COLUMN_REM.status * f.rem,
    /** Status and a note badge may not fit side by side. */
    cutWithNote: statusPx + badgePx('note', f) > COLUMN_REM.status * f.rem,
  }
}

const STATE_CLASS = { pending: 'warn', ok: 'ok', failed: 'bad' } as const

/**
 * Measures a little text in each of the list's fonts, so the first rows do not pay for setting
 * up the canvas and its fonts (several ms). For idle time, e.g. while the first page is on its way.
 */
export function warmUpMeasuring(f: ListFonts): void {
  textWidthPx('0x0000…0000', f.text)
  textWidthPx('Out', f.badge)
  textWidthPx('0.000021', f.mono)
}
