import { BrowserWindow, type BrowserWindowConstructorOptions, type WebPreferences } from 'electron'

/**
 * A window of the app, hardened: every security-relevant web preference is spelled out, even
 * where it is Electron's default, so a future default change or a copied starter template
 * cannot weaken it silently. They come after the window's own preferences (`own`: a preload,
 * a session), so none of those can undo them; and they are written here, in the constructor
 * call, where the security lint (scripts/electronegativity.mjs) reads them.
 */
export function hardenedWindow(
  options: Omit<BrowserWindowConstructorOptions, 'webPreferences'>,
  own: WebPreferences = {},
): BrowserWindow {
  return new BrowserWindow({
    ...options,
    webPreferences: {
      ...own,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      // Spellcheck would fetch dictionaries from a Google CDN: no network from the renderer's side.
      spellcheck: false,
      // Middle-click (auxclick) opens links without the click handlers the app relies on.
      disableBlinkFeatures: 'Auxclick',
    },
  })
}
