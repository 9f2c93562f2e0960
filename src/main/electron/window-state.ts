import type { BrowserWindow, Rectangle } from 'electron'
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { z } from 'zod'
import { errorMessage } from '@shared/guards'
import type { Logger } from '../core/util/logger'

export interface WindowState {
  /** Absent: let the OS place a default-sized window. */
  bounds: Rectangle | null
  maximized: boolean
}

export interface WindowStateOptions {
  /** The app's data folder; the state lives in `window-state.json` there. */
  dataDir: string
  log: Logger
  /** Smallest size restored. Default 900 × 600 (the window's minimum). */
  minWidth?: number
  minHeight?: number
  /** Resize and move are saved this long after they stop. Default 500 ms. */
  debounceMs?: number
}

const FILE = 'window-state.json'

const stateSchema = z.object({
  version: z.literal(1),
  bounds: z
    .object({
      x: z.number().int(),
      y: z.number().int(),
      width: z.number().int().positive(),
      height: z.number().int().positive(),
    })
    .nullable(),
  maximized: z.boolean(),
})

/** How much of the title bar must be on a screen for saved bounds to be used again. */
const MIN_VISIBLE = 64

/**
 * The window's size and position, remembered in the data folder. A missing, corrupt or
 * off-screen state (a display was unplugged) falls back to the default, never to a lost window.
 */
export class WindowStateStore {
  readonly #file: string
  readonly #log: Logger
  readonly #minWidth: number
  readonly #minHeight: number
  readonly #debounceMs: number

  constructor(options: WindowStateOptions) {
    this.#file = join(options.dataDir, FILE)
    this.#log = options.log
    this.#minWidth = options.minWidth ?? 900
    this.#minHeight = options.minHeight ?? 600
    this.#debounceMs = options.debounceMs ?? 500
  }

  /** The saved state, checked against the work areas of the displays now attached. */
  load(workAreas: readonly Rectangle[]): WindowState {
    let raw: string
    try {
      raw = readFileSync(this.#file, 'utf8')
    } catch {
      return { bounds: null, maximized: false }
    }
    let parsed: z.infer<typeof stateSchema>
    try {
      parsed = stateSchema.parse(JSON.parse(raw))
    } catch (error) {
      this.#log.warn(`ignoring ${FILE}: ${error instanceof Error ? error.message.slice(0, 200) : String(error)}`)
      return { bounds: null, maximized: false }
    }
    const bounds = parsed.bounds
    if (bounds === null) return { bounds: null, maximized: parsed.maximized }
    const sized = {
      ...bounds,
      width: Math.max(bounds.width, this.#minWidth),
      height: Math.max(bounds.height, this.#minHeight),
    }
    return {
      bounds: workAreas.some((area) => titleBarVisible(sized, area)) ? sized : null,
      maximized: parsed.maximized,
    }
  }

  save(state: WindowState): void {
    const tmp = `${this.#file}.tmp`
    try {
      mkdirSync(dirname(this.#file), { recursive: true })
      writeFileSync(tmp, JSON.stringify({ version: 1, ...state }))
      renameSync(tmp, this.#file)
    } catch (error) {
      // Losing the window position is harmless; the app goes on.
      this.#log.warn(`could not save ${FILE}: ${errorMessage(error)}`)
    }
  }

  /** Saves the window's normal (unmaximised) bounds after moves and resizes, and on close. */
  track(window: BrowserWindow): void {
    let timer: ReturnType<typeof setTimeout> | undefined
    const capture = (): void => {
      clearTimeout(timer)
      timer = undefined
      if (window.isDestroyed()) return
      this.save({ bounds: window.getNormalBounds(), maximized: window.isMaximized() })
    }
    const later = (): void => {
      clearTimeout(timer)
      timer = setTimeout(capture, this.#debounceMs)
    }
    window.on('resize', later)
    window.on('move', later)
    window.on('maximize', later)
    window.on('unmaximize', later)
    window.on('close', capture)
    window.once('closed', () => clearTimeout(timer))
  }
}

function titleBarVisible(bounds: Rectangle, area: Rectangle): boolean {
  const left = Math.max(bounds.x, area.x)
  const right = Math.min(bounds.x + bounds.width, area.x + area.width)
  const top = bounds.y
  return right - left >= MIN_VISIBLE && top >= area.y && top < area.y + area.height - MIN_VISIBLE / 2
}
