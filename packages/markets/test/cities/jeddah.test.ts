/**
 * Jeddah (Transport General Authority public taxi fare of 2022-03-13, from the tariff alone):
 * the national rule (saudi-taxi.ts) on Jeddah's file, and JED on the city meter.
 */
import { saudiTaxiFare } from "./saudi-taxi.js"

saudiTaxiFare({ id: "jeddah", name: "Jeddah", iata: "JED", airport: { latitude: 21.6796, longitude: 39.1565 } })
