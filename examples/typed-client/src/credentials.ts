/** What either client needs to reach a ridequote: its URL and an account's API key and secret. */
export interface Connection {
  /** e.g. `http://127.0.0.1:8080` */
  readonly baseUrl: string
  readonly apiKey: string
  readonly apiSecret: string
}

/**
 * North End to Fenway, Boston: inside a market ridequote ships (fitted from Uber and Lyft
 * quotes), so a default `serve` prices it; places no market covers are a 400 unless the
 * operator turns the sample fallback on.
 */
export const EXAMPLE_RIDE = {
  pickup: { latitude: 42.3647, longitude: -71.0542 },
  destination: { latitude: 42.3467, longitude: -71.0972 }
} as const
