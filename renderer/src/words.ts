// The screens' words: t() finds a phrase in the screen part of the language's one dictionary (electron/shared/words)
// and fills its {values}, as the core's speak() does for its own part. The language is the shop's screenLanguage
// setting (stores/settings.ts switches it when the settings load or are saved); a reactive reference, so every
// screen that asked for a phrase shows it again in the new language at once.
import { ref } from 'vue'
import { dictionaries, phrase, type Language } from '../../electron/shared/words'

const shown = ref<Language>('en')

/** The phrase at `key` in the screen language; the key itself where none is written (a slip, and seen as one). */
export function t(key: string, values?: Record<string, string | number>): string {
  return phrase(dictionaries[shown.value].screen, key, values) ?? key
}

/** Whether the screens' dictionary holds a phrase at `key` (for a value the provider names, which may be new). */
export const te = (key: string): boolean => phrase(dictionaries.en.screen, key) !== undefined

/** The language every screen shows now. */
export const screenLanguage = (): Language => shown.value

/** For components, as they ask for their words. */
export const useWords = () => ({ t, te })

/** Shows every screen in `language` at once; the page's lang attribute follows, for screen readers and fonts. */
export function switchLanguage(language: Language): void {
  shown.value = language
  document.documentElement.lang = language
}
