// English strings for the keys and the sale's outcome at a glance (issue 13).
export const glanceEn = {
  keys: {
    title: 'Keyboard shortcuts',
    open: 'Open {screen}',
    enter: 'Send the sale (in the number field: go to the amount)',
    escape: 'Clear the form; on an empty form, put the result away',
    print: "Print the receipt on show (the last sale's)",
    nextCustomer: 'On Recharge: next customer (clears the form, cursor in the number field)',
    nextCoupon: 'On Coupons: next order (clears the form, cursor in the agent field)',
    help: 'This list',
    close: 'Close',
    navHint: 'Keys: {keys}',
  },
  glance: {
    nextStep: {
      SUCCESS: 'Give the receipt. Next customer: F1.',
      FAILED: 'No money was taken. Safe to try again.',
      SENDING: 'Wait for the answer. Do not sell again.',
      UNKNOWN: 'Do not sell again; Counter is checking the status.',
    },
    nextCouponStep: {
      SUCCESS: 'Give the receipt. Next order: F2.',
      FAILED: 'Nothing was charged. Safe to order again.',
      SENDING: 'Wait for the answer. Do not order again.',
      UNKNOWN: 'Do not order again; check the status first.',
    },
    otherServices: 'Other services',
    printKey: 'Print (Ctrl+P)',
    clockSetting: 'Times on screens, receipts and reports',
    clock: { '24h': '24-hour (14:35)', '12h': '12-hour (2:35 pm)' },
    wrongDay: 'Type the day as DD-MM-YYYY, like 04-03-2025',
    confirmLarge: '{qty} coupons for {amount}: more than usual. Press Enter again to send, or correct the quantity.',
  },
}
