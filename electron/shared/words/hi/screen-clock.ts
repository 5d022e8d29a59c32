// Hindi strings for the clock notice (same keys as en/screen-clock.ts).
import type { clockEn } from '../en/screen-clock'

export const clockHi: typeof clockEn = {
  clock: {
    behindTitle: 'कंप्यूटर की घड़ी खातों से पीछे है',
    aheadTitle: 'कंप्यूटर की घड़ी खातों की आखिरी एंट्री से कई दिन आगे है',
    stopped: 'जब तक मालिक तारीख और समय की पुष्टि नहीं करते, नई बिक्री, टॉप-अप और दिन बंद करना रुका रहेगा।',
    confirm: 'घड़ी सही है — पुष्टि करें',
    confirming: 'पुष्टि हो रही है…',
  },
}
