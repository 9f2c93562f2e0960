/**
 * Exact unit formatting. Amounts arrive as decimal strings and are computed as `bigint`; a
 * JavaScript number never holds an amount (it silently rounds above 2^53). Everything here is
 * total: malformed input gives `null` or an "unknown" result, never an exception.
 */

const DIGITS = /^\d+$/
const DECIMAL_NUMBER = /^(\d+)(?:\.(\d+))?$/
/** ERC-20 `decimals` is a uint8; anything larger is treated as unknown. */
const MAX_DECIMALS = 255

/** A non-negative decimal integer string as bigint, or null when it is not one. */
export function parseAmount(text: unknown): bigint | null {
  if (typeof text === 'bigint') return text >= 0n ? text : null
  if (typeof text !== 'string' || !DIGITS.test(text)) return null
  return BigInt(text)
}

/** A token's `decimals` (decimal string, 0-255) as a number, or null when unknown/malformed. */
export function parseDecimals(text: unknown): number | null {
  if (typeof text === 'number') return Number.isInteger(text) && text >= 0 && text <= MAX_DECIMALS ? text : null
  if (typeof text !== 'string' || !/^\d{1,3}$/.test(text)) return null
  const n = Number(text)
  return n <= MAX_DECIMALS ? n : null
}

export interface FormatOptions {
  /** Thousands separators in the integer part. Default true. */
  group?: boolean
  /**
   * Largest number of fraction digits shown; more are cut (not rounded) and the result is
   * marked inexact. Default: all of them (exact).
   */
  maxFractionDigits?: number
}

/**
 * "1234567" → "1,234,567", in one pass: a lookahead regex (`\B(?=(\d{3})+(?!\d))`) rescans
 * the rest of the number at every digit, seconds for a number of 100,000 digits.
 */
function groupDigits(int: string): string {
  const sign = int.startsWith('-') ? '-' : ''
  const digits = sign ? int.slice(1) : int
  const head = digits.length % 3 || 3
  const parts = [digits.slice(0, head)]
  for (let i = head; i < digits.length; i += 3) parts.push(digits.slice(i, i + 3))
  return sign + parts.join(',')
}

/** Without its trailing zeros, in one pass (`/0+$/` retries from every zero of a long run). */
function trimTrailingZeros(text: string): string {
  let end = text.length
  while (end > 0 && text.charCodeAt(end - 1) === 48) end--
  return text.slice(0, end)
}

/**
 * A count grouped as amounts are ("10,002"). Not `toLocaleString('en-US')`: its first call in
 * a page sets up ICU number formatting, 8-20 ms on the way to the first rows of a list.
 */
export function formatCount(n: number): string {
  return Number.isSafeInteger(n) ? groupDigits(String(n)) : String(n)
}

/**
 * `value` smallest units with `decimals` places, exactly: trailing fraction zeros trimmed,
 * nothing rounded. `formatUnits(1500000n, 6)` is "1.5".
 */
export function formatUnits(value: bigint, decimals: number, options: FormatOptions = {}): string {
  return formatUnitsDetailed(value, decimals, options).text
}

export function formatUnitsDetailed(
  value: bigint,
  decimals: number,
  options: FormatOptions = {},
): { text: string; exact: boolean } {
  const negative = value < 0n
  const digits = (negative ? -value : value).toString()
  const padded = digits.padStart(decimals + 1, '0')
  const intPart = decimals === 0 ? padded : padded.slice(0, padded.length - decimals)
  let frac = decimals === 0 ? '' : trimTrailingZeros(padded.slice(padded.length - decimals))
  let exact = true
  const max = options.maxFractionDigits
  if (max !== undefined && frac.length > max) {
    frac = trimTrailingZeros(frac.slice(0, max))
    exact = false
  }
  const int = options.group === false ? intPart : groupDigits(intPart)
  const text = `${negative ? '-' : ''}${int}${frac ? `.${frac}` : ''}`
  // A non-zero amount cut to nothing would read "0"; say it is small instead.
  if (!exact && value !== 0n && /^-?[0,]*$/.test(text.replace('.', ''))) {
    return { text: `<${max === 0 ? '1' : `0.${'0'.repeat(Math.max(0, (max ?? 1) - 1))}1`}`, exact: false }
  }
  return { text, exact }
}

export interface TokenAmount {
  /** False when the value or decimals are missing or malformed. */
  known: boolean
  /** What to show; "unknown" (or the raw units) when not known. */
  text: string
  /** The full exact amount for a tooltip or a copy; equals `text` when nothing was cut. */
  exact: string
  value: bigint | null
  decimals: number | null
}

/**
 * Formats a balance from the wire: `value` (decimal string, smallest units) and `decimals`
 * (decimal string or null). With unknown decimals (NFTs often have none) the raw integer is
 * shown, which is correct for counts of NFTs.
 */
export function formatTokenAmount(value: unknown, decimals: unknown, options: FormatOptions = {}): TokenAmount {
  const v = parseAmount(value)
  if (v === null) return { known: false, text: 'unknown', exact: 'unknown', value: null, decimals: null }
  const d = decimals === null || decimals === undefined ? 0 : parseDecimals(decimals)
  if (d === null) {
    return { known: false, text: `${groupDigits(v.toString())} units`, exact: v.toString(), value: v, decimals: null }
  }
  const shown = formatUnitsDetailed(v, d, options)
  return { known: true, text: shown.text, exact: formatUnits(v, d), value: v, decimals: d }
}

