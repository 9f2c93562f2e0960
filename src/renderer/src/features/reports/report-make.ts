import type { CaseFile } from '@shared/domain/case-file'
import { SANDBOX_PROFILE_ID } from '@shared/domain/profile'
import { useAppStore } from '../../platform/app-store'
import { useChainStore } from '../../platform/chain-store'
import { useSessionStore } from '../../platform/session-store'
import { fileSafe } from '../../ui/download'
import { gatherReport, type GraphRef, type SubjectRef } from './report-gather'
import type { ReportInput, ReportProvenance } from './report-model'

/** The profile's service host: scheme, host and port, nothing of its path or query. */
function hostOf(url: string): string {
  try {
    return new URL(url).host || url
  } catch {
    return 'unknown'
  }
}

/** Who makes the report with what, from where: read from the stores, never the key. */
async function provenanceNow(by: string | null): Promise<ReportProvenance> {
  const app = useAppStore()
  if (!app.info) await app.load()
  const session = useSessionStore()
  const p = session.active
  // Read once per network by the height watcher's first poll (docs/decisions/chain-id-once.md).
  const heights = useChainStore().heights
  return {
    profile: p?.name ?? 'none',
    // The built-in sandbox moves port each start: named for what it is.
    host: !p
      ? 'none'
      : p.id === SANDBOX_PROFILE_ID
        ? 'the built-in sandbox on this computer (127.0.0.1)'
        : hostOf(p.baseUrl),
    networks: (p?.networks ?? []).map((n) => ({
      name: n.name,
      label: n.label,
      chainId: heights[n.name]?.chainId ?? null,
    })),
    app: { name: app.info?.name ?? 'Chainscope', version: app.info?.version ?? 'unknown' },
    by: by?.trim() || null,
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone || 'unknown',
  }
}

export interface MakeReport {
  title: string
  subjects: readonly SubjectRef[]
  notes?: string
  /** A case's saved graph; without it, the flow graph open on the one address reported. */
  graph?: GraphRef | null
  /** The case reported: its paths, labels, notes and activity log go into the report. */
  caseFile?: CaseFile | null
  /** Who makes it, when the user gave a name. */
  by?: string | null
}

/** What the report and the evidence bundle buttons are given: a report's input and a file name. */
export interface ExportProps extends MakeReport {
  fileStem: string
}

/** `report-<stem>-2026-11-27-15-04-05`: the kind, the subject and when the report was made (UTC). */
export function exportStem(kind: 'report' | 'evidence', fileStem: string, generatedAt: string): string {
  return `${kind}-${fileSafe(fileStem)}-${generatedAt.slice(0, 19).replace(/[:T]/g, '-')}`
}

/** Everything a report or a bundle shows, from the cache: no request. */
export async function makeReportInput(m: MakeReport): Promise<ReportInput> {
  const [subjects, provenance] = await Promise.all([
    gatherReport(m.subjects, m.graph ?? null),
    provenanceNow(m.by ?? null),
  ])
  return {
    title: m.title,
    generatedAt: new Date().toISOString(),
    subjects,
    notes: m.notes ?? '',
    provenance,
    ...(m.caseFile ? { caseFile: m.caseFile } : {}),
  }
}
