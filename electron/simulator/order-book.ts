// The provider's own record of what it booked, read-only: what a test judges a run against ("charged twice", "missing from the books").

export interface BookedRecharge {
  orderId: string
  number: string
  /** As the order carried it: rupees text. */
  amount: string
  state: 'SUCCESS' | 'FAILED' | 'PENDING'
}

export interface BookedCoupon {
  orderId: string
  vleId: string
  type: 1 | 2
  qty: number
  amountPaise: number
}

export interface OrderBook {
  recharges: BookedRecharge[]
  coupons: BookedCoupon[]
}
