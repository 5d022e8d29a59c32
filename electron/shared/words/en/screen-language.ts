// English strings for the language settings (same syntax as en/screen.ts). Decision: each label carries both scripts,
// in both dictionaries, so a staff member who reads only one can always find the way back.
export const languageEn = {
  language: {
    title: 'Language / भाषा',
    screen: 'Screen language / स्क्रीन की भाषा',
    receipt: 'Receipts and Z report / रसीद और Z रिपोर्ट की भाषा',
    names: {
      en: 'English / अंग्रेज़ी',
      hi: 'Hindi / हिंदी',
    },
  },
}
