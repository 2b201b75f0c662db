import { Tag, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { organisationKind, type UserInfo } from '../../session/user-info.ts';

/**
 * The organisation label of spec section 1 (by farmType; without an organisation, by the
 * account's kind: customer agent, technician, platform; only a group set: service
 * provider). A solid tag in the theme's primary colour: white on it reads at 5:1, where
 * antd's light green preset read at 3.37:1.
 */
/** The label's text, for the accessible name of the button that shows it; null without a label. */
export function organisationLabelText(info: UserInfo, t: (key: string) => string): string | null {
  const kind = organisationKind(info);
  return kind ? t(`org.${kind}`) : null;
}

export function OrganisationLabel({ info }: { info: UserInfo }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const kind = organisationKind(info);
  if (!kind) return null;
  return (
    <Tag color={token.colorPrimary} data-testid="org-label" data-kind={kind}>
      {t(`org.${kind}`)}
    </Tag>
  );
}