/** A decimal number string such as an exchange rate ("1843.21") as a scaled bigint. */
export interface ScaledDecimal {
  units: bigint
  scale: number
}

export function parseDecimalNumber(text: unknown): ScaledDecimal | null {
  if (typeof text !== 'string') return null
  const m = DECIMAL_NUMBER.exec(text)
  if (!m) return null
  const frac = m[2] ?? ''
  if (frac.length > 60) return null
  return { units: BigInt(`${m[1]}${frac}`), scale: frac.length }
}

/** Rounds `units / 10^scale` half up to `places` fraction digits, as a bigint of 10^-places. */
function roundTo(units: bigint, scale: number, places: number): bigint {
  if (scale <= places) return units * 10n ** BigInt(places - scale)
  const divisor = 10n ** BigInt(scale - places)
  const q = units / divisor
  return units % divisor >= (divisor + 1n) / 2n ? q + 1n : q
}

/**
 * Fiat value of `value` smallest units at `rate` per whole token, exactly (nothing rounded).
 * Null when any input is unknown or malformed. Sum these with `sumScaled` and round the sum once
 * with `roundScaled`: adding rounded values drifts by up to half a cent per row.
 */
export function exactFiatValue(value: unknown, decimals: unknown, rate: unknown): ScaledDecimal | null {
  const v = parseAmount(value)
  const d = decimals === null || decimals === undefined ? null : parseDecimals(decimals)
  const r = parseDecimalNumber(rate)
  if (v === null || d === null || r === null) return null
  return { units: v * r.units, scale: d + r.scale }
}

/** The exact sum of scaled decimals, at the largest scale among them; 0 for none. */
export function sumScaled(parts: readonly ScaledDecimal[]): ScaledDecimal {
  const scale = parts.reduce((m, p) => Math.max(m, p.scale), 0)
  const units = parts.reduce((s, p) => s + p.units * 10n ** BigInt(scale - p.scale), 0n)
  return { units, scale }
}

/** Rounds a scaled decimal half up to `places` digits, as a bigint of 10^-places (cents for 2). */
export function roundScaled(x: ScaledDecimal, places = 2): bigint {
  return roundTo(x.units, x.scale, places)
}

/**
 * Fiat value of `value` smallest units at `rate` per whole token, exactly, rounded half up to
 * `places` digits. Null when any input is unknown or malformed.
 */
export function fiatValue(value: unknown, decimals: unknown, rate: unknown, places = 2): bigint | null {
  const exact = exactFiatValue(value, decimals, rate)
  return exact === null ? null : roundScaled(exact, places)
}

/** Formats a fiat amount held in 10^-places units, e.g. 123456n → "1,234.56". */
export function formatFiat(cents: bigint, places = 2): string {
  return formatUnits(cents, places, {}).replace(/^(-?[\d,]+)(?:\.(\d+))?$/, (_all, int: string, frac?: string) =>
    places === 0 ? int : `${int}.${(frac ?? '').padEnd(places, '0')}`,
  )
}

/** Compares two token amounts with possibly different decimals, exactly. Unknowns sort last. */
export function compareAmounts(
  a: { value: bigint | null; decimals: number | null },
  b: { value: bigint | null; decimals: number | null },
): number {
  if (a.value === null || b.value === null) return a.value === null ? (b.value === null ? 0 : 1) : -1
  const da = a.decimals ?? 0
  const db = b.decimals ?? 0
  const left = a.value * 10n ** BigInt(Math.max(0, db - da))
  const right = b.value * 10n ** BigInt(Math.max(0, da - db))
  return left === right ? 0 : left < right ? -1 : 1
}

/** Wei as gwei, e.g. "1500000000" → "1.5"; null for malformed input. */
export function formatGwei(wei: unknown, maxFractionDigits = 3): string | null {
  const v = parseAmount(wei)
  return v === null ? null : formatUnitsDetailed(v, 9, { maxFractionDigits }).text
}

/**
 * A JSON-RPC hex quantity ("0x1a") as bigint, or null. Leading zeros ("0x01") are read,
 * though not canonical: providers differ, and the value is unambiguous. With `max`, a larger
 * value is null too (block numbers and timestamps must fit a JS number exactly).
 */
export function parseHexQuantity(text: unknown, max?: bigint): bigint | null {
  if (typeof text !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/.test(text)) return null
  const n = BigInt(text)
  return max !== undefined && n > max ? null : n
}

/** The largest integer a JS number holds exactly, for `parseHexQuantity`'s `max`. */
export const MAX_SAFE_BIGINT = BigInt(Number.MAX_SAFE_INTEGER)

/** Sums decimal strings exactly, skipping malformed ones. */
export function sumAmounts(values: readonly unknown[]): bigint {
  let total = 0n
  for (const v of values) total += parseAmount(v) ?? 0n
  return total
}

/** Share of `part` in `total` in basis points (1/100 %), exact integer division. */
export function shareBasisPoints(part: bigint, total: bigint): number {
  if (total <= 0n) return 0
  return Number((part * 10_000n) / total)
}
