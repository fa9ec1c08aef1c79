/**
 * Money: prices are computed in integer minor units (cents) and only turned into major-unit
 * numbers at the edge, so no float error accumulates (docs/pricing.md, "Percentiles, quantiles and rounding").
 */
import { Schema } from "effect"

/** An ISO 4217 currency code, e.g. `USD`. */
export const Currency = Schema.String.pipe(Schema.pattern(/^[A-Z]{3}$/), Schema.brand("Currency"))
  .annotations({ identifier: "Currency", description: "ISO 4217 currency code" })
export type Currency = typeof Currency.Type

/** ISO 4217 minor-unit digits for currencies that differ from the usual 2. */
const MINOR_DIGITS: Readonly<Record<string, number>> = {
  JPY: 0, KRW: 0, VND: 0, CLP: 0, ISK: 0, HUF: 2, BHD: 3, KWD: 3, OMR: 3, JOD: 3, TND: 3
}

/** Digits after the decimal point of a currency's minor unit (2 unless ISO 4217 says otherwise). */
export const minorDigits = (currency: Currency): number => MINOR_DIGITS[currency] ?? 2

/** Integer count of minor units (e.g. cents). */
export type Minor = number & { readonly _Minor: unique symbol }

/** Rounds a major-unit amount half-up to the currency's minor unit. Total: NaN/±∞/negatives become 0. */
export const toMinor = (amount: number, currency: Currency): Minor => {
  if (!Number.isFinite(amount) || amount <= 0) return 0 as Minor
  const scale = 10 ** minorDigits(currency)
  // The epsilon counters binary representation error (1.005 * 100 = 100.49999…).
  return Math.round(amount * scale + 1e-7) as Minor
}

/** Major units for the wire: an exact decimal on the minor-unit grid. */
export const toMajor = (minor: Minor, currency: Currency): number =>
  // IEEE division is correctly rounded, so this is already the double nearest the decimal
  // (what parsing its decimal string would give), without the cost of formatting one.
  minor / 10 ** minorDigits(currency)

/** A non-negative finite major-unit price, as it appears on the wire. */
export const Price = Schema.Number.pipe(Schema.finite(), Schema.nonNegative()).annotations({ identifier: "Price" })
