import { describe, expect, it } from 'vitest'
import type { CaseFile } from '@shared/domain/case-file'
import { appendEntry, logHead } from '@shared/domain/case-log'
import { checkBundle, coreHash, MANIFEST_META, utf8, type Manifest } from '@shared/domain/evidence'
import { party } from '@shared/testing/service-samples'
import { TOKENS, transfer, tx } from '../../testing/analysis-samples'
import { bundleFiles } from './report-bundle'
import type { ReportInput, ReportSubject } from './report-model'

const ME = '0x1111111111111111111111111111111111111111'
const B = '0x2222222222222222222222222222222222222222'
const C = '0x3333333333333333333333333333333333333333'
const HOSTILE = '<img src="https://evil.example/x.png">Exchange <a href="https://evil.example">x</a>'
const ME_SUM = '0x1111111111111111111111111111111111111111'

/** A case built by hand: two addresses, a path with its transactions, a log of three entries. */
function caseFile(): CaseFile {
  let log = appendEntry([], {
    at: '2026-01-02T00:00:00.000Z',
    kind: 'change',
    what: 'Case created',
    profile: null,
    cost: null,
  })
  log = appendEntry(log, {
    at: '2026-01-02T00:01:00.000Z',
    kind: 'fetch',
    what: `Fetched ${B}`,
    profile: 'Sandbox',
    cost: '1 request',
  })
  log = appendEntry(log, {
    at: '2026-01-02T00:02:00.000Z',
    kind: 'change',
    what: 'Asked for a path',
    profile: null,
    cost: null,
  })
  return {
    id: 'c1',
    name: 'Heist',
    createdAt: '2026-01-02T00:00:00.000Z',
    updatedAt: '2026-01-02T00:02:00.000Z',
    addresses: [
      { address: ME, network: 'alpha', label: 'Victim', note: 'hot wallet', addedAt: '2026-01-02T00:00:00.000Z' },
      { address: B, network: 'alpha', label: HOSTILE, note: 'deposit', addedAt: '2026-01-02T00:00:00.000Z' },
    ],
    notes: 'Case notes',
    graph: {
      version: 2,
      expanded: [],
      hopLimit: 2,
      filters: { asset: null, minAmount: null, from: null, to: null, direction: 'both' },
      selected: null,
      positions: [],
    },
    paths: [
      {
        network: 'alpha',
        from: ME,
        to: C,
        maxHops: 3,
        undirected: false,
        askedAt: '2026-01-02T00:02:00.000Z',
        answer: [
          {
            from: ME,
            to: B,
            asset: 'native',
            symbol: 'coin',
            decimals: 18,
            value: '1000000000000000000',
            count: 1,
            firstMs: 0,
            lastMs: 0,
            hashes: [`0x${'a'.repeat(64)}`],
          },
          {
            from: B,
            to: C,
            asset: 'native',
            symbol: 'coin',
            decimals: 18,
            value: '700',
            count: 1,
            firstMs: 0,
            lastMs: 0,
            hashes: [`0x${'b'.repeat(64)}`],
          },
        ],
      },
    ],
    log,
  }
}

function subject(): ReportSubject {
  const transactions = [
    tx(B, ME, { minute: 1, value: '5000000000000000000' }),
    tx(ME, B, { minute: 3, value: '1000000000000000000' }),
    tx(C, ME, { minute: 4, value: '0', token_transfers: [transfer(TOKENS.usdc, C, ME, '9000000')] }),
    tx(B, C, { minute: 5, value: '700', to: party(C, { name: HOSTILE }) }),
  ]
  return {
    network: 'alpha',
    networkLabel: 'Alpha',
    address: ME,
    label: 'Victim',
    note: 'hot wallet',
    transactions,
    transactionsFetchedAt: '2026-01-02T03:04:05.000Z',
    balances: null,
    coin: { wei: '999355900000000000000000', fetchedAt: '2026-01-02T03:05:00.000Z' },
    approvals: null,
    sources: [
      {
        file: `transactions-alpha-${ME}.json`,
        network: 'alpha',
        address: ME,
        kind: 'transactions',
        request: { method: 'GET', path: '/api/v1/alpha/transactions', params: { address: ME } },
        asOf: '2026-01-02T03:04:05.000Z',
        body: [
          {
            request: { method: 'GET', path: '/api/v1/alpha/transactions', params: { address: ME } },
            items: transactions,
          },
        ],
      },
    ],
  }
}

function input(): ReportInput {
  return {
    title: 'Case: Heist',
    generatedAt: '2026-01-03T00:00:00.000Z',
    subjects: [subject()],
    notes: 'Case notes',
    caseFile: caseFile(),
    provenance: {
      profile: 'Sandbox (built in)',
      host: '127.0.0.1:8545',
      networks: [
        { name: 'alpha', label: 'Alpha', chainId: null },
        { name: 'beta', label: 'Beta', chainId: null },
      ],
      app: { name: 'Chainscope', version: '1.2.3' },
      by: 'A. Analyst',
      timeZone: 'Europe/Berlin',
    },
  }
}

const parse = (html: string): Document => new DOMParser().parseFromString(html, 'text/html')
const section = (doc: Document, id: string): Element => doc.querySelector(`section[aria-labelledby="${id}"]`)!

/** Every string and key in a JSON value. */
const strings = (v: unknown): string[] =>
  typeof v === 'string'
    ? [v]
    : typeof v === 'object' && v !== null
      ? Object.entries(v).flatMap(([k, x]) => [k, ...strings(x)])
      : []

