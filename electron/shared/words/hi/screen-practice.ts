// Hindi strings for the training banner's line of practice inputs and the way out of training (same keys as en/screen-practice.ts).
import type { practiceEn } from '../en/screen-practice'

export const practiceHi: typeof practiceEn = {
  practice: {
    line: 'अभ्यास: {inputs}',
    failed: '₹{amount} असफल',
    pendingThenSuccess: '₹{amount} पेंडिंग, फिर सफल',
    pendingThenFailed: '₹{amount} पेंडिंग, फिर असफल',
    noAnswer: '₹{amount} कोई जवाब नहीं, फिर सफल',
    outsideDebit: '{qty} कूपन: पहले कहीं और {debit} खर्च',
    goLive: 'असली बिक्री: सेटिंग्स → यूज़र ID, टोकन, सीक्रेट की, रिचार्ज API का पता → सेव करें',
  },
}
