/**
 * Tokyo: the Haneda fixed fares (羽田空港定額運賃) apply to a whole ward or city ("地区(市区単位)",
 * nikkoren.jp/wp/haneda), so the file's ward zones are the wards' boundaries (国土数値情報 行政区域
 * N03, 2021-01-01, as simplified by smartnews-smri/japan-topography; sources: models/SOURCES.md
 * and models/sources/tokyo.md), not circles round the ward offices. Worked examples from the tables.
 */
import { describe, expect, it } from "@effect/vitest"
import { shippedMarket, tripsOf } from "./support.js"

const { market } = shippedMarket("tokyo")
const HND = { latitude: 35.5533, longitude: 139.7811 }
/** Tokyo Station, Marunouchi side (千代田区丸の内), 1.9 km from the Chiyoda ward office. */
const MARUNOUCHI = { latitude: 35.6812, longitude: 139.7671 }
const OTEMACHI = { latitude: 35.6867, longitude: 139.766 }
const AKIHABARA = { latitude: 35.6984, longitude: 139.7731 }
/** Ebisu station (渋谷区恵比寿南), 1.9 km from the Shibuya ward office. */
const EBISU = { latitude: 35.6467, longitude: 139.7101 }
/** Kichijoji station (武蔵野市吉祥寺南町), 2.0 km from the Musashino city office. */
const KICHIJOJI = { latitude: 35.7031, longitude: 139.5798 }
/** Nihonbashi (中央区): a ward without a Haneda fixed fare. */
const NIHONBASHI = { latitude: 35.684, longitude: 139.7745 }
/** Chofu station (調布市): outside the 23 wards, Musashino and Mitaka. */
const CHOFU = { latitude: 35.6518, longitude: 139.5442 }

const zonesAt = (p: { latitude: number; longitude: number }) => [...market.tariffs.locate(p)].filter((z) => z.startsWith("ward-"))

describe("Tokyo: Haneda fixed fares by ward boundary (F10)", () => {
  it("places well-known points in their ward, and none in a ward without a fixed fare or outside the wards", () => {
    expect([MARUNOUCHI, OTEMACHI, AKIHABARA].map(zonesAt)).toEqual([["ward-chiyoda"], ["ward-chiyoda"], ["ward-chiyoda"]])
    expect(zonesAt(EBISU)).toEqual(["ward-shibuya"])
    expect(zonesAt({ latitude: 35.658, longitude: 139.7016 })).toEqual(["ward-shibuya"]) // Shibuya station
    expect(zonesAt({ latitude: 35.6896, longitude: 139.7006 })).toEqual(["ward-shinjuku"]) // Shinjuku station
    expect(zonesAt({ latitude: 35.7295, longitude: 139.7109 })).toEqual(["ward-toshima"]) // Ikebukuro station
    expect(zonesAt(KICHIJOJI)).toEqual(["ward-musashino"])
    expect([NIHONBASHI, CHOFU, HND].map(zonesAt)).toEqual([[], [], []])
  })
  it("HND → Tokyo Station (Marunouchi, Chiyoda) on 2026-12-08 11:00 is the 2026 Chiyoda fixed fare ¥7,600 (the meter gave ¥7,900)", () => {
    // Meter for 18 km: 500 + ⌈17 / 0.232⌉ = 74 units × ¥100 = ¥7,900; the Chiyoda fixed fare (day) is ¥7,600.
    const [offer] = tripsOf(market, 18, 30).offers(HND, MARUNOUCHI, "2026-12-08T11:00:00+09:00")
    expect(offer?.source?.fare).toBe("Haneda fixed fare, 千代田区 Chiyoda")
    expect([offer?.distribution.quantile(0.05), offer?.distribution.quantile(0.95)]).toEqual([7600, 7600])
  })
  it("HND → Tokyo Station (Marunouchi) on 2024-01-10 11:00 is the 2022 Chiyoda fixed fare ¥6,900 (the meter gave ¥7,200)", () => {
    // 2022 meter for 18 km: 500 + ⌈16.904 / 0.255⌉ = 67 units × ¥100 = ¥7,200; the 2022 table's Chiyoda (day) is ¥6,900.
    const [offer] = tripsOf(market, 18, 30).offers(HND, MARUNOUCHI, "2024-01-10T11:00:00+09:00")
    expect([offer?.distribution.quantile(0.05), offer?.distribution.quantile(0.95)]).toEqual([6900, 6900])
  })
  it("other wards: HND → Ebisu (Shibuya) ¥8,500 and HND → Kichijoji (Musashino) ¥14,000 by day on 2026-12-08; Ebisu ¥10,000 at 23:30", () => {
    const ebisu = tripsOf(market, 16, 30).price(HND, EBISU, "2026-12-08T11:00:00+09:00")
    expect(ebisu).toEqual([[8500, 8500]])
    expect(tripsOf(market, 16, 25).price(HND, EBISU, "2026-12-08T23:30:00+09:00")).toEqual([[10000, 10000]])
    expect(tripsOf(market, 35, 50).price(HND, KICHIJOJI, "2026-12-08T11:00:00+09:00")).toEqual([[14000, 14000]])
  })
  it("metered where no fixed fare applies: HND → Chofu (outside the 23 wards) and HND → Nihonbashi (Chuo, no fixed fare)", () => {
    // Chofu, 25 km: 500 + ⌈24 / 0.232⌉ = 104 units → at least ¥10,900 on the 2026 meter (no slow time).
    const [chofu] = tripsOf(market, 25, 40).offers(HND, CHOFU, "2026-12-08T11:00:00+09:00")
    expect(chofu?.source?.fare).toBeUndefined()
    expect(chofu?.distribution.quantile(0.05)).toBeGreaterThanOrEqual(10900)
    // Nihonbashi, 17 km: 500 + ⌈16 / 0.232⌉ = 69 units → at least ¥7,400.
    const [nihonbashi] = tripsOf(market, 17, 30).offers(HND, NIHONBASHI, "2026-12-08T11:00:00+09:00")
    expect(nihonbashi?.source?.fare).toBeUndefined()
    expect(nihonbashi?.distribution.quantile(0.05)).toBeGreaterThanOrEqual(7400)
  })
})

describe("Tokyo: trips before the first rule (2017-01-30) are refused (audit G1)", () => {
  it("the fare before (¥730 for the first 2 km, reports of 2016–2017) differed: no-rule-for-date", () => {
    expect(tripsOf(market, 18, 30).offers(HND, MARUNOUCHI, "2016-06-07T11:00:00+09:00")).toEqual([])
    expect(tripsOf(market, 18, 30).offers(HND, MARUNOUCHI, "2017-01-30T11:00:00+09:00")).toHaveLength(1)
  })
})

describe("Tokyo: the fixed fare to Haneda needs a booking (audit F11, caveat only)", () => {
  it("every offer of the 2022 and 2026 versions says the fixed fare holds from Haneda's stands or for a booked taxi, a hailed taxi charging the meter", () => {
    for (const at of ["2024-01-10T23:30:00+09:00", "2026-12-08T23:30:00+09:00"]) {
      const [offer] = tripsOf(market, 18, 25).offers(MARUNOUCHI, HND, at)
      const evidence = offer?.source?.level?.evidence ?? ""
      expect(evidence).toContain("booked in advance by phone or through the GO app")
      expect(evidence).toContain("a hailed taxi charges the meter")
    }
  })
})
