// Hindi strings for customers: suggestions under the number field, repeat (Alt+R), and a customer's name on the result and in History (same keys as en/screen-customers.ts).
import type { customersEn } from '../en/screen-customers'

export const customersHi: typeof customersEn = {
  customers: {
    suggestions: 'जाने-पहचाने नंबर',
    repeat: 'पिछला दोहराएँ (Alt+R)',
    repeatKey: 'नंबर का पिछला रिचार्ज दोहराएँ: ऑपरेटर, सर्कल और राशि भर देता है, फिर Enter का इंतज़ार करता है (रिचार्ज पर)',
    repeatNeedsNumber: 'पहले नंबर लिखें या चुनें, फिर उसका पिछला रिचार्ज दोहराएँ।',
    repeatNone: '{number} का कोई पिछला रिचार्ज याद नहीं है।',
    repeated: '{number} का पिछला रिचार्ज: {operator}, {amount} ({when})। जाँच लें, फिर बेचने के लिए Enter दबाएँ।',
    name: 'ग्राहक',
    addName: 'नाम जोड़ें',
    editName: 'नाम बदलें',
    nameLabel: '{number} के ग्राहक का नाम',
    save: 'नाम सेव करें',
    cancel: 'रद्द करें',
    forget: 'ग्राहक को भूल जाएँ',
    forgetConfirm: '{number} का नाम और पिछला रिचार्ज भूल जाएँ? उसकी बिक्री इतिहास में रहेगी।',
    forgetYes: 'हाँ, भूल जाएँ',
    forgotten: 'भूल गए। बिक्री इतिहास में रहेगी।',
  },
}
