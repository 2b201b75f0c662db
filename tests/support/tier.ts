/**
 * What `npm test` runs of a matrix and what `npm run test:full` (TEST_FULL=1) runs (README,
 * "Tests"). A browser test repeated per language or per window width proves one behaviour
 * in each: `npm test` runs the first variant as written (Chinese first, the desktop width),
 * the full run every variant. Texts of every language are checked apart from the browser
 * (the catalogues' completeness, the schemas' three languages), so a variant left to the
 * full run loses a second rendering of the same behaviour, not the behaviour.
 */
export const FULL_RUN = process.env.TEST_FULL === '1';

/** All of `all` in a full run; its first in `npm test`. */
export function variants<T>(all: readonly T[]): readonly T[] {
  return FULL_RUN ? all : all.slice(0, 1);
}
