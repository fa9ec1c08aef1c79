export * from "./AccessSnapshot.js"
export * from "./Accounts.js"
export * from "./Credentials.js"
export * from "./Tokens.js"
