import { describe, expect, it } from 'vitest'
import { bridgeCalls } from './call-schemas'

const SUM = '0x52908400098527886E0F7030069857D2E4169EE7'
const LOW = '0x52908400098527886e0f7030069857d2e4169ee7'

describe('the address in a bridge call', () => {
  it('is parsed once, into the lowercase address main works with', () => {
    const balances = bridgeCalls['data.balances'].parse({ network: 'alpha', address: SUM })
    expect(balances.address).toBe(LOW)
    const entry = bridgeCalls['watchlists.addEntry'].parse({ listId: 'l', entry: { address: SUM, network: 'alpha' } })
    expect(entry.entry.address).toBe(LOW)
    const removed = bridgeCalls['cases.removeAddress'].parse({ id: 'c', address: SUM, network: 'alpha' })
    expect(removed.address).toBe(LOW)
  })

  it('is refused with the checksum problem, at the path of the field', () => {
    const typo = `${SUM.slice(0, -1)}e`
    const r = bridgeCalls['cases.create'].safeParse({ name: 'Case', first: { address: typo, network: 'alpha' } })
    expect(r.success).toBe(false)
    expect(r.error?.issues[0]).toMatchObject({ path: ['first', 'address'], message: expect.stringMatching(/EIP-55/) })
  })

  it('keeps the form check first, with its own message', () => {
    const r = bridgeCalls['approvals.view'].safeParse({ network: 'alpha', address: '0x12' })
    expect(r.error?.issues[0]?.message).toBe('expected 0x followed by 40 hex characters')
  })

  it('lowercases a note key (an address or a hash), the case notes are kept by', () => {
    const note = bridgeCalls['notes.set'].parse({ kind: 'address', network: 'alpha', key: SUM, text: 'x' })
    expect(note.key).toBe(LOW)
  })
})
