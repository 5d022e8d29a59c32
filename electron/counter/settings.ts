// The shop's settings: plain ones in settings.json in the data folder, secrets in the keychain,
// COUNTER_* environment variables over both (for tests, demos and kiosks). Decides the mode.
import { chmodSync, existsSync, readFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import type { CommissionRates, Mode, ParsedInput, PrinterKind, SettingsView } from '../contract'
import { notAPrinterPath } from '../printers/printer-link'
import { parsePrinterAddress } from '../shared/printer-address'
import { writeFileAtomically } from '../ledger/durable-files'
import { secretNames, type SecretName, type SecretStore } from './credentials'
import { CounterError } from './errors'
import type { RechargeCredentials } from '../partners/recharge-api'
import type { ClockStyle } from '../shared/dates'
import { type Language, type Said, say } from '../shared/words'
import type { OwnerPinFile } from './owner-pin'
import type { OfficeAddress } from '../office/shipper'

export interface StoredSettings {
  userId: string
  rechargeBaseUrl: string
  panBaseUrl: string
  shopName: string
  shopAddress: string
  receiptWidthMm: 58 | 80
  printerKind: PrinterKind
  printerName: string
  printerAddress: string
  printAsImage: boolean
  openDrawerOnCash: boolean
  timezone: string
  /** How times read on screens, receipts and exports (electron/shared/dates.ts). */
  clock: ClockStyle
  panRequestMethod: 'POST' | 'GET'
  couponMaxQty: number
  couponDefaultRatesPaise: { p: number; e: number }
  serviceChargeCapPaise: number
  /** Cash staff may take out of the drawer in a day (counter/drawer.ts); more is the owner's. */
  cashOutLimitPaise: number
  /** Staff count the drawer blind: no expected figure nor difference in their answers (counter/day-close.ts). */
  blindClose: boolean
  /** The screens' language (the screen part of shared/words); receipts and the Z report follow receiptLanguage, set apart. */
  screenLanguage: Language
  receiptLanguage: Language
  /** The shop's commission per operator and coupon type (electron/counter/margins.ts); saved on their own channel. */
  commissionRates: CommissionRates
  /** With shopName, this counter's name in the head office (office.ts); empty until the owner names it. */
  counterName: string
  /** The head office's PostgreSQL; an empty host ships nothing. Its password is in the keychain. */
  officeHost: string
  officePort: number
  officeDatabase: string
  officeUser: string
  officeTls: boolean
  /** Where the books are copied off this PC (offsite-backup.ts); empty until the owner chooses a folder. */
  backupFolder: string
  /** The status bar warns once the last verified copy off this PC is older than this many days. */
  backupStaleDays: number
  /** The update server the desktop app checks at start (electron/updates.ts); empty checks for none. */
  updateUrl: string
  /** The shop's UPI id and payee name (shared/upi.ts): a UPI sale shows a QR for its exact amount; an empty id, none. */
  upiVpa: string
  upiPayee: string
}

const defaults: StoredSettings = {
  userId: '',
  rechargeBaseUrl: '',
  panBaseUrl: '',
  shopName: 'My Shop',
  shopAddress: '',
  receiptWidthMm: 80,
  // The OS driver until the shop sets up an ESC/POS printer: what every install printed with before.
  printerKind: 'system',
  printerName: '',
  printerAddress: '',
  printAsImage: false,
  openDrawerOnCash: false,
  timezone: 'Asia/Kolkata',
  clock: '24h',
  panRequestMethod: 'POST',
  couponMaxQty: 50,
  // Prices seen in public clients of this API (field notes); replaced by what the provider charges.
  couponDefaultRatesPaise: { p: 107_00, e: 72_00 },
  serviceChargeCapPaise: 100_00,
  // Issue #29's example: ₹500 covers tea and a courier; a supplier's bill waits for the owner.
  cashOutLimitPaise: 500_00,
  blindClose: false,
  screenLanguage: 'en',
  receiptLanguage: 'en',
  // No rate until the shop enters its rate card: sales earn ₹0 commission meanwhile.
  commissionRates: { operators: {}, coupons: { p: 0, e: 0 } },
  counterName: '',
  officeHost: '',
  officePort: 5432,
  officeDatabase: '',
  officeUser: '',
  officeTls: true,
  backupFolder: '',
  // A week: a shop that copies at each day close sees no warning; one whose drive stays in a drawer hears within one.
  backupStaleDays: 7,
  // No server until the owner sets one: a shop that installs by hand is never surprised by an update.
  updateUrl: '',
  // Off until the owner types the shop's UPI id: nothing about a sale changes before then.
  upiVpa: '',
  upiPayee: '',
}

const envFields = {
  userId: 'COUNTER_USER_ID',
  rechargeBaseUrl: 'COUNTER_RECHARGE_BASE_URL',
  panBaseUrl: 'COUNTER_PAN_BASE_URL',
} as const satisfies Partial<Record<keyof StoredSettings, string>>
const ENV_FIELDS = Object.entries(envFields) as [keyof typeof envFields, string][]

const envSecrets: Record<SecretName, string> = {
  token: 'COUNTER_TOKEN',
  secretKey: 'COUNTER_SECRET_KEY',
  apiKey: 'COUNTER_API_KEY',
}

export interface RechargeConfig {
  baseUrl: string
  credentials: RechargeCredentials
}

export interface PanConfig {
  baseUrl: string
  apiKey: string
  method: 'POST' | 'GET'
}


/** Decision: sending the journal unencrypted is allowed only to an office on this very computer. */
const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '::1'])

