import { describe, expect, it, vi } from 'vitest'
import { readAbiFile } from './abi-file'

describe('an ABI file', () => {
  it('of 50 MB is refused before a byte is read, naming its size and the limit', async () => {
    const text = vi.fn(async () => '')
    const file = { name: 'huge\u202Egnp.json', size: 50_000_000, text } as unknown as File
    const read = await readAbiFile(file)
    expect(read).toEqual({
      error: {
        kind: 'invalid-input',
        message:
          "“hugegnp.json” is 50.0 MB; an ABI file is at most 2 MB. Choose the contract's ABI (a JSON array) or its build artifact.",
      },
    })
    expect(text).not.toHaveBeenCalled()
  })

  it('within the limit is read as text (its content main checks)', async () => {
    const file = new File(['[]'], 'token.json', { type: 'application/json' })
    expect(await readAbiFile(file)).toEqual({ text: '[]' })
  })
})
