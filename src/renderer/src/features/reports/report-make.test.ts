import { beforeEach, describe, expect, it } from 'vitest'
import { useChainStore } from '../../platform/chain-store'
import { useSessionStore } from '../../platform/session-store'
import { setupTestApp } from '../../testing/mount'
import { makeHeight, sandboxProfile } from '../../testing/samples'
import { makeReportInput } from './report-make'
import { provenanceSection } from './report-case'

describe("the report's provenance names each network's chain id", () => {
  beforeEach(() => {
    const t = setupTestApp()
    t.bridge.handle('app.info', () => ({ name: 'Chainscope', version: '9.8.7', host: 'web', platform: 'linux' }))
    useSessionStore().profiles = [sandboxProfile(true, true)]
  })

  it('from the chain id the height watcher read; "not recorded" for a network not read yet', async () => {
    useChainStore().heights = {
      alpha: makeHeight('alpha', '100', { chainId: '7001' }),
      beta: makeHeight('beta', '100'),
    }
    const input = await makeReportInput({ title: 'T', subjects: [] })
    expect(input.provenance?.networks).toEqual([
      { name: 'alpha', label: 'Alpha', chainId: '7001' },
      { name: 'beta', label: 'Beta', chainId: null },
    ])
    const doc = new DOMParser().parseFromString(provenanceSection(input), 'text/html')
    const rows = Object.fromEntries(
      [...doc.querySelectorAll('tr')].map((r) => [
        r.querySelector('th')?.textContent,
        r.querySelector('td')?.textContent,
      ]),
    )
    expect(rows['Networks']).toBe('Alpha (alpha, chain id 7001); Beta (beta, chain id not recorded)')
  })
})