describe('the evidence bundle and its report', () => {
  it('holds the report, the case, each source and a manifest that verifies', () => {
    const { files, manifestHash } = bundleFiles(input())
    expect(files.map((f) => f.path)).toEqual([
      'data/case.json',
      `data/transactions-alpha-${ME}.json`,
      'report.html',
      'manifest.json',
    ])
    const texts = new Map(files.map((f) => [f.path, utf8(f.text)]))
    expect(checkBundle((p) => texts.get(p) ?? null, [...texts.keys()])).toEqual([])
    const manifest = JSON.parse(files.at(-1)!.text) as Manifest
    expect(coreHash(manifest)).toBe(manifestHash)
    const doc = parse(files[2]!.text)
    expect(doc.querySelector(`meta[name="${MANIFEST_META}"]`)!.getAttribute('content')).toBe(manifestHash)
    const data = JSON.parse(files[1]!.text)
    expect(data).toMatchObject({
      kind: 'transactions',
      asOf: '2026-01-02T03:04:05.000Z',
      request: { method: 'GET', path: '/api/v1/alpha/transactions' },
    })
    expect(JSON.parse(files[0]!.text).logHead).toBe(logHead(caseFile().log))
  })

  it('states its provenance and every section an exhibit needs', () => {
    const { files, manifestHash } = bundleFiles(input())
    const doc = parse(files.find((f) => f.path === 'report.html')!.text)
    const prov = Object.fromEntries(
      [...section(doc, 'provenance').querySelectorAll('tr')].map((r) => [
        r.querySelector('th')!.textContent,
        r.querySelector('td')!.textContent,
      ]),
    )
    expect(prov).toMatchObject({
      'Made by': 'A. Analyst',
      'Made with': 'Chainscope 1.2.3',
      'Data source': 'profile “Sandbox (built in)”, service at 127.0.0.1:8545',
      'Manifest hash (SHA-256)': manifestHash,
      'Activity log head (SHA-256)': logHead(caseFile().log),
    })
    expect(prov['Made at']).toContain('Europe/Berlin')
    expect(prov['Networks']).toBe('Alpha (alpha, chain id not recorded); Beta (beta, chain id not recorded)')
    // The coin balance as fetched, and its line drawn from it (not 0 → a negative net change).
    const body = doc.body.textContent!
    expect(body).toContain('Coin balance: 999,355.9 coin as of 2026-01-02 03:05:00 UTC.')
    expect(body).not.toContain("today's balance not loaded")
    expect(body).toContain('Balance of coin')
    expect(body).toContain('Token balances: missing (not loaded on this computer).')
    // Paths with each hop's transactions; labels beside full addresses; the log with its hashes.
    const paths = section(doc, 'paths')
    expect(paths.textContent).toContain(`0x${'a'.repeat(64)}`)
    expect(paths.querySelectorAll('tbody tr')).toHaveLength(2)
    const labels = [...section(doc, 'labels').querySelectorAll('tbody tr td:first-child')].map((td) => [
      td.querySelector('.mono')!.textContent,
      td.querySelector('.label')!.textContent,
    ])
    expect(labels).toEqual([
      [ME_SUM, 'Victim'],
      ['0x2222222222222222222222222222222222222222', HOSTILE],
    ])
    const log = section(doc, 'log')
    expect(log.textContent).toContain('3 entries')
    expect([...log.querySelectorAll('tbody tr')].map((r) => r.querySelector('td:last-child')!.textContent)).toEqual(
      caseFile().log.map((e) => e.hash),
    )
    // A token transfer shows its token amount, not "0 coin".
    const rows = [...doc.querySelectorAll('table')].find((t) => t.textContent!.includes('Direction'))!
    expect(rows.textContent).toContain('9 USDC')
    expect(rows.textContent).not.toMatch(/^0 coin$/m)
  })

  it('holds no key, no script, nothing that loads and no external URL outside quoted service text', () => {
    const KEY = 'sbx_bundle_key_0000'
    const { files } = bundleFiles(input())
    for (const f of files) expect(f.text).not.toContain(KEY)
    const doc = parse(files.find((f) => f.path === 'report.html')!.text)
    expect(doc.querySelectorAll('script, link, img, iframe, object, embed, a[href], [src], [srcset]')).toHaveLength(0)
    for (const el of doc.querySelectorAll('*'))
      for (const a of el.attributes) {
        expect(a.name.startsWith('on'), `${a.name} on ${el.tagName}`).toBe(false)
        expect(a.value, `${a.name} on ${el.tagName}`).not.toMatch(/:\/\//)
      }
    for (const style of doc.querySelectorAll('style')) expect(style.textContent).not.toMatch(/url\(|@import/)
    expect(doc.querySelector('meta[http-equiv="Content-Security-Policy"]')!.getAttribute('content')).toContain(
      "default-src 'none'",
    )
    for (const f of files.filter((x) => x.path.endsWith('.json'))) {
      const v = JSON.parse(f.text)
      // Only the service's own item text may hold a URL (here the hostile name); nothing Chainscope adds does.
      const ours = strings({ ...v, body: undefined, case: undefined })
      for (const s of ours) expect(s).not.toMatch(/:\/\//)
    }
  })

  it('prints with page numbers, its title and the manifest hash in the footer, and table headers repeated', () => {
    const { files, manifestHash } = bundleFiles(input())
    const css = parse(files.find((f) => f.path === 'report.html')!.text).querySelector('style')!.textContent!
    expect(css).toMatch(/@bottom-right \{ content: "Page " counter\(page\) " of " counter\(pages\)/)
    expect(css).toContain(manifestHash)
    expect(css).toContain('thead { display: table-header-group; }')
  })
})
