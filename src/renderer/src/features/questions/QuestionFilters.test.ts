import { describe, expect, it } from 'vitest'
import { flushPromises } from '@vue/test-utils'
import { mountWith, setupTestApp } from '../../testing/mount'
import { TOKENS, transfer, tx } from '../../testing/analysis-samples'
import { makePage } from '../../testing/samples'
import { useTransactionsStore } from '../transactions'
import QuestionFilters from './QuestionFilters.vue'
import { useQuestionsStore } from './questions-store'

const ME = `0x${'1'.repeat(40)}`
const BOB = `0x${'2'.repeat(40)}`

describe('the filter controls', () => {
  it('offer the loaded tokens, refuse a counterparty that is not an address, and keep dates in order', async () => {
    const t = setupTestApp()
    const txs = useTransactionsStore()
    const items = [tx(BOB, ME, { token_transfers: [transfer(TOKENS.usdc, BOB, ME, '5')] })]
    t.bridge.handle('data.transactions', () => makePage(0, 0, null, { address: ME, items }))
    await txs.open('alpha', ME)
    const questions = useQuestionsStore()
    const w = mountWith(QuestionFilters, t, { props: { address: ME, what: 'transactions' } })
    await flushPromises()
    const options = w.findAll('select option').map((o) => o.text())
    expect(options).toEqual(['Any token', 'Coin (native)', `USDC · ${TOKENS.usdc.address.slice(0, 8)}…cccc`])

    const party = w.find('input[type="text"]')
    await party.setValue('bob')
    await party.trigger('change')
    expect(w.find('[role="alert"]').text()).toBe('A counterparty is an address: 0x and 40 hex digits.')
    expect(party.attributes('aria-invalid')).toBe('true')
    expect(questions.filters.party).toBeNull()
    await party.setValue(BOB)
    await party.trigger('change')
    expect(questions.filters.party).toBe(BOB)
    expect(w.find('[role="alert"]').exists()).toBe(false)

    const [from, to] = w.findAll('input[type="date"]')
    await to!.setValue('2026-01-05')
    await to!.trigger('change')
    await from!.setValue('2026-01-09')
    await from!.trigger('change')
    // The range would turn round: the other end follows.
    expect(questions.filters).toMatchObject({ fromDay: '2026-01-09', toDay: '2026-01-09' })
    await w.find('button').trigger('click')
    expect(questions.filters).toMatchObject({ token: null, party: null, fromDay: null, toDay: null })
    w.unmount()
  })
})
