/**
 * Token icons served by the sandbox itself (GET /static/icons/<symbol>.svg, no key needed,
 * like a public CDN): the sandbox runs without internet, so icon_url points here.
 */
const COLOURS: Record<string, string> = { sdl: '#2775ca', sgov: '#7b3fe4', sbtc: '#f7931a', spunk: '#e84142' }

export function iconSvg(symbol: string): string | null {
  const colour = COLOURS[symbol]
  if (!colour) return null
  const letters = symbol.slice(0, 2).toUpperCase()
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64">` +
    `<circle cx="32" cy="32" r="32" fill="${colour}"/>` +
    `<text x="32" y="41" font-family="sans-serif" font-size="24" font-weight="bold" fill="#fff" text-anchor="middle">${letters}</text></svg>`
  )
}

export const ICON_SYMBOLS = Object.keys(COLOURS)
