// Hindi strings for the receipt printer (same keys as en-printer.ts).
import type { printerEn } from './en-printer'

export const printerHi: typeof printerEn = {
  printer: {
    title: 'रसीद प्रिंटर',
    kind: 'Counter प्रिंटर तक कैसे पहुँचे',
    kinds: {
      system: 'कंप्यूटर के प्रिंटर ड्राइवर से',
      escpos: 'नेटवर्क या पोर्ट पर ESC/POS प्रिंटर',
    },
    width: 'रसीद कागज़ की चौड़ाई',
    widthMm: '{mm} mm',
    name: 'प्रिंटर',
    defaultPrinter: 'डिफ़ॉल्ट प्रिंटर',
    defaultMark: '{name} (डिफ़ॉल्ट)',
    notFound: '{name} (अभी नहीं मिला)',
    listFailed: 'प्रिंटरों की सूची नहीं पढ़ी जा सकी: {message}',
    browserDialog: 'ब्राउज़र में रसीद और Z रिपोर्ट ब्राउज़र के अपने प्रिंट डायलॉग से छपती हैं: प्रिंटर वहीं चुनें।',
    address: 'प्रिंटर का पता',
    addressExample: '192.168.1.50',
    // As in en-printer.ts: the share's two leading backslashes are eight here.
    addressHint: 'प्रिंटर का IP पता, जैसे 192.168.1.50 (पोर्ट 9100, जब तक :port न जोड़ें); या /dev/usb/lp0, या Windows पर \\\\\\\\PC\\Printer.',
    printAsImage: 'हमेशा तस्वीर की तरह प्रिंट करें',
    printAsImageWhy: 'जिन प्रिंटरों में ₹ या हिंदी अक्षर नहीं हैं उनके लिए: धीमा, पर रसीद ठीक वैसी छपती है जैसी स्क्रीन पर है।',
    openDrawerOnCash: 'नकद बिक्री पर कैश दराज़ खोलें',
    openDrawerOnCashWhy: 'प्रिंटर से जुड़ी दराज़ तब खुलती है जब नकद बिक्री की रसीद पहली बार छपती है, दोबारा छापने पर कभी नहीं।',
    testPage: 'टेस्ट पेज प्रिंट करें',
    testing: 'टेस्ट पेज छप रहा है…',
    testPrinted: 'टेस्ट पेज {printer} को भेजा: देखें कि पैमाना सीधा है और दुकान का नाम सही है।',
    check: 'प्रिंटर जाँचें',
    checking: 'प्रिंटर से पूछ रहे हैं…',
    stateLine: '{state}: {message}',
    state: {
      ready: 'तैयार',
      'paper-low': 'कागज़ कम है',
      'no-paper': 'कागज़ खत्म',
      'cover-open': 'ढक्कन खुला है',
      offline: 'ऑफ़लाइन',
      unreachable: 'पहुँच से बाहर',
      silent: 'जुड़ा हुआ',
      unknown: 'ड्राइवर से छपा',
    },
    needsAddress: 'प्रिंटर का पता लिखें (जैसे 192.168.1.50) या उसका डिवाइस पाथ।',
    sentDrawerOpened: 'प्रिंटर {printer} को भेजा; कैश दराज़ खुल गई।',
    reportHint: 'प्रिंट Z रिपोर्ट को रसीद प्रिंटर पर भेजता है; "PDF सेव करें" ब्राउज़र का प्रिंट डायलॉग खोलता है (वहाँ "PDF के रूप में सहेजें" या "Save as PDF" चुनें)।',
  },
}
