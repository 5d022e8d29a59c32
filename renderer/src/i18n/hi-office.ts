// Hindi strings for the head office (same keys as en-office.ts).
import type { officeEn } from './en-office'

export const officeHi: typeof officeEn = {
  office: {
    title: 'मुख्य कार्यालय',
    intro: 'काउंटर अपनी जर्नल पीछे-पीछे कार्यालय के डेटाबेस में भेजते हैं; कोई बिक्री इसके लिए नहीं रुकती।',
    field: {
      counterName: 'इस काउंटर का नाम (दुकान के नाम के साथ)',
      officeHost: 'कार्यालय डेटाबेस का पता',
      officePort: 'पोर्ट',
      officeDatabase: 'डेटाबेस का नाम',
      officeUser: 'यूज़र नाम',
      officePassword: 'पासवर्ड',
    },
    counterNameExample: 'काउंटर 1',
    hostHint: 'ख़ाली: कोई कार्यालय नहीं, कुछ नहीं भेजा जाता।',
    passwordSaved: 'सहेजा हुआ (बदलने के लिए लिखें)',
    tls: 'कनेक्शन एन्क्रिप्ट करें (टीएलएस)',
    tlsWhy: 'केवल इसी कंप्यूटर के डेटाबेस (127.0.0.1) के लिए बंद करें।',
    portNumber: 'पोर्ट एक संख्या है, जैसे 5432',
    status: {
      'caught-up': 'कार्यालय: सब भेजा गया',
      behind: 'कार्यालय: {count} प्रविष्टियाँ बाकी',
      connecting: 'कार्यालय: जुड़ रहा है…',
      unreachable: 'कार्यालय {time} से पहुँच से बाहर',
      refused: 'कार्यालय: भेजना रुका',
      waiting: 'कार्यालय: प्रतीक्षा',
      entriesWaiting: '{count} प्रविष्टियाँ बाकी',
    },
  },
}
