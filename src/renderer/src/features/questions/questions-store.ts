import { defineStore } from 'pinia'
import { ref } from 'vue'
import { NO_PAGE_FILTERS, type PageFilters } from './filter-query'

/**
 * The filters of the open address page as read from its URL, and what in the URL was left
 * out. The URL is where they live (use-url-filters.ts): this store only mirrors it for the views.
 */
export const useQuestionsStore = defineStore('questions', () => {
  const filters = ref<PageFilters>({ ...NO_PAGE_FILTERS })
  const problems = ref<string[]>([])

  /** Changes some filters; the URL follows (use-url-filters.ts watches). */
  function set(patch: Partial<PageFilters>): void {
    filters.value = { ...filters.value, ...patch }
  }

  return { filters, problems, set }
})
