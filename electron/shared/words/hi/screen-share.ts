// Hindi strings for sharing a receipt on WhatsApp (same keys as en/screen-share.ts).
import type { shareEn } from '../en/screen-share'

export const shareHi: typeof shareEn = {
  share: {
    button: 'WhatsApp पर भेजें',
    opening: 'WhatsApp खुल रहा है…',
    mobile: 'WhatsApp के लिए ग्राहक का मोबाइल',
    mobileHint: '10 अंक, जैसे 9876543210',
    send: 'WhatsApp खोलें',
    opened: 'रसीद के साथ WhatsApp नए टैब में खुला: वहाँ भेजें दबाएँ।',
    openedOutside: 'रसीद के साथ WhatsApp आपके ब्राउज़र में खुला: वहाँ भेजें दबाएँ।',
  },
}
