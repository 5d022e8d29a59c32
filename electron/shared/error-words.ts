// The words of the core's refusals and of the contract's input rules, in English and Hindi: one dictionary,
// by key; hi is typed against en, so a key missing from either fails the type-check (as paper-words.ts does).
// How a message travels from a throw to the screen (a "said" reference, spoken in the screen language by the
// core's dispatch and by the renderer's forms) is written in electron/counter/errors.ts's first comment.
import type { Language } from './paper-words'

type Params = Record<string, string | number>

const en = {
  // zod's own rules, where a schema names none (contract/fields.ts sets them as zod's error map).
  'input.missing': 'Fill this in',
  'input.invalid': 'This is not valid',
  'input.choose': 'Choose one from the list',
  'input.maxChars': (p: { max: number }) => `At most ${p.max} characters`,
  'input.minChars': (p: { min: number }) => `At least ${p.min} characters`,
  'input.atMost': (p: { max: number }) => `At most ${p.max}`,
  'input.atLeast': (p: { min: number }) => `At least ${p.min}`,
  'input.unknownField': 'Counter does not know a field of this request',
  // The envelope (counter/dispatch.ts).
  'request.unknownChannel': 'Counter does not know that request.',
  'request.invalid': 'The request is not valid.',
  'request.internal': "Something went wrong inside Counter. Check today's sales before trying again.",
  // Amounts as typed (shared/money.ts, contract/fields.ts, counter/collection.ts).
  'amount.enter': 'Enter an amount',
  'amount.farTooLong': 'Amount is far too long: check the digits',
  'amount.aboveZero': 'Amount must be more than ₹0',
  'amount.max': (p: { max: string }) => `Amount must not be more than ${p.max}`,
  'amount.onlyDigits': 'Amount may have only digits, commas and a dot, like 1,999 or 199.50',
  'amount.oneDot': 'Amount may have only one dot, before the paise, like 1,999 or 199.50',
  'amount.commaAfterDot': 'Commas go before the dot, like 1,999.50',
  'amount.paiseDigits': 'Paise take 1 or 2 digits after the dot, like 199.50',
  'amount.startDigit': 'Amount must start with a digit, like 1,999 or 199.50',
  'amount.decimalComma': 'Use a dot for paise, like 199.50 (commas only group digits, like 1,999)',
  'amount.grouping': 'Commas must group digits as in 1,999 or 1,00,000: check where they go',
  'amount.farTooLarge': 'Amount is far too large: check the digits',
  'collected.atLeast': (p: { amount: string }) => `Collected must be at least the amount, ${p.amount}`,
  'collected.atMost': (p: { most: string; cap: string }) =>
    `Collected must not be more than ${p.most}: the amount and a service charge of at most ${p.cap} (set in Settings)`,
  // Numbers, ids and days (contract/fields.ts, recharge.ts, customers.ts).
  'mobile.enter': 'Enter a mobile number',
  'mobile.digitsOnly': 'Mobile number must contain digits only',
  'mobile.tenDigits': 'Mobile number must be exactly 10 digits',
  'mobile.start': 'Mobile number must start with 6, 7, 8 or 9',
  'orderId.invalid': 'Not a valid order id',
  'day.format': 'A day is written YYYY-MM-DD',
  'number.enter': 'Enter a number',
  'number.length': 'A number is 6 to 15 digits',
  'digits.enter': 'Type at least 4 digits',
  'digits.length': 'Type 4 to 15 digits',
  'dth.enter': 'Enter a subscriber id',
  'dth.digitsOnly': 'Subscriber id must contain digits only',
  'dth.length': 'Subscriber id must be 6 to 15 digits',
  'operator.choose': 'Choose an operator',
  'operator.chooseFromList': 'Choose an operator from the list',
  // Customers and credit (contract/customers.ts, credit.ts; counter/customers.ts, credit.ts).
  'customer.nameEnter': 'Enter a name',
  'customer.nameMax': (p: { max: number }) => `A name must be at most ${p.max} characters`,
  'customer.nameRule': 'A name may hold only letters (in any script), spaces, dots, hyphens and apostrophes, and must start with a letter',
  'customer.notKnown': (p: { number: string }) => `No sale to ${p.number} is remembered, so it cannot be named or forgotten. Sell to it first.`,
  'customer.notKnownField': 'No sale to this number is remembered',
  // The head office (contract/office.ts, counter/settings.ts).
  'office.counterNameMax': 'A counter name is at most 40 characters',
  'office.counterNameRule': 'A counter name may hold letters, digits, spaces, - . / and _ only',
  'office.pgNameMax': 'At most 63 characters',
  'office.pgNameRule': 'Letters, digits, _ - and . only',
  'office.hostMax': 'The address is too long',
  'office.hostRule': 'Type the office database address as a name (db.example.in) or an IP address, without http:// or a port',
  'office.portNumber': 'The port is a number',
  'office.portWhole': 'The port is a whole number',
  'office.portRange': 'Ports run from 1 to 65535',
  'office.passwordMax': 'At most 512 characters',
  'office.shopNameNeeded': 'Enter the shop\'s name: the office knows this counter by shop and counter name',
  'office.counterNameNeeded': 'Name this counter (for example "Counter 1") so the office can tell it from the others',
  'office.databaseNeeded': 'Enter the office database\'s name',
  'office.userNeeded': 'Enter the user name for the office database',
  'office.passwordNeeded': 'Enter it once; it is kept in the system keychain',
  'office.tlsNeeded': 'The journal goes to another computer only encrypted (TLS); "no TLS" is for an office database on this computer',
  'office.check': 'Check the head office settings.',
  'customer.owes': (p: { name: string; amount: string }) => `${p.name} still owes ${p.amount}. Take the payment in Dues (Ctrl+D) before forgetting this customer.`,
  'customer.isOwed': (p: { name: string; amount: string }) =>
    `The shop still holds ${p.amount} of ${p.name}'s (paid for a credit sale that failed); it goes against their next credit sale. This customer cannot be forgotten until then.`,
  'credit.nameEnter': "Enter the customer's name",
  'credit.nameNeeded': "Enter the customer's name: a sale on credit needs it",
  'credit.nameMax': 'A name is at most 60 characters',
  'credit.noteMax': 'A note is at most 200 characters',
  'credit.customerNumber': (p: { problem: string }) => `Customer's ${p.problem.toLowerCase()}`,
  'credit.overLimit': (p: { name: string; owed: string; limit: string }) =>
    `${p.name} already owes ${p.owed}; this sale would take them past their credit limit of ${p.limit}. Take cash or UPI, or take a payment first.`,
  'credit.noCustomer': (p: { number: string }) => `No customer with number ${p.number} has bought on credit.`,
  'credit.noCustomerField': 'No credit customer with this number',
  'credit.owesNothing': (p: { name: string }) => `${p.name} owes nothing now.`,
  'credit.nothingDue': 'Nothing is due',
  'credit.moreThanDue': (p: { name: string; due: string }) => `That is more than ${p.name} owes (${p.due}). Take at most the due.`,
  'credit.paymentNotRecorded': 'The payment was not recorded.',
  // Settings (contract/settings.ts, counter/settings.ts, shared/printer-address.ts, counter/credentials.ts).
  'settings.language': 'Choose English (en) or Hindi (hi)',
  'settings.httpAddress': 'Must be an http:// or https:// address',
  'settings.userId': 'User id may contain letters, digits, - and _ only',
  'settings.secretKeyHex': 'Secret key must be hexadecimal (0-9, a-f), an even number of characters',
  'settings.timezone': 'Not a known time zone (for India: Asia/Kolkata)',
  'settings.rechargeIncomplete': 'Recharge credentials are incomplete: enter user id, token, secret key and the recharge address in Settings.',
  'settings.panIncomplete': 'PAN credentials are incomplete: enter the api_key and the PAN address in Settings.',
  'settings.userIdEnter': 'Enter the user id the provider gave you',
  'settings.rechargeUrlEnter': 'Enter the recharge API address',
  'settings.completeAccount': 'Complete the recharge account details to leave training mode.',
  'settings.enterOnce': 'Enter it once; it is kept in the system keychain',
  'settings.panKeyNeeded': 'Enter the PAN api_key to use the PAN address.',
  'settings.printerAddressNeeded': "Enter the receipt printer's address to print on it directly (ESC/POS).",
  'keychain.unavailable':
    'The system keychain is not available, so partner credentials cannot be read or saved. On Linux, make sure a keyring (GNOME Keyring or KWallet) is running and unlocked.',
  'printer.addressEmpty': "Type the printer's network address (for example 192.168.1.50) or its device path.",
  'printer.badPort': (p: { port: string }) => `"${p.port}" is not a port number (1 to 65535; receipt printers use 9100).`,
  'printer.badAddress': (p: { text: string }) =>
    `"${p.text}" is not a printer address: type an IP address like 192.168.1.50, a name like printer.local, or a path like /dev/usb/lp0.`,
  'printer.addressUnusable': (p: { problem: string }) => `The receipt printer's address in Settings cannot be used. ${p.problem}`,
  'printer.failed': (p: { problem: string; afterwards: string }) => `${p.problem} ${p.afterwards}`,
  'printer.browserPrint':
    "Counter's silent printing works in the desktop app. Here, use your browser's Print (choose 'Save as PDF' for a file), or set up an ESC/POS printer in Settings.",
  'printer.noPicture': 'This receipt has to go to the printer as a picture, and this way of starting Counter cannot draw one.',
  'printer.listInBrowser': "The computer's printers are listed in the desktop app. Here, your browser's Print shows them.",
  'printer.afterReceipt': 'The sale is kept as it was: print its receipt again once the printer is ready.',
  'printer.afterReport': 'The books are as they were: print the report again once the printer is ready.',
  'printer.afterTestPage': 'Check the printer, then print the test page again.',
  'pdf.receiptInBrowser': "Saving a PDF works in the desktop app. Here, use your browser's Print (choose 'Save as PDF').",
  'pdf.reportInBrowser': "Saving a PDF works in the desktop app. Here, open the A4 report and use your browser's Print (choose 'Save as PDF').",
  // Commission rates (contract/margins.ts, shared/margin.ts, counter/margins.ts).
  'margin.tooLong': 'Too long: check the digits',
  'margin.fixedMax': 'A fixed commission must not be more than ₹100',
  'margin.percentEnter': 'Enter a percent, like 2.5',
  'margin.percentRule': 'A percent is written like 2.5 or 3.25 (digits, at most 2 after the dot)',
  'margin.percentMax': 'A commission must not be more than 20%',
  'margin.unknownOperators': (p: { codes: string }) => `No operator has the code ${p.codes}: nothing was saved.`,
  'margin.notAnOperator': 'Not an operator in the list',
  // Recharges (counter/recharge.ts).
  'recharge.lookupFailed': (p: { problem: string }) => `Operator lookup did not work: ${p.problem}. Choose the operator yourself.`,
  'recharge.beingSent': 'A recharge for this number is already being sent. Wait for its result.',
  'recharge.beingSentField': 'A recharge for this number is already being sent',
  'sale.noSuchOrder': (p: { orderId: string }) => `There is no sale with order id ${p.orderId}.`,
  'sale.nothingSent': 'Nothing was sent to the provider.',
  'share.mobile': "Type the customer's 10-digit mobile number to share this receipt on WhatsApp.",
  // The PAN desk (contract/pan.ts, counter/pan.ts).
  'coupon.type': 'Choose P-Coupon or E-Coupon',
  'coupon.qtyEnter': 'Enter a quantity',
  'coupon.qtyWhole': 'Quantity must be a whole number',
  'coupon.qtyMin': 'Quantity must be at least 1',
  'coupon.noCredit': 'Coupons are paid in cash or UPI, not on credit',
  'coupon.qtyMax': (p: { max: number }) => `At most ${p.max} coupons in one order`,
  'coupon.balanceShort': (p: { balance: string; amount: string }) =>
    `The balance ${p.balance} is short of ${p.amount} for this order. Add money to the provider wallet, or refresh the balance.`,
  'coupon.balanceShortField': 'Not enough balance for this many coupons',
  'coupon.noSuchSale': (p: { attemptId: string }) => `There is no coupon sale ${p.attemptId}.`,
  'coupon.noOrder':
    'The provider never named an order for this attempt, so its status cannot be asked. Compare the balance with the provider’s coupon history before selling again.',
  'pan.balanceUnread': (p: { problem: string }) => `The balance could not be read: ${p.problem}`,
  'agent.idEnter': 'Enter an agent id',
  'agent.idRule': 'Agent id: 3 to 30 letters, digits, - or _',
  'agent.nameEnter': 'Enter the name',
  'agent.nameLatin': "Name: type it in English letters as on the PAN card (the provider's form takes only A–Z, spaces, dots and apostrophes)",
  'agent.nameRule': 'Name: 2 to 80 characters, starting with a letter',
  'agent.emailEnter': 'Enter an e-mail address',
  'agent.emailInvalid': 'Not a valid e-mail address',
  'agent.shopEnter': 'Enter the shop name',
  'agent.locationEnter': 'Enter the location',
  'agent.stateChoose': 'Choose a state',
  'agent.stateFromList': 'Choose a state from the list',
  'agent.pinEnter': 'Enter the PIN code',
  'agent.pinRule': 'PIN code: 6 digits, not starting with 0',
  'agent.aadhaarEnter': 'Enter the Aadhaar number',
  'agent.aadhaarDigits': 'Aadhaar number: 12 digits',
  'agent.aadhaarStart': 'An Aadhaar number never starts with 0 or 1',
  'agent.aadhaarCheck': 'This Aadhaar number is mistyped (its check digit does not match)',
  'agent.panEnter': 'Enter the PAN',
  'agent.panRule': 'PAN: 5 letters, 4 digits, 1 letter (like ABCDE1234F)',
  'agent.choose': 'Choose an agent',
  'agent.chooseFromList': 'Choose an agent from the list',
  'agent.none': (p: { vleId: string }) => `There is no agent ${p.vleId}: create the agent first.`,
  'agent.taken': (p: { vleId: string }) => `Agent id ${p.vleId} is already taken`,
  'agent.takenField': 'This agent id is already taken',
  'agent.askedNotRecorded': "The provider was asked, but its answer is not recorded: refresh the agent's status once the disk has room, before creating it again.",
  'agent.whom': (p: { vleId: string }) => `agent ${p.vleId}`,
  'reset.none': (p: { attemptId: string }) => `There is no password reset ${p.attemptId}.`,
  'reset.noOrder': 'The provider never named an order for this reset: request it again.',
  'reset.askedNotRecorded': "The provider was asked, but its answer is not recorded: look at the agent's resets with the provider before asking again.",
  // Pending sales (contract/pending.ts, counter/pending.ts).
  'settle.note': 'Write who at the provider confirmed it, and when (at least 10 characters)',
  'settle.chargeOnlyCoupon': 'Only a coupon order settled as SUCCESS has a charge to enter: leave the charge blank.',
  'settle.chargeOnlyCouponField': 'Only for a coupon order settled as SUCCESS',
  'pending.unresolved': (p: { id: string; whom: string; why: string }) =>
    `Order ${p.id} for ${p.whom} has no final answer. ${p.why} Open Pending to check its status or settle it by phone first.`,
  'pending.unresolvedField': (p: { id: string; whom: string }) => `Order ${p.id} for ${p.whom} is still pending`,
  'pending.mayHaveCharged': 'The provider may have charged this sale; do not sell it again. Counter will record the answer and check it as soon as the disk allows.',
  'pending.notKnownYet': 'Its result is not known yet: the provider may have charged it.',
  'pending.notPending': (p: { id: string }) => `Sale ${p.id} is not pending: it already has a final answer, or there is no such sale.`,
  'pending.notPendingField': 'Not a pending sale',
  'pending.sendingNow': (p: { id: string }) => `Sale ${p.id} is being sent right now: wait for the provider's answer.`,
  'pending.sendingNowField': 'Being sent right now',
  // The day, the books and the clock (contract/books.ts, counter/day-close.ts, clock.ts, app.ts, history.ts).
  'drawer.notesEnter': 'Enter how many notes (0 if none)',
  'drawer.notesWhole': 'Notes are counted in whole numbers',
  'drawer.notesNegative': 'Notes cannot be fewer than 0',
  'drawer.notesMax': (p: { max: string }) => `At most ${p.max} notes of one kind`,
  'topup.reference': 'Enter the payment reference (UTR or receipt number)',
  'day.alreadyClosed': (p: { day: string; at: string }) => `The books for ${p.day} are already closed (at ${p.at}).`,
  'day.overflow': (p: { day: string }) =>
    `The money recorded on ${p.day} adds up to more than Counter can count: a sale or top-up was recorded with an impossible amount. ` +
    'That day cannot be summed or closed; keep the data folder as it is and call whoever supports you.',
  'day.unresolved': (p: { count: number }) =>
    `${p.count === 1 ? '1 sale is' : `${p.count} sales are`} still unresolved. Check their status or settle them by phone first, or write why you close the day anyway.`,
  'day.unresolvedField': (p: { count: number; min: number }) =>
    `${p.count === 1 ? '1 sale is' : `${p.count} sales are`} still unresolved: write why you close anyway (at least ${p.min} characters)`,
  'day.notBegun': (p: { day: string }) => `${p.day} has not begun yet.`,
  'day.notBegunField': 'Choose today or an earlier day',
  'day.journalDamaged': (p: { problem: string }) =>
    `The day cannot be closed: the journal is damaged. ${p.problem} Counter is now read-only; keep the data folder as it is for whoever supports you.`,
  'day.closedNothingMore': (p: { problem: string }) => `${p.problem} Nothing more can be booked on that day.`,
  'ledger.refused': (p: { problem: string }) => p.problem,
  'ledger.refusedThen': (p: { problem: string; consequence: string }) => `${p.problem} ${p.consequence}`,
  'ledger.lostOrder': (p: { orderId: string }) => `The ledger lost track of order ${p.orderId}.`,
  'clock.disagrees': (p: { clockAt: string; lastAt: string }) =>
    `The computer's clock says ${p.clockAt} but the last entry in the books was at ${p.lastAt}. ` +
    'Check the date and time; if they are right, confirm them in the bar at the top.',
  'clock.nothingBooked': (p: { problem: string }) => `Nothing was booked. ${p.problem}`,
  'history.endBeforeStart': 'The end day is before the start day',
  'history.endBeforeStartField': 'Must not be before the start day',
  // Owner and staff (contract/roles.ts, counter/roles.ts, owner-pin.ts).
  'pin.rule': 'The PIN is 4 to 8 digits (0-9 only)',
  'pin.differ': 'The two PINs differ: type the same PIN twice',
  'pin.notSet': 'No owner PIN is set yet: set one in Settings.',
  'pin.locked': (p: { seconds: number }) => `Too many wrong PINs: PIN entry is locked. Try again in ${p.seconds} second${p.seconds === 1 ? '' : 's'}.`,
  'pin.wrongLocked': (p: { max: number; seconds: number }) =>
    `That PIN is wrong, the ${p.max}th wrong PIN in a row. Too many wrong PINs: PIN entry is locked. Try again in ${p.seconds} second${p.seconds === 1 ? '' : 's'}.`,
  'pin.wrong': (p: { left: number }) => `That PIN is wrong. ${p.left} more wrong PIN${p.left === 1 ? '' : 's'} lock PIN entry for a minute.`,
  'pin.oldNeeded': 'Type the current PIN to change it.',
  'pin.oldNeededField': 'Type the current owner PIN',
  'pin.pepperMissing': (p: { file: string }) =>
    `The owner PIN cannot be checked on this computer: its key is not in this computer's keychain (was the data folder copied from another computer?). ` +
    `To set a new PIN: close Counter, create an empty file named "${p.file}" in the data folder, and start Counter again. Sales and settings are kept.`,
  'pin.setFirst': 'Set an owner PIN in Settings first: until then everyone at the counter is the owner.',
  'owner.only': (p: { what: string }) => `Only the owner can ${p.what}. Unlock with the owner PIN (the lock in the status bar), then try again. Nothing was changed.`,
  'owner.doThis': 'do this',
  // The books' own notices and refusals (electron/ledger: ledger.ts, ledger-open.ts, ledger-client.ts, audit.ts,
  // segments.ts), shown in the status bar and inside refusals; logs read them in English.
  'ledger.nothingWritten': 'The ledger could not be written (disk full or folder read-only).',
  'ledger.closed': 'The ledger is closed.',
  'ledger.dayClosed': (p: { day: string }) => `The books for ${p.day} are closed.`,
  'ledger.folderUnwritable': (p: { dir: string; error: string }) => `The ledger folder ${p.dir} could not be opened for writing (${p.error}).`,
  'ledger.journalFull': (p: { why: string }) =>
    `The journal cannot take more lines: ${p.why}. Nothing more is recorded until Counter is restarted; it then asks the provider about every sale left without its answer.`,
  'ledger.auditDamaged': (p: { problem: string }) => `The journal is damaged: ${p.problem} The ledger is read-only until this is looked into.`,
  'ledger.readOnlyUntil': (p: { problem: string }) => `${p.problem} The ledger is read-only until this is looked into.`,
  'ledger.damagedAt': (p: { line: number; reason: string; file: string }) => `The journal is damaged at line ${p.line}: ${p.reason} (in ${p.file}).`,
  'ledger.linesMissing': (p: { detail: string }) => `Journal lines are missing: ${p.detail}.`,
  'ledger.twoJournals': (p: { conflict: string }) => `The ledger folder holds two journals: ${p.conflict}.`,
  'ledger.tornTail': (p: { line: number }) => `The last journal line (line ${p.line}) was incomplete: it was never confirmed and has been removed.`,
  'ledger.notAppliedRestart': (p: { seq: number; error: string }) => `Entry #${p.seq} is in the journal but could not be applied (${p.error}); restart Counter.`,
  'ledger.notApplied': (p: { seq: number; type: string; problem: string }) => `Journal entry #${p.seq} (${p.type}) was not applied: ${p.problem}.`,
  'ledger.copyUnreadable': (p: { name: string; error: string }) =>
    `The saved copy ${p.name} could not be read (${p.error}); it was skipped and the journal replayed past an older copy.`,
  'ledger.copyOlder': (p: { name: string }) =>
    `The saved copy ${p.name} was written by an older Counter, before saved copies had checks: it was taken as it is, and is checked from now on.`,
  'ledger.copyMismatch': (p: { name: string; seq: number }) => `The saved copy ${p.name} does not match the journal at entry #${p.seq}; it was ignored.`,
  'ledger.copyRebuilt': (p: { name: string; what: string; source: string }) => `The saved copy ${p.name} ${p.what} and was rebuilt from ${p.source}.`,
  'ledger.copyNoCheck': 'has no check (it was lost or removed)',
  'ledger.copyCheckDiffers': 'did not match its check',
  'ledger.fromPrevious': (p: { name: string }) => `the previous copy ${p.name} and the journal`,
  'ledger.fromJournal': 'the journal',
  'ledger.copyAhead': (p: { name: string; seq: number; reason: string }) => `the saved copy ${p.name} holds entries up to #${p.seq} but ${p.reason}`,
  'ledger.copyRewritten': (p: { name: string }) => `The saved copy ${p.name} was changed on disk while Counter ran; it was written again from the books in memory.`,
  'ledger.copyLeftAsFound': (p: { name: string }) =>
    `The saved copy ${p.name} was changed on disk while Counter ran; it is left as found while the books are read-only, and the next start rebuilds it from the journal.`,
  'ledger.copyNotRewritten': (p: { name: string; error: string }) =>
    `The saved copy ${p.name} was changed on disk while Counter ran and could not be written again (${p.error}); the next start rebuilds it from the journal.`,
  'ledger.snapshotFailed': (p: { error: string }) => `The ledger's saved copy could not be updated (${p.error}); every sale is still in the journal.`,
  'ledger.segmentFailed': (p: { error: string }) => `A new journal segment could not be started (${p.error}); the current one goes on.`,
  'ledger.nothingArchived': (p: { problem: string }) => `${p.problem} Nothing was archived.`,
  'ledger.stopped': 'The ledger stopped before it answered; it is being started again.',
  'ledger.notStarted': (p: { error: string }) => `The ledger could not be started (${p.error}).`,
  'ledger.notStartedPlain': 'The ledger could not be started.',
  'ledger.keptStopping': (p: { count: number }) =>
    `The ledger stopped ${p.count} times within a minute and was not started again; restart Counter, and if it happens again, call for support. Every recorded sale is in the journal.`,
  'ledger.notRestarted': (p: { error: string }) => `The ledger stopped and could not be started again (${p.error}); restart Counter.`,
  'audit.lineBroken': (p: { line: number; file: string; reason: string }) => `Line ${p.line} (${p.file}): ${p.reason}.`,
  'audit.tornTail': (p: { line: number }) => `The last line (line ${p.line}) is incomplete: it was never confirmed.`,
  // Why a journal line breaks the chain (ledger/segments.ts), inside the notices above and the office's refusals.
  'chain.fileStart': (p: { file: string; seq: number }) => `the file ${p.file} should begin with entry #${p.seq}`,
  'chain.cutShort': 'it was cut short',
  'chain.notALine': 'it is not a journal line',
  'chain.expected': (p: { expected: number; found: number }) => `expected entry #${p.expected} but found #${p.found} (a line was removed or moved)`,
  'chain.noLink': 'it does not link to the line before it (a line was changed, removed or inserted)',
  'chain.hashDiffers': 'its contents do not match its hash (the line was changed)',
  'chain.differsAt': (p: { seq: number }) => `it does not match the journal at entry #${p.seq}`,
  'chain.noEntry': (p: { seq: number }) => `the journal has no entry #${p.seq}`,
  'chain.endsAt': (p: { seq: number }) => `the journal's readable lines end at #${p.seq}`,
  'chain.missing': (p: { seq: number }) => `entry #${p.seq} is missing from the journal`,
  // The office's refusals of a batch (office/ingest.ts, journal-reader.ts).
  'office.journalDiffers': (p: { seq: number; reason: string }) =>
    `The office already holds this counter's entries up to #${p.seq}, but this journal differs there (${p.reason}): it is not the journal the office has. Nothing more is shipped until someone who supports you has looked at it.`,
  'office.entryAltered': (p: { line: number; file: string; reason: string }) =>
    `Journal entry #${p.line} (file ${p.file}) is not as it was written: ${p.reason}. It and everything after it stay unshipped.`,
  'office.refusedEntries': (p: { terminal: string; problem: string }) => `The office refused entries from ${p.terminal}: ${p.problem}.`,
  'office.entryHashDiffers': (p: { seq: number }) => `entry #${p.seq}'s contents do not match its hash (the line was changed)`,
  'office.entryNotFollowing': (p: { seq: number; before: number }) => `entry #${p.seq} does not follow entry #${p.before}`,
  'office.noEntryBefore': (p: { terminal: string; before: number; seq: number }) =>
    `The office has no entry #${p.before} from ${p.terminal}, so entry #${p.seq} cannot follow it.`,
  'office.fork': (p: { terminal: string; seq: number; before: number }) =>
    `Entry #${p.seq} from ${p.terminal} does not follow the entry #${p.before} the office already holds: this journal and the office's copy have parted (a fork).`,
  'office.differentEntry': (p: { terminal: string; seq: number }) =>
    `The office already holds a different entry #${p.seq} from ${p.terminal}: this journal and the office's copy have parted (a fork). Nothing of this batch was stored.`,
  // The printer as it answers (printers/printer-link.ts, counter/receipt-printing.ts, printing.ts): its
  // state and why a job did not go, naming its address; said in the link, spoken where it reaches the screen.
  'printerState.ready': (p: { where: string }) => `The printer at ${p.where} is ready.`,
  'printerState.paperLow': (p: { where: string }) => `The printer at ${p.where} is running out of paper: load a new roll soon.`,
  'printerState.noPaper': (p: { where: string }) => `The printer at ${p.where} is out of paper: load a paper roll, close the cover and print again.`,
  'printerState.coverOpen': (p: { where: string }) => `The printer at ${p.where} has its cover open: close the cover and print again.`,
  'printerState.offline': (p: { where: string }) =>
    `The printer at ${p.where} is offline: look for a paper jam or an error light, switch it off and on, and print again.`,
  'printerState.silent': (p: { where: string }) => `The printer at ${p.where} takes receipts but does not report paper or cover: check that it has paper.`,
  'printerState.unreachable': (p: { where: string }) => `The printer at ${p.where} did not answer: is it switched on and on the shop's network?`,
  'printer.brokeOff': (p: { where: string }) => `The printer at ${p.where} broke off the connection: switch it off and on, and print again.`,
  'printer.refused': (p: { where: string }) =>
    `The printer at ${p.where} refused the connection: is it switched on, and is its address right in Settings (receipt printers take jobs on port 9100)?`,
  'printer.notFound': (p: { where: string }) => `No printer named ${p.where} was found on the network: check the printer's address in Settings.`,
  'printer.noDevice': (p: { where: string }) => `No printer at ${p.where}: is it plugged in and switched on?`,
  'printer.notADevice': (p: { where: string }) => `${p.where} is not a printer but a file, folder or pipe: nothing was written to it. Check the printer's path in Settings (on Linux like /dev/usb/lp0).`,
  'printer.notAllowed': (p: { where: string }) =>
    `Counter is not allowed to print to ${p.where}. On Linux, add this user to the "lp" group (sudo usermod -aG lp $USER), then log out and in again; on Windows, give this user permission to print to the shared printer.`,
  'printer.inUse': (p: { where: string }) => `The printer at ${p.where} is in use by another program: close that program and print again.`,
  'printer.cannotWrite': (p: { where: string; code: string }) => `Counter could not write to the printer at ${p.where} (${p.code}): check the path in Settings.`,
  'printer.stalled': (p: { where: string }) =>
    `The printer at ${p.where} stopped taking the receipt: check it for paper and a paper jam, switch it off and on, and print again.`,
  'printer.driverInBrowser': "In the browser, receipts print through the browser's Print: Counter cannot see the printer from here.",
  'printer.noneSetUp': "This computer has no printer set up. Add the receipt printer in the computer's printer settings.",
  'printer.defaultDriver': "Receipts go to the computer's default printer. Its driver does not tell Counter whether it has paper: print a test page to check.",
  'printer.notInstalled': (p: { name: string }) => `The printer "${p.name}" is not among this computer's printers. Choose it again in Settings, or check that it is installed.`,
  'printer.driverSetUp': (p: { name: string }) => `"${p.name}" is set up on this computer. Its driver does not tell Counter whether it has paper: print a test page to check.`,
  'printer.notAmong': (p: { name: string }) =>
    `Nothing was printed: the printer "${p.name}" is not among this computer's printers. Choose the printer again in Settings, then print again.`,
  'printer.noPrinters': "Nothing was printed: this computer has no printer set up. Add the receipt printer in the computer's printer settings, then print again.",
  'printer.cancelled': 'Nothing was printed: the printing was cancelled. Print again when the printer is ready.',
  'printer.notTaken': 'Nothing was printed: the printer did not take the page. Check that it is switched on, connected and has paper, then print again.',
  'printer.emptyPage': 'The page to print came out empty, so nothing was printed.',
  'printer.tooLong': 'The receipt is too long to turn into a picture for the printer, so nothing was printed.',
  // Test connection (counter/app.ts): the provider's own words stay as it sent them, inside ours.
  'connection.answered': 'The provider answered the operator lookup: the user id, token and secret key work.',
  'connection.refused': (p: { answer: string }) =>
    `The provider refused the operator lookup: ${p.answer}. Check the user id, token and secret key in Settings.`,
  'connection.noAnswer': "The provider did not answer the operator lookup: check the recharge API address and this computer's internet, then test again.",
  'recharge.lookupNoAnswer': 'The operator could not be looked up just now: choose it from the list.',
  'recharge.lookupUnreachable': 'The provider cannot be reached: choose the operator yourself.',
  // The head office's shipping, as the status bar shows it (counter/office.ts, office/*).
  'office.trainingNotSent': 'Training mode: training sales are not sent to the office.',
  'office.passwordMissing': 'Enter the office database password in Settings (it is kept in the system keychain).',
  'office.nameCounter': 'Name this counter in Settings to send its journal to the office.',
  'office.shipperStopped': 'The office shipper stopped; it starts again in a few seconds.',
  'office.tryingAgain': (p: { since: string }) => `Trying the office again (away since ${p.since}).`,
  // The day close's judgement of the shop's one PAN balance (counter/sibling-counters.ts): why a break may be another counter's.
  'shop.officeUnreachable': (p: { reason: string }) => `The other counters' sales could not be asked of the office: ${p.reason}`,
  'shop.counterBehind': (p: { counter: string; entries: number }) => `${p.counter} has ${p.entries} entries not yet at the office.`,
  'shop.counterUnknownBehind': (p: { counter: string }) => `${p.counter} has not told the office how far its journal goes.`,
  'office.connectionRefused': (p: { where: string }) => `The office database at ${p.where} refused the connection (is it running?).`,
  'office.hostNotFound': (p: { host: string }) => `The office address ${p.host} could not be found (check the address and this computer's internet).`,
  'office.connectionClosed': (p: { where: string }) => `The office database at ${p.where} closed the connection (restarting?).`,
  'office.login': (p: { user: string }) => `The office database refused the user name or password for ${p.user}: check them in Settings.`,
  'office.noDatabase': (p: { database: string }) => `The office database has no database named ${p.database}.`,
  'office.noAnswer': (p: { where: string }) => `No answer from the office database at ${p.where} in time.`,
  'office.tls': (p: { where: string }) => `The office database at ${p.where} could not be reached encrypted (TLS): check its certificate, or that it accepts TLS.`,
  'office.unusable': (p: { where: string; code: string }) => `The office database at ${p.where} could not be used${p.code ? ` (${p.code})` : ''}.`,
  // A fork (office/forks.ts) and its way back (counter/office.ts registerAnew).
  'office.forked': (p: { terminal: string; seq: number; waiting: number }) =>
    `Another counter already sends its journal to the office as ${p.terminal} (a copy of this counter's data folder?): the two part at entry #${p.seq}. This counter's ${p.waiting} entries from there are kept here, waiting. The owner can register this counter as a new terminal (Settings, Head office) to send them.`,
  'office.notForked': 'Only a counter the office refuses as a copy of another (a fork) can be registered as a new terminal.',
}

