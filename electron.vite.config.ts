import { resolve } from 'node:path'
import vue from '@vitejs/plugin-vue'
import { defineConfig } from 'electron-vite'

const shared = { '@shared': resolve(import.meta.dirname, 'src/shared') }

export default defineConfig({
  main: {
    resolve: { alias: shared },
    build: {
      // viem is bundled (tree-shaken) rather than loaded from node_modules: importing its full
      // index costs the sandbox ~2 s of start-up on a busy machine (first start ≤ 5 s).
      externalizeDeps: { exclude: ['viem'] },
      rollupOptions: {
        input: {
          // The Electron glue.
          index: resolve(import.meta.dirname, 'src/main/electron/index.ts'),
          // The web host: the same core and renderer, the bridge over HTTP on loopback.
          web: resolve(import.meta.dirname, 'src/main/web/cli.ts'),
          // The embedded sandbox, run by the hosts as a child process (node out/main/sandbox.js).
          sandbox: resolve(import.meta.dirname, 'sandbox/cli.ts'),
        },
      },
    },
  },
  preload: {
    resolve: { alias: shared },
    build: {
      rollupOptions: {
        input: { index: resolve(import.meta.dirname, 'src/preload/index.ts') },
        // A sandboxed preload must be CommonJS.
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(import.meta.dirname, 'src/renderer'),
    resolve: { alias: shared },
    plugins: [vue()],
    build: {
      // electron-vite leaves bundles unminified; the renderer is also served by the web host.
      minify: true,
      rollupOptions: {
        input: resolve(import.meta.dirname, 'src/renderer/index.html'),
        // A feature's index.ts re-exports its components; one that no loaded page renders must not
        // ride along into the first download. A .vue module does nothing on import (its styles are
        // modules of their own, kept whenever the component is).
        treeshake: { moduleSideEffects: (id: string) => !id.endsWith('.vue') },
      },
    },
  },
})
