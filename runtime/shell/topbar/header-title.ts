/** True when the user's city is the configured northern city (spec section 1). */
export function showsHeaderTitle(city: string | null | undefined, configuredCity: string | null | undefined): boolean {
  return !!city && !!configuredCity && city.trim() === configuredCity.trim();
}
