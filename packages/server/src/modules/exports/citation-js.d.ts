/** The part of citation-js (which ships no types) the citations use. */
declare module '@citation-js/core' {
  export class Cite {
    constructor(data: unknown);
    format(format: string, options?: Record<string, unknown>): string | unknown;
  }
  export const plugins: { config: { get(name: string): unknown } };
}
declare module '@citation-js/plugin-csl';
declare module '@citation-js/plugin-ris';
declare module '@citation-js/plugin-bibtex';
