// Build of the three Electron bundles (main + the browser-mode server, preload, renderer).
import { resolve } from 'node:path'
import { defineConfig } from 'electron-vite'
import vue from '@vitejs/plugin-vue'

export default defineConfig({
  main: {
    build: {
      rollupOptions: {
        // web.js is the browser-mode server: plain Node, started with `node out/main/web.js`.
        input: { index: resolve('electron/main.ts'), web: resolve('electron/web/cli.ts') },
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
