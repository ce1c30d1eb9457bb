import type { en } from './en.js';
import type { publicEn } from './public.en.js';

/** Same shape as the English catalogue, every leaf a string. */
type Shape<T> = { [K in keyof T]: T[K] extends string ? string : Shape<T[K]> };
export type Messages = Shape<typeof en>;
/** The public pages' part of the catalogue (public.en.ts). */
export type PublicMessages = Shape<typeof publicEn>;
/** Namespaces of the public pages' part. */
export type PublicNamespace = keyof PublicMessages;
