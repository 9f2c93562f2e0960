import { defineStore } from 'pinia'
import { ref } from 'vue'
import { fileSafe } from '../../ui/download'
import { saveText } from '../../platform/save-file'
import { balancesExport, ExportCancelled, transactionsExport, type ExportFormat } from './export-build'
import { useBalancesStore } from '../balances'
import { useTransactionsStore } from '../transactions'
import { useWatchlistsStore, watchLabelsOn } from '../watchlists'
import { useLabelsStore } from '../labels'
import { errorMessage } from '@shared/guards'

export interface ExportProgress {
  label: string
  done: number
  total: number
}

/** Exports of what is loaded, with progress and a cancel for long ones. */
export const useExportsStore = defineStore('exports', () => {
  const progress = ref<ExportProgress | null>(null)
  const lastFile = ref<string | null>(null)
  const message = ref<string | null>(null)
  let controller: AbortController | null = null
  /** The user's names of addresses on a network, for the export's label columns. */
  const namesOn = (network: string) =>
    watchLabelsOn(useWatchlistsStore().lists, network, useLabelsStore().byId.values())

  async function run(
    label: string,
    filename: string,
    mime: string,
    build: (signal: AbortSignal, onProgress: (d: number, t: number) => void) => Promise<string>,
  ): Promise<boolean> {
    if (progress.value) return false
    controller = new AbortController()
    progress.value = { label, done: 0, total: 0 }
    message.value = null
    try {
      const text = await build(controller.signal, (done, total) => {
        progress.value = { label, done, total }
      })
      const refused = await saveText(filename, mime, text)
      if (refused) {
        message.value = `Export failed: ${refused.message}`
        return false
      }
      lastFile.value = filename
      message.value = `Saved ${filename}.`
      return true
    } catch (error) {
      message.value = error instanceof ExportCancelled ? 'Export cancelled.' : `Export failed: ${errorMessage(error)}`
      return false
    } finally {
      progress.value = null
      controller = null
    }
  }

  function stamp(): string {
    return new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19)
  }

  async function exportBalances(format: ExportFormat): Promise<boolean> {
    const balances = useBalancesStore()
    const view = balances.view
    if (!view) {
      message.value = 'There are no balances loaded to export.'
      return false
    }
    const filename = `balances-${fileSafe(view.network)}-${fileSafe(view.address)}-${stamp()}.${format}`
    return run(
      'Exporting balances',
      filename,
      format === 'csv' ? 'text/csv' : 'application/json',
      (signal, onProgress) => balancesExport(view, format, { signal, onProgress }),
    )
  }

  async function exportTransactions(format: ExportFormat): Promise<boolean> {
    const txs = useTransactionsStore()
    const target = txs.target
    if (!target || txs.entries.length === 0) {
      message.value = 'There are no transactions loaded to export.'
      return false
    }
    // Unreadable items go out as raw rows: an export never silently drops what was received.
    const items = txs.entries
    const filename = `transactions-${fileSafe(target.network)}-${fileSafe(target.address)}-${stamp()}.${format}`
    return run(
      `Exporting ${items.length} transactions`,
      filename,
      format === 'csv' ? 'text/csv' : 'application/json',
      (signal, onProgress) =>
        transactionsExport(
          { ...target, fetchedAt: txs.provenance?.fetchedAt ?? null, labels: namesOn(target.network) },
          items,
          format,
          {
            signal,
            onProgress,
            chunk: 250,
          },
        ),
    )
  }

  function cancel(): void {
    controller?.abort()
  }

  return { progress, lastFile, message, exportBalances, exportTransactions, cancel }
})
