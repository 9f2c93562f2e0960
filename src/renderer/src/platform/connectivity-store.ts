import { defineStore } from 'pinia'
import { ref } from 'vue'
import { bridge } from './bridge'

/**
 * Whether main can reach the service, as main reports it: main's service client sees every
 * request, so it is the one writer; views read this store.
 */
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

  return { online, reason, since }
})
