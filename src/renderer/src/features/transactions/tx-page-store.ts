import { defineStore } from 'pinia'
import type { Transaction } from '@shared/domain/service-schemas'
import type { BridgeResult } from '@shared/bridge/errors'
import { fetched } from '../../platform/fetched'
import { bridge } from '../../platform/bridge'
import { useTransactionsStore } from './transactions-store'

export interface TxKey {
  network: string
  /** Lowercase. */
  hash: string
}

/**
 * One transaction for its page (pages/TxView.vue). The service has no read by hash (spec: two
 * read endpoints, balances and transactions of an address), so a transaction is known from the
 * pages already read: the open address's loaded pages first, then main's cached index of every
 * page kept (`search.query`, free: never a request to the service). Not found there: the user
 * opens an address that took part in it (docs/decisions/pivot-actions.md).
 */
export const useTxPageStore = defineStore('tx-page', () => {
  const txs = useTransactionsStore()
  const loaded = (k: TxKey): Transaction | null =>
    txs.target?.network === k.network ? (txs.items.find((t) => t.hash.toLowerCase() === k.hash) ?? null) : null
  const view = fetched<TxKey, Transaction>({
    same: (a, b) => a.network === b.network && a.hash === b.hash,
    cached: async (k) => loaded(k),
    live: async (k): Promise<BridgeResult<Transaction>> => {
      const known = loaded(k)
      if (known) return { ok: true, value: known }
      const r = await bridge.invoke('search.query', { query: k.hash, limit: 10 })
      if (!r.ok) return r
      const hit = r.value.hits.find((h) => h.kind === 'transaction' && h.network === k.network && h.hash === k.hash)
      if (hit?.tx) return { ok: true, value: hit.tx }
      return {
        ok: false,
        error: {
          kind: 'not-found',
          message:
            'This transaction is not among the pages read so far. Open an address that took part in it and load its transactions.',
        },
      }
    },
  })
  return { view, data: view.data, status: view.status, summary: view.summary, fromCache: view.fromCache }
})
