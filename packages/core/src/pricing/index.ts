export * from "./Behaviors.js"
export * from "./Pricing.js"
export * from "./Quotes.js"
