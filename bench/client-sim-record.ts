import type { SandboxInfo } from '../src/main/core/sandbox/sandbox-launcher'
import type { Transaction } from '@shared/domain/service-schemas'

export interface Recorded {
  key: string
  networks: string[]
  heads: Record<string, number>
  addresses: { network: string; address: string }[]
  balances: Map<string, unknown>
  transactions: Map<string, { items: Transaction[]; more: boolean }>
}

/** The watchlist's real data, read once from the sandbox (paced well under its limits). */
export async function recordWatchlist(info: SandboxInfo, log: (m: string) => void): Promise<Recorded> {
  const [a, b] = info.networks as [string, string]
  const pick = (network: string, role: string): { network: string; address: string } => ({
    network,
    address: info.demo_addresses[network]![role]!,
  })
  const addresses = [pick(a, 'whale'), pick(a, 'holder'), pick(a, 'contract'), pick(b, 'whale'), pick(b, 'holder')]
  const rec: Recorded = {
    key: info.api_key,
    networks: [a, b],
    heads: {},
    addresses,
    balances: new Map(),
    transactions: new Map(),
  }
  const get = async (url: string): Promise<Record<string, unknown>> => {
    await new Promise((r) => setTimeout(r, 40))
    const response = await fetch(url)
    if (!response.ok) throw new Error(`recording: HTTP ${response.status}`)
    return (await response.json()) as Record<string, unknown>
  }
  for (const { network, address } of addresses) {
    const key = `${network}|${address.toLowerCase()}`
    rec.balances.set(
      key,
      await get(`${info.base_url}/api/v1/${network}/balance?address=${address}&api_key=${info.api_key}`),
    )
    const items: Transaction[] = []
    let params: Record<string, unknown> | null = {}
    for (let page = 0; page < 3 && params; page++) {
      const q = new URLSearchParams({ address })
      for (const [k, v] of Object.entries(params)) if (k !== 'api_key' && k !== 'apikey') q.set(k, String(v))
      q.set('api_key', info.api_key)
      const body = await get(`${info.base_url}/api/v1/${network}/transactions?${q}`)
      items.push(...(body.items as Transaction[]))
      params = body.next_page_params as Record<string, unknown> | null
    }
    rec.transactions.set(key, { items, more: params !== null })
    for (const tx of items)
      if (tx.block !== null) rec.heads[network] = Math.max(rec.heads[network] ?? 0, tx.block + tx.confirmations)
  }
  for (const n of rec.networks) rec.heads[n] ??= 1000
  log(
    `analyst-hour: recorded ${addresses.length} addresses (${[...rec.transactions.values()].map((t) => t.items.length).join('/')} transactions)`,
  )
  return rec
}
