import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import type { BridgeEvents } from '@shared/bridge/contract'
import type { ApprovalsView } from '@shared/domain/approvals-view'
import { action } from '../../platform/action'
import { bridge } from '../../platform/bridge'
import { fetched } from '../../platform/fetched'

/**
 * The approvals of the open address on one network. Opening the tab costs one request (the
 * state of every approval found in loaded data, in one eth_call); the complete log scan runs
 * only when asked, after its cost is shown, and reports its progress. Through the fetched-data
 * layer: what loaded data alone tells is shown at once, the state call runs behind it.
 */
type Target = { network: string; address: string }

export const useApprovalsStore = defineStore('approvals', () => {
  const read = (t: Target, cacheOnly: boolean) => bridge.invoke('approvals.view', { ...t, cacheOnly })
  // From loaded data alone at once (no request), then checked against the chain behind it.
  const q = fetched<Target, ApprovalsView>({
    same: (a, b) => a.network === b.network && a.address === b.address,
    cached: async (t) => {
      const r = await read(t, true)
      return r.ok ? r.value : null
    },
    live: (t) => read(t, false),
    // Main's "as of": the state call's time, or the loaded pages' the rows come from (and why).
    provenance: (v) => v,
  })
  const scanning = action()
  const progress = ref<BridgeEvents['approvals.progress'] | null>(null)

  const same = (network: string, address: string): boolean =>
    q.key.value?.network === network && q.key.value.address === address.toLowerCase()

  bridge.on('approvals.progress', (p) => {
    if (scanning.busy.value && same(p.network, p.address)) progress.value = p
  })

  function open(network: string, address: string, refresh = false): Promise<void> {
    return q.load({ network, address: address.toLowerCase() }, { refresh, again: false })
  }

  async function scan(): Promise<void> {
    const t = q.key.value
    if (!t || scanning.busy.value) return
    progress.value = null
    const v = await scanning.run(() => bridge.invoke('approvals.scan', t))
    progress.value = null
    if (!same(t.network, t.address)) return
    if (v) q.replace(v)
    // What was read before the failure is kept: show it, and the resume cost.
    else if (scanning.error.value) await q.load(t, { refresh: true })
  }

  async function stopScan(): Promise<void> {
    if (q.key.value) await bridge.invoke('approvals.stopScan', q.key.value)
  }

  return {
    view: q.data,
    target: q.key,
    loading: computed(() => q.status.value === 'loading'),
    scanning: scanning.busy,
    progress,
    error: q.error,
    fetchState: q.summary,
    scanError: scanning.error,
    open,
    scan,
    stopScan,
  }
})
