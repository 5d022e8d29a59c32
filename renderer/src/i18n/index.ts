// The page's i18n instance: English and Hindi; every string the staff read goes through t(). The language is the
// shop's screenLanguage setting (stores/settings.ts switches it when the settings load or are saved).
import { createI18n } from 'vue-i18n'
import type { Language } from '../../../electron/shared/paper-words'
import { en } from './en'
import { hi } from './hi'

export const i18n = createI18n({
  legacy: false,
  locale: 'en',
  fallbackLocale: 'en',
  messages: { en, hi },
})

/** For code outside components (the api client, stores). */
export const t = i18n.global.t

/** Shows every screen in `language` at once; the page's lang attribute follows, for screen readers and fonts. */
export function switchLanguage(language: Language): void {
  i18n.global.locale.value = language
  document.documentElement.lang = language
}
