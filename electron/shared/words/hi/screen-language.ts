// Hindi strings for the language settings: the same two-script labels as en/screen-language.ts, Hindi first.
import type { languageEn } from '../en/screen-language'

export const languageHi: typeof languageEn = {
  language: {
    title: 'भाषा / Language',
    screen: 'स्क्रीन की भाषा / Screen language',
    receipt: 'रसीद और Z रिपोर्ट की भाषा / Receipts and Z report',
    names: {
      en: 'अंग्रेज़ी / English',
      hi: 'हिंदी / Hindi',
    },
  },
}
