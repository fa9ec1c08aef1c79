// Resolve hook (runs on Node's hooks thread): records the specifier, then resolves as usual.
import { appendFileSync } from "node:fs"

export async function resolve(specifier, context, next) {
  const log = process.env.IMPORT_LOG
  if (log !== undefined) appendFileSync(log, `${specifier}\n`)
  return next(specifier, context)
}
