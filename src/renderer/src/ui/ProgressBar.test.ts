import { mount } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import ProgressBar from './ProgressBar.vue'

describe('ProgressBar', () => {
  it('is determinate with a total, names itself with the label and the counts, and offers cancel', async () => {
    const w = mount(ProgressBar, {
      props: { label: 'Exporting', done: 1500, total: 3000, cancelLabel: 'Cancel export' },
    })
    const bar = w.get('progress')
    expect(bar.attributes('max')).toBe('3000')
    expect(bar.attributes('value')).toBe('1500')
    expect(bar.attributes('aria-label')).toBe('Exporting: 1,500 of 3,000')
    expect(w.get('[role="status"]').text()).toBe('1,500 of 3,000')
    await w.get('button').trigger('click')
    expect(w.emitted('cancel')).toHaveLength(1)
  })

  it('is indeterminate without a total, shows the given detail and no cancel unless asked', () => {
    const w = mount(ProgressBar, {
      props: { label: 'Loading all transactions', detail: '250 transactions in 5 pages' },
    })
    expect(w.get('progress').attributes('value')).toBeUndefined()
    expect(w.get('progress').attributes('aria-label')).toBe('Loading all transactions: 250 transactions in 5 pages')
    expect(w.find('button').exists()).toBe(false)
  })

  it('never shows more than done of the total on the bar', () => {
    const w = mount(ProgressBar, { props: { label: 'X', done: 12, total: 10 } })
    expect(w.get('progress').attributes('value')).toBe('10')
  })
})
