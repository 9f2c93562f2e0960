import { defineStore } from 'pinia'
import { ref } from 'vue'
import { bridge } from '../../bridge'

/** Whether main can reach the service, as main reports it. */
export const useConnectivityStore = defineStore('connectivity', () => {
  const online = ref(true)
  const reason = ref<string | null>(null)
  const since = ref<number | null>(null)

  bridge.on('connectivity', (c) => {
    if (!c || typeof c.online !== 'boolean') return
    if (c.online !== online.value) since.value = Date.now()
    online.value = c.online
    reason.value = c.online ? null : (c.reason ?? null)
  })

  /** A call answered `offline`: show it now rather than waiting for main's event. */
  function markOffline(message: string): void {
    if (online.value) since.value = Date.now()
    online.value = false
    reason.value = message
  }

  function markOnline(): void {
    online.value = true
    reason.value = null
  }

  return { online, reason, since, markOffline, markOnline }
})
