/**
 * The API tests' factories: the one way a test makes the people, records, reviews and orders it
 * needs. People are made as an operator makes them (no captcha, no mail) and signed in; records are
 * written as the portal holds them in their status (with their other-language version, their files'
 * bytes in the portal's store, and the parts only the exports show), and every derived view (search
 * index, OAI-PMH feed) is brought in step in the same transaction, as the writing calls do. What a
 * test checks of the API itself it still does through the API.
 *
 * factories/users.ts (people), records.ts (records, catalogues), files.ts (data files, thumbnails),
 * extras.ts (the exports' optional parts), reviews.ts, orders.ts, people-and-funds.ts (people linked to a record in other roles, funds, programmes).
 */
export * from './factories/users.js';
export * from './factories/records.js';
export * from './factories/files.js';
export * from './factories/extras.js';
export * from './factories/reviews.js';
export * from './factories/orders.js';
export * from './factories/people-and-funds.js';
