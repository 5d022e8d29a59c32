// English strings for sharing a receipt on WhatsApp (same syntax as en/screen.ts).
export const shareEn = {
  share: {
    button: 'Share on WhatsApp',
    opening: 'Opening WhatsApp…',
    mobile: "Customer's mobile for WhatsApp",
    mobileHint: '10 digits, e.g. 9876543210',
    send: 'Open WhatsApp',
    opened: 'WhatsApp opened in a new tab with the receipt: press Send there.',
    openedOutside: 'WhatsApp opened in your browser with the receipt: press Send there.',
  },
}
