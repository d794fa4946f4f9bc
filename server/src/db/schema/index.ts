// The one list drizzle-kit and the db handle read. (The only barrel file: drizzle needs the whole schema in one object.)
export * from './dictionaries.ts';
export * from './users.ts';
export * from './services.ts';
export * from './entries.ts';
export * from './documents.ts';
export * from './templates.ts';
export * from './publications.ts';
export * from './payments.ts';
export * from './logs.ts';
export * from './jobs.ts';
export * from './events.ts';
export * from './settings.ts';
export * from './bank-statements.ts';
export * from './personal-data.ts';
export * from './telegram.ts';
