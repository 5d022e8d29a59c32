// Build of the three Electron bundles (main + the browser-mode server, preload, renderer).
import { resolve } from 'node:path'
import { defineConfig } from 'electron-vite'
import vue from '@vitejs/plugin-vue'

export default defineConfig({
  main: {
    build: {
      // zod is bundled, not loaded from node_modules: as its ~95 files it took 55–100 ms of every start, and the
      // contract's schemas (zod) are on the way to the counter's first answer.
      externalizeDeps: { exclude: ['zod'] },
      rollupOptions: {
        // web.js is the browser-mode server: plain Node, started with `node out/main/web.js`. The thread
        // entries are the ledger's workers, and audit-process.js the audit's own process
        // (electron/ledger/threads.ts finds them beside the code that starts them, so shared chunks stay in out/main too).
        input: {
          index: resolve('electron/main.ts'),
          web: resolve('electron/web/cli.ts'),
          // office.js is the head office's read-only page (`npm run office`): plain Node, like web.js.
          office: resolve('electron/office/office-cli.ts'),
          // rebuild.js rebuilds a counter from the head office (`npm run rebuild`): plain Node, like web.js.
          rebuild: resolve('electron/rebuild-cli.ts'),
          'ledger-thread': resolve('electron/ledger/ledger-thread.ts'),
          'chores-thread': resolve('electron/ledger/chores-thread.ts'),
          // The whole-journal audit's own process, started by the chores thread (electron/ledger/audit-runner.ts).
          'audit-process': resolve('electron/ledger/audit-process.ts'),
          // The head office's journal shipper (electron/office/): its own thread, off the sale path.
          'shipper-thread': resolve('electron/office/shipper-thread.ts'),
        },
        output: { chunkFileNames: '[name]-[hash].js' },
      },
    },
  },
  preload: {
    build: {
      rollupOptions: { input: { index: resolve('electron/preload.ts') } },
    },
  },
  renderer: {
    root: resolve('renderer'),
    plugins: [vue()],
    build: {
      rollupOptions: { input: { index: resolve('renderer/index.html') } },
    },
  },
})
