/**
 * The protocol between the console and the server (docs/architecture.md, "Protocol"):
 * React-free and free of Node APIs, imported by both sides.
 */
export * from './calls.ts';
export * from './devices.ts';
export * from './envelope.ts';
export * from './operations.ts';
export * from './page.ts';
export * from './status.ts';
export * from './texts.ts';
