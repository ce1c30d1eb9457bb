import { z } from 'zod';

/** The DRF page every list call answers: `next` / `previous` are links that keep the caller's other parameters. */
const pageFields = {
  count: z.number(),
  next: z.string().nullable(),
  previous: z.string().nullable(),
};

/** The reply schema of a list of `item`. */
export const pageOf = <T extends z.ZodType>(item: T) => z.object({ ...pageFields, results: z.array(item) });

/** A page of `T`, for calls typed by a row type (the generic attached resources). */
export type Page<T> = z.infer<z.ZodObject<typeof pageFields>> & { results: T[] };
