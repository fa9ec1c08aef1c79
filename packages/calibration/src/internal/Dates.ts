/** Local calendar dates `YYYY-MM-DD` as the trip records give them. */

/** `date` plus whole months (negative: minus); the day of the month is kept. */
export const addMonths = (date: string, months: number): string => {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number]
  const total = y * 12 + (m - 1) + months
  const year = Math.floor(total / 12)
  return `${String(year).padStart(4, "0")}-${String(total - year * 12 + 1).padStart(2, "0")}-${String(d).padStart(2, "0")}`
}
