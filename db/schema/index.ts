export * from './users.ts';
export * from './catalogue.ts';
export * from './market.ts';
export * from './commerce.ts';
export * from './offers.ts';
export * from './discovery.ts';
export * from './jobs.ts';
