import { onBeforeUnmount } from 'vue'
import { useRouter } from 'vue-router'
import { toast } from 'vue-sonner'
import { bridge } from './bridge'
import { useOpenAddress } from './use-open-address'
import { useUiStore } from './ui-store'

/**
 * Main asks the window to open an address (command line, app link, menu) or a view (menu):
 * an address opens exactly as the search opens it. For the component that hosts the app.
 */
export function useMainRequests(): void {
  const router = useRouter()
  const ui = useUiStore()
  const openAddress = useOpenAddress()
  const offs = [
    bridge.on('open.address', (payload) => {
      const result = openAddress(String(payload?.address ?? ''), payload?.network ?? null)
      if (!result.ok) toast.error(`Could not open the address: ${result.message}`)
    }),
    bridge.on('open.view', (payload) => {
      const view = payload?.view
      if (view === 'search') ui.focusSearch()
      else if (view === 'watchlists' || view === 'settings' || view === 'rpc') void router.push({ name: view })
    }),
  ]
  onBeforeUnmount(() => offs.forEach((off) => off()))
}
