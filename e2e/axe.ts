import { AxeBuilder } from '@axe-core/playwright'
import type { Page } from '@playwright/test'

/** Impacts that fail the suite: axe's "serious" and "critical". */
export const BLOCKING_IMPACTS: readonly string[] = ['serious', 'critical']
/** Lesser rules that fail too: fixed once and cheap to keep fixed. */
export const BLOCKING_RULES: readonly string[] = ['heading-order']

export interface AxeFinding {
  screen: string
  theme: 'light' | 'dark'
  rule: string
  impact: string
  help: string
  /** CSS selectors of the offending nodes, with axe's one-line reason for the first few. */
  targets: string[]
}

/**
 * Runs axe-core's default rule set (WCAG 2.x A/AA and best practices) on the page as it is now,
 * in the light and then the dark theme, and returns every violation node by node.
 */
export async function auditBothThemes(
  page: Page,
  screen: string,
): Promise<{ findings: AxeFinding[]; review: AxeFinding[] }> {
  const findings: AxeFinding[] = []
  // What axe could not decide (text over an image or gradient, …): logged for a human, not failed.
  const review: AxeFinding[] = []
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme })
    // Let styles (and charts) settle in the theme before measuring contrast.
    await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))')
    // Legacy mode runs axe inside this page: the default opens a helper page in the context,
    // which a page from browser.newPage() (web fixture) or an Electron window does not allow.
    // Nothing here needs what it adds (cross-origin frames).
    const results = await new AxeBuilder({ page }).setLegacyMode(true).analyze()
    for (const [list, items] of [
      [findings, results.violations],
      [review, results.incomplete],
    ] as const) {
      for (const v of items) {
        list.push({
          screen,
          theme,
          rule: v.id,
          impact: v.impact ?? 'unknown',
          help: v.help,
          targets: v.nodes.map(
            (n) =>
              `${n.target.join(' ')}${n.failureSummary ? ` — ${n.failureSummary.replace(/\s+/g, ' ').slice(0, 160)}` : ''}`,
          ),
        })
      }
    }
  }
  await page.emulateMedia({ colorScheme: 'light' })
  return { findings, review }
}

/** "rule (impact): n nodes" per rule, over all screens and themes, for the log. */
export function countByRule(findings: readonly AxeFinding[]): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const f of findings) {
    const key = `${f.rule} (${f.impact})`
    counts[key] = (counts[key] ?? 0) + f.targets.length
  }
  return counts
}

/** A readable list of findings: where, which rule, and each node's selector. */
export function describeFindings(findings: readonly AxeFinding[]): string {
  return findings
    .map(
      (f) =>
        `${f.screen} [${f.theme}] ${f.rule} (${f.impact}): ${f.help}\n${f.targets.map((t) => `    ${t}`).join('\n')}`,
    )
    .join('\n')
}

/**
 * Audits the screen in both themes, logs every finding, and answers the blocking ones
 * (serious, critical, BLOCKING_RULES) as readable text: '' when there is none.
 */
export async function blockingFindings(page: Page, screen: string): Promise<string> {
  const { findings } = await auditBothThemes(page, screen)
  console.log(
    `axe-core on ${screen}: ${findings.map((f) => `${f.theme} ${f.rule} (${f.impact})`).join('; ') || 'none'}`,
  )
  return describeFindings(
    findings.filter((f) => BLOCKING_IMPACTS.includes(f.impact) || BLOCKING_RULES.includes(f.rule)),
  )
}
