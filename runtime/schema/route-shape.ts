/** A route pattern with its parameters blanked: two routes of one shape claim the same URLs. */
export function routeShape(pattern: string): string {
  return pattern
    .split('/')
    .map((s) => (s.startsWith(':') ? (s.endsWith('?') ? ':?' : ':') : s.toLowerCase()))
    .join('/');
}
