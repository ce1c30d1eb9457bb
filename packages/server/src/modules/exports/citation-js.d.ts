/** The part of citation-js (which ships no types) the citations and their tests use. */
declare module '@citation-js/core' {
  export class Cite {
    constructor(data: unknown);
    /** Reads `data` (the tests read the exports back with it); `forceType` skips guessing its format. */
    static async(data: unknown, options?: { forceType?: string }): Promise<Cite>;
    data: unknown[];
    format(format: string, options?: Record<string, unknown>): string | unknown;
  }
  export const plugins: {
    config: { get(name: string): unknown };
    input: { chain(data: unknown, options: { forceType?: string; target?: string; generateGraph?: boolean }): unknown };
  };
}
declare module '@citation-js/plugin-csl';
declare module '@citation-js/plugin-ris';
declare module '@citation-js/plugin-bibtex';
