/** Spec section 9: the notice badge shows at most 10. */
export const NOTICE_BADGE_MAX = 10;

/** Spec section 4: 0 shows no badge; above the maximum it reads "10+". */
export function badgeText(count: number, max = NOTICE_BADGE_MAX): string | null {
  if (!Number.isFinite(count) || count <= 0) return null;
  return count > max ? `${max}+` : String(Math.floor(count));
}
