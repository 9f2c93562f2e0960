import { onBeforeUnmount, onMounted, watch } from 'vue'
import { toast } from 'vue-sonner'
import type { Notice } from '@shared/bridge/contract'
import { bridge } from './bridge'
import { useSessionStore } from './session-store'
import { formatClock, parseTime } from '../ui/time'

/**
 * Main's notices (a file restored from its backup, …) and the sandbox's end as toasts, each
 * notice once. The sandbox's state is read from the session store, its one subscriber.
 */
export function useNotices(): void {
  const session = useSessionStore()
  const shown = new Set<string>()

  function show(n: Notice | null | undefined): void {
    if (!n || typeof n.message !== 'string' || shown.has(n.id)) return
    shown.add(n.id)
    const toastOf = n.level === 'error' ? toast.error : n.level === 'warning' ? toast.warning : toast.info
    toastOf(n.message, { duration: n.level === 'info' ? 6000 : 15000 })
  }

  const off = bridge.on('notice', show)
  /** The "stopped unexpectedly" toast stays until the sandbox runs again. */
  let crashToast: string | number | null = null
  watch(
    () => session.sandbox,
    (s, before) => {
      if (!s || s.state === before?.state) return
      if (crashToast !== null && (s.state === 'starting' || s.state === 'ready')) {
        toast.dismiss(crashToast)
        crashToast = null
      }
      if (s.state === 'failed') toast.error(`The sandbox failed: ${s.message ?? 'no reason given'}`)
      else if (s.state === 'stopped' && s.unexpected)
        // Never restarted behind the user's back (issue 38): said, with its time, and offered.
        crashToast = toast.warning(
          `The sandbox stopped unexpectedly at ${formatClock(parseTime(s.stoppedAt))}. Saved data stays available.`,
          {
            duration: Infinity,
            action: { label: 'Start sandbox', onClick: () => void session.controlSandbox('sandbox.start') },
          },
        )
      else if (s.state === 'stopped' && session.active?.kind === 'sandbox')
        toast.warning('The sandbox stopped. Saved data stays available.')
    },
  )
  onMounted(() => {
    void bridge.invoke('app.notices', {}).then((r) => {
      if (r.ok) r.value.forEach(show)
    })
  })
  onBeforeUnmount(off)
}
