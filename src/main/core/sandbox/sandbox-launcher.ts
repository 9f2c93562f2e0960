import type { SandboxInfo } from '../../../shared/domain/sandbox-info'

/**
 * How main starts the built-in sandbox. The host decides the mechanism (a Node child process
 * in the web host and in tests; Electron's utilityProcess in the desktop app, since the
 * RunAsNode fuse is off); core only needs the ready line's information and a way to stop it.
 */
export type { SandboxInfo }

export interface SandboxProgress {
  stage: string
  network?: string
  done?: number
  total?: number
}

export interface RunningSandbox {
  info: SandboxInfo
  stop(): Promise<void>
  /** Resolves when the sandbox exits for any reason (crash included). */
  exited: Promise<{ code: number | null }>
}

export interface SandboxLauncher {
  launch(options: { onProgress?: (p: SandboxProgress) => void; signal?: AbortSignal }): Promise<RunningSandbox>
}
