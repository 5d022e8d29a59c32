// Every keyboard shortcut of the counter, in one list: the screens' keys, the actions' keys, and the
// help overlay that shows them. New shortcuts (a repeat sale, say) join this list and nowhere else.
//
// Decision (issue 13): function keys that neither Chromium nor Electron keep for themselves.
// Browsers own F3 (find again), F5 (reload), F6 (address bar), F7 (caret browsing), F11 (full
// screen) and F12 (developer tools): none of them is used. F1 (the browser's help page) and F10 (its
// menu) reach the page first and are taken by it. That leaves six function keys for the six screens
// a cashier changes between; Settings, rarely opened, has the usual Ctrl+, of desktop programs.
// Print is Ctrl+P, the key every PC prints with, here printing the receipt on show, not the page.

export interface ScreenKey {
  /** The route's name (router.ts). */
  route: string
  path: string
  /** As KeyboardEvent.key and aria-keyshortcuts name it. */
  key: string
  ctrl?: boolean
  /** The words key of the screen's name. */
  name: string
  /** false: reached by its key (and listed in the help) but not shown in the navigation bar. */
  nav?: false
}

export const screenKeys: readonly ScreenKey[] = [
  { route: 'recharge', path: '/', key: 'F1', name: 'nav.recharge' },
  { route: 'coupons', path: '/coupons', key: 'F2', name: 'nav.coupons' },
  { route: 'agents', path: '/agents', key: 'F4', name: 'nav.agents' },
  { route: 'pending', path: '/pending', key: 'F8', name: 'nav.pending' },
  { route: 'day-close', path: '/day-close', key: 'F9', name: 'nav.dayClose' },
  { route: 'history', path: '/history', key: 'F10', name: 'nav.history' },
  // Decision: no function key is left (above), so Dues takes Ctrl+D, which pages may take from the browser's bookmark key.
  { route: 'dues', path: '/dues', key: 'd', ctrl: true, name: 'credit.nav' },
  // Cash in and out of the drawer (issue #29): Ctrl+M (money), which neither Chromium nor Electron takes on Windows or Linux.
  // Decision: not in the navigation bar, which is full at 1024 px (one more item pushed it 100 px off the edge); the key,
  // the help (?) and a link in Day close's drawer reach it.
  { route: 'drawer', path: '/drawer', key: 'm', ctrl: true, name: 'drawerCash.nav', nav: false },
  { route: 'settings', path: '/settings', key: ',', ctrl: true, name: 'nav.settings' },
]

/** Keys that act within a screen; the words key says what they do. */
export interface ActionKey {
  keys: string
  what: string
}

export const actionKeys: readonly ActionKey[] = [
  { keys: 'Enter', what: 'keys.enter' },
  { keys: 'Esc', what: 'keys.escape' },
  { keys: 'Ctrl+P', what: 'keys.print' },
  { keys: 'F1', what: 'keys.nextCustomer' },
  { keys: 'F2', what: 'keys.nextCoupon' },
  { keys: 'Alt+R', what: 'customers.repeatKey' },
  { keys: 'Alt+U', what: 'upi.key' },
  { keys: '?', what: 'keys.help' },
]

/** The screens the navigation bar shows. */
export const navScreens: readonly ScreenKey[] = screenKeys.filter((screen) => screen.nav !== false)

/** The aria-keyshortcuts value of a screen's key ("F1", "Control+,"). */
export const ariaKeys = (screen: ScreenKey) => (screen.ctrl ? `Control+${screen.key}` : screen.key)
/** How the key is written on the navigation ("F1", "Ctrl+,"). */
export const shownKeys = (screen: ScreenKey) => (screen.ctrl ? `Ctrl+${screen.key}` : screen.key)

export function screenKeyOf(event: KeyboardEvent): ScreenKey | undefined {
  if (event.altKey || event.metaKey || event.shiftKey) return undefined
  return screenKeys.find((screen) => screen.key === event.key && !!screen.ctrl === event.ctrlKey)
}

export const isPrintKey = (event: KeyboardEvent) => event.ctrlKey && !event.altKey && !event.shiftKey && event.key.toLowerCase() === 'p'

/** Alt+R repeats the number's last recharge on Recharge; e.code, so a keyboard layout that types another letter there still works. */
export const isRepeatKey = (event: KeyboardEvent) => event.altKey && !event.ctrlKey && !event.metaKey && !event.shiftKey && event.code === 'KeyR'

/** Alt+U: "UPI received" for the sale on show whose UPI QR is up (issue #29 part 1); e.code, as Alt+R. */
export const isUpiReceivedKey = (event: KeyboardEvent) => event.altKey && !event.ctrlKey && !event.metaKey && !event.shiftKey && event.code === 'KeyU'

/** "?" opens the help, except where it could be typed: a text field that is not for digits. */
export function isHelpKey(event: KeyboardEvent): boolean {
  if (event.key !== '?' || event.ctrlKey || event.altKey) return false
  const target = event.target
  if (target instanceof HTMLTextAreaElement) return false
  if (target instanceof HTMLInputElement) return ['numeric', 'decimal', 'tel'].includes(target.inputMode) || target.readOnly
  return true
}
