import { expect } from 'vitest'
import type { VueWrapper } from '@vue/test-utils'

/**
 * The failure is said once beside data still shown (docs/decisions/one-failure-line.md): the
 * compact line with Retry and Work offline, the error's context in its title, no full panel.
 */
export function expectOneFailureLine(w: VueWrapper, context: string): void {
  expect(w.find('[role="alert"]').exists()).toBe(false)
  expect(
    w
      .get('.stale-row')
      .findAll('button')
      .map((b) => b.text()),
  ).toEqual(['Retry', 'Work offline'])
  expect(w.get('[aria-label="Shown despite a failure"]').attributes('title')).toMatch(new RegExp(`^${context}: `))
}
