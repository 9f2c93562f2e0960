import { z } from 'zod'
import type { SandboxInfo } from '@shared/domain/sandbox-info'

/**
 * How main starts the built-in sandbox. The host decides the mechanism (a Node child process
 * in the web host and in tests; Electron's utilityProcess in the desktop app, since the
 * RunAsNode fuse is off); core only needs the ready line's information and a way to stop it.
 */
export type { SandboxInfo }

/** A `sandbox-progress {…}` line of the sandbox's stderr, parsed where it enters. */
export const sandboxProgressSchema = z.object({
  stage: z.string(),
  network: z.string().optional(),
  done: z.number().optional(),
  total: z.number().optional(),
})
export type SandboxProgress = z.infer<typeof sandboxProgressSchema>

export interface RunningSandbox {
  info: SandboxInfo
  /** Its process id, when the host knows it. */
  pid?: number
  stop(): Promise<void>
  /** Resolves when the sandbox exits for any reason (crash included). */
  exited: Promise<{ code: number | null }>
}

export interface LaunchOptions {
  onProgress?: (p: SandboxProgress) => void
  signal?: AbortSignal
  /** Start from the seed, forgetting the chains the sandbox saved (a reset). Default false: resume them. */
  fresh?: boolean
}

export interface SandboxLauncher {
  launch(options: LaunchOptions): Promise<RunningSandbox>
}

/** The folder, in the app's data folder, where the sandbox keeps its chains across its restarts. */
export const SANDBOX_LIVE_DIR = 'sandbox-chains'

/**
 * The sandbox's arguments for its saved chains (sandbox `--live-state DIR`, `--fresh`): none
 * without a folder, and then every start begins at the seed.
 */
export function liveStateArgs(liveStateDir: string | undefined, fresh: boolean | undefined): string[] {
  if (!liveStateDir) return []
  return fresh ? ['--live-state', liveStateDir, '--fresh'] : ['--live-state', liveStateDir]
}
