import { defineStore } from 'pinia'
import { ref } from 'vue'

/** Cross-component requests that are not data: focusing the search from a menu or shortcut. */
export const useUiStore = defineStore('ui', () => {
  const focusSearchRequests = ref(0)

  function focusSearch(): void {
    focusSearchRequests.value++
  }

  return { focusSearchRequests, focusSearch }
})
