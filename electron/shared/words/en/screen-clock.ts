// English strings for the clock notice: the computer's clock disagrees with the books (same syntax as en/screen.ts).
export const clockEn = {
  clock: {
    behindTitle: 'The computer’s clock is earlier than the books',
    aheadTitle: 'The computer’s clock is days past the last entry in the books',
    stopped: 'New sales, top-ups and day close wait until the owner confirms the date and time.',
    confirm: 'The clock is right — confirm',
    confirming: 'Confirming…',
  },
}
