/**
 * The page query's size limits, in a module of their own so that the console's screens
 * can read them without loading resource.ts (which carries the resource validation).
 */
export const MAX_PAGE_SIZE = 500;
export const DEFAULT_PAGE_SIZE = 20;
