import { onBeforeUnmount, onMounted } from 'vue'
import { bridge } from './bridge'

/** Live polling in main runs only while a window is visible: the page reports whether it is. */
export function useVisibilityReport(): void {
  const report = (): void => {
    void bridge.invoke('app.setVisible', { visible: document.visibilityState === 'visible' })
  }
  onMounted(() => {
    document.addEventListener('visibilitychange', report)
    report()
  })
  onBeforeUnmount(() => document.removeEventListener('visibilitychange', report))
}
