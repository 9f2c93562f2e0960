import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { bridgeCalls } from '@shared/bridge/call-schemas'
import { FILE_CHECK_PART_CHARS } from '@shared/bridge/file-check'
import { AppError } from '../util/app-error'
import { systemClock } from '../util/clock'
import { Redactor, type Logger } from '../util/logger'
import { FileExit } from './file-exit'

const KEY = 'e2e_5f0c9a77b3d24e81aa06'
const log: Logger = { info: vi.fn(), warn: vi.fn(), error: vi.fn() }

function exit(): FileExit {
  const redactor = new Redactor()
  redactor.add(KEY)
  return new FileExit({ redactor, log, clock: systemClock })
}

/** Sends `parts` as one file and gives the last answer, or the error it was refused with. */
function send(e: FileExit, parts: string[], id = 'file-0001', name = 'report.html'): unknown {
  let answer: unknown
  try {
    parts.forEach((text, part) => (answer = e.check({ id, name, part, text, last: part === parts.length - 1 })))
  } catch (error) {
    return error
  }
  return answer
}

describe('FileExit', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('passes a file without the key, part by part', () => {
    const e = exit()
    expect(e.check({ id: 'file-0001', name: 'a.csv', part: 0, text: 'a,b\r\n', last: false })).toEqual({
      checked: false,
    })
    expect(send(e, ['x,y\r\n', '1,2\r\n'], 'file-0002')).toEqual({ checked: true })
  })

  it.each([
    ['as written', [`<td>${KEY}</td>`]],
    ['with a zero-width space, across two parts', [`<td>${KEY.slice(0, 9)}`, `\u200B${KEY.slice(9)}</td>`]],
    ['as HTML references', [`<td>${[...KEY].map((c) => `&#${c.charCodeAt(0)};`).join('')}</td>`]],
    ['in full-width letters', [[...KEY].map((c) => String.fromCodePoint(c.charCodeAt(0) + 0xfee0)).join('')]],
  ])('refuses a file holding the key %s, in words that do not repeat it', (_what, parts) => {
    const error = send(exit(), parts)
    expect(error).toBeInstanceOf(AppError)
    expect((error as AppError).message).toMatch(/^report\.html was not saved: it holds this profile's API key/)
    expect((error as AppError).message).not.toContain(KEY)
    expect(log.warn).toHaveBeenCalledWith(expect.not.stringContaining(KEY))
  })

  it('refuses a file whose name holds the key', () => {
    expect(send(exit(), ['clean'], 'file-0001', `report-${KEY}.html`)).toBeInstanceOf(AppError)
  })

  it('refuses a part out of order and forgets the file', () => {
    const e = exit()
    e.check({ id: 'file-0001', name: 'a.csv', part: 0, text: 'a', last: false })
    expect(() => e.check({ id: 'file-0001', name: 'a.csv', part: 2, text: 'b', last: true })).toThrow(
      /part 2 came where part 1 was due/,
    )
    expect(() => e.check({ id: 'file-0001', name: 'a.csv', part: 1, text: 'b', last: true })).toThrow(
      /part 1 came where part 0 was due/,
    )
  })

  it('forgets a file whose next part did not come within five minutes', () => {
    const e = exit()
    e.check({ id: 'file-0001', name: 'a.csv', part: 0, text: KEY.slice(0, 10), last: false })
    vi.advanceTimersByTime(5 * 60_000 + 1)
    // Its first part is gone: the rest alone is a file of its own that starts at part 0.
    expect(() => e.check({ id: 'file-0001', name: 'a.csv', part: 1, text: KEY.slice(10), last: true })).toThrow(
      /part 1 came where part 0 was due/,
    )
  })

  it('takes parts no larger than the bridge carries', () => {
    const schema = bridgeCalls['files.check']
    const input = { id: 'file-0001', name: 'a.csv', part: 0, last: true }
    expect(schema.safeParse({ ...input, text: 'x'.repeat(FILE_CHECK_PART_CHARS) }).success).toBe(true)
    const big = schema.safeParse({ ...input, text: 'x'.repeat(FILE_CHECK_PART_CHARS + 1) })
    expect(big.error?.issues[0]?.message).toBe(`a part is at most ${FILE_CHECK_PART_CHARS} characters`)
  })
})
