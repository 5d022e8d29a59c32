// The screens and their addresses (hash history: works from file:// in Electron and from the web server).
import { createRouter, createWebHashHistory, type Router } from 'vue-router'
import AgentsView from './views/AgentsView.vue'
import CouponsView from './views/CouponsView.vue'
import DayCloseView from './views/DayCloseView.vue'
import DuesView from './views/DuesView.vue'
import DrawerView from './views/DrawerView.vue'
import HistoryView from './views/HistoryView.vue'
import PendingView from './views/PendingView.vue'
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
      { path: '/pending', name: 'pending', component: PendingView },
      { path: '/day-close', name: 'day-close', component: DayCloseView },
      { path: '/history', name: 'history', component: HistoryView },
      { path: '/dues', name: 'dues', component: DuesView },
      { path: '/drawer', name: 'drawer', component: DrawerView },
      { path: '/unavailable/:id', name: 'unavailable', component: UnavailableView, props: true },
      { path: '/settings', name: 'settings', component: SettingsView },
      { path: '/:unknown(.*)*', redirect: '/' },
    ],
  })
}
