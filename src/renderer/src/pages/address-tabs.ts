/**
 * The address page's tabs, in the order shown: the route's pattern, the page's tab list and the
 * test router read them here, so a new tab is added once.
 */
const ADDRESS_TABS = [
  'balances',
  'transactions',
  'counterparties',
  'transfers',
  'history',
  'at-date',
  'flows',
  'approvals',
  'internal',
  'contract',
] as const

export type AddressTab = (typeof ADDRESS_TABS)[number]

export const ADDRESS_ROUTE_PATH = `/address/:network/:address/:tab(${ADDRESS_TABS.join('|')})?`

export function isAddressTab(value: unknown): value is AddressTab {
  return typeof value === 'string' && (ADDRESS_TABS as readonly string[]).includes(value)
}
