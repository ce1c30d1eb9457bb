/** autocannon ships no types (its @types package lags its major versions); the benchmarks read only a result's numbers. */
declare module 'autocannon';
