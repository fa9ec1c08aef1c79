/** The trip-record layouts `market fit` reads (a module of its own: the command line needs only the names). */
export const SOURCE_FORMATS = ["nyc-tlc", "chicago"] as const
/** A trip-record layout `market fit --format` accepts. */
export type SourceFormat = (typeof SOURCE_FORMATS)[number]

/** Every layout `market fit` and `market evaluate` take: the taxi trip formats and ride-hail price records. */
export const FIT_FORMATS = [...SOURCE_FORMATS, "ride-hail", "nyc-hvfhv"] as const
/** One layout of `FIT_FORMATS`. */
export type FitFormat = (typeof FIT_FORMATS)[number]
