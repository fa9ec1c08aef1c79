/** Types of trips.mjs for the tests that import it. */
export declare const render: () => string
