import { BellOutlined } from '@ant-design/icons';
import { Badge } from 'antd';
import { useAtomValue } from 'jotai';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router-dom';
import { onResourceChanged } from '../../screens/data-events.ts';
import { userInfoAtom } from '../../session/atoms.ts';
import { useShellApi } from '../hooks.ts';
import { useServices } from '../../services/context.ts';
import { noticeCountVersionAtom } from '../state/atoms.ts';
import { badgeText, NOTICE_BADGE_MAX } from './badge-text.ts';

/** Other sessions and senders change the count too; a minute keeps it fresh without chatter. */
export const NOTICE_POLL_MS = 60_000;

/** The data set a screen announces after changing notices (a call action's `announces`). */
export const NOTICE_DATA_SET = 'notices';

/**
 * The unread-notice badge (spec 2.6, 4, 7.3): hidden at 0, "10+" above 10, linking to the
 * notice screen. Re-read on a refresh request (refreshNoticeCountAtom), whenever the user
 * goes to or leaves the notice screen, and every minute. A failed read keeps the last count.
 */
export function NoticeBadge() {
  const { t } = useTranslation();
  const api = useShellApi();
  const info = useAtomValue(userInfoAtom);
  const version = useAtomValue(noticeCountVersionAtom);
  const { pathname } = useLocation();
  const noticePath = useServices().profile.noticePath;
  const onNotices = pathname === noticePath || pathname.startsWith(noticePath + '/');
  const [count, setCount] = useState(0);
  const latest = useRef(0);
  const userId = info?.id;
  // A screen that marked notices read announces it (schema actions' `announces`).
  const [announced, setAnnounced] = useState(0);
  useEffect(() => onResourceChanged((name) => name === NOTICE_DATA_SET && setAnnounced((n) => n + 1)), []);

  useEffect(() => {
    if (userId === undefined || userId === '') return;
    let alive = true;
    const read = () => {
      const ticket = ++latest.current;
      api.unreadNotices(userId).then(
        (n) => alive && ticket === latest.current && setCount(n),
        () => undefined,
      );
    };
    read();
    const timer = setInterval(read, NOTICE_POLL_MS);
    return () => {
      alive = false;
      clearInterval(timer);
    };
  }, [api, userId, version, onNotices, announced]);

  const text = badgeText(count);
  const label = text ? t('shell.notices.unread', { count: text }) : t('shell.notices.none');
  return (
    <Link to={noticePath} aria-label={label} title={label} data-testid="notice-badge" data-count={count} style={{ display: 'inline-flex', alignItems: 'center', padding: '0 8px', color: 'inherit' }}>
      {/* Nothing at 0 (spec 4): no badge element at all, not an empty one fading out. */}
      {text ? (
        <Badge count={count} overflowCount={NOTICE_BADGE_MAX} size="small">
          <BellOutlined style={{ fontSize: 18 }} aria-hidden />
        </Badge>
      ) : (
        <BellOutlined style={{ fontSize: 18 }} aria-hidden />
      )}
    </Link>
  );
}
