import { defineStore } from 'pinia'
import { ref, shallowRef } from 'vue'
import type { BridgeEvents } from '@shared/bridge/contract'
import type { ApprovalsView } from '@shared/domain/approvals-view'
import type { BridgeError } from '@shared/bridge/errors'
import { bridge } from '../../platform/bridge'

/**
 * The approvals of the open address on one network. Opening the tab costs one request (the
 * state of every approval found in loaded data, in one eth_call); the complete log scan runs
 * only when asked, after its cost is shown, and reports its progress.
 */
export const useApprovalsStore = defineStore('approvals', () => {
  const view = shallowRef<ApprovalsView | null>(null)
  const target = ref<{ network: string; address: string } | null>(null)
  const loading = ref(false)
  const scanning = ref(false)
  const progress = ref<BridgeEvents['approvals.progress'] | null>(null)
  const error = ref<BridgeError | null>(null)
  const scanError = ref<BridgeError | null>(null)

  const same = (network: string, address: string): boolean =>
    target.value?.network === network && target.value.address === address.toLowerCase()

  bridge.on('approvals.progress', (p) => {
    if (scanning.value && same(p.network, p.address)) progress.value = p
  })

  let seq = 0
  async function open(network: string, address: string, refresh = false): Promise<void> {
    if (same(network, address) && view.value && !refresh) return
    const mine = ++seq
    if (!same(network, address)) view.value = null
    target.value = { network, address: address.toLowerCase() }
    loading.value = true
    error.value = null
    const result = await bridge.invoke('approvals.view', { network, address })
    if (mine !== seq) return
    loading.value = false
    if (result.ok) view.value = result.value
    else error.value = result.error
  }

  async function scan(): Promise<void> {
    const t = target.value
    if (!t || scanning.value) return
    scanning.value = true
    scanError.value = null
    progress.value = null
    const result = await bridge.invoke('approvals.scan', t)
    scanning.value = false
    progress.value = null
    if (!same(t.network, t.address)) return
    if (result.ok) view.value = result.value
    else {
      scanError.value = result.error
      // What was read before the failure is kept: show it, and the resume cost.
      await open(t.network, t.address, true)
    }
  }

  async function stopScan(): Promise<void> {
    if (target.value) await bridge.invoke('approvals.stopScan', target.value)
  }

  return { view, target, loading, scanning, progress, error, scanError, open, scan, stopScan }
})
