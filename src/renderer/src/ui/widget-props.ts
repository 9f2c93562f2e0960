import type { BridgeError } from '@shared/bridge/errors'
import type { Provenance } from '@shared/bridge/contract'
import type { ErrorAction } from './errors'

/**
 * What a caller tells the error panel, cost control and freshness note. The widgets in ui/
 * also take the live facts (the clock, the limiter, the connection) as props; the wrappers in
 * platform/ take these same props and fill those facts in from the stores.
 */
export interface ErrorPanelProps {
  error: BridgeError | null
  /**
   * When the error arrived (ms), for the retry countdown. Default: when the panel was given
   * it; a store passes its own time so a panel mounted later still counts from the arrival.
   */
  arrivedAt?: number
  /** What failed, e.g. "Balances could not be loaded". */
  context?: string
  busy?: boolean
  /** Ways forward not to offer here (e.g. "fix-key" inside the key form itself). */
  hide?: ErrorAction[]
}

export interface CostConfirmProps {
  label: string
  requests: number | null
  /** The most it may cost where that depends on answers not known yet: shown as "5–29 units", and the reserve is measured against it. */
  requestsMax?: number | null
  disabled?: boolean
  title?: string
  unknownCost?: string
  /** Ask before every run, not only past the reserve (work that fans out, such as expanding a graph). */
  confirm?: boolean
}

export interface ProvenanceNoteProps {
  provenance: Provenance | null
  /** The note's accessible name, where a page shows more than one. Default "Data freshness". */
  label?: string
}
