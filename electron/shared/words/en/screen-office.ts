// English strings for the head office: its section in Settings and the status bar's shipping state (same syntax as en/screen.ts).
export const officeEn = {
  office: {
    title: 'Head office',
    intro: 'Counters send their journal to the office’s PostgreSQL database in the background; a sale never waits for it.',
    field: {
      counterName: 'This counter’s name (with the shop’s name)',
      officeHost: 'Office database address',
      officePort: 'Port',
      officeDatabase: 'Database name',
      officeUser: 'User name',
      officePassword: 'Password',
    },
    counterNameExample: 'Counter 1',
    hostHint: 'Empty: no office, nothing is sent.',
    passwordSaved: 'saved (type to replace)',
    tls: 'Encrypt the connection (TLS)',
    tlsWhy: 'Turn off only for a database on this computer (127.0.0.1 or localhost).',
    portNumber: 'The port is a number, such as 5432',
    fork: {
      title: 'Another counter claims this counter’s name at the office',
      explain:
        'The office already holds entries under {terminal} from another counter (a copy of this counter’s data folder?). The two part at entry #{seq}; this counter’s {count} entries from there are kept here and wait. If this counter is not the one the office should know as {terminal}, register it as a new terminal: its entries then go to the office under a new name, and nothing is lost.',
      register: 'Register this counter as a new terminal',
      question: 'Register this counter as a new terminal at the office? Its name there changes for good; its sales stay as they are.',
      confirm: 'Yes, register as new',
      cancel: 'Cancel',
      done: 'Registered as {terminal}: its entries are on their way to the office.',
    },
    status: {
      'caught-up': 'Office: up to date',
      behind: 'Office: {count} entries behind',
      connecting: 'Office: connecting…',
      unreachable: 'Office unreachable since {time}',
      refused: 'Office: sending stopped',
      waiting: 'Office: waiting',
      entriesWaiting: '{count} entries waiting',
    },
  },
}
