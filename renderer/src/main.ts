// Boots the page: zod's CSP-safe mode before any schema exists, then the app with stores, router and strings.
import '../../electron/contract/zod-jitless'
import { createApp } from 'vue'
import { createPinia } from 'pinia'
import App from './App.vue'
import { i18n } from './i18n'
import { createCounterRouter } from './router'
import './styles.css'
import './books.css'
import './devanagari.css'

// The router is made here, after api.ts has taken the launch token out of the URL it reads.
createApp(App).use(createPinia()).use(createCounterRouter()).use(i18n).mount('#app')
