/** A section root's route: on to the child the user may open (spec §2.4), or the 401 page when none. */
import { useAtomValue } from 'jotai';
import { Navigate, useLocation } from 'react-router-dom';
import { sectionTarget, type SectionRoot } from '../routing/section-roots.ts';
import { menuCodesAtom } from '../session/atoms.ts';
import { UnauthorizedPage } from '../shell/pages/UnauthorizedPage.tsx';

export function SectionRootRedirect({ root }: { root: SectionRoot }) {
  const codes = useAtomValue(menuCodesAtom);
  const { search } = useLocation();
  const target = sectionTarget(root, codes);
  if (!target) return <UnauthorizedPage embedded />;
  return <Navigate to={target + search} replace />;
}
