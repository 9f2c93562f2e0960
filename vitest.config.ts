import { resolve } from 'node:path'
import vue from '@vitejs/plugin-vue'
import { defineConfig } from 'vitest/config'

const alias = { '@shared': resolve(import.meta.dirname, 'src/shared') }

/** Two projects: Node (main, shared, preload, sandbox, lint rules) and DOM (the renderer). */
export default defineConfig({
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'node',
          environment: 'node',
          include: [
            'src/main/**/*.test.ts',
            'src/shared/**/*.test.ts',
            'src/preload/**/*.test.ts',
            'sandbox/**/*.test.ts',
            'eslint-rules/**/*.test.ts',
            'scripts/**/*.test.ts',
            'bench/**/*.test.ts',
          ],
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
      {
        resolve: { alias },
        plugins: [vue()],
        test: {
          name: 'dom',
          environment: 'happy-dom',
          include: ['src/renderer/**/*.test.ts'],
          // A hang guard, not a timing check: the DOM property tests (hundreds of renders each)
          // take seconds when the machine is busy, close to Vitest's 5 s default.
          testTimeout: 15_000,
        },
      },
    ],
  },
})
