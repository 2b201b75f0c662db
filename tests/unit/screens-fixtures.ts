/** The fixtures live in tools/render-check/ (shared with the studio's render check); this name stays for the tests. */
export * from '../../tools/render-check/fixtures.ts';
