/**
 * The one shortening of an address, a hash or any long hex text for people: the head, an
 * ellipsis, the tail (`0x1234…abcd`). Text short enough is shown whole. Every view shortens
 * through this, so a hash reads the same in a list, a table, a chart and a report.
 */
export function shortHash(hash: string, head = 6, tail = 4): string {
  return hash.length > head + tail + 1 ? `${hash.slice(0, head)}…${hash.slice(-tail)}` : hash
}
