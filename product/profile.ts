/**
 * The farm back-office's product rules that the runtime applies without knowing them
 * (runtime/services/contract.ts, ProductProfile). The app hands this profile to the
 * console (runtime/app/services.ts); schemas:check reads the public paths from it too.
 */
import type { ProductProfile } from '../runtime/services/contract.ts';

export const productProfile: ProductProfile = {
  // The old console's entry for administrators, besides the runtime's own login and start pages.
  publicPaths: ['/adminManagement'],
  // Articles readable before login (spec 2.1).
  publicPathFragments: ['articleDetailBeforeLogin', 'searchArticleBeforeLogin'],
  noticePath: '/agricultureKnowledge/notice',
  // Spec section 4: land management and planting management need a farm. The original
  // named them by their Chinese titles; here by their authority codes, which do not change
  // with the language.
  menuCodesHiddenWithoutFarm: ['landManagement', 'plantManagement'],
};