export type ErrorWords = typeof en
export type ErrorKey = keyof ErrorWords
type ParamsOf<K extends ErrorKey> = ErrorWords[K] extends (p: infer P) => string ? [params: P] : []

const hi: ErrorWords = {
  'input.missing': 'यह भरें',
  'input.invalid': 'यह सही नहीं है',
  'input.choose': 'सूची में से एक चुनें',
  'input.maxChars': (p) => `ज़्यादा से ज़्यादा ${p.max} अक्षर`,
  'input.minChars': (p) => `कम से कम ${p.min} अक्षर`,
  'input.atMost': (p) => `ज़्यादा से ज़्यादा ${p.max}`,
  'input.atLeast': (p) => `कम से कम ${p.min}`,
  'input.unknownField': 'इस अनुरोध का एक फ़ील्ड काउंटर नहीं पहचानता',
  'request.unknownChannel': 'काउंटर यह अनुरोध नहीं पहचानता।',
  'request.invalid': 'यह अनुरोध सही नहीं है।',
  'request.internal': 'काउंटर के अंदर कुछ गड़बड़ हुई। दोबारा कोशिश करने से पहले आज की बिक्री देख लें।',
  'amount.enter': 'राशि डालें',
  'amount.farTooLong': 'राशि बहुत लंबी है: अंक जाँचें',
  'amount.aboveZero': 'राशि ₹0 से ज़्यादा होनी चाहिए',
  'amount.max': (p) => `राशि ${p.max} से ज़्यादा नहीं हो सकती`,
  'amount.onlyDigits': 'राशि में सिर्फ़ अंक, कॉमा और एक बिंदु हो सकते हैं, जैसे 1,999 या 199.50',
  'amount.oneDot': 'राशि में सिर्फ़ एक बिंदु हो सकता है, पैसे से पहले, जैसे 1,999 या 199.50',
  'amount.commaAfterDot': 'कॉमा बिंदु से पहले आते हैं, जैसे 1,999.50',
  'amount.paiseDigits': 'बिंदु के बाद पैसे के 1 या 2 अंक होते हैं, जैसे 199.50',
  'amount.startDigit': 'राशि अंक से शुरू होनी चाहिए, जैसे 1,999 या 199.50',
  'amount.decimalComma': 'पैसे के लिए बिंदु लगाएँ, जैसे 199.50 (कॉमा सिर्फ़ अंकों को बाँटते हैं, जैसे 1,999)',
  'amount.grouping': 'कॉमा अंकों को 1,999 या 1,00,000 की तरह बाँटें: उनकी जगह जाँचें',
  'amount.farTooLarge': 'राशि बहुत बड़ी है: अंक जाँचें',
  'collected.atLeast': (p) => `लिया गया पैसा कम से कम राशि जितना होना चाहिए, ${p.amount}`,
  'collected.atMost': (p) => `लिया गया पैसा ${p.most} से ज़्यादा नहीं हो सकता: राशि और ज़्यादा से ज़्यादा ${p.cap} सर्विस चार्ज (सेटिंग्स में तय)`,
  'mobile.enter': 'मोबाइल नंबर डालें',
  'mobile.digitsOnly': 'मोबाइल नंबर में सिर्फ़ अंक होने चाहिए',
  'mobile.tenDigits': 'मोबाइल नंबर ठीक 10 अंकों का होना चाहिए',
  'mobile.start': 'मोबाइल नंबर 6, 7, 8 या 9 से शुरू होना चाहिए',
  'orderId.invalid': 'यह सही ऑर्डर ID नहीं है',
  'day.format': 'दिन YYYY-MM-DD की तरह लिखा जाता है',
  'number.enter': 'नंबर डालें',
  'number.length': 'नंबर 6 से 15 अंकों का होता है',
  'digits.enter': 'कम से कम 4 अंक टाइप करें',
  'digits.length': '4 से 15 अंक टाइप करें',
  'dth.enter': 'सब्सक्राइबर ID डालें',
  'dth.digitsOnly': 'सब्सक्राइबर ID में सिर्फ़ अंक होने चाहिए',
  'dth.length': 'सब्सक्राइबर ID 6 से 15 अंकों की होनी चाहिए',
  'operator.choose': 'ऑपरेटर चुनें',
  'operator.chooseFromList': 'सूची में से ऑपरेटर चुनें',
  'customer.nameEnter': 'नाम डालें',
  'customer.nameMax': (p) => `नाम ज़्यादा से ज़्यादा ${p.max} अक्षर का हो सकता है`,
  'customer.nameRule': 'नाम में सिर्फ़ अक्षर (किसी भी लिपि में), स्पेस, बिंदु, हाइफ़न और अपॉस्ट्रॉफ़ी हो सकते हैं, और वह अक्षर से शुरू होना चाहिए',
  'customer.notKnown': (p) => `${p.number} पर कोई बिक्री याद नहीं है, इसलिए उसे नाम नहीं दिया जा सकता और भुलाया नहीं जा सकता। पहले उस पर बिक्री करें।`,
  'customer.notKnownField': 'इस नंबर पर कोई बिक्री याद नहीं है',
  'office.counterNameMax': 'काउंटर का नाम ज़्यादा से ज़्यादा 40 अक्षर का हो',
  'office.counterNameRule': 'काउंटर के नाम में सिर्फ़ अक्षर, अंक, स्पेस, - . / और _ हो सकते हैं',
  'office.pgNameMax': 'ज़्यादा से ज़्यादा 63 अक्षर',
  'office.pgNameRule': 'सिर्फ़ अंग्रेज़ी अक्षर, अंक, _ - और .',
  'office.hostMax': 'पता बहुत लंबा है',
  'office.hostRule': 'ऑफ़िस डेटाबेस का पता नाम (db.example.in) या IP पते की तरह लिखें, http:// या पोर्ट के बिना',
  'office.portNumber': 'पोर्ट एक संख्या है',
  'office.portWhole': 'पोर्ट एक पूर्ण संख्या है',
  'office.portRange': 'पोर्ट 1 से 65535 तक होते हैं',
  'office.passwordMax': 'ज़्यादा से ज़्यादा 512 अक्षर',
  'office.shopNameNeeded': 'दुकान का नाम डालें: ऑफ़िस इस काउंटर को दुकान और काउंटर के नाम से पहचानता है',
  'office.counterNameNeeded': 'इस काउंटर को नाम दें (जैसे "काउंटर 1") ताकि ऑफ़िस इसे दूसरों से अलग पहचान सके',
  'office.databaseNeeded': 'ऑफ़िस डेटाबेस का नाम डालें',
  'office.userNeeded': 'ऑफ़िस डेटाबेस का यूज़र नाम डालें',
  'office.passwordNeeded': 'इसे एक बार डालें; यह सिस्टम की कीचेन में रखा जाता है',
  'office.tlsNeeded': 'जर्नल दूसरे कंप्यूटर पर सिर्फ़ एन्क्रिप्टेड (TLS) जाता है; "TLS के बिना" सिर्फ़ इसी कंप्यूटर पर रखे ऑफ़िस डेटाबेस के लिए है',
  'office.check': 'हेड ऑफ़िस की सेटिंग जाँचें।',
  'customer.owes': (p) => `${p.name} पर अभी ${p.amount} बाकी है। इस ग्राहक को भुलाने से पहले उधार खाते (Ctrl+D) में भुगतान लें।`,
  'customer.isOwed': (p) => `दुकान के पास अभी ${p.name} के ${p.amount} हैं (उधार की एक बिक्री के लिए दिए, जो विफल हुई); यह उनकी अगली उधार बिक्री में जुड़ेगा। तब तक इस ग्राहक को भुलाया नहीं जा सकता।`,
  'credit.nameEnter': 'ग्राहक का नाम डालें',
  'credit.nameNeeded': 'ग्राहक का नाम डालें: उधार बिक्री के लिए यह ज़रूरी है',
  'credit.nameMax': 'नाम ज़्यादा से ज़्यादा 60 अक्षर का हो सकता है',
  'credit.noteMax': 'नोट ज़्यादा से ज़्यादा 200 अक्षर का हो सकता है',
  'credit.customerNumber': (p) => `ग्राहक का ${p.problem}`,
  'credit.overLimit': (p) => `${p.name} पर पहले से ${p.owed} बाकी है; यह बिक्री उनकी ${p.limit} की उधार सीमा से ऊपर चली जाएगी। नकद या UPI लें, या पहले भुगतान लें।`,
  'credit.noCustomer': (p) => `नंबर ${p.number} वाले किसी ग्राहक ने उधार पर नहीं खरीदा है।`,
  'credit.noCustomerField': 'इस नंबर का कोई उधार ग्राहक नहीं',
  'credit.owesNothing': (p) => `${p.name} पर अभी कुछ बाकी नहीं है।`,
  'credit.nothingDue': 'कुछ बाकी नहीं है',
  'credit.moreThanDue': (p) => `यह ${p.name} के बाकी (${p.due}) से ज़्यादा है। ज़्यादा से ज़्यादा बाकी जितना लें।`,
  'credit.paymentNotRecorded': 'भुगतान दर्ज नहीं हुआ।',
  'settings.language': 'अंग्रेज़ी (en) या हिंदी (hi) चुनें',
  'settings.httpAddress': 'पता http:// या https:// से शुरू होना चाहिए',
  'settings.userId': 'यूज़र ID में सिर्फ़ अक्षर, अंक, - और _ हो सकते हैं',
  'settings.secretKeyHex': 'सीक्रेट की हेक्साडेसिमल (0-9, a-f) में, सम संख्या के अक्षरों की होनी चाहिए',
  'settings.timezone': 'यह कोई जाना-पहचाना टाइम ज़ोन नहीं है (भारत के लिए: Asia/Kolkata)',
  'settings.rechargeIncomplete': 'रिचार्ज क्रेडेंशियल अधूरे हैं: सेटिंग्स में यूज़र ID, टोकन, सीक्रेट की और रिचार्ज का पता डालें।',
  'settings.panIncomplete': 'PAN क्रेडेंशियल अधूरे हैं: सेटिंग्स में api_key और PAN का पता डालें।',
  'settings.userIdEnter': 'प्रोवाइडर से मिली यूज़र ID डालें',
  'settings.rechargeUrlEnter': 'रिचार्ज API का पता डालें',
  'settings.completeAccount': 'ट्रेनिंग मोड से बाहर आने के लिए रिचार्ज खाते का पूरा ब्योरा डालें।',
  'settings.enterOnce': 'इसे एक बार डालें; यह सिस्टम कीचेन में रखा जाता है',
  'settings.panKeyNeeded': 'PAN का पता इस्तेमाल करने के लिए PAN api_key डालें।',
  'settings.printerAddressNeeded': 'रसीद प्रिंटर पर सीधे (ESC/POS) छापने के लिए उसका पता डालें।',
  'keychain.unavailable':
    'सिस्टम कीचेन उपलब्ध नहीं है, इसलिए पार्टनर क्रेडेंशियल न पढ़े जा सकते हैं न सेव हो सकते हैं। Linux पर देखें कि कीरिंग (GNOME Keyring या KWallet) चल रही हो और अनलॉक हो।',
  'printer.addressEmpty': 'प्रिंटर का नेटवर्क पता (जैसे 192.168.1.50) या उसका डिवाइस पाथ टाइप करें।',
  'printer.badPort': (p) => `"${p.port}" पोर्ट नंबर नहीं है (1 से 65535; रसीद प्रिंटर 9100 इस्तेमाल करते हैं)।`,
  'printer.badAddress': (p) => `"${p.text}" प्रिंटर का पता नहीं है: 192.168.1.50 जैसा IP पता, printer.local जैसा नाम, या /dev/usb/lp0 जैसा पाथ टाइप करें।`,
  'printer.addressUnusable': (p) => `सेटिंग्स में दिया रसीद प्रिंटर का पता इस्तेमाल नहीं हो सकता। ${p.problem}`,
  'printer.failed': (p) => `${p.problem} ${p.afterwards}`,
  'printer.browserPrint':
    "काउंटर की बिना डायलॉग वाली छपाई डेस्कटॉप ऐप में चलती है। यहाँ ब्राउज़र का Print इस्तेमाल करें (फ़ाइल के लिए 'Save as PDF' चुनें), या सेटिंग्स में ESC/POS प्रिंटर लगाएँ।",
  'printer.noPicture': 'यह रसीद प्रिंटर को तस्वीर के रूप में भेजनी है, और काउंटर को इस तरह चलाने पर वह तस्वीर नहीं बन सकती।',
  'printer.listInBrowser': 'कंप्यूटर के प्रिंटरों की सूची डेस्कटॉप ऐप में दिखती है। यहाँ ब्राउज़र का Print उन्हें दिखाता है।',
  'printer.afterReceipt': 'बिक्री जैसी थी वैसी है: प्रिंटर तैयार होने पर उसकी रसीद फिर छापें।',
  'printer.afterReport': 'हिसाब जैसा था वैसा है: प्रिंटर तैयार होने पर रिपोर्ट फिर छापें।',
  'printer.afterTestPage': 'प्रिंटर जाँचें, फिर टेस्ट पेज दोबारा छापें।',
  'pdf.receiptInBrowser': "PDF सेव करना डेस्कटॉप ऐप में चलता है। यहाँ ब्राउज़र का Print इस्तेमाल करें ('Save as PDF' चुनें)।",
  'pdf.reportInBrowser': "PDF सेव करना डेस्कटॉप ऐप में चलता है। यहाँ A4 रिपोर्ट खोलें और ब्राउज़र का Print इस्तेमाल करें ('Save as PDF' चुनें)।",
  'margin.tooLong': 'बहुत लंबा: अंक जाँचें',
  'margin.fixedMax': 'तय कमीशन ₹100 से ज़्यादा नहीं हो सकता',
  'margin.percentEnter': 'प्रतिशत डालें, जैसे 2.5',
  'margin.percentRule': 'प्रतिशत 2.5 या 3.25 की तरह लिखा जाता है (अंक, बिंदु के बाद ज़्यादा से ज़्यादा 2)',
  'margin.percentMax': 'कमीशन 20% से ज़्यादा नहीं हो सकता',
  'margin.unknownOperators': (p) => `कोड ${p.codes} का कोई ऑपरेटर नहीं है: कुछ सेव नहीं हुआ।`,
  'margin.notAnOperator': 'यह सूची का ऑपरेटर नहीं है',
  'recharge.lookupFailed': (p) => `ऑपरेटर पता नहीं चल सका: ${p.problem}। ऑपरेटर खुद चुनें।`,
  'recharge.beingSent': 'इस नंबर का एक रिचार्ज अभी भेजा जा रहा है। उसके नतीजे का इंतज़ार करें।',
  'recharge.beingSentField': 'इस नंबर का एक रिचार्ज अभी भेजा जा रहा है',
  'sale.noSuchOrder': (p) => `ऑर्डर ID ${p.orderId} की कोई बिक्री नहीं है।`,
  'sale.nothingSent': 'प्रोवाइडर को कुछ नहीं भेजा गया।',
  'share.mobile': 'यह रसीद WhatsApp पर भेजने के लिए ग्राहक का 10 अंकों का मोबाइल नंबर लिखें।',
  'coupon.type': 'P-Coupon या E-Coupon चुनें',
  'coupon.qtyEnter': 'संख्या डालें',
  'coupon.qtyWhole': 'संख्या पूरी होनी चाहिए',
  'coupon.qtyMin': 'संख्या कम से कम 1 होनी चाहिए',
  'coupon.noCredit': 'कूपन का भुगतान नकद या UPI से होता है, उधार पर नहीं',
  'coupon.qtyMax': (p) => `एक ऑर्डर में ज़्यादा से ज़्यादा ${p.max} कूपन`,
  'coupon.balanceShort': (p) => `इस ऑर्डर के लिए ${p.amount} चाहिए, बैलेंस ${p.balance} कम है। प्रोवाइडर वॉलेट में पैसे डालें, या बैलेंस रीफ़्रेश करें।`,
  'coupon.balanceShortField': 'इतने कूपन के लिए बैलेंस काफ़ी नहीं है',
  'coupon.noSuchSale': (p) => `${p.attemptId} नाम की कोई कूपन बिक्री नहीं है।`,
  'coupon.noOrder': 'प्रोवाइडर ने इस कोशिश का कोई ऑर्डर नहीं बताया, इसलिए उसकी स्थिति पूछी नहीं जा सकती। दोबारा बेचने से पहले बैलेंस को प्रोवाइडर की कूपन हिस्ट्री से मिलाएँ।',
  'pan.balanceUnread': (p) => `बैलेंस पढ़ा नहीं जा सका: ${p.problem}`,
  'agent.idEnter': 'एजेंट ID डालें',
  'agent.idRule': 'एजेंट ID: 3 से 30 अक्षर, अंक, - या _',
  'agent.nameEnter': 'नाम डालें',
  'agent.nameLatin': 'नाम: PAN कार्ड की तरह अंग्रेज़ी अक्षरों में लिखें (प्रोवाइडर का फ़ॉर्म सिर्फ़ A–Z, स्पेस, बिंदु और अपॉस्ट्रॉफ़ी लेता है)',
  'agent.nameRule': 'नाम: 2 से 80 अक्षर, अक्षर से शुरू',
  'agent.emailEnter': 'ई-मेल पता डालें',
  'agent.emailInvalid': 'यह सही ई-मेल पता नहीं है',
  'agent.shopEnter': 'दुकान का नाम डालें',
  'agent.locationEnter': 'जगह डालें',
  'agent.stateChoose': 'राज्य चुनें',
  'agent.stateFromList': 'सूची में से राज्य चुनें',
  'agent.pinEnter': 'पिन कोड डालें',
  'agent.pinRule': 'पिन कोड: 6 अंक, 0 से शुरू नहीं',
  'agent.aadhaarEnter': 'आधार नंबर डालें',
  'agent.aadhaarDigits': 'आधार नंबर: 12 अंक',
  'agent.aadhaarStart': 'आधार नंबर कभी 0 या 1 से शुरू नहीं होता',
  'agent.aadhaarCheck': 'यह आधार नंबर गलत टाइप हुआ है (इसका चेक अंक मेल नहीं खाता)',
  'agent.panEnter': 'PAN डालें',
  'agent.panRule': 'PAN: 5 अक्षर, 4 अंक, 1 अक्षर (जैसे ABCDE1234F)',
  'agent.choose': 'एजेंट चुनें',
  'agent.chooseFromList': 'सूची में से एजेंट चुनें',
  'agent.none': (p) => `${p.vleId} नाम का कोई एजेंट नहीं है: पहले एजेंट बनाएँ।`,
  'agent.taken': (p) => `एजेंट ID ${p.vleId} पहले से ली हुई है`,
  'agent.takenField': 'यह एजेंट ID पहले से ली हुई है',
  'agent.askedNotRecorded': 'प्रोवाइडर से पूछा गया, पर उसका जवाब दर्ज नहीं हुआ: डिस्क में जगह होने पर एजेंट की स्थिति रीफ़्रेश करें, उसे दोबारा बनाने से पहले।',
  'agent.whom': (p) => `एजेंट ${p.vleId}`,
  'reset.none': (p) => `${p.attemptId} नाम का कोई पासवर्ड रीसेट नहीं है।`,
  'reset.noOrder': 'प्रोवाइडर ने इस रीसेट का कोई ऑर्डर नहीं बताया: इसे दोबारा माँगें।',
  'reset.askedNotRecorded': 'प्रोवाइडर से पूछा गया, पर उसका जवाब दर्ज नहीं हुआ: दोबारा माँगने से पहले प्रोवाइडर के पास एजेंट के रीसेट देखें।',
  'settle.note': 'लिखें कि प्रोवाइडर की ओर से किसने और कब इसकी पुष्टि की (कम से कम 10 अक्षर)',
  'settle.chargeOnlyCoupon': 'कटी हुई रकम सिर्फ़ सफल (SUCCESS) निपटाए गए कूपन ऑर्डर के लिए भरी जाती है: इसे खाली छोड़ें।',
  'settle.chargeOnlyCouponField': 'सिर्फ़ सफल निपटाए गए कूपन ऑर्डर के लिए',
  'pending.unresolved': (p) => `${p.whom} का ऑर्डर ${p.id} का अंतिम जवाब नहीं आया है। ${p.why} पहले पेंडिंग खोलकर उसकी स्थिति जाँचें या फ़ोन से निपटाएँ।`,
  'pending.unresolvedField': (p) => `${p.whom} का ऑर्डर ${p.id} अभी पेंडिंग है`,
  'pending.mayHaveCharged': 'हो सकता है प्रोवाइडर ने इस बिक्री के पैसे ले लिए हों; इसे दोबारा न बेचें। डिस्क में जगह होते ही काउंटर जवाब दर्ज करेगा और उसे जाँचेगा।',
  'pending.notKnownYet': 'इसका नतीजा अभी पता नहीं है: हो सकता है प्रोवाइडर ने पैसे ले लिए हों।',
  'pending.notPending': (p) => `बिक्री ${p.id} पेंडिंग नहीं है: उसका अंतिम जवाब आ चुका है, या ऐसी कोई बिक्री नहीं है।`,
  'pending.notPendingField': 'यह पेंडिंग बिक्री नहीं है',
  'pending.sendingNow': (p) => `बिक्री ${p.id} अभी भेजी जा रही है: प्रोवाइडर के जवाब का इंतज़ार करें।`,
  'pending.sendingNowField': 'अभी भेजी जा रही है',
  'drawer.notesEnter': 'कितने नोट हैं डालें (न हों तो 0)',
  'drawer.notesWhole': 'नोट पूरी संख्या में गिने जाते हैं',
  'drawer.notesNegative': 'नोट 0 से कम नहीं हो सकते',
  'drawer.notesMax': (p) => `एक तरह के ज़्यादा से ज़्यादा ${p.max} नोट`,
  'topup.reference': 'भुगतान का रेफ़रेंस डालें (UTR या रसीद नंबर)',
  'day.alreadyClosed': (p) => `${p.day} का हिसाब पहले ही बंद हो चुका है (${p.at} पर)।`,
  'day.overflow': (p) =>
    `${p.day} को दर्ज पैसे का जोड़ काउंटर की गिनती से ज़्यादा है: कोई बिक्री या टॉप-अप असंभव राशि के साथ दर्ज हुआ है। ` +
    'उस दिन का जोड़ नहीं लग सकता, न वह बंद हो सकता है; डेटा फ़ोल्डर जैसा है वैसा रखें और अपने सपोर्ट वाले को फ़ोन करें।',
  'day.unresolved': (p) => `${p.count} बिक्री का अभी अंतिम जवाब नहीं आया है। पहले उनकी स्थिति जाँचें या फ़ोन से निपटाएँ, या लिखें कि फिर भी दिन क्यों बंद कर रहे हैं।`,
  'day.unresolvedField': (p) => `${p.count} बिक्री का अभी अंतिम जवाब नहीं आया है: लिखें कि फिर भी क्यों बंद कर रहे हैं (कम से कम ${p.min} अक्षर)`,
  'day.notBegun': (p) => `${p.day} अभी शुरू नहीं हुआ है।`,
  'day.notBegunField': 'आज या पहले का दिन चुनें',
  'day.journalDamaged': (p) =>
    `दिन बंद नहीं हो सकता: जर्नल खराब है। ${p.problem} काउंटर अब सिर्फ़ पढ़ने के लिए है; अपने सपोर्ट वाले के लिए डेटा फ़ोल्डर जैसा है वैसा रखें।`,
  'day.closedNothingMore': (p) => `${p.problem} उस दिन पर अब कुछ दर्ज नहीं हो सकता।`,
  'ledger.refused': (p) => p.problem,
  'ledger.refusedThen': (p) => `${p.problem} ${p.consequence}`,
  'ledger.lostOrder': (p) => `लेजर में ऑर्डर ${p.orderId} का पता नहीं रहा।`,
  'clock.disagrees': (p) =>
    `कंप्यूटर की घड़ी ${p.clockAt} बता रही है, पर हिसाब की आखिरी एंट्री ${p.lastAt} पर थी। ` +
    'तारीख और समय जाँचें; अगर सही हैं, तो ऊपर की पट्टी में उनकी पुष्टि करें।',
  'clock.nothingBooked': (p) => `कुछ दर्ज नहीं हुआ। ${p.problem}`,
  'history.endBeforeStart': 'आखिरी दिन शुरू के दिन से पहले है',
  'history.endBeforeStartField': 'शुरू के दिन से पहले नहीं हो सकता',
  'pin.rule': 'PIN 4 से 8 अंकों का होता है (सिर्फ़ 0-9)',
  'pin.differ': 'दोनों PIN अलग हैं: एक ही PIN दो बार टाइप करें',
  'pin.notSet': 'मालिक का कोई PIN अभी सेट नहीं है: सेटिंग्स में सेट करें।',
  'pin.locked': (p) => `बहुत सारे गलत PIN: PIN डालना लॉक है। ${p.seconds} सेकंड बाद फिर कोशिश करें।`,
  'pin.wrongLocked': (p) => `यह PIN गलत है, लगातार ${p.max}वाँ गलत PIN। बहुत सारे गलत PIN: PIN डालना लॉक है। ${p.seconds} सेकंड बाद फिर कोशिश करें।`,
  'pin.wrong': (p) => `यह PIN गलत है। ${p.left} और गलत PIN पर PIN डालना एक मिनट के लिए लॉक हो जाएगा।`,
  'pin.oldNeeded': 'PIN बदलने के लिए अभी का PIN टाइप करें।',
  'pin.oldNeededField': 'मालिक का अभी का PIN टाइप करें',
  'pin.pepperMissing': (p) =>
    'इस कंप्यूटर पर मालिक का PIN जाँचा नहीं जा सकता: उसकी चाबी इस कंप्यूटर की कीचेन में नहीं है (क्या डेटा फ़ोल्डर किसी और कंप्यूटर से कॉपी हुआ है?)। ' +
    `नया PIN सेट करने के लिए: काउंटर बंद करें, डेटा फ़ोल्डर में "${p.file}" नाम की खाली फ़ाइल बनाएँ, और काउंटर फिर चालू करें। बिक्री और सेटिंग्स बनी रहती हैं।`,
  'pin.setFirst': 'पहले सेटिंग्स में मालिक का PIN सेट करें: तब तक काउंटर पर हर कोई मालिक है।',
  'owner.only': (p) => `सिर्फ़ मालिक ${p.what} सकते हैं। मालिक के PIN से अनलॉक करें (स्टेटस बार का ताला), फिर कोशिश करें। कुछ नहीं बदला।`,
  'owner.doThis': 'यह कर',
  'ledger.nothingWritten': 'लेजर में लिखा नहीं जा सका (डिस्क भरी है या फ़ोल्डर सिर्फ़ पढ़ने के लिए है)।',
  'ledger.closed': 'लेजर बंद है।',
  'ledger.dayClosed': (p) => `${p.day} का हिसाब बंद हो चुका है।`,
  'ledger.folderUnwritable': (p) => `लेजर फ़ोल्डर ${p.dir} लिखने के लिए खुल नहीं सका (${p.error})।`,
  'ledger.journalFull': (p) =>
    `जर्नल में और लाइनें नहीं लिखी जा सकतीं: ${p.why}। काउंटर दोबारा चालू होने तक कुछ और दर्ज नहीं होगा; तब वह बिना जवाब वाली हर बिक्री के बारे में प्रोवाइडर से पूछेगा।`,
  'ledger.auditDamaged': (p) => `जर्नल खराब है: ${p.problem} जब तक इसे देखा न जाए, लेजर सिर्फ़ पढ़ने के लिए है।`,
  'ledger.readOnlyUntil': (p) => `${p.problem} जब तक इसे देखा न जाए, लेजर सिर्फ़ पढ़ने के लिए है।`,
  'ledger.damagedAt': (p) => `जर्नल लाइन ${p.line} पर खराब है: ${p.reason} (${p.file} में)।`,
  'ledger.linesMissing': (p) => `जर्नल की लाइनें गायब हैं: ${p.detail}।`,
  'ledger.twoJournals': (p) => `लेजर फ़ोल्डर में दो जर्नल हैं: ${p.conflict}।`,
  'ledger.tornTail': (p) => `जर्नल की आखिरी लाइन (लाइन ${p.line}) अधूरी थी: उसकी कभी पुष्टि नहीं हुई थी, और उसे हटा दिया गया है।`,
  'ledger.notAppliedRestart': (p) => `एंट्री #${p.seq} जर्नल में है पर लागू नहीं हो सकी (${p.error}); काउंटर दोबारा चालू करें।`,
  'ledger.notApplied': (p) => `जर्नल एंट्री #${p.seq} (${p.type}) लागू नहीं हुई: ${p.problem}।`,
  'ledger.copyUnreadable': (p) => `सेव की हुई कॉपी ${p.name} पढ़ी नहीं जा सकी (${p.error}); उसे छोड़कर एक पुरानी कॉपी के आगे से जर्नल दोबारा चलाया गया।`,
  'ledger.copyOlder': (p) => `सेव की हुई कॉपी ${p.name} काउंटर के पुराने संस्करण ने लिखी थी, जब कॉपियों की जाँच नहीं होती थी: उसे जैसी है वैसी लिया गया, और अब से उसकी जाँच होगी।`,
  'ledger.copyMismatch': (p) => `सेव की हुई कॉपी ${p.name} एंट्री #${p.seq} पर जर्नल से मेल नहीं खाती; उसे छोड़ दिया गया।`,
  'ledger.copyRebuilt': (p) => `सेव की हुई कॉपी ${p.name} ${p.what}, और उसे ${p.source} से फिर से बनाया गया।`,
  'ledger.copyNoCheck': 'की जाँच नहीं मिली (वह खो गई या हटा दी गई)',
  'ledger.copyCheckDiffers': 'अपनी जाँच से मेल नहीं खाती',
  'ledger.fromPrevious': (p) => `पिछली कॉपी ${p.name} और जर्नल`,
  'ledger.fromJournal': 'जर्नल',
  'ledger.copyAhead': (p) => `सेव की हुई कॉपी ${p.name} में एंट्री #${p.seq} तक हैं, पर ${p.reason}`,
  'ledger.copyRewritten': (p) => `काउंटर चलते समय सेव की हुई कॉपी ${p.name} डिस्क पर बदली गई; उसे मेमोरी के हिसाब से फिर लिख दिया गया।`,
  'ledger.copyLeftAsFound': (p) =>
    `काउंटर चलते समय सेव की हुई कॉपी ${p.name} डिस्क पर बदली गई; हिसाब सिर्फ़ पढ़ने के लिए है, इसलिए उसे जैसी मिली वैसी छोड़ा गया है, और अगली बार चालू होने पर वह जर्नल से फिर बनेगी।`,
  'ledger.copyNotRewritten': (p) =>
    `काउंटर चलते समय सेव की हुई कॉपी ${p.name} डिस्क पर बदली गई और फिर लिखी नहीं जा सकी (${p.error}); अगली बार चालू होने पर वह जर्नल से फिर बनेगी।`,
  'ledger.snapshotFailed': (p) => `लेजर की सेव की हुई कॉपी अपडेट नहीं हो सकी (${p.error}); हर बिक्री अब भी जर्नल में है।`,
  'ledger.segmentFailed': (p) => `जर्नल का नया हिस्सा शुरू नहीं हो सका (${p.error}); अभी वाला चलता रहेगा।`,
  'ledger.nothingArchived': (p) => `${p.problem} कुछ भी आर्काइव नहीं हुआ।`,
  'ledger.stopped': 'लेजर जवाब देने से पहले रुक गया; उसे फिर से शुरू किया जा रहा है।',
  'ledger.notStarted': (p) => `लेजर शुरू नहीं हो सका (${p.error})।`,
  'ledger.notStartedPlain': 'लेजर शुरू नहीं हो सका।',
  'ledger.keptStopping': (p) =>
    `लेजर एक मिनट में ${p.count} बार रुका और उसे फिर शुरू नहीं किया गया; काउंटर दोबारा चालू करें, और फिर ऐसा हो तो सपोर्ट को फ़ोन करें। दर्ज हुई हर बिक्री जर्नल में है।`,
  'ledger.notRestarted': (p) => `लेजर रुक गया और फिर शुरू नहीं हो सका (${p.error}); काउंटर दोबारा चालू करें।`,
  'audit.lineBroken': (p) => `लाइन ${p.line} (${p.file}): ${p.reason}।`,
  'audit.tornTail': (p) => `आखिरी लाइन (लाइन ${p.line}) अधूरी है: उसकी कभी पुष्टि नहीं हुई।`,
  'chain.fileStart': (p) => `फ़ाइल ${p.file} एंट्री #${p.seq} से शुरू होनी चाहिए`,
  'chain.cutShort': 'वह बीच में कटी हुई है',
  'chain.notALine': 'वह जर्नल की लाइन नहीं है',
  'chain.expected': (p) => `एंट्री #${p.expected} होनी थी पर #${p.found} मिली (कोई लाइन हटाई या खिसकाई गई)`,
  'chain.noLink': 'वह अपने से पहले वाली लाइन से नहीं जुड़ती (कोई लाइन बदली, हटाई या डाली गई)',
  'chain.hashDiffers': 'उसकी सामग्री उसके हैश से मेल नहीं खाती (लाइन बदली गई)',
  'chain.differsAt': (p) => `वह एंट्री #${p.seq} पर जर्नल से मेल नहीं खाती`,
  'chain.noEntry': (p) => `जर्नल में एंट्री #${p.seq} नहीं है`,
  'chain.endsAt': (p) => `जर्नल की पढ़ी जा सकने वाली लाइनें #${p.seq} पर खत्म होती हैं`,
  'chain.missing': (p) => `एंट्री #${p.seq} जर्नल में नहीं है`,
  'office.journalDiffers': (p) =>
    `ऑफ़िस के पास इस काउंटर की एंट्री #${p.seq} तक हैं, पर यह जर्नल वहाँ अलग है (${p.reason}): यह वह जर्नल नहीं है जो ऑफ़िस के पास है। जब तक आपका सपोर्ट वाला इसे न देख ले, आगे कुछ नहीं भेजा जाएगा।`,
  'office.entryAltered': (p) => `जर्नल एंट्री #${p.line} (फ़ाइल ${p.file}) वैसी नहीं है जैसी लिखी गई थी: ${p.reason}। वह और उसके बाद की सब एंट्री नहीं भेजी जाएँगी।`,
  'office.refusedEntries': (p) => `ऑफ़िस ने ${p.terminal} की एंट्री नहीं लीं: ${p.problem}।`,
  'office.entryHashDiffers': (p) => `एंट्री #${p.seq} की सामग्री उसके हैश से मेल नहीं खाती (लाइन बदली गई)`,
  'office.entryNotFollowing': (p) => `एंट्री #${p.seq} एंट्री #${p.before} के बाद की नहीं है`,
  'office.noEntryBefore': (p) => `ऑफ़िस के पास ${p.terminal} की एंट्री #${p.before} नहीं है, इसलिए एंट्री #${p.seq} उसके बाद नहीं आ सकती।`,
  'office.fork': (p) => `${p.terminal} की एंट्री #${p.seq} ऑफ़िस के पास पहले से रखी एंट्री #${p.before} के बाद की नहीं है: यह जर्नल और ऑफ़िस की कॉपी अलग हो गए हैं (फ़ोर्क)।`,
  'office.differentEntry': (p) =>
    `ऑफ़िस के पास ${p.terminal} की एक अलग एंट्री #${p.seq} पहले से है: यह जर्नल और ऑफ़िस की कॉपी अलग हो गए हैं (फ़ोर्क)। इस बैच का कुछ भी नहीं रखा गया।`,
  'printerState.ready': (p) => `${p.where} वाला प्रिंटर तैयार है।`,
  'printerState.paperLow': (p) => `${p.where} वाले प्रिंटर में कागज़ खत्म होने वाला है: जल्दी नया रोल डालें।`,
  'printerState.noPaper': (p) => `${p.where} वाले प्रिंटर में कागज़ नहीं है: कागज़ का रोल डालें, ढक्कन बंद करें और फिर छापें।`,
  'printerState.coverOpen': (p) => `${p.where} वाले प्रिंटर का ढक्कन खुला है: ढक्कन बंद करें और फिर छापें।`,
  'printerState.offline': (p) => `${p.where} वाला प्रिंटर बंद पड़ा है (ऑफ़लाइन): कागज़ फँसा है या लाल बत्ती जल रही है देखें, उसे बंद करके चालू करें, और फिर छापें।`,
  'printerState.silent': (p) => `${p.where} वाला प्रिंटर रसीदें लेता है पर कागज़ या ढक्कन के बारे में नहीं बताता: देख लें कि उसमें कागज़ है।`,
  'printerState.unreachable': (p) => `${p.where} वाले प्रिंटर ने जवाब नहीं दिया: क्या वह चालू है और दुकान के नेटवर्क पर है?`,
  'printer.brokeOff': (p) => `${p.where} वाले प्रिंटर ने कनेक्शन बीच में तोड़ दिया: उसे बंद करके चालू करें, और फिर छापें।`,
  'printer.refused': (p) =>
    `${p.where} वाले प्रिंटर ने कनेक्शन लेने से मना किया: क्या वह चालू है, और क्या सेटिंग्स में उसका पता सही है (रसीद प्रिंटर पोर्ट 9100 पर काम लेते हैं)?`,
  'printer.notFound': (p) => `नेटवर्क पर ${p.where} नाम का कोई प्रिंटर नहीं मिला: सेटिंग्स में प्रिंटर का पता जाँचें।`,
  'printer.noDevice': (p) => `${p.where} पर कोई प्रिंटर नहीं है: क्या वह लगा हुआ और चालू है?`,
  'printer.notADevice': (p) => `${p.where} प्रिंटर नहीं, फ़ाइल, फ़ोल्डर या पाइप है: उसमें कुछ नहीं लिखा गया। सेटिंग्स में प्रिंटर का पाथ जाँचें (Linux पर जैसे /dev/usb/lp0)।`,
  'printer.notAllowed': (p) =>
    `काउंटर को ${p.where} पर छापने की अनुमति नहीं है। Linux पर इस यूज़र को "lp" ग्रुप में जोड़ें (sudo usermod -aG lp $USER), फिर लॉग आउट करके दोबारा लॉग इन करें; Windows पर इस यूज़र को साझा प्रिंटर पर छापने की अनुमति दें।`,
  'printer.inUse': (p) => `${p.where} वाला प्रिंटर किसी दूसरे प्रोग्राम के काम में है: वह प्रोग्राम बंद करें और फिर छापें।`,
  'printer.cannotWrite': (p) => `काउंटर ${p.where} वाले प्रिंटर पर लिख नहीं सका (${p.code}): सेटिंग्स में पाथ जाँचें।`,
  'printer.stalled': (p) => `${p.where} वाले प्रिंटर ने रसीद लेना बीच में रोक दिया: कागज़ और फँसा कागज़ देखें, उसे बंद करके चालू करें, और फिर छापें।`,
  'printer.driverInBrowser': 'ब्राउज़र में रसीदें ब्राउज़र के Print से छपती हैं: यहाँ से काउंटर प्रिंटर को नहीं देख सकता।',
  'printer.noneSetUp': 'इस कंप्यूटर पर कोई प्रिंटर लगा नहीं है। कंप्यूटर की प्रिंटर सेटिंग में रसीद प्रिंटर जोड़ें।',
  'printer.defaultDriver': 'रसीदें कंप्यूटर के डिफ़ॉल्ट प्रिंटर पर जाती हैं। उसका ड्राइवर काउंटर को नहीं बताता कि कागज़ है या नहीं: जाँचने के लिए टेस्ट पेज छापें।',
  'printer.notInstalled': (p) => `"${p.name}" प्रिंटर इस कंप्यूटर के प्रिंटरों में नहीं है। सेटिंग्स में उसे फिर से चुनें, या देखें कि वह इंस्टॉल है।`,
  'printer.driverSetUp': (p) => `"${p.name}" इस कंप्यूटर पर लगा है। उसका ड्राइवर काउंटर को नहीं बताता कि कागज़ है या नहीं: जाँचने के लिए टेस्ट पेज छापें।`,
  'printer.notAmong': (p) => `कुछ नहीं छपा: "${p.name}" प्रिंटर इस कंप्यूटर के प्रिंटरों में नहीं है। सेटिंग्स में प्रिंटर फिर से चुनें, फिर दोबारा छापें।`,
  'printer.noPrinters': 'कुछ नहीं छपा: इस कंप्यूटर पर कोई प्रिंटर लगा नहीं है। कंप्यूटर की प्रिंटर सेटिंग में रसीद प्रिंटर जोड़ें, फिर दोबारा छापें।',
  'printer.cancelled': 'कुछ नहीं छपा: छपाई रद्द हो गई। प्रिंटर तैयार होने पर फिर छापें।',
  'printer.notTaken': 'कुछ नहीं छपा: प्रिंटर ने पेज नहीं लिया। देखें कि वह चालू है, जुड़ा है और उसमें कागज़ है, फिर दोबारा छापें।',
  'printer.emptyPage': 'छापने वाला पेज खाली निकला, इसलिए कुछ नहीं छपा।',
  'printer.tooLong': 'रसीद इतनी लंबी है कि प्रिंटर के लिए तस्वीर नहीं बन सकती, इसलिए कुछ नहीं छपा।',
  'connection.answered': 'प्रोवाइडर ने ऑपरेटर की जाँच का जवाब दिया: यूज़र ID, टोकन और सीक्रेट की काम कर रहे हैं।',
  'connection.refused': (p) => `प्रोवाइडर ने ऑपरेटर की जाँच से मना किया: ${p.answer}। सेटिंग्स में यूज़र ID, टोकन और सीक्रेट की जाँचें।`,
  'connection.noAnswer': 'प्रोवाइडर ने ऑपरेटर की जाँच का जवाब नहीं दिया: रिचार्ज API का पता और इस कंप्यूटर का इंटरनेट जाँचें, फिर दोबारा जाँचें।',
  'recharge.lookupNoAnswer': 'अभी ऑपरेटर पता नहीं चल सका: सूची में से चुनें।',
  'recharge.lookupUnreachable': 'प्रोवाइडर पहुँच से बाहर है: ऑपरेटर खुद चुनें।',
  'office.trainingNotSent': 'ट्रेनिंग मोड: ट्रेनिंग की बिक्री ऑफ़िस नहीं भेजी जाती।',
  'office.passwordMissing': 'सेटिंग्स में ऑफ़िस डेटाबेस का पासवर्ड डालें (यह सिस्टम कीचेन में रखा जाता है)।',
  'office.nameCounter': 'इस काउंटर का जर्नल ऑफ़िस भेजने के लिए सेटिंग्स में इसे नाम दें।',
  'office.shipperStopped': 'ऑफ़िस भेजने वाला रुक गया; वह कुछ सेकंड में फिर शुरू होगा।',
  'office.tryingAgain': (p) => `ऑफ़िस से फिर जुड़ने की कोशिश हो रही है (${p.since} से संपर्क नहीं)।`,
  'shop.officeUnreachable': (p) => `दूसरे काउंटरों की बिक्री ऑफ़िस से पूछी नहीं जा सकी: ${p.reason}`,
  'shop.counterBehind': (p) => `${p.counter} की ${p.entries} प्रविष्टियाँ अभी ऑफ़िस नहीं पहुँचीं।`,
  'shop.counterUnknownBehind': (p) => `${p.counter} ने ऑफ़िस को नहीं बताया कि उसका जर्नल कहाँ तक है।`,
  'office.connectionRefused': (p) => `${p.where} वाले ऑफ़िस डेटाबेस ने कनेक्शन लेने से मना किया (क्या वह चल रहा है?)।`,
  'office.hostNotFound': (p) => `ऑफ़िस का पता ${p.host} नहीं मिला (पता और इस कंप्यूटर का इंटरनेट जाँचें)।`,
  'office.connectionClosed': (p) => `${p.where} वाले ऑफ़िस डेटाबेस ने कनेक्शन बंद कर दिया (फिर से शुरू हो रहा है?)।`,
  'office.login': (p) => `ऑफ़िस डेटाबेस ने ${p.user} का यूज़र नाम या पासवर्ड नहीं माना: सेटिंग्स में उन्हें जाँचें।`,
  'office.noDatabase': (p) => `ऑफ़िस में ${p.database} नाम का कोई डेटाबेस नहीं है।`,
  'office.noAnswer': (p) => `${p.where} वाले ऑफ़िस डेटाबेस से समय पर जवाब नहीं आया।`,
  'office.tls': (p) => `${p.where} वाले ऑफ़िस डेटाबेस तक एन्क्रिप्टेड (TLS) नहीं पहुँचा जा सका: उसका सर्टिफ़िकेट जाँचें, या देखें कि वह TLS लेता है।`,
  'office.unusable': (p) => `${p.where} वाला ऑफ़िस डेटाबेस इस्तेमाल नहीं हो सका${p.code ? ` (${p.code})` : ''}।`,
  'office.forked': (p) =>
    `एक दूसरा काउंटर (इस काउंटर के डेटा फ़ोल्डर की कॉपी?) पहले से ${p.terminal} के नाम से ऑफ़िस को अपना जर्नल भेजता है: दोनों एंट्री #${p.seq} से अलग हैं। इस काउंटर की वहाँ से ${p.waiting} एंट्री यहीं रखी हैं और भेजे जाने का इंतज़ार कर रही हैं। मालिक इस काउंटर को नए टर्मिनल के रूप में दर्ज करे (सेटिंग्स, हेड ऑफ़िस), तब वे भेजी जाएँगी।`,
  'office.notForked': 'सिर्फ़ वही काउंटर नए टर्मिनल के रूप में दर्ज हो सकता है जिसे ऑफ़िस किसी दूसरे काउंटर की कॉपी (फ़ोर्क) मानकर मना कर रहा है।',
}

