import type { Priority } from '@shared/bridge/contract'
import { countUnits, unitNoun, type Billing } from '@shared/domain/billing'
import { AppError } from '../util/app-error'
import type { Clock, ClockTimer } from '../util/clock'
import type { Permit } from './limiter-options'

/** A request waiting in a limiter's queue for tokens, a slot and quota. */
export interface Job {
  seq: number
  cost: number
  priority: () => Priority
  resolve: (permit: Permit) => void
  reject: (error: unknown) => void
  signal?: AbortSignal
  onAbort?: () => void
  deadline?: ClockTimer
}

const RANK: Record<Priority, number> = { user: 0, prefetch: 1, background: 2 }

/** The job to send next: the highest priority, first come first served within it. */
export function bestJob(queue: readonly Job[]): Job {
  let best = 0
  for (let i = 1; i < queue.length; i++) {
    const a = queue[i]!
    const b = queue[best]!
    const ra = RANK[a.priority()]
    const rb = RANK[b.priority()]
    if (ra < rb || (ra === rb && a.seq < b.seq)) best = i
  }
  return queue[best]!
}

/** Ends a job's wait: its permit, or the error it fails with; its abort listener and deadline go. */
export function settleJob(clock: Clock, job: Job, outcome: Permit | AppError): void {
  if (job.onAbort) job.signal?.removeEventListener('abort', job.onAbort)
  if (job.deadline !== undefined) clock.clearTimeout(job.deadline)
  if (outcome instanceof AppError) job.reject(outcome)
  else job.resolve(outcome)
}

/** How many jobs wait at each priority (the limiter's state shows it). */
export function queuedByPriority(queue: readonly Job[]): Record<Priority, number> {
  const queued = { user: 0, prefetch: 0, background: 0 }
  for (const job of queue) queued[job.priority()] += 1
  return queued
}

/**
 * Why a queued job is refused before it is sent, in the service's unit: today's quota cannot
 * pay for it (`quota`), or it is background work and what is left is kept for the user's own
 * clicks (`reserve`). Both say when the quota resets.
 */
export function quotaRefusalMessage(
  why: 'quota' | 'reserve',
  cost: number,
  day: { left: number; quotaPerDay: number; billing: Billing; resetsAtUtc: string },
): string {
  const { left, quotaPerDay, billing, resetsAtUtc } = day
  const noun = (n: number): string => unitNoun(billing, n)
  return why === 'reserve'
    ? `Background refresh is paused: ${left} of today's ${quotaPerDay} ${noun(2)} are left and kept for what you open yourself. It resumes when the quota resets at ${resetsAtUtc} UTC.`
    : left > 0
      ? `This request costs ${countUnits(billing, cost)} and only ${left} of today's ${quotaPerDay} are left; the quota resets at ${resetsAtUtc} UTC.`
      : `Today's quota of ${quotaPerDay} ${noun(2)} is used up; it resets at ${resetsAtUtc} UTC.`
}
