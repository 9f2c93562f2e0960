import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import type { ConnectionView } from '@shared/bridge/contract'
import type { BridgeResult } from '@shared/bridge/errors'
import { isRecord } from '@shared/guards'
import { bridge } from './bridge'
import { useChainStore } from './chain-store'
import { useClockStore } from './clock-store'
import { connectionSummary } from './connection-summary'

function isConnectionView(v: unknown): v is ConnectionView {
  return isRecord(v) && typeof v.workOffline === 'boolean' && Array.isArray(v.endpoints)
}

/**
 * What main reports of the service's endpoints (the `connectivity` event: the outcome of real
 * calls, per network and endpoint, and the Work offline switch). Main is the one writer; no
 * store guesses the connection from its own answers.
 */
export const useConnectivityStore = defineStore('connectivity', () => {
  const view = ref<ConnectionView | null>(null)
  const clock = useClockStore()
  const chain = useChainStore()

  bridge.on('connectivity', (v) => {
    if (isConnectionView(v)) view.value = v
  })

  const summary = computed(() => connectionSummary(view.value, clock.now, (n) => chain.labelOf(n)))
  const workOffline = computed(() => view.value?.workOffline ?? false)
  /**
   * Whether work that needs the service can go: not while Work offline is on, nor while main's
   * breaker holds an endpoint until a later try (a click then would be refused at once). Once
   * the try is due the next request is the probe: allowed again.
   */
  const online = computed(() => {
    if (workOffline.value || view.value?.sandboxStopped) return false
    const held = (next: string | null): boolean => next !== null && Date.parse(next) > clock.now
    return !(view.value?.endpoints ?? []).some((e) => e.state === 'not-answering' && held(e.nextRetryAt))
  })
  const reason = computed(() => (online.value ? null : summary.value.text))

  async function load(): Promise<void> {
    const result = await bridge.invoke('connection.get', {})
    if (result.ok) view.value = result.value
  }

  async function setWorkOffline(on: boolean): Promise<BridgeResult<ConnectionView>> {
    const result = await bridge.invoke('connection.setWorkOffline', { on })
    if (result.ok) view.value = result.value
    return result
  }

  return { view, summary, online, reason, workOffline, load, setWorkOffline }
})
