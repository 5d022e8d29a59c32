// The page's i18n instance: English only for now; every string the staff read goes through t().
import { createI18n } from 'vue-i18n'
import { en } from './en'

export const i18n = createI18n({
  legacy: false,
  locale: 'en',
  fallbackLocale: 'en',
  messages: { en },
})

/** For code outside components (the api client, stores). */
export const t = i18n.global.t