export const errorDictionaries: Record<Language, ErrorWords> = { en, hi }

/**
 * A message as thrown and as a zod rule carries it: its key and params, not yet in any language. A string, so
 * zod's `error` and CounterError take it; branded, so a CounterError can take nothing else.
 */
export type Said = string & { readonly __said: unique symbol }

const MARK = '\u2063said:'
const READ = /^\u2063said:([\w.]+)(\{[\s\S]*\})?$/

export function say<K extends ErrorKey>(key: K, ...params: ParamsOf<K>): Said {
  return `${MARK}${key}${params.length ? JSON.stringify(params[0]) : ''}` as Said
}

/**
 * A message in `language`: a said reference in that language's words (its params spoken first, for a message
 * that holds another, e.g. a consequence); any other text as it is (a provider's or the ledger's own words).
 */
export function speak(message: string, language: Language): string {
  const read = READ.exec(message)
  const key = read?.[1]
  if (!key || !(key in en)) return message
  const words = errorDictionaries[language][key as ErrorKey] as string | ((p: Params) => string)
  if (typeof words === 'string') return words
  const params: Params = JSON.parse(read[2] ?? '{}')
  for (const [name, value] of Object.entries(params)) if (typeof value === 'string') params[name] = speak(value, language)
  return words(params)
}

/** The English words: for logs and journal lines, which stay English whatever the screens show. */
export const english = (message: string): string => speak(message, 'en')

/**
 * Every said string in a value, spoken in `language`: what the dispatch does to an answer and the core to an
 * event's payload before either leaves for a screen (a status's notices, a printer's state, the office's).
 * Plain objects and arrays are walked; one with nothing said in it is returned as it came, not copied.
 */
export function speakAll<T>(value: T, language: Language): T {
  if (typeof value === 'string') return (value.startsWith(MARK) ? speak(value, language) : value) as T
  if (typeof value !== 'object' || value === null) return value
  if (Array.isArray(value)) {
    let spoken: unknown[] | null = null
    value.forEach((item: unknown, at) => {
      const said = speakAll(item, language)
      if (said !== item) (spoken ??= [...value])[at] = said
    })
    return (spoken ?? value) as T
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return value
  let spoken: Record<string, unknown> | null = null
  for (const [name, item] of Object.entries(value)) {
    const said = speakAll(item, language)
    if (said !== item) (spoken ??= { ...(value as Record<string, unknown>) })[name] = said
  }
  return (spoken ?? value) as T
}
