// The screens and their addresses (hash history: works from file:// in Electron and from the web server).
import { createRouter, createWebHashHistory, type Router } from 'vue-router'
import RechargeView from './views/RechargeView.vue'
import SettingsView from './views/SettingsView.vue'

export function createCounterRouter(): Router {
  return createRouter({
    history: createWebHashHistory(),
    routes: [
      { path: '/', name: 'recharge', component: RechargeView },
      { path: '/settings', name: 'settings', component: SettingsView },
      { path: '/:unknown(.*)*', redirect: '/' },
    ],
  })
}
