import { runElectronApp } from './electron-app'

/** Entry of the desktop app (`out/main/index.js`); the glue lives in electron-app.ts. */
void runElectronApp()
