import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { decodeCursor, encodeCursor, transactionsQuery } from './cursor'

const page = {
  api_key: '',
  apikey: '',
  block_number: 1234,
  fee: '21000000000000',
  hash: `0x${'ab'.repeat(32)}`,
  index: 3,
  inserted_at: '2024-05-01T10:00:00.000000Z',
  items_count: 50,
  value: '0',
}

describe('cursor', () => {
  it('round-trips next_page_params without the key slots', () => {
    const cursor = encodeCursor(page)
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/)
    const { api_key: _a, apikey: _b, ...rest } = page
    expect(decodeCursor(cursor)).toEqual(rest)
  })

  it('never lets an empty key slot override the real key', () => {
    const q = transactionsQuery('0x' + '1'.repeat(40), 'REALKEY123', decodeCursor(encodeCursor(page)))
    expect(q.getAll('api_key')).toEqual(['REALKEY123'])
    expect(q.has('apikey')).toBe(false)
    expect(q.get('block_number')).toBe('1234')
    // Even params that sneak in a key slot cannot replace or duplicate it.
    const sneaky = transactionsQuery('0xabc', 'REALKEY123', { api_key: '', apikey: '', address: '0xevil' })
    expect(sneaky.toString()).toBe('address=0xabc&api_key=REALKEY123')
  })

  it.each([
    ['not base64url', '***'],
    ['not JSON', Buffer.from('{nope').toString('base64url')],
    ['an array', Buffer.from('[1,2]').toString('base64url')],
    ['a key slot', Buffer.from(JSON.stringify({ api_key: 'x' })).toString('base64url')],
    ['an address', Buffer.from(JSON.stringify({ address: '0x1' })).toString('base64url')],
    ['a nested object', Buffer.from(JSON.stringify({ a: { b: 1 } })).toString('base64url')],
    ['more than the size cap', Buffer.from(JSON.stringify({ a: 'x'.repeat(7000) })).toString('base64url')],
  ])('refuses a cursor with %s as invalid input', (_name, cursor) => {
    expect(() => decodeCursor(cursor)).toThrow(
      expect.objectContaining({ kind: 'invalid-input', details: { field: 'cursor' } }),
    )
  })

  it('decodes any string to params or a typed error, never anything else', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.base64String(),
          fc.json().map((j) => Buffer.from(j).toString('base64url')),
        ),
        (s) => {
          try {
            const params = decodeCursor(s)
            expect(typeof params).toBe('object')
            expect('api_key' in params || 'apikey' in params).toBe(false)
          } catch (error) {
            expect(error).toMatchObject({ kind: 'invalid-input' })
          }
        },
      ),
    )
  })
})
