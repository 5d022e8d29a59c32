// Counts for people (sales, orders, coupons): Indian digit grouping in every language, as amounts are (money.ts).
// Decision: Western digits in Hindi too (en-IN, not hi-IN's option of Devanagari digits): staff match them
// against bills, bank slips and the provider's panel, all printed in Western digits.
const indian = new Intl.NumberFormat('en-IN', { maximumFractionDigits: 0 })

/** 1234567 -> "12,34,567". */
export const formatCount = (count: number): string => indian.format(count)
