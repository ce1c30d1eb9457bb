export * from './domain/constants.js';
export * from './domain/language.js';
export * from './domain/roles.js';
export * from './rules/navigation.js';
export * from './i18n/index.js';
export * from './contracts/account.js';
export * from './domain/metadata.js';
export * from './rules/submission.js';
