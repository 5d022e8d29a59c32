// The PAN coupon types' names, apart from the contract's schemas: the ledger's threads name them in history rows without loading zod.

/** Names as the spec gives them (type 1 and type 2); field clients disagree, so receipts show the name and the rate charged. */
export const couponTypeNames = { 1: 'P-Coupon', 2: 'E-Coupon' } as const
