import { describe, expect, it } from 'vitest'
import { filterQuery, isDay, NO_PAGE_FILTERS, onlyTextDiffers, parseFilterQuery, sameQuery } from './filter-query'

const A = '0x55d536E4d6c1993d8ef2e2a4ef77f02088419420'

describe('filters in the URL', () => {
  it('reads every filter and writes it back the same', () => {
    const q = {
      token: A,
      party: A.toUpperCase().replace('0X', '0x'),
      from: '2022-10-01',
      to: '2022-10-31',
      dir: 'in',
      kind: 'token_transfer',
      status: 'ok',
      at: '2022-10-15',
      cp: 'Uniswap v3 ',
    }
    const { filters, problems } = parseFilterQuery(q)
    expect(problems).toEqual([])
    expect(filters).toEqual({
      token: A.toLowerCase(),
      party: A.toLowerCase(),
      fromDay: '2022-10-01',
      toDay: '2022-10-31',
      direction: 'in',
      kind: 'token_transfer',
      status: 'ok',
      at: '2022-10-15',
      cpText: 'Uniswap v3 ',
    })
    expect(filterQuery(filters).cp).toBe('Uniswap v3 ')
    expect(parseFilterQuery(filterQuery(filters)).filters).toEqual(filters)
    expect(parseFilterQuery({ token: 'COIN' }).filters.token).toBe('coin')
  })

  it('leaves out each bad value with a note naming it, keeping the good ones', () => {
    const { filters, problems } = parseFilterQuery({
      token: 'usdc',
      party: '0x123',
      from: '2026-02-30',
      to: 'yesterday',
      dir: 'sideways',
      kind: 'DROP TABLE',
      status: ['ok', 'failed'],
      at: '2022-10-32',
      cp: 'x'.repeat(101),
      other: 'ignored',
    })
    expect(filters).toEqual(NO_PAGE_FILTERS)
    expect(problems).toEqual([
      'Token “usdc” is not a token address (0x and 40 hex digits) nor “coin”.',
      'Counterparty “0x123” is not an address (0x and 40 hex digits).',
      'From date “2026-02-30” is not a day written YYYY-MM-DD.',
      'To date “yesterday” is not a day written YYYY-MM-DD.',
      'Balance date “2022-10-32” is not a day written YYYY-MM-DD.',
      'Direction “sideways” is not one of all, in, out, self, other.',
      'Kind “DROP TABLE” is not a transaction kind.',
      '“status” was given 2 times; it takes one value, so it is left out.',
      `Counterparties search “${'x'.repeat(40)}…” is longer than 100 characters or holds control characters.`,
    ])
    expect(parseFilterQuery({ cp: 'a\u0000b' }).problems).toHaveLength(1)
    expect(parseFilterQuery({ cp: '' })).toEqual({ filters: NO_PAGE_FILTERS, problems: [] })
  })

  it('refuses dates the wrong way round, and cuts a long bad value short in its note', () => {
    const r = parseFilterQuery({ from: '2022-11-01', to: '2022-10-01', party: 'x'.repeat(500) })
    expect(r.filters.fromDay).toBeNull()
    expect(r.filters.toDay).toBeNull()
    expect(r.problems[0]).toBe(`Counterparty “${'x'.repeat(40)}…” is not an address (0x and 40 hex digits).`)
    expect(r.problems[1]).toMatch(/wrong way round/)
  })

  it('writes only what is set, so equal filters give equal URLs', () => {
    expect(filterQuery(NO_PAGE_FILTERS)).toEqual({})
    expect(sameQuery({ a: '1', b: '2' }, { b: '2', a: '1' })).toBe(true)
    expect(sameQuery({ a: '1' }, { a: '1', b: '2' })).toBe(false)
    expect(onlyTextDiffers({ token: 'coin', cp: 'a' }, { token: 'coin' })).toBe(true)
    expect(onlyTextDiffers({ token: 'coin', cp: 'a' }, { cp: 'a' })).toBe(false)
  })

  it('knows a real day from a look-alike', () => {
    expect(isDay('2024-02-29')).toBe(true)
    expect(isDay('2023-02-29')).toBe(false)
    expect(isDay('2023-13-01')).toBe(false)
    expect(isDay('20230101')).toBe(false)
  })
})
