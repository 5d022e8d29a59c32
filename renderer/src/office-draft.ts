// The head office's fields as Settings edits them: text while typed, the contract's input when saved.
import type { SaveSettingsInput, SettingsView } from '../../electron/contract'

export const OFFICE_FIELDS = ['counterName', 'officeHost', 'officePort', 'officeDatabase', 'officeUser', 'officePassword', 'officeTls'] as const

export interface OfficeDraft {
  counterName: string
  officeHost: string
  officePort: string
  officeDatabase: string
  officeUser: string
  /** Write-only: always starts empty; empty keeps what the keychain holds. */
  officePassword: string
  officeTls: boolean
}

export function officeDraftOf(view: SettingsView): OfficeDraft {
  return {
    counterName: view.counterName,
    officeHost: view.officeHost,
    officePort: String(view.officePort),
    officeDatabase: view.officeDatabase,
    officeUser: view.officeUser,
    officePassword: '',
    officeTls: view.officeTls,
  }
}

export function officeInput(draft: OfficeDraft): SaveSettingsInput {
  const port = draft.officePort.trim()
  return {
    counterName: draft.counterName,
    officeHost: draft.officeHost,
    // Not a number is left to the contract to refuse (NaN is not an integer), in its own words.
    officePort: /^\d+$/.test(port) ? Number(port) : NaN,
    officeDatabase: draft.officeDatabase,
    officeUser: draft.officeUser,
    officeTls: draft.officeTls,
    ...(draft.officePassword ? { officePassword: draft.officePassword } : {}),
  }
}
