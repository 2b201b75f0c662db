import type { FastifyRequest } from 'fastify';
import type { SessionUser } from '../auth/session-user.ts';
import { can, type Authority } from '../../runtime/access/can.ts';
import { requireCan } from '../http/guard.ts';

export type { Authority } from '../../runtime/access/can.ts';

/**
 * Who may call the account and organisation calls: a menu code to reach the call, and
 * for a write an element code too. Where two screens lead to one call (the platform's
 * user manager and a farm's people screen, say) either pair suffices. Codes alone decide;
 * the platform flag only widens the scope (server/legacy/scope.ts).
 */
export type Action = 'add' | 'edit' | 'delete';

export const authority = {
  users: { menus: ['userManager'] },
  userWrite: (a: Action | 'status' | 'resetPassword'): Authority => ({ menus: ['userManager'], elements: [`userManager:${a}`] }),

  /**
   * A farm's people: the farm's own people screen (basicInfo/farmPeopleMangement) and the
   * provider's multi-farm screen reach them as well as the user manager.
   */
  farmPeople: { menus: ['userManager', 'farmPeopleMangement', 'multiFarm'] },
  farmPeopleWrite: (a: Action): Authority => ({
    menus: ['userManager', 'farmPeopleMangement', 'multiFarm'],
    elements: [`userManager:${a}`, `farmPeopleMangement:${a}`, `multiFarmIndex:${a}`],
  }),

  /** Farms and blocs: the provider's multi-farm screen or the user manager. */
  farms: { menus: ['multiFarm', 'userManager'] },
  farmWrite: (a: Action): Authority => ({ menus: ['multiFarm', 'userManager'], elements: [`multiFarmIndex:${a}`, `userManager:${a}`] }),
  /** A farm's own information: also from the farm's basic-information screens. */
  farmInfoWrite: {
    menus: ['basicInfo', 'multiFarm', 'userManager'],
    elements: ['farmPeopleMangement:edit', 'multiFarmIndex:edit', 'userManager:edit'],
  },

  manufacturers: { menus: ['fertilizerFactory', 'userManager'] },

  customerAgents: { menus: ['customerAgent'] },
  customerAgentWrite: (a: Action): Authority => ({ menus: ['customerAgent'], elements: [`customerAgentIndex:${a}`] }),

  groupCustomers: { menus: ['groupCustomer'] },
  groupCustomerWrite: (a: Action): Authority => ({ menus: ['groupCustomer'], elements: [`groupCustomerIndex:${a}`] }),

  /** Reading someone else's business pages (spec 7.3). */
  businessOfOthers: { menus: ['userManager', 'customerAgent', 'groupCustomer', 'multiFarm'] },
} as const;

export function holds(user: SessionUser, a: Authority): boolean {
  return can(user, a);
}

/** The caller, or 40301 unless they hold `a`. */
export function requireAuthority(req: FastifyRequest, a: Authority): SessionUser {
  return requireCan(req, a);
}
