// English strings for owner and staff: the role and a PIN reset in the status bar, the PIN dialog, owner-only buttons and the PIN in Settings (same syntax as en/screen.ts).
export const rolesEn = {
  roles: {
    role: {
      owner: 'Owner',
      staff: 'Staff',
    },
    noPin: ' (no PIN set)',
    noPinHint: 'Everyone is the owner until an owner PIN is set in Settings.',
    unlock: 'Unlock',
    lock: 'Lock',
    ownerOnly: 'Owner only — unlock',
    ownerOnlyHint: 'Only the owner can do this. Unlock with the owner PIN.',
    ownerOnlyAtEnter: 'Owner only — unlock with the PIN',
    idle: 'Owner mode locks after {minutes} minutes without an owner action.',
    uncheckable: 'The owner PIN cannot be checked on this computer. See Settings.',
    pinReset: 'Owner PIN was reset on {time} — set a new PIN in Settings',
    dialog: {
      title: 'Owner PIN',
      pin: 'PIN (4 to 8 digits)',
      submit: 'Unlock',
      cancel: 'Cancel',
      checking: 'Checking…',
    },
    settings: {
      title: 'Owner PIN',
      none: 'No owner PIN is set: everyone at the counter is the owner. Set one to keep Settings (commission rates too), top-ups, settling by phone, credit limits and closing with unresolved sales for the owner.',
      isSet: 'An owner PIN is set. Staff can sell, check status, reprint and see today and history.',
      oldPin: 'Current PIN',
      pin: 'New PIN (4 to 8 digits)',
      repeat: 'New PIN again',
      set: 'Set the PIN',
      change: 'Change the PIN',
      saved: 'PIN saved. Owner mode is on; use Lock in the status bar to hand the counter to staff.',
    },
  },
}
