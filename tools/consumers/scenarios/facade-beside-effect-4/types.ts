// The facade's published types in a project on Effect 4: nothing in them names effect.
import { createRidequote, isRidequoteError } from "@ridequote/engine"
import type { Quote, Ridequote, RidequoteOptions } from "@ridequote/engine"
import { Effect } from "effect"

const options: RidequoteOptions = { storage: "memory", markets: "shipped", routes: "offline" }
export const first = async (): Promise<Quote | string> => {
  const ridequote: Ridequote = await createRidequote(options)
  try {
    const { apiKey, apiSecret } = await ridequote.accounts.create({ name: "Typed" })
    const { token } = await ridequote.tokens.issue(apiKey, apiSecret)
    return await ridequote.quote({ token }, { pickup: { latitude: 40.758, longitude: -73.9855 }, destination: { latitude: 40.6413, longitude: -73.7781 } })
  } catch (error) {
    if (isRidequoteError(error)) return error.body.code
    throw error
  } finally {
    await ridequote.close()
  }
}
export const own: Effect.Effect<number> = Effect.succeed(4)
