import type { SandboxStatus } from '@shared/bridge/contract'
import { formatCount } from '@shared/domain/amount'

type Stage = NonNullable<SandboxStatus['stages']>[number]

/** The words for each stage the sandbox reports (sandbox/chain/network.ts); unknown ones pass through. */
const WORDS: Record<string, string> = {
  unpacking: 'unpacking the sample chain',
  loading: 'loading the chain',
  seeding: 'seeding transactions',
  indexing: 'indexing blocks',
  saving: 'saving for the next start',
}

/** One progress line per network while the sandbox starts: the per-network stages, else the latest one. */
export function sandboxStages(
  status: SandboxStatus | null,
): { key: string; label: string; detail: string; done: number | null; total: number | null }[] {
  if (status?.state !== 'starting') return []
  const stages: Stage[] = status.stages?.length ? status.stages : status.progress ? [status.progress] : []
  return stages.map((s) => {
    const where = s.network
      ? `Preparing ${s.network.charAt(0).toUpperCase()}${s.network.slice(1)}`
      : 'Preparing the sandbox'
    const counted = typeof s.done === 'number' && typeof s.total === 'number' && s.total > 0
    const words = WORDS[s.stage] ?? s.stage
    return {
      key: s.network ?? '',
      label: where,
      detail: counted ? `${words}, ${formatCount(s.done!)} of ${formatCount(s.total!)}` : `${words}…`,
      done: counted ? s.done! : null,
      total: counted ? s.total! : null,
    }
  })
}
