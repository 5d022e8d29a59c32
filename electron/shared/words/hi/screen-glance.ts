// Hindi strings for the keys and the sale's outcome at a glance (same keys as en/screen-glance.ts).
import type { glanceEn } from '../en/screen-glance'

export const glanceHi: typeof glanceEn = {
  keys: {
    title: 'कीबोर्ड शॉर्टकट',
    open: '{screen} खोलें',
    enter: 'बिक्री भेजें (नंबर वाले खाने में: राशि पर जाएँ)',
    escape: 'फ़ॉर्म खाली करें; खाली फ़ॉर्म पर नतीजा हटाएँ',
    print: 'दिख रही रसीद प्रिंट करें (आखिरी बिक्री की)',
    nextCustomer: 'रिचार्ज पर: अगला ग्राहक (फ़ॉर्म खाली, कर्सर नंबर वाले खाने में)',
    nextCoupon: 'कूपन पर: अगला ऑर्डर (फ़ॉर्म खाली, कर्सर एजेंट वाले खाने में)',
    help: 'यह सूची',
    close: 'बंद करें',
    navHint: 'कुंजियाँ: {keys}',
  },
  glance: {
    nextStep: {
      SUCCESS: 'रसीद दें। अगला ग्राहक: F1.',
      FAILED: 'कोई पैसा नहीं कटा। दोबारा कोशिश कर सकते हैं।',
      SENDING: 'जवाब का इंतज़ार करें। दोबारा न बेचें।',
      UNKNOWN: 'दोबारा न बेचें; Counter स्थिति जाँच रहा है।',
    },
    nextCouponStep: {
      SUCCESS: 'रसीद दें। अगला ऑर्डर: F2.',
      FAILED: 'कुछ नहीं कटा। दोबारा ऑर्डर कर सकते हैं।',
      SENDING: 'जवाब का इंतज़ार करें। दोबारा ऑर्डर न करें।',
      UNKNOWN: 'दोबारा ऑर्डर न करें; पहले स्थिति जाँचें।',
    },
    otherServices: 'दूसरी सेवाएँ',
    printKey: 'प्रिंट (Ctrl+P)',
    clockSetting: 'स्क्रीन, रसीद और रिपोर्ट पर समय',
    clock: { '24h': '24 घंटे (14:35)', '12h': '12 घंटे (2:35 pm)' },
    wrongDay: 'दिन DD-MM-YYYY में लिखें, जैसे 04-03-2025',
    confirmLarge: '{amount} के {qty} कूपन: आम से ज़्यादा। भेजने के लिए फिर Enter दबाएँ, या संख्या ठीक करें।',
  },
}
