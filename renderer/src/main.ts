// Boots the page: zod's CSP-safe mode before any schema exists, then the app with stores and router (the words need no set-up: renderer/src/words.ts).
import '../../electron/contract/zod-jitless'
import { createApp } from 'vue'
import { createPinia } from 'pinia'
import App from './App.vue'
import { createCounterRouter } from './router'
import './styles.css'
import './books.css'
import './devanagari.css'

// The router is made here, after api.ts has taken the launch token out of the URL it reads.
createApp(App).use(createPinia()).use(createCounterRouter()).mount('#app')
