// The screens and their addresses (hash history: works from file:// in Electron and from the web server).
import { createRouter, createWebHashHistory, type Router } from 'vue-router'
import AgentsView from './views/AgentsView.vue'
import CouponsView from './views/CouponsView.vue'
import RechargeView from './views/RechargeView.vue'
import SettingsView from './views/SettingsView.vue'
import UnavailableView from './views/UnavailableView.vue'

export function createCounterRouter(): Router {
  return createRouter({
    history: createWebHashHistory(),
    routes: [
      { path: '/', name: 'recharge', component: RechargeView },
      { path: '/agents', name: 'agents', component: AgentsView },
      { path: '/coupons', name: 'coupons', component: CouponsView },
      { path: '/unavailable/:id', name: 'unavailable', component: UnavailableView, props: true },
      { path: '/settings', name: 'settings', component: SettingsView },
      { path: '/:unknown(.*)*', redirect: '/' },
    ],
  })
}
