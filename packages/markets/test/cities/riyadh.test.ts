/**
 * Riyadh (Transport General Authority public taxi fare of 2022-03-13, from the tariff alone):
 * the national rule (saudi-taxi.ts) on Riyadh's file, and RUH on the city meter.
 */
import { saudiTaxiFare } from "./saudi-taxi.js"

saudiTaxiFare({ id: "riyadh", name: "Riyadh", iata: "RUH", airport: { latitude: 24.9576, longitude: 46.6988 } })