/** settings.json holds the owner PIN's hash and salt: read and written by the shop's OS user alone. */
const USER_ONLY_FILE = 0o600
const USER_ONLY_FOLDER = 0o700

/**
 * Decision: the data folder is the OS user's alone (0700) and settings.json 0600, on Linux and macOS, made so at
 * every start (a folder made by an older Counter was 0755, its settings 0644): another account on the shop PC could
 * otherwise copy the PIN's hash and search it offline. Windows keeps the user profile's own permissions.
 */
function keepToTheUser(dataDir: string, settingsFile: string): void {
  if (process.platform === 'win32') return
  chmodSync(dataDir, USER_ONLY_FOLDER)
  if (existsSync(settingsFile)) chmodSync(settingsFile, USER_ONLY_FILE)
}

export class Settings {
  private saved!: StoredSettings
  /**
   * The fields the environment sets, read once at start. Decision: a variable set after Counter started is
   * not seen, as a shop sets them before it starts Counter. Why once: `current` is read about twenty times a
   * sale, and each read of a process.env variable is a call into the operating system's environment.
   */
  private readonly fromEnvironment: Partial<StoredSettings>
  private merged!: Readonly<StoredSettings>
  private readonly file: string
  /** The owner PIN's hash and wrong-PIN count: in the same file, never in `current`, so never in a view sent to the screen. */
  private pin: OwnerPinFile | null

  constructor(
    dataDir: string,
    private readonly env: NodeJS.ProcessEnv,
    private readonly secrets: SecretStore,
  ) {
    this.file = join(dataDir, 'settings.json')
    keepToTheUser(dataDir, this.file)
    const { ownerPin = null, ...plain } = existsSync(this.file) ? JSON.parse(readFileSync(this.file, 'utf8')) : {}
    this.pin = ownerPin
    this.fromEnvironment = Object.fromEntries(ENV_FIELDS.filter(([, variable]) => env[variable]).map(([field, variable]) => [field, env[variable]!.trim()]))
    this.keep({ ...defaults, ...plain })
  }

  get ownerPin(): OwnerPinFile | null {
    return this.pin
  }

