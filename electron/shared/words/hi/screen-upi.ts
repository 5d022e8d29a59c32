// Hindi strings for the UPI QR of a sale's exact amount (same keys as en/screen-upi.ts).
import type { upiEn } from '../en/screen-upi'

export const upiHi: typeof upiEn = {
  upi: {
    settingsTitle: 'पूरी राशि का UPI QR',
    vpa: 'दुकान की UPI ID (खाली: कोई QR नहीं)',
    vpaHint: 'जैसी आपके बैंक ऐप में दिखती है, जैसे {example}',
    payee: 'ग्राहक के ऐप में दिखने वाला पाने वाले का नाम',
    title: 'UPI से भुगतान',
    qrLabel: '{payee} को {amount} का UPI QR',
    cannotSee: 'Counter नहीं देख सकता कि पैसा आया या नहीं: देखें कि ग्राहक के ऐप में भुगतान हो गया दिख रहा है।',
    received: 'UPI मिला (Alt+U)',
    confirming: 'दर्ज हो रहा है…',
    confirmedAt: 'UPI मिला, {time} पर दर्ज हुआ',
    key: 'UPI मिला (दिख रही बिक्री का UPI भुगतान)',
  },
}
