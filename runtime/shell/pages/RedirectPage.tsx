import { Navigate, useLocation, useParams } from 'react-router-dom';

/**
 * /redirect/:path*: the original console's reload helper. Visiting /redirect/x/y?q replaces
 * the entry with /x/y?q, so the page there mounts afresh. The tab strip's Refresh no longer
 * needs the round trip (a tab's view is remounted under a new generation, tabs/tab-list.ts);
 * the route stays for links and bookmarks that use it.
 */
export function RedirectPage() {
  const rest = useParams()['*'] ?? '';
  const { search, hash } = useLocation();
  // Only a path of this console: `//host` or `/\host` must not leave it.
  const path = `/${rest.replace(/^[/\\]+/, '')}`;
  return <Navigate to={`${path}${search}${hash}`} replace />;
}