  saveOwnerPin(pin: OwnerPinFile | null): void {
    this.pin = pin
    this.write(this.saved)
  }

  /** Saved values with the environment's on top: one frozen copy, shared by every caller, made again at each save. */
  get current(): Readonly<StoredSettings> {
    return this.merged
  }

  /**
   * REAL as soon as a partner account is configured (recharge user id and address, or the PAN
   * address); its secrets must then be present, and a sale is refused rather than silently sent to
   * the simulator when they are not.
   */
  get mode(): Mode {
    const { userId, rechargeBaseUrl, panBaseUrl } = this.current
    return (userId && rechargeBaseUrl) || panBaseUrl ? 'real' : 'training'
  }

  async secret(name: SecretName): Promise<string | null> {
    return this.env[envSecrets[name]]?.trim() || (await this.secrets.get(name))
  }

  async rechargeConfig(): Promise<RechargeConfig> {
    const { userId, rechargeBaseUrl } = this.current
    const [token, secretKey] = await Promise.all([this.secret('token'), this.secret('secretKey')])
    if (!userId || !rechargeBaseUrl || !token || !secretKey) {
      throw new CounterError('not_configured', say('settings.rechargeIncomplete'))
    }
    return { baseUrl: rechargeBaseUrl, credentials: { userId, token, secretKey } }
  }

  async panConfig(): Promise<PanConfig> {
    const { panBaseUrl, panRequestMethod } = this.current
    const apiKey = await this.secret('apiKey')
    if (!panBaseUrl || !apiKey) {
      throw new CounterError('not_configured', say('settings.panIncomplete'))
    }
    return { baseUrl: panBaseUrl, apiKey, method: panRequestMethod }
  }

  async view(): Promise<SettingsView> {
    const stored = await Promise.all(secretNames.map(async (name) => !!(await this.secret(name).catch(() => null))))
    const fromEnvironment = [
      ...Object.keys(this.fromEnvironment),
      ...secretNames.filter((name) => this.env[envSecrets[name]]),
    ]
    return {
      ...this.current,
      mode: this.mode,
      secrets: { token: stored[0], secretKey: stored[1], apiKey: stored[2] },
      fromEnvironment,
      officePasswordStored: !!(await this.secrets.get('officePassword').catch(() => null)),
    }
  }

  async save(input: ParsedInput<'settings.save'>): Promise<void> {
    if (input.forgetCredentials) {
      for (const name of secretNames) await this.secrets.delete(name)
      this.write({ ...this.saved, userId: '', rechargeBaseUrl: '', panBaseUrl: '' })
      return
    }
    const given = Object.fromEntries(Object.keys(defaults).filter((f) => input[f as keyof typeof input] !== undefined).map((f) => [f, input[f as keyof typeof input]]))
    const rates = this.saved.couponDefaultRatesPaise
    const next: StoredSettings = {
      ...this.saved,
      ...given,
      couponDefaultRatesPaise: {
        p: input.pCouponRate ?? rates.p,
        e: input.eCouponRate ?? rates.e,
      },
      serviceChargeCapPaise: input.serviceChargeCap ?? this.saved.serviceChargeCapPaise,
      cashOutLimitPaise: input.cashOutLimit ?? this.saved.cashOutLimitPaise,
    }
    // A partner account without its secrets would leave the counter unable to sell: refuse it now.
    const typed = { token: input.token, secretKey: input.secretKey, apiKey: input.apiKey }
    if (next.userId || next.rechargeBaseUrl) {
      const missing: Record<string, Said> = {}
      if (!next.userId) missing.userId = say('settings.userIdEnter')
      if (!next.rechargeBaseUrl) missing.rechargeBaseUrl = say('settings.rechargeUrlEnter')
      for (const name of ['token', 'secretKey'] as const) {
        if (!typed[name] && !(await this.secret(name))) missing[name] = say('settings.enterOnce')
      }
      if (Object.keys(missing).length) {
        throw new CounterError('invalid_input', say('settings.completeAccount'), missing)
      }
    }
    if (next.panBaseUrl && !typed.apiKey && !(await this.secret('apiKey'))) {
      throw new CounterError('invalid_input', say('settings.panKeyNeeded'), { apiKey: say('settings.enterOnce') })
    }
    // An ESC/POS printer is reached only by its address: without one every receipt would fail to print.
    if (next.printerKind === 'escpos' && !next.printerAddress) {
      throw new CounterError('invalid_input', say('settings.printerAddressNeeded'), { printerAddress: say('printer.addressEmpty') })
    }
    // A path at a file, a folder or a pipe is refused now, not at the first receipt (its open checks again).
    const address = next.printerKind === 'escpos' ? parsePrinterAddress(next.printerAddress) : null
    const notAPrinter = address && !('error' in address) ? await notAPrinterPath(address) : null
    if (notAPrinter) throw new CounterError('invalid_input', notAPrinter, { printerAddress: notAPrinter })
    // A UPI id without a payee name would give the customer's app a QR that names nobody: refused together.
    if (next.upiVpa && !next.upiPayee) throw new CounterError('invalid_input', say('upi.checkSettings'), { upiPayee: say('upi.payeeNeeded') })
    await this.checkOffice(next, !!input.officePassword)
    for (const name of secretNames) {
      if (typed[name]) await this.secrets.set(name, typed[name]!)
    }
    if (input.officePassword) await this.secrets.set('officePassword', input.officePassword)
    this.write(next)
  }

