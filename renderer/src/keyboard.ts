// The page's keys at work: a screen's key opens it (or, on it, starts afresh), Ctrl+P prints the receipt
// on show, "?" opens the help; and focus never falls to the top of the page when the app moves it.
import { nextTick, ref } from 'vue'
import type { Router } from 'vue-router'
import { isHelpKey, isPrintKey, isRepeatKey, isUpiReceivedKey, screenKeyOf } from './shortcuts'

/** Whether the help overlay is open. */
export const helpOpen = ref(false)

type Restart = () => void
const restarts = new Map<string, Restart>()

/** A screen's own key pressed on it again: the next customer (cleared form, first field focused). */
export function onScreenKeyAgain(route: string, restart: Restart): () => void {
  restarts.set(route, restart)
  return () => {
    if (restarts.get(route) === restart) restarts.delete(route)
  }
}

type Printer = () => void
let printer: Printer | null = null
/** The receipt on show prints on Ctrl+P; with none on show the key does nothing of ours. */
export function onPrintKey(print: Printer): () => void {
  printer = print
  return () => {
    if (printer === print) printer = null
  }
}

type Repeater = () => void
let repeater: Repeater | null = null
/** Alt+R on the screen that registered it (Recharge): the number's last recharge, filled in for the staff to confirm. */
export function onRepeatKey(repeat: Repeater): () => void {
  repeater = repeat
  return () => {
    if (repeater === repeat) repeater = null
  }
}

type UpiReceiver = () => void
let upiReceiver: UpiReceiver | null = null
/** Alt+U where a sale's UPI QR is on show and not yet confirmed (UpiRequest.vue): "UPI received". */
export function onUpiReceivedKey(receive: UpiReceiver): () => void {
  upiReceiver = receive
  return () => {
    if (upiReceiver === receive) upiReceiver = null
  }
}

const FOCUSABLE = 'input:not([type=hidden]):not([disabled]), select:not([disabled]), textarea:not([disabled]), [data-main-list], button:not([disabled]), [href], [tabindex]:not([tabindex="-1"])'

/** The screen's first field or main list ([data-autofocus] marks it where the first is not the right one). */
function focusScreen(): void {
  const screen = document.querySelector<HTMLElement>('main.screen')
  if (!screen || screen.contains(document.activeElement)) return
  const target = screen.querySelector<HTMLElement>('[data-autofocus]') ?? screen.querySelector<HTMLElement>(FOCUSABLE)
  ;(target ?? screen).focus()
}

/**
 * After a receipt is printed the next key is the next customer's: the screen's first field, wherever focus was (the
 * Print button, or the page itself once the browser's print frame is gone).
 */
export function focusScreenStart(): void {
  const screen = document.querySelector<HTMLElement>('main.screen')
  const target = screen?.querySelector<HTMLElement>('[data-autofocus]') ?? screen?.querySelector<HTMLElement>(FOCUSABLE)
  ;(target ?? screen)?.focus()
}

/** Screens load their lists after they mount: try again once they had time to render. */
function focusScreenSoon(): void {
  void nextTick(() => {
    focusScreen()
    setTimeout(focusScreen, 150)
  })
}

/**
 * A focused button that disables itself while the core answers, or a row re-rendered by an answer,
 * drops focus to the page's top (the body). Put it back: on the same element once it is enabled
 * again, else on the nearest part of the screen still there.
 */
function keepFocus(): () => void {
  let last: HTMLElement | null = null
  const remember = (event: FocusEvent) => {
    if (event.target instanceof HTMLElement) last = event.target
  }
  const observer = new MutationObserver(() => {
    if (!last || document.activeElement !== document.body || !document.hasFocus()) return
    if (last.isConnected) {
      if (!last.matches(':disabled')) last.focus()
      return // still disabled: a later change (enabling it) comes back here
    }
    let region: HTMLElement | null = null
    for (const selector of ['[data-focus-region]', 'main.screen']) region ??= document.querySelector<HTMLElement>(selector)
    last = null
    if (region) (region.querySelector<HTMLElement>(FOCUSABLE) ?? region).focus()
  })
  document.addEventListener('focusin', remember)
  observer.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['disabled'] })
  return () => {
    document.removeEventListener('focusin', remember)
    observer.disconnect()
  }
}

export function startKeyboard(router: Router): () => void {
  const onKey = (event: KeyboardEvent) => {
    if (helpOpen.value) return // the dialog has the keys; Esc closes it
    const screen = screenKeyOf(event)
    if (screen) {
      event.preventDefault()
      if (router.currentRoute.value.name === screen.route) {
        const restart = restarts.get(screen.route)
        if (restart) restart()
        else focusScreenSoon()
      } else {
        void router.push(screen.path)
      }
      return
    }
    if (isPrintKey(event) && printer) {
      event.preventDefault()
      printer()
      return
    }
    if (isRepeatKey(event) && repeater) {
      event.preventDefault()
      repeater()
      return
    }
    if (isUpiReceivedKey(event) && upiReceiver) {
      event.preventDefault()
      upiReceiver()
      return
    }
    if (isHelpKey(event)) {
      event.preventDefault()
      helpOpen.value = true
    }
  }
  window.addEventListener('keydown', onKey, true)
  const stopFocus = keepFocus()
  const stopRoutes = router.afterEach(() => focusScreenSoon())
  return () => {
    window.removeEventListener('keydown', onKey, true)
    stopFocus()
    stopRoutes()
  }
}
