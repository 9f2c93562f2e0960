import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { AddressObject } from '@shared/domain/service-schemas'
import { makeTx, ME, OTHER, party } from '../../testing/samples'

/** A canvas whose fonts measure 7 px per character at 14 px (scaled by size), as a browser would measure. */
function fakeCanvas(): void {
  const ctx = {
    font: '14px sans-serif',
    measureText(text: string) {
      const px = Number(/^([\d.]+)px/.exec(this.font)?.[1] ?? 14)
      return { width: text.length * px * 0.5 } as TextMetrics
    },
  }
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(ctx as unknown as CanvasRenderingContext2D)
}

async function load() {
  vi.resetModules()
  const view = await import('./tx-row-view')
  const { partiesColumnPx } = await import('./tx-columns')
  return { ...view, partiesColumnPx }
}

describe('rowView: which cells clip', () => {
  beforeEach(() => fakeCanvas())
  afterEach(() => vi.restoreAllMocks())

  it('measures the parties: a row whose content fits its column has no clip, a long name has', async () => {
    const { listFonts, partiesColumnPx, rowView } = await load()
    const f = listFonts()
    const column = partiesColumnPx(1000, f)
    expect(column).toBe(16 * f.rem)
    const plain = rowView(makeTx(0), ME, f)
    expect(plain.partiesPx).toBeLessThan(column)
    const named = rowView(
      makeTx(1, {
        from: party('0x5555555555555555555555555555555555555555', { name: 'A very long counterparty name' }),
      }),
      ME,
      f,
    )
    expect(named.partiesPx).toBeGreaterThan(column)
    // Wider lists give the parties column the rest of the width.
    expect(partiesColumnPx(1600, f)).toBeGreaterThan(named.partiesPx)
  })

  it('clips a method badge only when the method is longer than its column', async () => {
    const { listFonts, rowView } = await load()
    const f = listFonts()
    expect(rowView(makeTx(0, { method: 'transfer' }), ME, f).cutMethod).toBe(false)
    expect(
      rowView(makeTx(0, { method: 'swapExactTokensForTokensSupportingFeeOnTransferTokens' }), ME, f).cutMethod,
    ).toBe(true)
  })

  it('wraps a status only when it may not fit one line, and says when a note would not fit beside it', async () => {
    const { listFonts, rowView } = await load()
    const f = listFonts()
    const ok = rowView(makeTx(0), ME, f)
    expect(ok.status).toBe('Success')
    expect(ok.wrapStatus).toBe(false)
    expect(ok.cutWithNote).toBe(false)
    const failed = rowView(makeTx(1, { status: 'error', result: 'execution reverted: insufficient balance' }), ME, f)
    expect(failed.wrapStatus).toBe(true)
    expect(failed.cutWithNote).toBe(true)
  })

  it('warms the measuring of each of the list fonts, so the first rows find them measured', async () => {
    const measured: string[] = []
    const ctx = document.createElement('canvas').getContext('2d')!
    const measure = ctx.measureText.bind(ctx)
    vi.spyOn(ctx, 'measureText').mockImplementation(
      (text: string) => (measured.push(`${ctx.font}|${text}`), measure(text)),
    )
    const { listFonts, warmUpMeasuring, rowView } = await load()
    const f = listFonts()
    warmUpMeasuring(f)
    expect(new Set(measured.map((m) => m.split('|')[0]))).toEqual(new Set([f.text.css, f.badge.css, f.mono.css]))
    // The same text later is not measured again.
    const before = measured.length
    rowView(makeTx(0, { method: 'transfer', from: party('0x0000000000000000000000000000000000000000') }), ME, f)
    expect(measured.slice(before)).not.toContain(`${f.text.css}|0x0000…0000`)
  })

  it('keeps amounts exact for the tooltip whatever is shown', async () => {
    const { listFonts, rowView } = await load()
    const max = (2n ** 256n - 1n).toString()
    const v = rowView(makeTx(0, { value: max }), ME, listFonts())
    expect(v.cutValue).toBe(true)
    expect(v.value.exact.replace(/,/g, '')).toContain(max.slice(0, 20))
  })

  it('two senders never read the same: a name that looks like an address is marked, bidi controls go', async () => {
    const { listFonts, rowView } = await load()
    const f = listFonts()
    const real = rowView(makeTx(2, { from: party(OTHER) }), ME, f)
    const named = (extra: Partial<AddressObject>) =>
      rowView(makeTx(3, { from: party('0x5555555555555555555555555555555555555555', extra) }), ME, f).fromText
    expect(real.fromText).toBe('0x2222…2222')
    expect(named({ name: '0x2222…2222' })).toBe('name “0x2222…2222”')
    expect(named({ ens_domain_name: '0x2222…2222' })).toBe('name “0x2222…2222”')
    // Drawn right to left, "\u202E2222…2222x0" reads "0x2222…2222".
    expect(named({ name: '\u202E2222…2222x0' })).toBe('2222…2222x0')
    // Nothing visible: the address is shown, as for a party without a name.
    expect(named({ name: '\u200B\u2066', ens_domain_name: null })).toBe('0x5555…5555')
    const to = rowView(
      makeTx(4, { to: party('0x6666666666666666666666666666666666666666', { name: '0x2222…2222' }) }),
      ME,
      f,
    )
    expect(to.toText).toBe('name “0x2222…2222”')
  })
})
