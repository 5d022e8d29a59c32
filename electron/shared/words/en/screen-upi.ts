// English strings for the UPI QR of a sale's exact amount (issue #29 part 1; same syntax as en/screen.ts).
export const upiEn = {
  upi: {
    settingsTitle: 'UPI QR for the exact amount',
    vpa: "Shop's UPI id (empty: no QR)",
    vpaHint: 'As your bank app shows it, e.g. {example}',
    payee: "Payee name shown in the customer's app",
    title: 'Pay by UPI',
    qrLabel: 'UPI QR for {amount} to {payee}',
    cannotSee: "Counter cannot see whether the payment arrived: check that the customer's app shows it paid.",
    received: 'UPI received (Alt+U)',
    confirming: 'Recording…',
    confirmedAt: 'UPI received, recorded at {time}',
    key: 'UPI received (the sale on show paid by UPI)',
  },
}
