import { useAtomValue } from 'jotai';
import { Navigate } from 'react-router-dom';
import { loginUrl } from '../../routing/access.ts';
import { tokenAtom } from '../../session/atoms.ts';

/** Where /adminManagement leads: the user administration, through the login page when there is no session. */
export const ADMIN_HOME = '/baseManager/userManager';

/**
 * /adminManagement: the administrators' entry of the old console. Reachable without a token
 * (spec 2.1): without a session it is the login page, which then opens the administration;
 * with one, the administration at once (whose screens check the codes as always).
 */
export function AdminEntryPage() {
  const token = useAtomValue(tokenAtom);
  return <Navigate to={token ? ADMIN_HOME : loginUrl(ADMIN_HOME)} replace />;
}
