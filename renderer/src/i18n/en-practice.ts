// English strings for the training banner's line of practice inputs (same syntax as en.ts); one outcome a key,
// named as in electron/shared/practice.ts.
export const practiceEn = {
  practice: {
    line: 'Practise: {inputs}',
    failed: '₹{amount} fails',
    pendingThenSuccess: '₹{amount} Pending, then Success',
    pendingThenFailed: '₹{amount} Pending, then Failed',
    noAnswer: '₹{amount} no answer, then Success',
    outsideDebit: '{qty} coupons: {debit} spent elsewhere first',
  },
}
