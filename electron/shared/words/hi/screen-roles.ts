// Hindi strings for owner and staff: the role and a PIN reset in the status bar, the PIN dialog, owner-only buttons and the PIN in Settings (same keys as en/screen-roles.ts).
import type { rolesEn } from '../en/screen-roles'

export const rolesHi: typeof rolesEn = {
  roles: {
    role: {
      owner: 'मालिक',
      staff: 'स्टाफ़',
    },
    noPin: ' (कोई PIN नहीं)',
    noPinHint: 'जब तक सेटिंग्स में मालिक का PIN नहीं डाला जाता, हर कोई मालिक है।',
    unlock: 'अनलॉक',
    lock: 'लॉक',
    ownerOnly: 'सिर्फ़ मालिक — अनलॉक करें',
    ownerOnlyHint: 'यह सिर्फ़ मालिक कर सकते हैं। मालिक के PIN से अनलॉक करें।',
    ownerOnlyAtEnter: 'सिर्फ़ मालिक — PIN से अनलॉक करें',
    idle: 'मालिक का कोई काम न हो तो {minutes} मिनट बाद मालिक मोड लॉक हो जाता है।',
    uncheckable: 'इस कंप्यूटर पर मालिक का PIN जाँचा नहीं जा सकता। सेटिंग्स देखें।',
    pinReset: 'मालिक का PIN {time} को रीसेट हुआ — सेटिंग्स में नया PIN सेट करें',
    dialog: {
      title: 'मालिक का PIN',
      pin: 'PIN (4 से 8 अंक)',
      submit: 'अनलॉक',
      cancel: 'रद्द करें',
      checking: 'जाँच हो रही है…',
    },
    settings: {
      title: 'मालिक का PIN',
      none: 'मालिक का कोई PIN नहीं है: काउंटर पर हर कोई मालिक है। PIN डालें ताकि सेटिंग्स (कमीशन रेट भी), टॉप-अप, फ़ोन से निपटारा, उधार की सीमा और बिना अंतिम जवाब वाली बिक्री के साथ दिन बंद करना सिर्फ़ मालिक के पास रहे।',
      isSet: 'मालिक का PIN सेट है। स्टाफ़ बिक्री कर सकता है, स्थिति जाँच सकता है, रसीद दोबारा छाप सकता है और आज का और पुराना हिसाब देख सकता है।',
      oldPin: 'अभी का PIN',
      pin: 'नया PIN (4 से 8 अंक)',
      repeat: 'नया PIN दोबारा',
      set: 'PIN सेट करें',
      change: 'PIN बदलें',
      saved: 'PIN सेव हो गया। मालिक मोड चालू है; काउंटर स्टाफ़ को देने के लिए स्टेटस बार में लॉक दबाएँ।',
    },
  },
}
