// Hindi strings for margins: the commission rates in Settings and the day's earnings in Day close (same keys as en/screen-margins.ts).
import type { marginsEn } from '../en/screen-margins'

export const marginsHi: typeof marginsEn = {
  margins: {
    rates: {
      title: 'कमीशन रेट',
      why: 'प्रोवाइडर दुकान को जितना देता है, उसके रेट कार्ड के हिसाब से। हर बिक्री पर बिक्री के समय का रेट लगता है; बदलाव सिर्फ़ आगे की बिक्री पर लागू होता है।',
      operator: 'ऑपरेटर',
      kind: 'किस्म',
      value: 'रेट',
      percent: 'राशि का प्रतिशत',
      fixed: 'हर रिचार्ज पर तय ₹',
      percentExample: 'जैसे 2.5',
      fixedExample: 'जैसे 3',
      blankIsNone: 'कमीशन न हो तो खाली छोड़ें। प्रतिशत 20 तक; तय राशि ₹100 तक।',
      coupons: 'PAN कूपन (हर कूपन पर तय ₹)',
      save: 'रेट सेव करें',
      saving: 'सेव हो रहा है…',
      saved: 'रेट सेव हो गए। अब से होने वाली बिक्री पर यही रेट लगेंगे।',
    },
    earnings: {
      title: 'कमाई (सफल बिक्री)',
      item: 'ऑपरेटर या कूपन',
      sales: 'बिक्री',
      turnover: 'कुल बिक्री राशि',
      margin: 'मार्जिन',
      service: 'सर्विस चार्ज',
      earned: 'कमाई',
      total: 'कुल',
      coupons: '{type} ({qty} कूपन)',
      unknownPart: '{amount} + —',
      unrated: '{count} बिक्री रेट दर्ज होने से पहले हुई: उनका मार्जिन पता नहीं (—)।',
      notKept: 'यह दिन बंद होते समय दर्ज नहीं थी (—)।',
      none: 'अभी तक कोई सफल बिक्री नहीं।',
    },
  },
}
