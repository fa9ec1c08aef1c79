// The trips of the published-fare comparisons in docs/markets-basis.md ("Comparisons with published
// fares", airport cities): one backtest line each. Regenerate: node tools/markets/published/trips.mjs
import { writeFileSync } from "node:fs"
import { pathToFileURL } from "node:url"
const P = (latitude, longitude) => ({ latitude, longitude })
const KM_MI = 1.609344
const at24 = (km) => Math.round((km / 24) * 60 * 10) / 10 // minutes at 24 km/h
const pl = {
  atlEmory: P(33.7925, -84.324), atlWestEnd: P(33.737, -84.413), ATL: P(33.6407, -84.4277), atlFivePoints: P(33.7539, -84.3916), atlArts: P(33.7893, -84.3871), atlLenox: P(33.8462, -84.3621),
  dubOConnell: P(53.3498, -6.2603), dubUcd: P(53.3065, -6.223),
  fraBockenheimerWarte: P(50.1203, 8.6524), fraHbf: P(50.1071, 8.6638),
  klSentral: P(3.134, 101.6862), klcc: P(3.1579, 101.7123), klBangsarBaru: P(3.13, 101.6705), klPetalingJaya: P(3.1031, 101.6442),
  mnlAyala: P(14.5547, 121.0244), mnlRockwell: P(14.5649, 121.0363),
  mucMarienplatz: P(48.1374, 11.5755), mucFreiheit: P(48.1616, 11.5864), MUC: P(48.3538, 11.781), mucHbf: P(48.1402, 11.56), mucMesse: P(48.1365, 11.696),
  mcoDowntown: P(28.5421, -81.379), mcoCollegePark: P(28.57, -81.39),
  selJonggak: P(37.5702, 126.9831), selSinsa: P(37.5163, 127.0203), selGangnam: P(37.4979, 127.0276),
  shaPeoplesSquare: P(31.2304, 121.4737), shaXujiahui: P(31.195, 121.4365),
  MEX: P(19.4363, -99.0721), mexAlbercaOlimpica: P(19.3795, -99.1664),
  DEN: P(39.8493, -104.6738), denUnionStation: P(39.7527, -105.0002), denCivicCenter: P(39.7392, -104.9873), denDtc: P(39.6105, -104.8905), denPearlStreet: P(40.0176, -105.2797), denTowerRoad: P(39.7775, -104.7735),
  ATH: P(37.9364, 23.9445), athSyntagma: P(37.9755, 23.7348),
  BCN: P(41.2971, 2.0785), bcnPort: P(41.3505, 2.1725),
  LAS: P(36.0843, -115.1537), lasMandalayBay: P(36.0909, -115.1761), lasBellagio: P(36.1126, -115.1767), lasWynn: P(36.1265, -115.1657),
  LAX: P(33.9425, -118.4081), laxPershingSquare: P(34.0485, -118.2529),
  MXP: P(45.627, 8.7115), LIN: P(45.456, 9.278), BGY: P(45.6689, 9.7003), milFiera: P(45.52, 9.087), milDuomo: P(45.4642, 9.19),
  CDG: P(49.0045, 2.5715), ORY: P(48.7233, 2.3593), parOpera: P(48.8719, 2.3316), parMontparnasse: P(48.8422, 2.3211),
  SEA: P(47.4435, -122.3016), seaWestlake: P(47.6114, -122.337),
  GRU: P(-23.4322, -46.4692), spPinheiros: P(-23.5614, -46.6937), mexCondesa: P(19.4115, -99.174),
  FCO: P(41.8003, 12.2389), CIA: P(41.799, 12.5946), romPantheon: P(41.8986, 12.4769), romTermini: P(41.9009, 12.501),
  MAD_T4: P(40.491479, -3.594074), madSol: P(40.4169, -3.7035)
}
const t = (id, from, to, at, km, minutes) => ({ id, pickup: pl[from], destination: pl[to], at, ...(km === undefined ? {} : { distanceKm: Math.round(km * 1000) / 1000, durationMinutes: minutes ?? at24(km) }) })
const trips = [
  // metered examples
  t("atlanta-10mi", "atlEmory", "atlWestEnd", "2023-06-06T11:00:00-04:00", 10 * KM_MI),
  t("atlanta-10mi-2022", "atlEmory", "atlWestEnd", "2022-06-07T11:00:00-04:00", 10 * KM_MI),
  t("dublin-2022-day", "dubOConnell", "dubUcd", "2022-09-06T11:00:00+01:00", 10.5),
  t("dublin-2022-night", "dubOConnell", "dubUcd", "2022-09-06T22:00:00+01:00", 10.5),
  t("dublin-2018-day", "dubOConnell", "dubUcd", "2018-02-06T11:00:00+00:00", 10.5),
  t("dublin-2018-night", "dubOConnell", "dubUcd", "2018-02-06T22:00:00+00:00", 10.5),
  t("frankfurt-bockenheimer", "fraBockenheimerWarte", "fraHbf", "2023-01-17T11:00:00+01:00", 2.2, 7),
  t("kl-10km", "klSentral", "klcc", "2015-10-06T11:00:00+08:00", 10),
  t("kl-bangsar", "klSentral", "klBangsarBaru", "2015-03-19T11:00:00+08:00"),
  t("kl-pj", "klSentral", "klPetalingJaya", "2015-03-19T11:00:00+08:00"),
  t("manila-1.7km", "mnlAyala", "mnlRockwell", "2018-08-07T11:00:00+08:00", 1.7, 5),
  t("munich-10km-2022", "mucMarienplatz", "mucFreiheit", "2022-06-07T11:00:00+02:00", 10),
  t("orlando-10mi", "mcoDowntown", "mcoCollegePark", "2012-04-24T11:00:00-04:00", 10 * KM_MI),
  t("seoul-sinsa-2023", "selJonggak", "selSinsa", "2023-02-07T11:00:00+09:00", 7, 20),
  t("seoul-sinsa-2019fare", "selJonggak", "selSinsa", "2023-01-17T11:00:00+09:00", 7, 20),
  t("seoul-gangnam-night", "selJonggak", "selGangnam", "2023-02-07T23:30:00+09:00", 10, 20),
  t("shanghai-15km-2022", "shaPeoplesSquare", "shaXujiahui", "2022-01-18T11:00:00+08:00", 15, 30),
  t("shanghai-15km-2015fare", "shaPeoplesSquare", "shaXujiahui", "2022-01-04T11:00:00+08:00", 15, 30),
  t("shanghai-15km-peak", "shaPeoplesSquare", "shaXujiahui", "2022-01-18T08:00:00+08:00", 15, 30),
  t("mexico-aicm-alberca", "MEX", "mexAlbercaOlimpica", "2026-03-11T11:00:00-06:00"),
  t("mexico-aicm-condesa", "MEX", "mexCondesa", "2025-10-14T11:00:00-06:00"),
  t("seattle-2012-sea-downtown", "SEA", "seaWestlake", "2012-07-31T11:00:00-07:00"),
  t("saopaulo-2012-gru-pinheiros", "GRU", "spPinheiros", "2012-05-22T11:00:00-03:00"),
  t("denver-2018-den-downtown", "DEN", "denUnionStation", "2018-04-03T11:00:00-06:00"),
  // fixed-fare tables
  t("denver-A", "DEN", "denUnionStation", "2023-06-06T11:00:00-06:00"),
  t("denver-B", "DEN", "denDtc", "2023-06-06T11:00:00-06:00"),
  t("denver-C", "DEN", "denPearlStreet", "2023-06-06T11:00:00-06:00"),
  t("denver-D", "DEN", "denTowerRoad", "2023-06-06T11:00:00-06:00"),
  t("denver-AA", "denUnionStation", "denCivicCenter", "2023-06-06T11:00:00-06:00"),
  t("athens-day", "ATH", "athSyntagma", "2022-07-05T11:00:00+03:00"),
  t("athens-night", "athSyntagma", "ATH", "2022-07-05T02:00:00+03:00"),
  t("atlanta-downtown", "ATL", "atlFivePoints", "2023-06-06T11:00:00-04:00"),
  t("atlanta-midtown", "atlArts", "ATL", "2023-06-06T11:00:00-04:00"),
  t("atlanta-buckhead", "ATL", "atlLenox", "2023-06-06T11:00:00-04:00"),
  t("barcelona-t4-2026", "BCN", "bcnPort", "2026-01-20T11:00:00+01:00"),
  t("barcelona-t4-2025", "bcnPort", "BCN", "2025-03-04T11:00:00+01:00"),
  t("lasvegas-z1-from", "LAS", "lasMandalayBay", "2023-06-07T11:00:00-07:00"),
  t("lasvegas-z1-to", "lasMandalayBay", "LAS", "2023-06-07T11:00:00-07:00"),
  t("lasvegas-z2-to", "lasBellagio", "LAS", "2023-06-07T11:00:00-07:00"),
  t("lasvegas-z3-to", "lasWynn", "LAS", "2023-06-07T11:00:00-07:00"),
  t("lasvegas-f1-z1-from", "LAS", "lasMandalayBay", "2023-11-17T15:00:00-08:00"),
  t("lasvegas-f1-z2-from", "LAS", "lasBellagio", "2023-11-17T15:00:00-08:00"),
  t("lasvegas-f1-z3-to", "lasWynn", "LAS", "2023-11-17T15:00:00-08:00"),
  t("la-from-lax", "LAX", "laxPershingSquare", "2015-07-21T11:00:00-07:00"),
  t("la-to-lax", "laxPershingSquare", "LAX", "2015-07-21T11:00:00-07:00"),
  t("milan-mxp-2024", "milDuomo", "MXP", "2024-07-02T11:00:00+02:00"),
  t("milan-lin-mxp-2024", "LIN", "MXP", "2024-07-02T11:00:00+02:00"),
  t("milan-lin-fiera-2024", "milFiera", "LIN", "2024-07-02T11:00:00+02:00"),
  t("milan-bgy-2024", "BGY", "milDuomo", "2024-07-02T11:00:00+02:00"),
  t("milan-mxp-2023", "MXP", "milDuomo", "2023-07-04T11:00:00+02:00"),
  t("milan-mxp-fiera-2023", "MXP", "milFiera", "2023-07-04T11:00:00+02:00"),
  t("munich-muc-hbf", "MUC", "mucHbf", "2025-01-07T11:00:00+01:00"),
  t("munich-muc-messe", "mucMesse", "MUC", "2025-01-07T11:00:00+01:00"),
  t("munich-messe-hbf", "mucHbf", "mucMesse", "2025-01-07T11:00:00+01:00"),
  t("paris-cdg-rd", "CDG", "parOpera", "2023-02-07T11:00:00+01:00"),
  t("paris-cdg-rg", "parMontparnasse", "CDG", "2023-02-07T11:00:00+01:00"),
  t("paris-ory-rd", "ORY", "parOpera", "2023-02-07T11:00:00+01:00"),
  t("paris-ory-rg", "parMontparnasse", "ORY", "2023-02-07T11:00:00+01:00"),
  t("rome-fco-2025", "FCO", "romPantheon", "2025-09-16T11:00:00+02:00"),
  t("rome-cia-2025", "romTermini", "CIA", "2025-09-16T11:00:00+02:00"),
  t("rome-fco-2024-01", "FCO", "romPantheon", "2024-01-16T11:00:00+01:00"),
  t("rome-cia-2024-01", "romTermini", "CIA", "2024-01-16T11:00:00+01:00"),
  t("rome-fco-2012", "FCO", "romPantheon", "2012-10-17T11:00:00+02:00"),
  t("madrid-mad-2015", "MAD_T4", "madSol", "2015-05-12T11:00:00+02:00"),
  t("madrid-mad-2026", "madSol", "MAD_T4", "2026-12-08T11:00:00+01:00"),
]
/** The text of trips.jsonl: one backtest line per trip (tools/test/published-trips.test.ts compares it). */
export const render = () => trips.map((x) => JSON.stringify(x)).join("\n") + "\n"

// Run as a script (not imported by the test): write trips.jsonl.
if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  writeFileSync(new URL("./trips.jsonl", import.meta.url), render())
  console.log(`${trips.length} trips`)
}
