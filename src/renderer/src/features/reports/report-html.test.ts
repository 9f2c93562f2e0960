import { describe, expect, it } from 'vitest'
import type { Transaction } from '@shared/domain/service-schemas'
import { party } from '@shared/testing/service-samples'
import { TOKENS, transfer, tx } from '../../testing/analysis-samples'
import { buildReportHtml } from './report-html'
import type { ReportInput, ReportSubject } from './report-model'
import { ringLayout } from './report-svg'

const ME = '0x1111111111111111111111111111111111111111'
const B = '0x2222222222222222222222222222222222222222'
const C = '0x3333333333333333333333333333333333333333'
const HOSTILE = '<img src="https://evil.example/x.png" onerror="alert(1)">Exchange'

function sampleTxs(): Transaction[] {
  return [
    tx(B, ME, { minute: 1, value: '5000000000000000000' }),
    tx(ME, C, { minute: 2, value: '2000000000000000000' }),
    tx(ME, B, { minute: 3, value: '1000000000000000000', token_transfers: [transfer(TOKENS.usdc, ME, B, '2500000')] }),
    tx(C, ME, { minute: 4, value: '0', token_transfers: [transfer(TOKENS.usdc, C, ME, '9000000')] }),
    tx(B, C, { minute: 5, value: '700', to: party(C, { name: HOSTILE }), method: '<script>alert(2)</script>' }),
  ]
}

function subject(extra: Partial<ReportSubject> = {}): ReportSubject {
  return {
    network: 'alpha',
    networkLabel: 'Alpha',
    address: ME,
    label: 'Suspect <b>wallet</b>',
    note: 'Seen on 3 May & again',
    transactions: sampleTxs(),
    transactionsFetchedAt: '2026-01-02T03:04:05.000Z',
    balances: null,
    ...extra,
  }
}

function input(subjects: ReportSubject[]): ReportInput {
  return { title: 'Case: Heist "A"', generatedAt: '2026-01-03T00:00:00.000Z', subjects, notes: 'Line one\n<i>two</i>' }
}

const parse = (html: string): Document => new DOMParser().parseFromString(html, 'text/html')

describe('buildReportHtml', () => {
  const html = buildReportHtml(input([subject()]))
  const doc = parse(html)

  it('loads nothing: no script, no external src or href, no remote font, no http(s) anywhere', () => {
    expect(doc.querySelectorAll('script, link, iframe, object, embed, img, base')).toHaveLength(0)
    for (const el of doc.querySelectorAll('*')) {
      for (const attr of el.getAttributeNames()) {
        expect(attr.startsWith('on'), `${el.tagName} has ${attr}`).toBe(false)
        if (['src', 'href', 'xlink:href', 'action', 'srcset'].includes(attr))
          expect(el.getAttribute(attr), `${el.tagName} ${attr}`).toMatch(/^#/)
      }
    }
    // A service's name may hold a URL: it is text to read, never an address the page loads.
    for (const el of doc.querySelectorAll('*'))
      for (const attr of el.getAttributeNames()) expect(el.getAttribute(attr)).not.toMatch(/https?:|\/\//i)
    const style = [...doc.querySelectorAll('style')].map((s) => s.textContent).join('')
    expect(style).not.toMatch(/url\(|https?:|@import|@font-face/i)
    expect(html.replace(/https:\/\/evil\./g, '')).not.toMatch(/https?:/i)
    expect(doc.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content')).toContain(
      "default-src 'none'",
    )
  })

  it('shows hostile names as text, never as markup', () => {
    // The name and method are in the file only escaped: the parsed page has them as text.
    expect(html).not.toContain('<img')
    expect(html).not.toContain('<script>')
    expect(doc.body.textContent).toContain('<script>alert(2)</script>')
    expect(doc.title).toBe('Case: Heist "A"')
    expect(doc.querySelector('h2#a0')?.textContent).toContain('Suspect <b>wallet</b>')
  })

  it('holds the summary, notes, graph, charts, flows and transactions tables, each with its as-of time', () => {
    const headings = [...doc.querySelectorAll('h2, h3')].map((h) => h.textContent)
    expect(headings).toEqual(
      expect.arrayContaining(['Summary', 'Notes', 'Flow graph', 'Flows', 'Balance over time', 'Transactions']),
    )
    expect(doc.querySelector('#notes + p')?.textContent).toBe('Line one\n<i>two</i>')
    const tables = [...doc.querySelectorAll('table')]
    const flows = tables.find((t) => t.querySelector('th')?.textContent === 'From')!
    const txs = tables.find((t) => t.querySelector('th')?.textContent === 'Hash')!
    expect(txs.querySelectorAll('tbody tr')).toHaveLength(5)
    // Exact sums: 5 coin B→ME, 2.5 USDC ME→B, 9 USDC C→ME.
    const flowText = [...flows.querySelectorAll('tbody tr')].map((r) => r.textContent)
    expect(flowText.some((t) => t?.includes('5 coin'))).toBe(true)
    expect(flowText.some((t) => t?.includes('2.5 USDC'))).toBe(true)
    expect(flowText.some((t) => t?.includes('9 USDC'))).toBe(true)
    expect(doc.querySelectorAll('svg.graph circle').length).toBe(3)
    expect(doc.querySelectorAll('svg.graph line').length).toBe(flows.querySelectorAll('tbody tr').length)
    expect(doc.querySelectorAll('svg.chart polyline').length).toBeGreaterThan(0)
    const asOf = [...doc.querySelectorAll('.asof')].map((p) => p.textContent)
    expect(asOf.filter((t) => t === 'Data as of 2026-01-02 03:04:05 UTC.')).toHaveLength(4)
    expect(html).toContain('@media print')
  })

  it('says so when an address has nothing kept, and still makes a whole page', () => {
    const empty = parse(buildReportHtml(input([subject({ transactions: [], transactionsFetchedAt: null })])))
    expect(empty.body.textContent).toContain('No transactions of this address were kept')
    expect(empty.body.textContent).toContain('Data as of not loaded.')
    expect(empty.querySelectorAll('svg')).toHaveLength(0)
  })
})

describe('ringLayout', () => {
  it('puts the root in the centre and each hop on its own ring, the same way every time', () => {
    const hops = new Map([
      [ME, 0],
      [B, 1],
      [C, 1],
      ['0x4444444444444444444444444444444444444444', 2],
    ])
    const a = ringLayout(hops)
    expect(a.get(ME)).toEqual({ x: 0, y: 0 })
    const r = (id: string): number => Math.hypot(a.get(id)!.x, a.get(id)!.y)
    expect(r(B)).toBeCloseTo(130)
    expect(r(C)).toBeCloseTo(130)
    expect(r('0x4444444444444444444444444444444444444444')).toBeCloseTo(260)
    expect(ringLayout(new Map([...hops].reverse()))).toEqual(a)
  })
})
