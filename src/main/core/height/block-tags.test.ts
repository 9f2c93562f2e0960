import { describe, expect, it } from 'vitest'
import { BlockTags } from './block-tags'

describe('BlockTags', () => {
  it('takes a tag refused once, by an error or a null block, as missing on that network only', () => {
    const tags = new BlockTags()
    expect(tags.judge('alpha', 'finalized', { ok: true, result: { number: '0x10' } })).toBe(false)
    expect(tags.known('alpha', 'finalized')).toBe(true)
    expect(
      tags.judge('alpha', 'finalized', { ok: false, code: -32602, message: "invalid block tag 'finalized'" }),
    ).toBe(true)
    expect(tags.known('alpha', 'finalized')).toBe(false)
    expect(tags.known('alpha', 'safe')).toBe(true)
    expect(tags.known('beta', 'finalized')).toBe(true)
    expect(tags.judge('beta', 'safe', { ok: true, result: null })).toBe(true)
    expect(tags.known('beta', 'safe')).toBe(false)
  })
})
