/** What either client needs to reach a ridequote: its URL and an account's API key and secret. */
export interface Connection {
  /** e.g. `http://127.0.0.1:8080` */
  readonly baseUrl: string
  readonly apiKey: string
  readonly apiSecret: string
}

/** A ride across Paris: inside the sample market every ridequote serves by default. */
export const SAMPLE_RIDE = {
  pickup: { latitude: 48.8566, longitude: 2.3522 },
  destination: { latitude: 48.8738, longitude: 2.295 }
} as const
