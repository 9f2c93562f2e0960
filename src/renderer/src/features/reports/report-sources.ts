import type { ApprovalRow } from '@shared/domain/approvals-view'
import type { BalanceItem } from '@shared/domain/service-schemas'
import type { TransactionsPage } from '@shared/bridge/contract'
import { bridge } from '../../platform/bridge'

/**
 * What a report shows, as the service sent it, with when it was fetched and the request that
 * fetched it — path and parameters, never the key (main never gives the renderer the key, and
 * every file is checked for it on the way out). All read from main's cache: free, no request.
 * An evidence bundle writes each source as one data file (docs/decisions/evidence-bundle.md).
 */
export interface ReportSource {
  /** The data file's name in a bundle (`data/<file>`). */
  file: string
  network: string
  address: string
  kind: 'transactions' | 'balances' | 'coin' | 'approvals'
  request: { method: 'GET' | 'POST'; path: string; params?: Record<string, unknown>; body?: unknown }
  /** When the data was fetched from the service; null when none is kept. */
  asOf: string | null
  /** What came back, per page for transactions. */
  body: unknown
}

export interface SubjectExtras {
  coin: { wei: string; fetchedAt: string } | null
  balances: { items: readonly BalanceItem[]; fetchedAt: string } | null
  approvals: { rows: readonly ApprovalRow[]; fetchedAt: string | null } | null
  sources: ReportSource[]
}

/** The `next_page_params` a cursor carries (base64url JSON, made by main); {} when unreadable. */
function cursorParams(cursor: string | null): Record<string, unknown> {
  if (!cursor) return {}
  try {
    const json = atob(cursor.replace(/-/g, '+').replace(/_/g, '/'))
    const v: unknown = JSON.parse(json)
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? { ...v } : {}
  } catch {
    return {}
  }
}

const fileOf = (kind: string, network: string, address: string): string =>
  `${kind}-${network}-${address}.json`.replace(/[^A-Za-z0-9._-]/g, '-')

/** Every kept page of an address's transactions, each with the request that fetched it. */
export function transactionSource(
  network: string,
  address: string,
  pages: readonly TransactionsPage[],
): ReportSource | null {
  if (pages.length === 0) return null
  return {
    file: fileOf('transactions', network, address),
    network,
    address,
    kind: 'transactions',
    request: { method: 'GET', path: `/api/v1/${network}/transactions`, params: { address } },
    asOf: pages.map((p) => p.fetchedAt).sort()[0] ?? null,
    body: pages.map((p) => ({
      request: {
        method: 'GET',
        path: `/api/v1/${network}/transactions`,
        params: { ...cursorParams(p.cursor), address },
      },
      asOf: p.fetchedAt,
      source: p.source,
      items: p.items,
      unreadable: p.unreadable,
    })),
  }
}

/** The coin balance, token balances and approvals main keeps for an address (never a request). */
export async function subjectExtras(network: string, address: string): Promise<SubjectExtras> {
  const [presence, balances, approvals] = await Promise.all([
    bridge.invoke('analysis.networks', { address, cacheOnly: true }),
    bridge.invoke('data.balances', { network, address, cacheOnly: true }),
    bridge.invoke('approvals.view', { network, address, cacheOnly: true }),
  ])
  const out: SubjectExtras = { coin: null, balances: null, approvals: null, sources: [] }
  if (presence.ok && !Array.isArray(presence.value)) return out
  const p = presence.ok ? presence.value.find((x) => x.network === network) : undefined
  if (p?.nativeWei && p.fetchedAt) {
    out.coin = { wei: p.nativeWei, fetchedAt: p.fetchedAt }
    out.sources.push({
      file: fileOf('coin', network, address),
      network,
      address,
      kind: 'coin',
      request: {
        method: 'POST',
        path: `the profile's RPC endpoint for ${network}`,
        body: { jsonrpc: '2.0', method: 'eth_getBalance', params: [address, 'latest'] },
      },
      asOf: p.fetchedAt,
      body: { result: p.nativeWei },
    })
  }
  if (balances.ok && Array.isArray(balances.value.items)) {
    out.balances = { items: balances.value.items, fetchedAt: balances.value.fetchedAt }
    out.sources.push({
      file: fileOf('balances', network, address),
      network,
      address,
      kind: 'balances',
      request: { method: 'GET', path: `/api/v1/${network}/balance`, params: { address } },
      asOf: balances.value.fetchedAt,
      body: { items: balances.value.items, unreadable: balances.value.unreadable, source: balances.value.source },
    })
  }
  if (approvals.ok && (approvals.value.rows?.length ?? 0) > 0) {
    const rows = approvals.value.rows
    out.approvals = { rows, fetchedAt: null }
    out.sources.push({
      file: fileOf('approvals', network, address),
      network,
      address,
      kind: 'approvals',
      request: {
        method: 'POST',
        path: `the profile's RPC endpoint for ${network}`,
        body: 'allowances of the approvals found in the loaded transactions, read in one eth_call',
      },
      asOf: null,
      body: { rows },
    })
  }
  return out
}
