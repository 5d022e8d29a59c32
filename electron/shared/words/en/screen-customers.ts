// English strings for customers: suggestions under the number field, repeat (Alt+R), and a customer's name on the result and in History (same syntax as en/screen.ts).
export const customersEn = {
  customers: {
    suggestions: 'Known numbers',
    repeat: 'Repeat last (Alt+R)',
    repeatKey: 'Repeat the number’s last recharge: fills operator, circle and amount, then waits for Enter (on Recharge)',
    repeatNeedsNumber: 'Type or pick the number first, then repeat its last recharge.',
    repeatNone: 'No earlier recharge is remembered for {number}.',
    repeated: 'Last recharge for {number}: {operator}, {amount} ({when}). Check it, then press Enter to sell.',
    name: 'Customer',
    addName: 'Add name',
    editName: 'Edit name',
    nameLabel: 'Customer name for {number}',
    save: 'Save name',
    cancel: 'Cancel',
    forget: 'Forget customer',
    forgetConfirm: 'Forget {number}’s name and last recharge? Its sales stay in History.',
    forgetYes: 'Yes, forget',
    forgotten: 'Forgotten. The sales stay in History.',
  },
}
