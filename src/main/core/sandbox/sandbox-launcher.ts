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
  stop(): Promise<void>
  /** Resolves when the sandbox exits for any reason (crash included). */
  exited: Promise<{ code: number | null }>
}

export interface SandboxLauncher {
  launch(options: { onProgress?: (p: SandboxProgress) => void; signal?: AbortSignal }): Promise<RunningSandbox>
}