  /** The office settings that only make sense together; refused as a whole, nothing saved. */
  private async checkOffice(next: StoredSettings, passwordTyped: boolean): Promise<void> {
    const fields: Record<string, Said> = {}
    if (next.counterName && !next.shopName.trim()) fields.shopName = say('office.shopNameNeeded')
    if (next.officeHost) {
      if (!next.counterName) fields.counterName = say('office.counterNameNeeded')
      if (!next.officeDatabase) fields.officeDatabase = say('office.databaseNeeded')
      if (!next.officeUser) fields.officeUser = say('office.userNeeded')
      if (!passwordTyped && !(await this.secrets.get('officePassword'))) fields.officePassword = say('office.passwordNeeded')
      if (!next.officeTls && !LOCAL_HOSTS.has(next.officeHost.toLowerCase())) {
        fields.officeTls = say('office.tlsNeeded')
      }
    }
    if (Object.keys(fields).length) throw new CounterError('invalid_input', say('office.check'), fields)
  }

  /** The head office to ship to, or null when none is set up (or its password is missing from the keychain). */
  async officeConfig(): Promise<OfficeAddress | null> {
    const { officeHost, officePort, officeDatabase, officeUser, officeTls } = this.current
    if (!officeHost) return null
    const password = await this.secrets.get('officePassword').catch(() => null)
    return password ? { host: officeHost, port: officePort, database: officeDatabase, user: officeUser, password, tls: officeTls } : null
  }

  saveCommissionRates(rates: CommissionRates): void {
    this.write({ ...this.saved, commissionRates: rates })
  }

  /** Saved on their own channel (backup.save), checked there against the folder itself. */
  saveBackup(backup: Pick<StoredSettings, 'backupFolder' | 'backupStaleDays'>): void {
    this.write({ ...this.saved, ...backup })
  }

  private write(next: StoredSettings): void {
    writeFileAtomically(dirname(this.file), basename(this.file), Buffer.from(JSON.stringify(this.pin ? { ...next, ownerPin: this.pin } : next, null, 2)), { mode: USER_ONLY_FILE })
    this.keep(next)
  }

  /** Holds `saved` and makes the one copy `current` hands out. */
  private keep(saved: StoredSettings): void {
    this.saved = saved
    this.merged = Object.freeze({ ...saved, ...this.fromEnvironment })
  }
}
