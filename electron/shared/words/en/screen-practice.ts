// English strings for the training banner's line of practice inputs (same syntax as en/screen.ts); one outcome a key,
// named as in electron/shared/practice.ts. And what takes the counter out of training, on the banner and in Settings.
export const practiceEn = {
  practice: {
    line: 'Practise: {inputs}',
    failed: '₹{amount} fails',
    pendingThenSuccess: '₹{amount} Pending, then Success',
    pendingThenFailed: '₹{amount} Pending, then Failed',
    noAnswer: '₹{amount} no answer, then Success',
    outsideDebit: '{qty} coupons: {debit} spent elsewhere first',
    /**
     * The four fields counter/settings.ts requires of a recharge account before it leaves training, short enough for
     * the banner's one line at 1024 px beside its first words (a sentence took a second line).
     */
    goLive: 'Real sales: Settings → user id, token, secret key, recharge API address → Save',
  },
}
